"""The static site's parts that need no browser: the project's wheel for Pyodide, each page's
notebook as the site builds it, the links between pages (relative in the site), the packages
resolved once for the pages that need the same ones, and what the build needs checked first."""

from __future__ import annotations

import ast
import hashlib
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest
from marimo._export import offline

from tests.browser.conftest import CHROMIUM, ROOT
from trainer.puzzles.library import library_ids
from trainer.site_build import needs, startup
from trainer.site_build.build import SITE_PAGES, _resolve_each_package_set_once, _site_notebook
from trainer.site_build.build import main as build_main
from trainer.site_build.mirror import PYODIDE_VERSION
from trainer.site_build.resolved import KeptAnswers
from trainer.site_build.trim import trim_assets, trim_lockfile
from trainer.site_build.wheel import build_site_wheel, named_puzzles


def test_the_site_wheel_carries_the_packages_the_table_notebooks_and_puzzles_and_needs_no_numpy(tmp_path):
    wheel, library = build_site_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    carried = {"engine/__init__.py", "engine/search/evaluator.py", "trainer/browser.py", "trainer/store.py"}
    assert carried <= names
    assert {"trainer/table/table.js", "trainer/table/table.css"} <= names
    assert {
        "trainer/notebooks/lesson.py",
        "trainer/notebooks/index.py",
        "trainer/notebooks/puzzles.py",
    } <= names
    # The puzzle library is its own wheel, loaded by the puzzles page only: this one holds the
    # puzzles the lessons name, and the library's ids (for the home page's due count).
    lessons = {path.name: path.read_bytes() for path in (ROOT / "trainer" / "lessons").glob("*.py")}
    in_lessons = {f"trainer/puzzle_files/{path.name}" for path in named_puzzles(lessons)}
    assert "trainer/puzzle_files/play-011.toml" in in_lessons  # lesson 8's step "stop the moon"
    assert {n for n in names if n.endswith(".toml")} == in_lessons
    ids = zipfile.ZipFile(wheel).read("trainer/puzzle_files/ids.txt").decode().split()
    assert set(ids) == library_ids(ROOT / "puzzles")
    shelf = set(zipfile.ZipFile(library).namelist())
    assert "trainer/puzzle_files/index.json" in shelf  # the puzzles page opens the library from it
    assert "trainer/puzzle_files/ratings.json" in shelf  # where each puzzle's rating starts
    tomls = {n for n in shelf if n.endswith(".toml")}
    assert len(tomls | in_lessons) == len(ids) and not tomls & in_lessons and not shelf & names
    engine_data = {path.relative_to(ROOT).as_posix() for path in (ROOT / "engine").rglob("*.json")}
    assert engine_data and engine_data <= names  # the forecast's fitted map, read beside its module
    assert not any("__pycache__" in name for name in names)
    (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    requires = [
        line.split(": ", 1)[1]
        for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist")
    ]
    assert requires == ["anywidget", "tomli-w"]  # no numpy, numba, pandas, altair or server packages


HOME_AND_LESSONS = """
import datetime as dt, sys
from trainer.data_files import PUZZLES_DIR
from trainer.lessons.catalog import LESSONS
from trainer.lessons.home import due_today_markdown
from trainer.progress.practice import save_item
from trainer.puzzles.practice import PracticeItem
from trainer.store import Store
assert str(PUZZLES_DIR).startswith(sys.argv[1]), PUZZLES_DIR
for lesson in LESSONS.values():  # a lesson's puzzle steps read their puzzle files as it loads
    assert lesson.steps, lesson.key
store = Store(sys.argv[2])
day = dt.date(2026, 3, 2)
for puzzle in (sys.argv[3], "pass-dropped-1"):
    save_item(store, PracticeItem(puzzle, "library", 0, day, 1, 0))
print(due_today_markdown(store, day))
"""


def test_every_lesson_and_the_home_pages_due_count_work_without_the_puzzle_library(tmp_path):
    # Only the project's wheel installed, as on every page of the site but the puzzles page.
    wheel, _library = build_site_wheel(tmp_path)
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    puzzle = sorted((ROOT / "puzzles").glob("play-*.toml"))[-1].stem  # in the library, not here
    assert not (installed / "trainer" / "puzzle_files" / f"{puzzle}.toml").exists()
    ran = subprocess.run(
        [sys.executable, "-c", HOME_AND_LESSONS, str(installed), str(tmp_path / "p.sqlite3"), puzzle],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(installed)},
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("**[1 puzzle due today →]"), ran.stdout  # the dropped one is not counted


def test_every_page_restores_the_browser_progress_before_anything_else(tmp_path):
    wheel, _library = build_site_wheel(tmp_path)
    for name, notebook in SITE_PAGES.items():
        code = _site_notebook(notebook, wheel, tmp_path).read_text()
        assert code.startswith(f'# /// script\n# dependencies = ["hearts-trainer @ ./{wheel.name}"]')
        first = next(node for node in ast.parse(code).body if isinstance(node, ast.AsyncFunctionDef))
        assert "await restore_progress()" in ast.unparse(first), name
        assert first.args.args == [], name  # every other cell depends on it (it defines mo)


def test_links_are_relative_to_the_sites_one_folder_under_pyodide():
    probe = (
        "import sys; sys.platform = 'emscripten'\n"
        "from trainer.site import ANALYSIS, HOME, LESSON_PAGE, PUZZLES, REVIEW\n"
        "from trainer.lessons.catalog import lesson_address\n"
        "print(HOME, LESSON_PAGE, PUZZLES, REVIEW, ANALYSIS, lesson_address('l01_game'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.split() == [
        "./",
        "lesson.html",
        "puzzles.html",
        "review.html",
        "analysis.html",
        "lesson.html?lesson=l01_game",
    ]


def test_pages_with_the_same_requirements_and_imports_are_resolved_once(tmp_path, monkeypatch):
    # marimo's step that starts Pyodide in Chromium to resolve a page's packages, stood in for:
    # its answer names the wheel at the address of the page that resolved it.
    asked: list[str] = []

    async def resolve(code: str, *, page_url: str, **where) -> dict:
        asked.append(page_url)
        origin = page_url.split("/assets/")[0]
        return {"packages": {"hearts-trainer": {"file_name": f"{origin}/public/wheels/ht.whl"}}}

    monkeypatch.setattr(offline, "_resolve_packages", resolve)
    wheel, _library = build_site_wheel(tmp_path)
    lesson, puzzles = (
        _site_notebook(SITE_PAGES[name], wheel, tmp_path).read_text() for name in ("lesson", "puzzles")
    )
    other = lesson.replace("import marimo as mo", "import marimo as mo\n    import json", 1)
    assert other != lesson

    with _resolve_each_package_set_once():
        first = _resolved(lesson, 1001, 9)
        first["packages"]["hearts-trainer"]["file_name"] = "../packages/ht.whl"  # as marimo rewrites it
        again = _resolved(puzzles, 1002, 9)
        imports_more = _resolved(other, 1003, 9)
    assert asked == ["http://127.0.0.1:1001/assets/offline.html", "http://127.0.0.1:1003/assets/offline.html"]
    assert again["packages"]["hearts-trainer"]["file_name"] == "http://127.0.0.1:1002/public/wheels/ht.whl"
    assert imports_more["packages"]["hearts-trainer"]["file_name"].startswith("http://127.0.0.1:1003/")
    assert offline._resolve_packages is resolve  # marimo's own step is back after the build


def _resolved(code: str, page_port: int, mirror_port: int) -> dict:
    """A page's packages as the export asks for them, its page and the mirror served at these ports."""
    url = f"http://127.0.0.1:{page_port}/assets/offline.html"
    where = {"package_base_url": f"http://127.0.0.1:{mirror_port}/pyodide/", "pypi_index_url": "x"}
    steps = offline._resolve_packages(code, page_url=url, **where)
    try:  # the stand-in never waits, so the coroutine ends at its first step
        steps.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the resolution waited for something")


def test_a_resolution_is_kept_for_the_next_build_at_its_own_addresses(tmp_path, monkeypatch):
    # marimo's resolution in Chromium, stood in for: the project's wheel at the page's server,
    # the others at the mirror's.
    asked: list[str] = []
    wheel, _library = build_site_wheel(tmp_path / "wheels")

    async def resolve(code: str, *, page_url: str, package_base_url: str, **where) -> dict:
        asked.append(page_url)
        page, mirror = page_url.split("/assets/")[0], package_base_url.split("/pyodide/")[0]
        return {
            "info": {},
            "packages": {
                "hearts-trainer": {"file_name": f"{page}/public/wheels/{wheel.name}", "sha256": "then"},
                "anywidget": {"file_name": f"{mirror}/wheels/anywidget.whl", "sha256": "a1"},
            },
        }

    monkeypatch.setattr(offline, "_resolve_packages", resolve)
    mirror = tmp_path / "mirror"
    (mirror / "simple" / "anywidget").mkdir(parents=True)
    (mirror / "READY").write_text(PYODIDE_VERSION)
    code = _site_notebook(SITE_PAGES["lesson"], wheel, tmp_path).read_text()

    def build(page_port: int, mirror_port: int) -> dict:
        answers = KeptAnswers(mirror)
        answers.use_wheel(wheel)
        with _resolve_each_package_set_once(answers):
            return _resolved(code, page_port, mirror_port)

    build(1001, 2001)
    again = build(1002, 2002)  # the next build, its servers at other ports: nothing resolved
    assert asked == ["http://127.0.0.1:1001/assets/offline.html"]
    ours = again["packages"]["hearts-trainer"]
    assert ours["file_name"] == f"http://127.0.0.1:1002/public/wheels/{wheel.name}"
    assert ours["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()  # this build's wheel
    assert again["packages"]["anywidget"] == {
        "file_name": "http://127.0.0.1:2002/wheels/anywidget.whl",
        "sha256": "a1",
    }
    (mirror / "simple" / "anywidget" / "anywidget-0.12.0-py3-none-any.whl").write_bytes(b"newer")
    build(1003, 2003)  # the mirror changed: resolved again
    assert asked[1:] == ["http://127.0.0.1:1003/assets/offline.html"]


def _files_under(folder):
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_a_build_missing_its_needs_says_each_in_one_line_and_writes_nothing(tmp_path):
    # The installed wheel without the `site` extra (Playwright not importable) on a machine
    # without npm, the mirror not made yet: one line per need, then exit, nothing written.
    work, no_tools, cache = tmp_path / "work", tmp_path / "bin", tmp_path / "cache"
    work.mkdir()
    no_tools.mkdir()
    blocked = "import sys; sys.modules['playwright'] = None; from trainer.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", blocked, "site", "build", "site-out"],
        cwd=work,
        capture_output=True,
        text=True,
        env={
            "PATH": str(no_tools),
            "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path / "home"),
            "XDG_CACHE_HOME": str(cache),
        },
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    mirror = cache / "hearts-trainer" / "site-build" / "mirror"
    assert lines[0] == "hearts-trainer site build: nothing was built."
    assert lines[1].startswith("Missing the Python package playwright")
    assert "pip install 'hearts-trainer[site]'" in lines[1]
    assert lines[2].startswith(f"Missing npm (to make the mirror of Pyodide and the wheels in {mirror}")
    assert "apt-get install npm" in lines[2]
    assert len(lines) == 3 + (not CHROMIUM.exists())  # no Chromium for Playwright to find either
    assert all(len(line) <= 300 for line in lines)
    assert _files_under(tmp_path) == ["bin", "work"]  # no site, no mirror, nothing in the cache


def test_a_missing_chromium_is_named_with_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(needs, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "no-browsers"))  # none of its own
    mirror = tmp_path / "mirror"
    (mirror / "READY").parent.mkdir()
    (mirror / "READY").write_text(PYODIDE_VERSION + "\n")  # a mirror made before: npm not needed
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        build_main(["out", "--mirror", str(mirror)])
    assert str(stopped.value).splitlines() == [
        "hearts-trainer site build: nothing was built.",
        "Missing a Chromium (marimo's export opens each page in one): sudo apt-get install chromium, "
        "or python -m playwright install chromium-headless-shell.",
    ]
    assert not (tmp_path / "out").exists()


