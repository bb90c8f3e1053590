"""Build the static site: every page as marimo's WebAssembly export (``--mode run``), running on
Pyodide with Hearts Trainer's own wheel, all in one folder that any static host can serve.

    hearts-trainer site build OUT [--mirror DIR] [--pages index,lesson,...]

Each page (``SITE_PAGES``) is exported with ``marimo export html-wasm --offline``
into the same folder, so they share marimo's assets, the Pyodide runtime and the packages:
``OUT/index.html``, ``OUT/lesson.html?lesson=KEY``, ``OUT/puzzles.html``, ``OUT/review.html``,
``OUT/analysis.html?p=ADDRESS``, ``OUT/career.html``.
The runtime and packages come from a local mirror (``trainer.site_build.mirror``, made on first
use), served on localhost while the build runs: the build needs no internet, and the site asks
nothing of any other host.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from urllib.parse import urljoin

from trainer.data_files import LESSONS_DIR
from trainer.site import PAGES, SITE_FILES

from .bytecode import compile_site_wheels
from .local_server import serve_folder
from .mirror import build_mirror, mirror_ready
from .needs import CHROMIUM, MIRROR_ENV, default_mirror, missing_needs
from .puzzle_pages import PUZZLE_PAGES, add_library
from .resolved import KeptAnswers
from .startup import lighten_startup
from .trim import trim_assets, trim_lockfile
from .wheel import build_site_wheel

__all__ = ["SITE_PAGES", "build_site", "serve_folder"]

SITE_PAGES = {
    pathlib.Path(SITE_FILES[address]).stem: LESSONS_DIR / notebook
    for address, notebook in PAGES.items()
    if address in SITE_FILES
}
"""Page name (its file is NAME.html) → its notebook: lessons/, except the review, whose review of a
game needs the coach's full depth (not in the browser): the site's review page shows the charts and
says so."""
SITE_PAGES["review"] = pathlib.Path(__file__).parent / "pages" / "review.py"
FIRST_CELL = "@app.cell(hide_code=True)\ndef _():\n"
RESTORE = (
    "@app.cell(hide_code=True)\nasync def _():\n"
    "    from trainer.browser import restore_progress\n\n"
    "    await restore_progress()  # the progress kept in this browser (IndexedDB)\n"
)
SAVE_GUARD = pathlib.Path(__file__).with_name("save_guard.js")
"""The page's half of the background save (``trainer.browser``): asks before a tab is closed mid-save."""


def _site_notebook(notebook: pathlib.Path, wheel: pathlib.Path, into: pathlib.Path) -> pathlib.Path:
    """The notebook with its one dependency, the project's wheel, named in its PEP 723 header."""
    code = notebook.read_text(encoding="utf-8")
    if FIRST_CELL not in code:
        raise SystemExit(
            f"{notebook}: its first cell must be `def _():` with no inputs (the site restores progress there)"
        )
    code = code.replace(FIRST_CELL, RESTORE, 1)
    header = f'# /// script\n# dependencies = ["hearts-trainer @ ./{wheel.name}"]\n# ///\n'
    target = into / notebook.name
    target.write_text(header + code, encoding="utf-8")
    return target


@contextlib.contextmanager
def _export_patches() -> Iterator[None]:
    """marimo's export as it runs here: no search for local modules (the notebooks import only the
    project's wheel, and that search needs uv and a Ruff download), and the package resolver's
    browser is Debian's Chromium when Playwright's own is not installed."""
    from marimo._cli.export import commands
    from playwright.async_api import BrowserType

    saved_resolve = commands.resolve_notebook_local_modules
    saved_launch = BrowserType.launch

    async def launch(self, *args, **kwargs):
        if CHROMIUM.exists() and not kwargs.get("executable_path"):
            kwargs["executable_path"] = str(CHROMIUM)
            kwargs["args"] = [
                *(kwargs.get("args") or []),
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ]
        return await saved_launch(self, *args, **kwargs)

    commands.resolve_notebook_local_modules = lambda *args, **kwargs: ()
    BrowserType.launch = launch
    try:
        yield
    finally:
        commands.resolve_notebook_local_modules = saved_resolve
        BrowserType.launch = saved_launch


