"""Every lesson notebook runs headless and passes `marimo check --strict`."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The home page and the nine lessons (other notebooks in lessons/ have their own tests).
NOTEBOOKS = sorted([ROOT / "lessons" / "index.py", *(ROOT / "lessons").glob("l0*.py")])


def _env(tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HEARTS_TRAINER_HOME": str(tmp_path),
        "MARIMO_SKIP_UPDATE_CHECK": "1",
        "HEARTS_BOT_DELAY": "0",
    }


def test_there_is_a_home_page_and_nine_lessons() -> None:
    names = {path.stem for path in NOTEBOOKS}
    assert "index" in names
    assert len([n for n in names if n.startswith("l0")]) == 9


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_the_notebook_runs_headless(notebook, tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, str(notebook)],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_marimo_check_passes_on_every_notebook(tmp_path) -> None:
    marimo = pathlib.Path(sys.executable).with_name("marimo")
    done = subprocess.run(
        [str(marimo), "check", "--strict", *map(str, NOTEBOOKS)],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
