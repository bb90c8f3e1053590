"""The project as pure-Python wheels for the static site, from wherever this copy of Hearts
Trainer runs (a checkout or an installed wheel):

- ``hearts_trainer``: ``engine`` and ``trainer`` (the table's JS and CSS with it), the notebooks,
  the few puzzle files the code names by id (the lessons' puzzle steps) and the library's puzzle
  ids (``ids.txt``, what the home page's due count checks against). Every page loads it.
- ``hearts_trainer_puzzles``: the rest of the puzzle folder (every puzzle file, ``index.json``,
  ``ratings.json``), into the same ``trainer/puzzle_files`` folder. Only the pages that open
  the library load it (``build.PUZZLE_PAGES``): most of the site's weight, left out of the others.

They require only ``anywidget``: the server's packages (uvicorn, starlette), pandas, altair,
numpy, numba and dask stay out, because Pyodide cannot have them offline and the pages do without
them (the engine falls back to pure Python).
"""

from __future__ import annotations

import ast
import pathlib

import engine
import trainer
from trainer.data_files import LESSONS_DIR, PUZZLES_DIR
from trainer.puzzles.library import IDS_NAME, open_library

from .mirror import PURE_WHEEL, write_wheel

__all__ = ["DISTRIBUTION", "PUZZLES_DISTRIBUTION", "REQUIRES", "build_site_wheel", "named_puzzles"]

DISTRIBUTION = "hearts_trainer"
PUZZLES_DISTRIBUTION = "hearts_trainer_puzzles"
REQUIRES = ("anywidget", "tomli-w")
CARRIED = {".py", ".js", ".css", ".json"}  # .json: data a module reads beside itself
LIBRARY_FILES = ("*.toml", "index.json", "ratings.json", "README.md")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hearts-trainer")
    except PackageNotFoundError:
        return "0.1.0"


def _package_files(package: pathlib.Path, prefix: str) -> dict[str, bytes]:
    files = {}
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if path.is_file() and path.suffix in CARRIED and "__pycache__" not in relative.parts:
            if relative.parts[0] in ("notebooks", "puzzle_files"):
                continue  # added below, from wherever they are
            files[f"{prefix}/{relative.as_posix()}"] = path.read_bytes()
    return files


def named_puzzles(sources: dict[str, bytes], folder: pathlib.Path = PUZZLES_DIR) -> list[pathlib.Path]:
    """The puzzle files of FOLDER whose id (the file's name) a string in SOURCES' Python names:
    the ones a page may open without the library (a lesson's puzzle step)."""
    words: set[str] = set()
    for name, source in sources.items():
        if name.endswith(".py"):
            for node in ast.walk(ast.parse(source, name)):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 100:
                    words.add(node.value)
    return sorted(path for path in folder.glob("*.toml") if path.stem in words)


def _metadata(name: str, version: str, summary: str, requires: tuple[str, ...]) -> bytes:
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {summary}"]
    return ("\n".join([*lines, *(f"Requires-Dist: {r}" for r in requires)]) + "\n").encode()


def _write(out: pathlib.Path, distribution: str, files: dict[str, bytes], metadata: bytes) -> pathlib.Path:
    version = _version()
    dist_info = f"{distribution}-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = metadata
    files[f"{dist_info}/WHEEL"] = PURE_WHEEL
    files[f"{dist_info}/top_level.txt"] = (
        b"trainer\n" if distribution == PUZZLES_DISTRIBUTION else b"engine\ntrainer\n"
    )
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{distribution}-{version}-py3-none-any.whl"
    write_wheel(target, files, dist_info)
    return target


def build_site_wheel(out: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """Write both wheels into OUT; returns (the project's, the puzzle library's)."""
    version = _version()
    files = {
        **_package_files(pathlib.Path(engine.__file__).parent, "engine"),
        **_package_files(pathlib.Path(trainer.__file__).parent, "trainer"),
    }
    files["trainer/notebooks/__init__.py"] = b""
    for path in sorted(LESSONS_DIR.glob("*.py")):
        files[f"trainer/notebooks/{path.name}"] = path.read_bytes()
    named = named_puzzles(files)
    files["trainer/puzzle_files/__init__.py"] = b""
    for path in named:
        files[f"trainer/puzzle_files/{path.name}"] = path.read_bytes()
    ids = sorted(entry.id for entry in open_library(PUZZLES_DIR).entries)
    files[f"trainer/puzzle_files/{IDS_NAME}"] = ("\n".join(ids) + "\n").encode()
    summary = "Hearts Trainer's engine and pages, for the static site (Pyodide)"
    wheel = _write(out, DISTRIBUTION, files, _metadata("hearts-trainer", version, summary, REQUIRES))
    library = {
        f"trainer/puzzle_files/{path.name}": path.read_bytes()
        for pattern in LIBRARY_FILES
        for path in sorted(PUZZLES_DIR.glob(pattern))
        if path not in named
    }
    summary = "Hearts Trainer's puzzle library, for the static site's puzzles page"
    puzzles = _write(
        out, PUZZLES_DISTRIBUTION, library, _metadata("hearts-trainer-puzzles", version, summary, ())
    )
    return wheel, puzzles
