"""The static site's test build (``tests/browser/test_static_site_browser.py``), started in the
background as the test session starts: cold (a clean clone: nothing compiled in the mirror) it takes
over a minute, mostly Chromium compiling the wheels, which the other test files' waits leave room
for. The session's first process starts it (xdist's controller, or pytest alone); the worker that
runs the static site's tests waits for it, or builds it itself when nothing started it."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_FILE = ROOT / "tests" / "browser" / "test_static_site_browser.py"
PAGES = "index,lesson,puzzles,review,analysis,career"  # the pages the tests visit (the CLI builds them all)
MIRROR = ROOT / ".cache" / "site-build" / "mirror"  # the checkout's own, made by scripts/setup.sh
FOLDER = "static-site"  # in the session's base temporary folder: the site, its log and exit status


def build_command(out: pathlib.Path) -> list[str]:
    build = [sys.executable, "-m", "trainer.cli", "site", "build", str(out)]
    return [*build, "--pages", PAGES, "--mirror", str(MIRROR)]


def _runs_the_site_tests(config) -> bool:
    """Whether the session's arguments take in the static site's test file, unfiltered (a run
    narrowed by -k, -m or --deselect builds it when it gets there, if it does)."""
    option = config.option
    if option.keyword or option.markexpr or getattr(option, "deselect", None) or option.collectonly:
        return False
    import pytest

    given = config.args_source is not pytest.Config.ArgsSource.TESTPATHS
    base = config.invocation_params.dir if given else config.rootpath
    for argument in config.args:
        path = pathlib.Path(base, argument.split("::")[0]).resolve()
        if path == TEST_FILE or path in TEST_FILE.parents:
            return True
    return False


def start(config) -> None:
    """In the session's first process: the build, in the background, into ``FOLDER``."""
    if hasattr(config, "workerinput") or not _runs_the_site_tests(config):
        return
    place = config._tmp_path_factory.getbasetemp() / FOLDER
    place.mkdir()
    log = open(place / "build.log", "w")  # noqa: SIM115 (closed when the build ends)
    process = subprocess.Popen(
        build_command(place / "site"),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # stopped with its Chromium when the session ends first
    )
    started = time.monotonic()

    def note_the_end() -> None:
        code = process.wait()
        log.close()
        (place / "status.partial").write_text(f"{code} {time.monotonic() - started:.0f}")
        (place / "status.partial").replace(place / "status")

    threading.Thread(target=note_the_end, daemon=True).start()
    config._early_site_build = process


def stop(config) -> None:
    """At the session's end: a build still running is stopped (the tests that wanted it did not run)."""
    process = getattr(config, "_early_site_build", None)
    if process is not None and process.poll() is None:
        os.killpg(process.pid, 15)
        process.wait()


def started_build(tmp_path_factory) -> pathlib.Path | None:
    """The background build's folder, if the session's first process started one."""
    base = tmp_path_factory.getbasetemp()
    place = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / FOLDER
    return place if place.is_dir() else None


def wait_for(place: pathlib.Path) -> tuple[int, str, str]:
    """The build's exit status, seconds taken and log, once it has ended."""
    deadline = time.monotonic() + 30 * 60
    while not (place / "status").is_file():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the site build in {place} did not end within 30 minutes")
        time.sleep(0.5)
    code, seconds = (place / "status").read_text().split()
    return int(code), seconds, (place / "build.log").read_text(errors="replace")
