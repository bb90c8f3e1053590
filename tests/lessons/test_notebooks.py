"""The home page and the one lesson page run headless, every lesson opens through that page, an
unknown lesson gets a message instead of a crash, and `marimo check --strict lessons/` passes."""

from __future__ import annotations

import html
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

from trainer.lessons.catalog import LESSONS
from trainer.lessons.progress import LessonProgressStore
from trainer.site import HOME, PAGES
from trainer.store import Store

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSON_PAGE = ROOT / "lessons" / "lesson.py"


def _env(tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HEARTS_TRAINER_HOME": str(tmp_path),
        "MARIMO_SKIP_UPDATE_CHECK": "1",
        "HEARTS_BOT_DELAY": "0",
    }


@pytest.fixture
def lesson_page(tmp_path, monkeypatch):
    """Runs lessons/lesson.py in this process with the given command line; returns (outputs, defs)."""
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path))
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    spec = importlib.util.spec_from_file_location("lesson_page", LESSON_PAGE)
    notebook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notebook)
    opened = []

    def run(*args: str):
        monkeypatch.setattr(sys, "argv", [str(LESSON_PAGE), *args])
        outputs, defs = notebook.app.run()
        if "runner" in defs:
            opened.append(defs["runner"])
        return outputs, defs

    yield run
    for runner in opened:
        runner.close()


def _shown(outputs) -> str:
    """The cells' HTML, with what marimo escapes inside its elements' attributes made plain again."""
    text = "\n".join(getattr(output, "text", str(output)) for output in outputs if output is not None)
    return html.unescape(text).replace("\\u003c", "<").replace("\\u003e", ">").replace('\\"', '"')


def test_every_page_the_server_mounts_is_a_notebook_in_lessons() -> None:
    pages = ["analysis.py", "career.py", "index.py", "lesson.py", "puzzles.py", "review.py"]
    assert sorted(PAGES.values()) == pages
    for notebook in PAGES.values():
        assert (ROOT / "lessons" / notebook).is_file()
    assert not list((ROOT / "lessons").glob("l0*.py")), "one lesson page, not a copy per lesson"


@pytest.mark.parametrize("key", list(LESSONS))
def test_every_lesson_opens_through_the_one_page(lesson_page, key) -> None:
    outputs, defs = lesson_page("--lesson", key)
    lesson = LESSONS[key]
    assert defs["runner"].lesson is lesson
    shown = _shown(outputs)
    assert f"{lesson.number}. {lesson.title}" in shown
    assert f"Step 1 of {len(lesson.steps)}" in shown


@pytest.mark.parametrize("args", [("--lesson", "l99_nothing"), ()], ids=["unknown", "missing"])
def test_a_page_without_a_lesson_says_so_and_links_home(lesson_page, args) -> None:
    outputs, defs = lesson_page(*args)
    assert "runner" not in defs
    shown = _shown(outputs)
    assert "home page" in shown
    assert f'href="{HOME}"' in shown
    if args:
        assert "l99_nothing" in shown


def test_the_lesson_page_runs_as_a_script_with_the_lesson_on_its_command_line(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, str(LESSON_PAGE), "--", "--lesson", "l03_following"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # Opening a lesson records the step reached, so the store shows which lesson was opened.
    store = Store(tmp_path / "progress.sqlite3")
    assert LessonProgressStore(store).of("l03_following").steps == len(LESSONS["l03_following"].steps)


def test_the_home_page_runs_headless(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "lessons" / "index.py")],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_marimo_check_passes_on_every_notebook_in_lessons(tmp_path) -> None:
    marimo = pathlib.Path(sys.executable).with_name("marimo")
    done = subprocess.run(
        [str(marimo), "check", "--strict", "lessons/"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_page_links_by_marimo_file_address() -> None:
    """`?file=NAME.py` addressed a notebook under `marimo run lessons/`; trainer.serve mounts each
    page at its own address, so such a link would lead nowhere."""
    sources = [*(ROOT / "lessons").glob("*.py"), *(ROOT / "trainer").rglob("*.py")]
    stale = [str(path.relative_to(ROOT)) for path in sources if "?file=" in path.read_text()]
    assert stale == []
