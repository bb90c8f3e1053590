"""The review notebook runs headless over recorded history and passes `marimo check --strict`."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from tests.review.history import record_history
from trainer.store import Store

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "lessons" / "review.py"


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review-home")
    store = Store(folder / "progress.sqlite3")
    record_history(store)
    store.close()
    return folder


def _env(home) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HEARTS_TRAINER_HOME": str(home),
        "MARIMO_SKIP_UPDATE_CHECK": "1",
    }


def test_the_review_notebook_runs_headless_with_history(home) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import lessons.review as r; _, defs = r.app.run(); "
         "print(sorted(defs['charts'])); print(defs['data'].counts_markdown())"],
        cwd=ROOT, env=_env(home), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "['accuracy', 'areas', 'direction', 'phase', 'points', 'theme']" in done.stdout
    assert "**12 graded decisions** and **1 finished game** kept." in done.stdout


def test_the_review_notebook_runs_headless_with_no_history(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, str(NOTEBOOK)],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_marimo_check_passes_on_the_review_notebook(tmp_path) -> None:
    marimo = pathlib.Path(sys.executable).with_name("marimo")
    done = subprocess.run(
        [str(marimo), "check", "--strict", str(NOTEBOOK)],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