def test_the_mirror_is_kept_in_the_users_cache_unless_told_otherwise(tmp_path, monkeypatch):
    monkeypatch.delenv(needs.MIRROR_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert needs.default_mirror() == tmp_path / "home" / ".cache" / "hearts-trainer" / "site-build" / "mirror"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # XDG: a relative path is ignored
    assert needs.default_mirror() == tmp_path / "home" / ".cache" / "hearts-trainer" / "site-build" / "mirror"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert needs.default_mirror() == tmp_path / "xdg" / "hearts-trainer" / "site-build" / "mirror"
    monkeypatch.setenv(needs.MIRROR_ENV, str(tmp_path / "mine"))
    assert needs.default_mirror() == tmp_path / "mine"


def test_packages_left_out_are_dropped_from_the_lockfile_and_from_what_names_them():
    lockfile = {
        "info": {"python": "3.14.0"},
        "packages": {
            "ipywidgets": {
                "name": "ipywidgets",
                "depends": ["comm", "widgetsnbextension", "jupyterlab_widgets"],
            },
            "widgetsnbextension": {"name": "widgetsnbextension", "depends": []},
            "jupyterlab-widgets": {"name": "jupyterlab_widgets", "depends": []},
            "comm": {"name": "comm", "depends": []},
            "marimo-base": {"name": "marimo-base", "depends": ["docutils", "Markdown"]},
            "Markdown": {"name": "Markdown"},
        },
    }
    trimmed = trim_lockfile(lockfile)
    assert trimmed["info"] == lockfile["info"]
    assert set(trimmed["packages"]) == {"ipywidgets", "comm", "marimo-base", "Markdown"}
    assert trimmed["packages"]["ipywidgets"]["depends"] == ["comm"]
    assert trimmed["packages"]["marimo-base"]["depends"] == ["Markdown"]
    assert "widgetsnbextension" in lockfile["packages"]  # the answer given is not changed


def test_front_end_bundles_left_out_are_deleted_by_name_whatever_their_hash(tmp_path):
    assets = tmp_path / "assets"
    assets.mkdir()
    for name in ("Plot-B8w5_jU-.js", "loro_wasm_bg-CSolyDSZ.wasm", "dependency-graph-panel--Kgtktcw.js"):
        (assets / name).write_bytes(b"x" * 10)
    kept = ("react-vega-C3rYGtP6.js", "index-s-M1OXjs.js", "PlotHelper-abcdefgh.js", "worker-DTQ7oH2A.js")
    for name in kept:
        (assets / name).write_bytes(b"y")
    assert trim_assets(tmp_path) == 30
    assert sorted(path.name for path in assets.iterdir()) == sorted(kept)


def _marimo_wheel(into, patches_py: str):
    """A wheel holding marimo's runtime patches module (as the site's marimo wheel does)."""
    from trainer.site_build.mirror import write_wheel

    into.mkdir(parents=True, exist_ok=True)
    wheel = into / "marimo_base-0.25.2-py3-none-any.whl"
    files = {
        "marimo/_runtime/patches.py": patches_py.encode(),
        "marimo/_runtime/__pycache__/patches.cpython-314.pyc": b"stale",
    }
    write_wheel(wheel, files, "marimo_base-0.25.2.dist-info")
    return wheel


def test_the_sites_marimo_starts_without_importing_jedi(tmp_path):
    import marimo._runtime.patches as patches

    source = pathlib.Path(patches.__file__).read_text()  # this marimo's, the version the site ships
    wheel = _marimo_wheel(tmp_path, source)
    startup.patch_marimo(wheel)
    startup.patch_marimo(wheel)  # a second build into the same folder: patched once
    names = zipfile.ZipFile(wheel).namelist()
    patched = zipfile.ZipFile(wheel).read("marimo/_runtime/patches.py").decode()
    (function,) = [
        node
        for node in ast.parse(patched).body
        if isinstance(node, ast.FunctionDef) and node.name == "patch_recursion_limit"
    ]
    assert not [node for node in ast.walk(function) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert "sys.setrecursionlimit(limit)" in ast.unparse(function)
    assert patched.count("import jedi") == source.count("import jedi") - 1  # only that one
    assert "marimo/_runtime/__pycache__/patches.cpython-314.pyc" not in names  # compiled again

    other = _marimo_wheel(tmp_path / "other", "def patch_recursion_limit(limit):\n    pass\n")
    with pytest.raises(SystemExit) as stopped:
        startup.patch_marimo(other)
    (line,) = str(stopped.value).splitlines()
    assert "marimo/_runtime/patches.py" in line and "startup.py" in line


def test_ipywidgets_anywidget_and_marimos_ipython_output_work_on_the_sites_ipython(tmp_path):
    stub = startup.ipython_stub_wheel(tmp_path, "9.12.0")
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import IPython, ipywidgets, anywidget\n"
        "assert IPython.__file__.startswith(sys.argv[1]), IPython.__file__\n"
        "assert IPython.get_ipython() is None and ipywidgets.widgets.widget.get_ipython() is None\n"
        "import IPython.display\n"
        "shown = IPython.display.display\n"
        "from marimo._output.formatters.ipython_formatters import IPythonFormatter\n"
        "undo = IPythonFormatter().register()\n"
        "assert IPython.display.display is not shown  # marimo shows what is displayed\n"
        "undo()\n"
        "assert IPython.display.display is shown\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('IPython', 'jedi')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(stub)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = ast.literal_eval(done.stdout.strip())
    assert imported and {name.split(".")[0] for name in imported} == {"IPython"}
    assert len(imported) <= len(startup.IPYTHON_STUB)  # the stub's few modules, not IPython's 375
    assert stub.name == "ipython-9.12.0+hearts.trainer.stub-py3-none-any.whl"
