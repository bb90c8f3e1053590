"""The static site's parts that need no browser: the project's wheel for Pyodide, each page's
notebook as the site builds it, and the links between pages (relative in the site)."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile

from tests.browser.conftest import ROOT
from trainer.site_build.build import SITE_PAGES, _site_notebook
from trainer.site_build.wheel import build_site_wheel


def test_the_site_wheel_carries_the_packages_the_table_notebooks_and_puzzles_and_needs_no_numpy(tmp_path):
    wheel = build_site_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"engine/__init__.py", "engine/evaluator.py", "trainer/browser.py", "trainer/store.py"} <= names
    assert {"trainer/table/table.js", "trainer/table/table.css"} <= names
    assert {
        "trainer/notebooks/lesson.py",
        "trainer/notebooks/index.py",
        "trainer/notebooks/puzzles.py",
    } <= names
    assert any(name.startswith("trainer/puzzle_files/") and name.endswith(".toml") for name in names)
    assert "trainer/puzzle_files/index.json" in names  # the puzzles page opens the library from it
    assert not any("__pycache__" in name for name in names)
    (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    requires = [
        line.split(": ", 1)[1]
        for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist")
    ]
    assert requires == ["anywidget", "tomli-w"]  # no numpy, numba, pandas, altair or server packages


def test_every_page_restores_the_browser_progress_before_anything_else(tmp_path):
    wheel = build_site_wheel(tmp_path)
    for name, notebook in SITE_PAGES.items():
        code = _site_notebook(notebook, wheel, tmp_path).read_text()
        assert code.startswith(f'# /// script\n# dependencies = ["hearts-trainer @ ./{wheel.name}"]')
        first = next(node for node in ast.parse(code).body if isinstance(node, ast.AsyncFunctionDef))
        assert "await restore_progress()" in ast.unparse(first), name
        assert first.args.args == [], name  # every other cell depends on it (it defines mo)


def test_links_are_relative_to_the_sites_one_folder_under_pyodide():
    probe = (
        "import sys; sys.platform = 'emscripten'\n"
        "from trainer.site import HOME, LESSON_PAGE, PUZZLES, REVIEW\n"
        "from trainer.lessons.catalog import lesson_address\n"
        "print(HOME, LESSON_PAGE, PUZZLES, REVIEW, lesson_address('l01_game'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.split() == [
        "./",
        "lesson.html",
        "puzzles.html",
        "review.html",
        "lesson.html?lesson=l01_game",
    ]
