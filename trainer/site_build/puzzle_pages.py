"""The puzzle library's wheel (``wheel.PUZZLES_DISTRIBUTION``) for the pages that open the library,
and for no other: most of the site's weight (the puzzle files) is then downloaded by the puzzles
page only (its practice and streak modes included). Every other page works from the project's
wheel, which carries the few puzzles the lessons name and the library's ids.

Each such page gets its own lockfile: the one marimo resolved for it, with the library's wheel as a
dependency of Hearts Trainer's (so Pyodide loads it with the ``trainer`` import), the page pointed
at it. The bytecode step follows and sets each wheel's sha256.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import shutil

__all__ = ["LOCKFILE_ATTRIBUTE", "PUZZLE_PAGES", "add_library"]

PUZZLE_PAGES = ("puzzles",)
"""The pages that open the puzzle library (by name, as ``build.SITE_PAGES``)."""
LOCKFILE_ATTRIBUTE = re.compile(r'data-pyodide-lockfile-url="\./lockfile/([0-9a-f]+)\.json"')
LIBRARY = "hearts-trainer-puzzles"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def add_library(site: pathlib.Path, wheel: pathlib.Path, pages: list[str]) -> None:
    """WHEEL in SITE's packages, and in the lockfile of each of PAGES (built already)."""
    if not pages:
        return
    digest = _digest(wheel.read_bytes())
    shipped = site / "packages" / digest / wheel.name
    shipped.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(wheel, shipped)
    for name in pages:
        page = site / f"{name}.html"
        html = page.read_text(encoding="utf-8")
        found = LOCKFILE_ATTRIBUTE.search(html)
        if found is None:
            raise RuntimeError(f"{page}: marimo's export names no lockfile to add the puzzle library to")
        lockfile = json.loads((site / "lockfile" / f"{found[1]}.json").read_text())
        packages = lockfile["packages"]
        packages["hearts-trainer"]["depends"] = sorted({*packages["hearts-trainer"]["depends"], LIBRARY})
        packages[LIBRARY] = {
            "depends": [],
            "file_name": f"../packages/{digest}/{wheel.name}",
            "imports": [],
            "install_dir": "site",
            "name": LIBRARY,
            "sha256": digest,
            "version": wheel.name.split("-")[1],
        }
        text = json.dumps(lockfile, sort_keys=True)
        named = _digest(text.encode())[:16]
        (site / "lockfile" / f"{named}.json").write_text(text, encoding="utf-8")
        page.write_text(LOCKFILE_ATTRIBUTE.sub(f'data-pyodide-lockfile-url="./lockfile/{named}.json"', html))
