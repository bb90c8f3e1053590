"""What the static site's pages start without: jedi and the real IPython, about 1,000 modules
that marimo's start and ipywidgets import though no page completes code or runs an IPython shell.

- jedi: marimo in Pyodide imports it at start only for the recursion limit jedi sets on import,
  which marimo sets right after anyway; the site's marimo wheel is patched not to
  (``MARIMO_PATCHES``), and jedi is left out (``trim.LEFT_OUT_PACKAGES``: completion is the editor's).
- IPython: ipywidgets (under anywidget) imports ``get_ipython`` and ``display`` from it, and marimo,
  once IPython is imported, puts its own output behind ``IPython.display.display``. The site ships
  ``IPYTHON_STUB`` under IPython's name: no shell (``get_ipython()`` is None, as the real one says
  outside a shell), and the names those two reach.

A marimo whose code differs where it is patched stops the build with one line, rather than ship a
page that fails at start.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import zipfile

from .mirror import PURE_WHEEL, write_wheel

__all__ = ["IPYTHON_STUB", "MARIMO_PATCHES", "lighten_startup"]

MARIMO_PATCHES = {
    "marimo/_runtime/patches.py": (
        "    import jedi  # type: ignore # noqa: F401\n\n    sys.setrecursionlimit(limit)",
        "    sys.setrecursionlimit(limit)  # no jedi: Hearts Trainer's site",
    ),
}
"""File in marimo's wheel → (text, what replaces it: it ends with a mark of the patch)."""

IPYTHON_STUB = {
    "IPython/__init__.py": '''"""The names of IPython that ipywidgets and marimo reach, for the static
site, where no IPython shell runs (Hearts Trainer's trainer/site_build/startup.py)."""

from .core.getipython import get_ipython

__all__ = ["get_ipython"]
''',
    "IPython/core/__init__.py": "",
    "IPython/core/getipython.py": '''def get_ipython():
    """No IPython shell runs here."""
    return None
''',
    "IPython/core/display_functions.py": '''"""No shell: showing does nothing (marimo shows instead)."""


def display(*objs, **kwargs):
    return None


def update_display(obj, *, display_id, **kwargs):
    return None


def clear_output(wait=False):
    return None
''',
    "IPython/core/interactiveshell.py": '''class InteractiveShell:
    """No shell runs here (ipywidgets' Output names it only to format for one)."""

    @classmethod
    def initialized(cls):
        return False

    @classmethod
    def instance(cls, *args, **kwargs):
        raise RuntimeError("no IPython shell runs in Hearts Trainer's static site")
''',
    "IPython/display.py": """from .core.display_functions import clear_output, display, update_display

__all__ = ["HTML", "Image", "clear_output", "display", "update_display"]


class DisplayObject:
    def __init__(self, data=None, url=None, filename=None, metadata=None, **kwargs):
        self.data, self.url, self.filename, self.metadata = data, url, filename, metadata


class HTML(DisplayObject):
    def _repr_html_(self):
        return self.data


class Image(DisplayObject):
    pass
""",
}
"""Module file → its source: IPython as the site's pages use it."""
STUB_VERSION = "+hearts.trainer.stub"


def _read_wheel(wheel: pathlib.Path) -> tuple[dict[str, bytes], str]:
    with zipfile.ZipFile(wheel) as source:
        files = {name: source.read(name) for name in source.namelist() if not name.endswith("/")}
    (dist_info,) = {name.split("/")[0] for name in files if name.endswith(".dist-info/RECORD")}
    files.pop(f"{dist_info}/RECORD")
    return files, dist_info


def patch_marimo(wheel: pathlib.Path) -> None:
    """MARIMO_PATCHES applied to WHEEL in place."""
    files, dist_info = _read_wheel(wheel)
    for name, (old, new) in MARIMO_PATCHES.items():
        source = files.get(name, b"").decode()
        if new in source:
            continue  # patched by an earlier build into the same folder
        if old not in source:
            raise SystemExit(
                f"{wheel.name}: {name} no longer holds the line the site patches "
                f"({old.strip().splitlines()[0]!r}); see trainer/site_build/startup.py."
            )
        files[name] = source.replace(old, new, 1).encode()
        folder, _, module = name.rpartition("/")
        for cached in [key for key in files if key.startswith(f"{folder}/__pycache__/{module[:-3]}.")]:
            del files[cached]  # its bytecode, if compiled already: the bytecode step compiles it again
    write_wheel(wheel, files, dist_info)


def ipython_stub_wheel(into: pathlib.Path, version: str) -> pathlib.Path:
    """IPYTHON_STUB as a wheel named ipython, VERSION with STUB_VERSION after it."""
    version = version.split("+")[0] + STUB_VERSION
    dist_info = f"ipython-{version}.dist-info"
    files = {name: source.encode() for name, source in IPYTHON_STUB.items()}
    files[f"{dist_info}/METADATA"] = f"Metadata-Version: 2.1\nName: ipython\nVersion: {version}\n".encode()
    files[f"{dist_info}/WHEEL"] = PURE_WHEEL
    files[f"{dist_info}/top_level.txt"] = b"IPython\n"
    into.mkdir(parents=True, exist_ok=True)
    target = into / f"ipython-{version}-py3-none-any.whl"
    write_wheel(target, files, dist_info)
    return target


def lighten_startup(site: pathlib.Path) -> None:
    """In SITE's lockfiles: marimo's wheel patched, IPython's entry the stub (its own dependencies
    are left out by ``trim``). Before the bytecode step, which follows with each sha256."""
    patched: set[pathlib.Path] = set()
    for path in sorted((site / "lockfile").glob("*.json")):
        lockfile = json.loads(path.read_text())
        for entry in lockfile["packages"].values():
            wheel = (site / "lockfile" / entry["file_name"]).resolve()
            if entry["name"] == "marimo-base" and wheel not in patched:
                patch_marimo(wheel)
                patched.add(wheel)
            elif entry["name"] == "ipython":
                stub = ipython_stub_wheel(site / "packages" / "ipython-stub", entry["version"])
                if wheel != stub.resolve() and wheel.parent.parent == (site / "packages").resolve():
                    shutil.rmtree(wheel.parent, ignore_errors=True)  # the real IPython: not shipped
                entry["file_name"] = f"../packages/ipython-stub/{stub.name}"
                entry["version"] = stub.name.split("-")[1]
                entry["depends"] = []
        path.write_text(json.dumps(lockfile, sort_keys=True), encoding="utf-8")