def _top_level_imports(code: str) -> tuple[str, ...] | str:
    """The modules a notebook imports, by top-level name (what Pyodide loads packages for); the
    code itself when it does not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return tuple(sorted(names))


@contextlib.contextmanager
def _resolve_each_package_set_once(answers: KeptAnswers | None = None) -> Iterator[None]:
    """marimo's offline export resolves a page's packages by starting Pyodide in Chromium, about
    15 s a page. Pages with the same requirements and the same imports get the same answer, so
    a build resolves them once: the answer is kept, with the address of the page that resolved
    it (its only part that differs) swapped for the next page's. The answer leaves out the
    packages the pages never use (``trim.LEFT_OUT_PACKAGES``), so they are neither copied nor
    loaded. Another marimo without this step: every page resolves on its own, nothing left out.
    ANSWERS: answers kept from earlier builds (``resolved.KeptAnswers``), taken instead of resolving."""
    try:
        from marimo._export import offline

        resolve = offline._resolve_packages
        requirements_of = offline.PyProjectReader.from_script
    except (ImportError, AttributeError):
        yield
        return
    kept: dict[tuple, tuple[str, str]] = {}

    async def resolve_once(code: str, **where):
        key = (
            where.get("package_base_url"),
            where.get("pypi_index_url"),
            tuple(requirements_of(code).dependencies),
            _top_level_imports(code),
        )
        origin = urljoin(where["page_url"], "/")
        if key in kept:
            answer, resolved_at = kept[key]
            return json.loads(answer.replace(resolved_at, origin))
        answer = answers.get(key[2:], where) if answers else None  # the key without this build's ports
        if answer is None:
            answer = await resolve(code, **where)
            if answers:
                answers.put(key[2:], where, answer)
        resolution = trim_lockfile(answer)
        kept[key] = (json.dumps(resolution), origin)  # before the export rewrites it in place
        return resolution

    offline._resolve_packages = resolve_once
    try:
        yield
    finally:
        offline._resolve_packages = resolve


def _export(notebook: pathlib.Path, out_html: pathlib.Path, mirror_url: str) -> None:
    from marimo._cli.export.commands import html_wasm

    arguments = [
        str(notebook),
        "-o",
        str(out_html),
        "--mode",
        "run",
        "--no-sandbox",
        "--force",
        "--offline",
        "--pyodide-index-url",
        f"{mirror_url}/pyodide/",
        "--pypi-index-url",
        f"{mirror_url}/simple/",
    ]
    with _export_patches():
        html_wasm.main(arguments, standalone_mode=False)
    _add_save_guard(out_html)


def _add_save_guard(page: pathlib.Path) -> None:
    """Put ``SAVE_GUARD`` in the page's head (a classic script: it runs before marimo starts)."""
    html = page.read_text(encoding="utf-8")
    if "</head>" not in html:
        raise RuntimeError(f"{page}: marimo's export has no </head> to put the save guard before")
    script = f"<script>\n{SAVE_GUARD.read_text(encoding='utf-8')}</script>\n"
    page.write_text(html.replace("</head>", script + "</head>", 1), encoding="utf-8")


def build_site(
    out: pathlib.Path,
    *,
    mirror: pathlib.Path | None = None,
    pages: Sequence[str] = tuple(SITE_PAGES),
    log=print,
) -> dict[str, float]:
    """Write the site into OUT; returns seconds taken per page. Everything it needs is checked
    first: when something is missing it exits with one line for each, having written nothing."""
    mirror = default_mirror() if mirror is None else mirror
    unknown = [name for name in pages if name not in SITE_PAGES]
    if unknown:
        raise SystemExit(f"Unknown page {', '.join(unknown)}: the pages are {', '.join(SITE_PAGES)}.")
    missing_lines = missing_needs(mirror, mirror_ready=mirror_ready(mirror))
    if missing_lines:
        raise SystemExit("\n".join(["hearts-trainer site build: nothing was built.", *missing_lines]))
    if not mirror_ready(mirror):
        log(f"Making the local mirror of Pyodide and the wheels in {mirror} (first build only)...")
        build_mirror(mirror)
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MARIMO_SKIP_UPDATE_CHECK", "1")
    times: dict[str, float] = {}
    answers = KeptAnswers(mirror)
    with (
        tempfile.TemporaryDirectory(prefix="hearts-site-") as folder,
        serve_folder(mirror) as (url, missing),
        _resolve_each_package_set_once(answers),
    ):
        work = pathlib.Path(folder)
        wheel, library = build_site_wheel(work)  # the project's; the puzzle library's (PUZZLE_PAGES)
        answers.use_wheel(wheel)
        for name in pages:
            started = time.monotonic()
            notebook = _site_notebook(SITE_PAGES[name], wheel, work)
            log(f"Exporting {name}.html ...")
            _export(notebook, out / f"{name}.html", url)
            times[name] = time.monotonic() - started
        add_library(out, library, [name for name in pages if name in PUZZLE_PAGES])
        if missing:
            log("The mirror lacked: " + ", ".join(sorted(set(missing))))
    shutil.rmtree(out / "public", ignore_errors=True)  # the wheel is installed from packages/ instead
    trim_assets(out)  # marimo's editor-only and unused output bundles
    lighten_startup(out)  # no jedi, IPython's few names: before the bytecode is compiled
    log("Compiling the wheels' bytecode in Pyodide ...")
    started = time.monotonic()
    compiled = compile_site_wheels(out, CHROMIUM if CHROMIUM.exists() else None, cache=mirror / "compiled")
    log(f"Bytecode in {compiled} archives, {time.monotonic() - started:.0f} s (kept in the mirror)")
    (out / "CLAUDE.md").unlink(missing_ok=True)  # marimo's notes for an AI editor: not for learners
    return times


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="hearts-trainer site build", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path, help="folder to write the site into")
    parser.add_argument(
        "--mirror",
        type=pathlib.Path,
        help="local mirror of Pyodide and the wheels, made there if missing (default: "
        f"${MIRROR_ENV} if set, else {default_mirror()})",
    )
    parser.add_argument(
        "--pages",
        default=",".join(SITE_PAGES),
        help=f"comma-separated pages to build (default: all: {','.join(SITE_PAGES)})",
    )
    args = parser.parse_args(argv)
    times = build_site(args.out, mirror=args.mirror, pages=[p for p in args.pages.split(",") if p])
    built = ", ".join(f"{name}.html ({seconds:.0f} s)" for name, seconds in times.items())
    print(f"Built {built} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
