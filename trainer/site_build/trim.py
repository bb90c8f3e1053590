"""What the site leaves out of marimo's export: packages and front-end bundles that its pages
never use, found by loading every page in Chromium (``tests/browser/test_static_site_browser.py``
checks that each wheel the site ships is imported, and that no page asks for a file it lacks).

A package left out is dropped from the page's lockfile, and from the ``depends`` of every entry
that names it, so Pyodide neither fetches nor installs it. A bundle left out is a file of
marimo's front end that only the notebook editor or an output kind these pages never show loads.
"""

from __future__ import annotations

import pathlib
import re

__all__ = ["LEFT_OUT_BUNDLES", "LEFT_OUT_PACKAGES", "SHIPPED_UNIMPORTED", "trim_assets", "trim_lockfile"]

LEFT_OUT_PACKAGES = {
    "black": "marimo formats code with it: nobody edits the pages' code",
    "click": "black's",
    "mypy-extensions": "black's",
    "pathspec": "black's",
    "platformdirs": "black's",
    "pytokens": "black's",
    "docutils": "marimo renders docstrings with it in the editor's help",
    "widgetsnbextension": "ipywidgets' front end for Jupyter Notebook: JavaScript, no Python module",
    "jupyterlab-widgets": "ipywidgets' front end for JupyterLab: JavaScript, no Python module",
    "matplotlib-inline": "IPython's matplotlib backend: no page draws with matplotlib",
    "itsdangerous": "marimo's server signs cookies with it: no server in the browser",
    "python-multipart": "marimo's server parses uploads with it: no server in the browser",
    "six": "Pyodide lists it for asttokens, which no longer imports it",
    "jedi": "marimo completes code with it in the editor; its start no longer imports it (startup.py)",
    "parso": "jedi's",
    # The real IPython's own: the site ships IPython's few names ipywidgets reaches (startup.py)
    "asttokens": "IPython's",
    "decorator": "IPython's",
    "executing": "IPython's",
    "ipython-pygments-lexers": "IPython's",
    "prompt-toolkit": "IPython's",
    "pure-eval": "IPython's",
    "stack-data": "IPython's",
    "wcwidth": "IPython's",
}
"""Package (canonical name) → why the pages do without it."""

SHIPPED_UNIMPORTED = {
    "tomlkit": "marimo-base imports it only to write its settings or a notebook's script header",
}
"""Packages the site ships though its pages load them without importing them, and why."""

LEFT_OUT_BUNDLES = {
    "Plot": "Plotly charts (4.6 MB): the pages' charts are Vega-Lite",
    "node-sql-parser": "SQL cells",
    "sql": "SQL cells",
    "loro_wasm_bg": "the editor's real-time collaboration",
    "terminal": "the editor's terminal",
    "edit-page": "the editor",
    "cell-editor": "the editor",
    "ai-model-dropdown": "the editor's AI assistant",
    "agent-panel": "the editor's AI assistant",
    "add-cell-with-ai": "the editor's AI assistant",
    "chat-panel": "the editor's AI assistant",
    "dependency-graph-panel": "the editor's panels",
    "file-explorer-panel": "the editor's panels",
    "add-connection-dialog": "the editor's database connections",
    "glide-data-editor": "mo.ui.data_editor",
    "ConnectedDataExplorerComponent": "mo.ui.data_explorer",
}
"""marimo front-end file name (before its content hash) → what it serves, which the pages never show."""

_HASHED = re.compile(r"^(?P<name>.+)-[A-Za-z0-9_-]{8}\.(?:js|wasm|css)$")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def trim_lockfile(lockfile: dict) -> dict:
    """The lockfile (marimo's resolution of a page's packages) without LEFT_OUT_PACKAGES."""
    packages = {
        key: {
            **entry,
            "depends": [
                name for name in entry.get("depends", []) if _canonical(name) not in LEFT_OUT_PACKAGES
            ],
        }
        if "depends" in entry
        else entry
        for key, entry in lockfile["packages"].items()
        if _canonical(entry.get("name", key)) not in LEFT_OUT_PACKAGES
    }
    return {**lockfile, "packages": packages}


def bundle_name(path: pathlib.Path) -> str | None:
    """A front-end file's name before its content hash (``Plot-B8w5_jU-.js`` → ``Plot``)."""
    match = _HASHED.match(path.name)
    return match["name"] if match else None


def trim_assets(site: pathlib.Path) -> int:
    """Delete LEFT_OUT_BUNDLES from SITE/assets; returns the bytes removed."""
    removed = 0
    for path in sorted((site / "assets").glob("*")):
        if path.is_file() and bundle_name(path) in LEFT_OUT_BUNDLES:
            removed += path.stat().st_size
            path.unlink()
    return removed
