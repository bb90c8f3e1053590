"""The site's wheels with their bytecode: each ``.py`` gets its ``__pycache__/*.cpython-314.pyc``,
compiled by the site's own Pyodide in Chromium (only Pyodide's CPython writes the bytecode its
runtime reads), as an unchecked-hash pyc, so an import reads it instead of compiling the source.
Every wheel but Hearts Trainer's goes sourceless (the ``.pyc`` in place of the ``.py``), as Pyodide
ships its own packages: a cold load unpacks about 9 MB less (marimo's sources are 6.7 MB of its
16 MB). Hearts Trainer's keeps its sources beside its bytecode, for tracebacks and ``inspect``.

Compiling was most of a cold load's Python time: in Pyodide, compiling the 1,161 modules lesson 1
imports took 29 s where reading their bytecode took 0.6 s (a loaded machine; the same ratio
quiet). Each lockfile's ``sha256`` follows. Pyodide's standard library (``python_stdlib.zip``, sources
only in the npm package) gets its bytecode the same way, sourceless: it held most of what was left
of Pyodide's start.

Each compiled archive is kept in the mirror (``compiled/``, named by the archive's bytes, how it is
compiled and the Pyodide that compiled it): a rebuild takes every unchanged archive from there
and starts Pyodide only for the others, most often Hearts Trainer's own wheel alone.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pathlib
import shutil
import tempfile
import zipfile

from .local_server import serve_folder
from .mirror import _canonical, write_wheel
from .wheel import DISTRIBUTION

__all__ = ["compile_site_wheels"]

STDLIB = "python_stdlib.zip"
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB)
PAGE = """<!doctype html><meta charset="utf-8"><title>compile</title><script type="module">
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
const indexURL = new URL("./pyodide/", location.href).href;
const pyodide = await loadPyodide({ indexURL, lockFileContents: LOCKFILE });
pyodide.runPython(COMPILE);
window.compileWheel = async (name, sourceless) => {
    const data = new Uint8Array(await (await fetch("./wheels/" + name)).arrayBuffer());
    pyodide.FS.writeFile("/tmp/wheel.whl", data);
    return pyodide.runPython(`pycs('/tmp/wheel.whl', ${sourceless ? "True" : "False"})`);
};
window.ready = true;
</script>"""
COMPILE = r"""
import base64, importlib.util, io, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def pycs(path, sourceless):
    # JSON {pyc path in the wheel: base64 bytes} for each .py there that compiles: beside it in
    # __pycache__, or in its place when sourceless.
    found = {}
    with zipfile.ZipFile(path) as wheel:
        for name in wheel.namelist():
            if not name.endswith(".py") or ".dist-info/" in name:
                continue
            source = wheel.read(name)
            try:
                code = compile(source, name, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                continue  # a file no import can load either (templates, other Pythons' code)
            folder, _, module = name.rpartition("/")
            if sourceless:
                cached = name + "c"
            else:
                cached = f"{folder}/__pycache__/{module[:-3]}.{sys.implementation.cache_tag}.pyc".lstrip("/")
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
            found[cached] = base64.b64encode(bytes(pyc)).decode()
    return json.dumps(found)
"""


def _with_bytecode(wheel: pathlib.Path, pycs: dict[str, str], sourceless: bool) -> None:
    with zipfile.ZipFile(wheel) as source:
        files = {name: source.read(name) for name in source.namelist() if not name.endswith("/")}
    (dist_info,) = {name.split("/")[0] for name in files if name.endswith(".dist-info/RECORD")}
    files.pop(f"{dist_info}/RECORD")
    if sourceless:
        for name in pycs:
            files.pop(name.removesuffix("c"))
    files.update({name: base64.b64decode(data) for name, data in pycs.items()})
    write_wheel(wheel, files, dist_info)


def _stdlib_with_bytecode(archive: pathlib.Path, pycs: dict[str, str]) -> None:
    """The standard library's zip with each module's bytecode in place of its source (zipimport
    reads a ``.pyc`` there; it cannot write one, so each cold load compiled every module it used)."""
    with zipfile.ZipFile(archive) as source:
        files = {name: source.read(name) for name in source.namelist() if not name.endswith("/")}
    for name in pycs:
        files.pop(name.removesuffix("c"))
    files.update({name: base64.b64decode(data) for name, data in pycs.items()})
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)


def _compiled_already(wheel: pathlib.Path) -> bool:
    """Its bytecode is there, or it has no module to compile (the puzzle library's wheel)."""
    with zipfile.ZipFile(wheel) as source:
        names = source.namelist()
    return any(name.endswith(".pyc") for name in names) or not any(name.endswith(".py") for name in names)


def _cache_key(archive: pathlib.Path, sourceless: bool, runtime: str) -> str:
    """The archive's bytes, how it is compiled and by which Pyodide: what its compiled copy is of."""
    digest = hashlib.sha256(archive.read_bytes())
    digest.update(f"\0{sourceless}\0{runtime}\0{COMPILE}".encode())
    return digest.hexdigest()


def _from_cache(todo: list[pathlib.Path], site: pathlib.Path, cache: pathlib.Path | None, sourceless) -> dict:
    """Each archive of TODO with a compiled copy in CACHE replaced by it; the others' cache keys."""
    if cache is None:
        return {archive: None for archive in todo}
    runtime = hashlib.sha256(b"".join((site / "pyodide" / name).read_bytes() for name in RUNTIME[:3]))
    runtime = runtime.hexdigest()
    keys = {}
    for archive in todo:
        key = _cache_key(archive, sourceless(archive), runtime)
        kept = cache / f"{key}.zip"
        if kept.is_file():
            shutil.copyfile(kept, archive)
        else:
            keys[archive] = key
    return keys


def _keep(archive: pathlib.Path, cache: pathlib.Path | None, key: str | None) -> None:
    """ARCHIVE, compiled, kept in CACHE under KEY (written whole, then renamed)."""
    if cache is None or key is None:
        return
    try:
        cache.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=cache, prefix=f".{key}.", suffix=".partial")
        os.close(handle)
        shutil.copyfile(archive, partial)
        pathlib.Path(partial).replace(cache / f"{key}.zip")  # whole or not at all, for a build alongside
    except OSError:
        pass  # a mirror that cannot be written to: the next build compiles it again


def compile_site_wheels(
    site: pathlib.Path, chromium: pathlib.Path | None, cache: pathlib.Path | None = None
) -> int:
    """Add bytecode to every wheel SITE's lockfiles name and to Pyodide's standard library, and
    update the wheels' sha256; returns how many archives got it. CHROMIUM: the browser to run
    Pyodide in (None: Playwright's own). CACHE: a folder of archives compiled before, by the
    archive's bytes and the Pyodide that compiled it (only Hearts Trainer's wheel changes from
    one build to the next: the others are taken from there, and Pyodide starts only for what
    is not)."""
    from playwright.sync_api import sync_playwright

    lockfiles = {path: json.loads(path.read_text()) for path in sorted((site / "lockfile").glob("*.json"))}
    wheels = {
        (site / "lockfile" / entry["file_name"]).resolve()
        for lockfile in lockfiles.values()
        for entry in lockfile["packages"].values()
        if entry["file_name"].endswith(".whl")
    }
    todo = sorted(wheel for wheel in wheels if not _compiled_already(wheel))
    stdlib = site / "pyodide" / STDLIB
    if not _compiled_already(stdlib):
        todo.append(stdlib)  # Pyodide's standard library: sources only, as the npm package has it
    with_sources = {_canonical(DISTRIBUTION)}  # ours, for tracebacks; the rest sourceless

    def sourceless(archive: pathlib.Path) -> bool:
        return _canonical(archive.name.split("-")[0]) not in with_sources  # the stdlib too

    keys = _from_cache(todo, site, cache, sourceless)
    compiled = len(todo)
    todo = list(keys)
    if todo:
        with tempfile.TemporaryDirectory(prefix="hearts-bytecode-") as folder:
            work = pathlib.Path(folder)
            (work / "pyodide").mkdir()
            for name in RUNTIME:
                shutil.copyfile(site / "pyodide" / name, work / "pyodide" / name)
            (work / "wheels").mkdir()
            for wheel in todo:
                shutil.copyfile(wheel, work / "wheels" / wheel.name)
            lockfile = json.dumps(json.dumps(next(iter(lockfiles.values()))))
            page_html = PAGE.replace("COMPILE", json.dumps(COMPILE)).replace("LOCKFILE", lockfile)
            (work / "index.html").write_text(page_html)
            with serve_folder(work) as (url, _missing), sync_playwright() as playwright:
                options = {"executable_path": str(chromium)} if chromium else {}
                browser = playwright.chromium.launch(
                    **options, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
                )
                try:
                    page = browser.new_page()
                    page.goto(f"{url}/index.html")
                    page.wait_for_function("window.ready === true", timeout=300_000)
                    for wheel in todo:
                        pycs = page.evaluate(
                            "([n, s]) => window.compileWheel(n, s)", [wheel.name, sourceless(wheel)]
                        )
                        if wheel == stdlib:
                            _stdlib_with_bytecode(wheel, json.loads(pycs))
                        else:
                            _with_bytecode(wheel, json.loads(pycs), sourceless(wheel))
                        _keep(wheel, cache, keys[wheel])
                finally:
                    browser.close()
    for path, lockfile in lockfiles.items():
        for entry in lockfile["packages"].values():
            if entry["file_name"].endswith(".whl"):
                wheel = (site / "lockfile" / entry["file_name"]).resolve()
                entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
        path.write_text(json.dumps(lockfile, sort_keys=True), encoding="utf-8")
    return compiled
