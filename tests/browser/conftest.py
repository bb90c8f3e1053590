"""Browser tests: Debian's Chromium, driven by Playwright, against `marimo run` of the demo and
`python -m trainer.serve` of the lessons (which lets in only an address with its token:
`signed_in(url)` is the address scripts/start.sh prints).

They fail (never skip) when the browser is missing: `scripts/setup.sh` installs it.
"""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from trainer.server_guard import TOKEN_PARAM
from trainer.server_token import ENV_VAR

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = pathlib.Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
# Without the background-networking flags Chromium keeps dialling a network it cannot reach.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# An assertion waits as long as a page action does: marimo's pages run their cells after the page
# loads (pandas and Altair on the review page), which takes more than Playwright's 5 s on a busy
# 2-core machine.
expect.set_options(timeout=20_000)
BOT_DELAY = "0.12"  # seconds before each bot card: short, but still one card at a time
SERVER_TOKEN = "browser-tests-token-7f3a9c"  # given to every server the tests start


def signed_in(url: str) -> str:
    """URL with the server's token, as start.sh prints it: the server answers with a cookie and URL
    without the token, and the cookie lets the rest of the browser context in."""
    return url + ("&" if "?" in url else "?") + urlencode({TOKEN_PARAM: SERVER_TOKEN})


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(target: str, log_name: str, extra_env: dict[str, str] | None = None):
    """`marimo run TARGET` on a free port, yielding its URL; stopped with its children afterwards."""
    marimo = pathlib.Path(sys.executable).with_name("marimo")
    yield from _serve_command([str(marimo), "run", target, "--headless"], log_name, extra_env)


def _serve_command(command: list[str], log_name: str, extra_env: dict[str, str] | None = None):
    """COMMAND --port N on a free port N, yielding its URL; stopped with its children afterwards."""
    port = _free_port()
    what = " ".join([pathlib.Path(command[0]).name, *command[1:]])
    env = {
        **os.environ,
        "MARIMO_SKIP_UPDATE_CHECK": "1",
        "HEARTS_BOT_DELAY": BOT_DELAY,
        "PYTHONPATH": str(ROOT),
        ENV_VAR: SERVER_TOKEN,
        **(extra_env or {}),
    }
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    log = open(ROOT / ".pytest_cache" / log_name, "w")  # noqa: SIM115
    process = subprocess.Popen(
        [*command, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"{what} exited with {process.returncode}; see .pytest_cache/{log_name}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{what} did not answer /health within 60 s")
            time.sleep(0.2)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def demo_url():
    """`marimo run lessons/table_demo.py` on a free port."""
    yield from _serve("lessons/table_demo.py", "marimo-run.log")


@pytest.fixture(scope="session")
def lessons_home(tmp_path_factory):
    """The learner's data folder the lessons server writes its progress to (fresh per run)."""
    return tmp_path_factory.mktemp("hearts-home")


@pytest.fixture(scope="session")
def lessons_url(lessons_home):
    """`python -m trainer.serve` (as scripts/start.sh serves the lessons) on a free port."""
    yield from _serve_command(
        [sys.executable, "-m", "trainer.serve"],
        "trainer-serve.log",
        {"HEARTS_TRAINER_HOME": str(lessons_home)},
    )


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's chromium "
            "(scripts/setup.sh installs it: apt-get update && apt-get install -y chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shared_context(browser):
    """One browser context for a test file's pages (``new_page``): as a learner's browser does from
    one page to the next, it keeps the scripts, styles and fonts marimo's pages load (a fresh
    context fetched and compiled them again for every test: 1-2 s a page). Each test still gets
    its own page, so its own marimo session and table; for pages that keep nothing in the
    browser that a test reads (the lessons, puzzles and review keep the learner's data on the
    server)."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def new_page(shared_context):
    """``new_page(viewport)``: a page of the file's ``shared_context`` at that size, closed after the test."""
    opened = []

    def make(viewport: dict, timeout: float = 20_000):
        page = shared_context.new_page()
        page.set_viewport_size(viewport)
        page.set_default_timeout(timeout)
        opened.append(page)
        return page

    yield make
    for page in opened:
        page.close()


@pytest.fixture
def page(new_page, demo_url, request):
    """A fresh page (so a fresh kernel session and a fresh table) showing the demo."""
    page = new_page(getattr(request, "param", {"width": 1100, "height": 1300}), 15_000)
    page.goto(demo_url)
    page.locator('[data-table="play"] .ht-hand .card').first.wait_for()
    return page


@pytest.fixture
def shot():
    """Save a screenshot of the table to test-artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str) -> pathlib.Path:
        path = ARTIFACTS / f"{name}.png"
        page.locator('[data-table="play"]').screenshot(path=str(path))
        return path

    return take
