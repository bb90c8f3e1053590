"""What the site build needs beyond Hearts Trainer itself, checked before it writes anything: one
line for each missing need, saying what it is for and how to get it.

The Python packages come with the ``site`` extra (``pip install 'hearts-trainer[site]'``); the
build also needs a Chromium (marimo's export opens each page in one to find what it imports) and,
for its first run only, while it makes the mirror: npm (``npm pack`` fetches Pyodide) and pip
(``pip download`` fetches the wheels). It needs no uv: the export runs with ``--no-sandbox``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pathlib
import shutil
import sys

__all__ = ["CHROMIUM", "EXTRA", "EXTRA_MODULES", "default_mirror", "missing_needs"]

EXTRA = "hearts-trainer[site]"
EXTRA_MODULES = {"playwright": "drives Chromium while marimo's export finds what each page imports"}
"""module → what the build does with it: the ``site`` extra in pyproject.toml installs them."""
CHROMIUM = pathlib.Path("/usr/bin/chromium")
"""Debian's Chromium, used when it is there; else Playwright's own."""
MIRROR_ENV = "HEARTS_TRAINER_SITE_MIRROR"


def default_mirror() -> pathlib.Path:
    """Where the build keeps its mirror of Pyodide and the wheels: ``$HEARTS_TRAINER_SITE_MIRROR``,
    else the user's cache (``$XDG_CACHE_HOME``, by default ``~/.cache``), never the current folder."""
    if os.environ.get(MIRROR_ENV):
        return pathlib.Path(os.environ[MIRROR_ENV]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or ""
    base = pathlib.Path(cache) if os.path.isabs(cache) else pathlib.Path.home() / ".cache"
    return base / "hearts-trainer" / "site-build" / "mirror"


def _missing_modules() -> list[str]:
    lines = []
    for module, use in EXTRA_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            lines.append(
                f"Missing the Python package {module} (it {use}): pip install '{EXTRA}' "
                f"(into this Python: {sys.executable})."
            )
    return lines


def _playwright_chromium_works() -> bool:
    """Playwright's own Chromium starts (the build's fallback when Debian's is not there)."""
    from playwright.sync_api import Error, sync_playwright

    try:
        with sync_playwright() as playwright:
            playwright.chromium.launch().close()
    except Error:
        return False
    return True


def missing_needs(mirror: pathlib.Path, *, mirror_ready: bool) -> list[str]:
    """One line per missing need, in the order to fix them; empty when the build can run."""
    lines = _missing_modules()
    if not CHROMIUM.exists() and (lines or not _playwright_chromium_works()):
        lines.append(
            "Missing a Chromium (marimo's export opens each page in one): sudo apt-get install chromium, "
            "or python -m playwright install chromium-headless-shell."
        )
    if not mirror_ready:
        making = f"to make the mirror of Pyodide and the wheels in {mirror} (first build only)"
        if shutil.which("npm") is None:
            lines.append(
                f"Missing npm ({making}: npm pack fetches Pyodide): sudo apt-get install npm, "
                "or Node.js from https://nodejs.org."
            )
        if importlib.util.find_spec("pip") is None:
            lines.append(f"Missing pip in {sys.executable} ({making}): {sys.executable} -m ensurepip.")
    return lines
