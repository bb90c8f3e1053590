"""The project as one pure-Python wheel for the static site: ``engine`` and ``trainer`` (the
table's JS and CSS with it), the notebooks and the puzzle files, from wherever this copy of
Hearts Trainer runs (a checkout or an installed wheel). It requires only ``anywidget``: the
server's packages (uvicorn, starlette), pandas, altair, numpy, numba and dask stay out, because
Pyodide cannot have them offline and the pages do without them (the engine falls back to pure
Python).
"""

from __future__ import annotations

import pathlib

import engine
import trainer
from trainer.data_files import LESSONS_DIR, PUZZLES_DIR

from .mirror import PURE_WHEEL, write_wheel

__all__ = ["DISTRIBUTION", "REQUIRES", "build_site_wheel"]

DISTRIBUTION = "hearts_trainer"
REQUIRES = ("anywidget", "tomli-w")
CARRIED = {".py", ".js", ".css", ".json"}  # .json: data a module reads beside itself


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


def build_site_wheel(out: pathlib.Path) -> pathlib.Path:
    """Write the wheel into OUT and return its path."""
    version = _version()
    files = {
        **_package_files(pathlib.Path(engine.__file__).parent, "engine"),
        **_package_files(pathlib.Path(trainer.__file__).parent, "trainer"),
    }
    for name, folder, patterns in (
        ("notebooks", LESSONS_DIR, ("*.py",)),
        ("puzzle_files", PUZZLES_DIR, ("*.toml", "index.json", "ratings.json", "README.md")),
    ):
        files[f"trainer/{name}/__init__.py"] = b""
        for pattern in patterns:
            for path in sorted(folder.glob(pattern)):
                files[f"trainer/{name}/{path.name}"] = path.read_bytes()
    dist_info = f"{DISTRIBUTION}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        "Name: hearts-trainer",
        f"Version: {version}",
        "Summary: Hearts Trainer's engine and pages, for the static site (Pyodide)",
        *(f"Requires-Dist: {name}" for name in REQUIRES),
    ]
    files[f"{dist_info}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    files[f"{dist_info}/WHEEL"] = PURE_WHEEL
    files[f"{dist_info}/top_level.txt"] = b"engine\ntrainer\n"
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{DISTRIBUTION}-{version}-py3-none-any.whl"
    write_wheel(target, files, dist_info)
    return target
