"""A local mirror of everything the static site needs from outside: Pyodide's core runtime (the npm
package) and the pure-Python wheels its pages install, so the site can be built (and tested)
with no request beyond localhost.

    python -m trainer.site_build.mirror [DIR]     # or: hearts-trainer site mirror [DIR]

DIR/pyodide/ is the npm package ``pyodide@PYODIDE_VERSION`` with the wheels its lock file names
for marimo's runtime (pure ones from PyPI, their ``sha256`` rewritten in ``pyodide-lock.json``;
PyYAML as a pure wheel made from its sdist, as PyYAML runs without its C extension). DIR/simple/
is a package index (one ``NAME/index.html`` a package) of the wheels that are not in Pyodide's
lock file: marimo itself, anywidget and their pure dependencies. It needs ``npm`` and ``pip``
(both reach their registries here), and it is safe to run again: what is there is kept.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import html
import io
import json
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

__all__ = ["PYODIDE_VERSION", "build_mirror", "mirror_ready"]

PYODIDE_VERSION = "314.0.0"
"""The Pyodide that marimo 0.25.2 loads (``marimo._pyodide.pyodide_constraints``): exactly this one."""

LOCKED_ROOTS = (
    # marimo's runtime
    "micropip",
    "packaging",
    "docutils",
    "pygments",
    "jedi",
    "pyodide-http",
    "narwhals",
    "platformdirs",
    "click",
    "typing-extensions",
    # anywidget's ipywidgets
    "ipython",
    "traitlets",
    # the puzzle files (written with tomli-w)
    "tomli-w",
)
"""Pyodide lock entries the pages load, with what they depend on in the lock: pure wheels, fetched
from PyPI at the lock's version (PyYAML apart)."""

INDEX = {
    # marimo's runtime in the browser (marimo-base is marimo without its server's dependencies)
    "marimo-base": "0.25.2",
    "markdown": "3.11.3",
    "pymdown-extensions": "11.0.2",
    "tomlkit": "0.15.2",
    "python-multipart": "0.0.34",
    "itsdangerous": "2.2.0",
    "msgspec": "0.23.0",
    "black": "26.3.1",
    "mypy-extensions": "1.1.0",
    "pathspec": "1.0.4",
    "pytokens": "0.4.1",
    # the card table
    "anywidget": "0.11.0",
    "psygnal": "0.16.1",
    "ipywidgets": "8.1.9",
    "comm": "0.2.3",
    "widgetsnbextension": "4.0.16",
    "jupyterlab-widgets": "3.0.17",
    "ipython-pygments-lexers": "1.1.1",
}
"""name → version served from DIR/simple (pure wheels, except msgspec's Pyodide build on PyPI)."""

BUILT = ("msgspec",)
"""In INDEX, but Pyodide builds (PyPI has them for this Pyodide's platform), not pure wheels."""
PIP_DOWNLOAD = (sys.executable, "-m", "pip", "download", "--quiet", "--no-deps")
EMSCRIPTEN = ("--platform", "pyemscripten_2026_0_wasm32", "--implementation", "cp", "--abi", "cp314")


def _pip_download(
    wanted: dict[str, str], into: pathlib.Path, emscripten: bool = False
) -> dict[str, pathlib.Path]:
    """name → its wheel in INTO, at the version asked for: those already there are kept, the rest
    come from one ``pip download`` (pure wheels, or Pyodide builds when ``emscripten``)."""
    have = {_wheel_name(path): path for path in into.glob("*.whl")}
    found = {
        name: have[(_canonical(name), version)]
        for name, version in wanted.items()
        if (_canonical(name), version) in have
    }
    missing = {name: version for name, version in wanted.items() if name not in found}
    if not missing:
        return found
    with tempfile.TemporaryDirectory(dir=into) as folder:
        command = [
            *PIP_DOWNLOAD,
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            *(EMSCRIPTEN if emscripten else ("--platform", "any", "--implementation", "py", "--abi", "none")),
            "--dest",
            folder,
            *(f"{name}=={version}" for name, version in missing.items()),
        ]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            asked = ", ".join(f"{name}=={version}" for name, version in missing.items())
            raise SystemExit(f"pip could not download {asked}: {done.stderr.strip()[-600:]}")
        for wheel in pathlib.Path(folder).glob("*.whl"):
            target = into / wheel.name
            shutil.move(wheel, target)
            have[_wheel_name(target)] = target
    for name, version in missing.items():
        found[name] = have[(_canonical(name), version)]
    return found


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _wheel_name(path: pathlib.Path) -> tuple[str, str]:
    name, version = path.name.split("-")[:2]
    return _canonical(name), version


def _sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pure_pyyaml(version: str, into: pathlib.Path) -> pathlib.Path:
    """PyYAML as a py3-none-any wheel: its sdist's lib/yaml (it runs without the C extension)."""
    target = into / f"pyyaml-{version}-py3-none-any.whl"
    if target.exists():
        return target
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [*PIP_DOWNLOAD, "--no-binary=:all:", "--dest", folder, f"pyyaml=={version}"],
            check=True,
        )
        (sdist,) = pathlib.Path(folder).glob("*.tar.gz")
        files: dict[str, bytes] = {}
        with tarfile.open(sdist) as archive:
            for member in archive.getmembers():
                parts = member.name.split("/")
                if member.isfile() and parts[1:3] == ["lib", "yaml"]:
                    files["/".join(parts[2:])] = archive.extractfile(member).read()
    dist_info = f"pyyaml-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = f"Metadata-Version: 2.1\nName: PyYAML\nVersion: {version}\n".encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: hearts-trainer\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{dist_info}/top_level.txt"] = b"yaml\n"
    write_wheel(target, files, dist_info)
    return target


PURE_WHEEL = b"Wheel-Version: 1.0\nGenerator: hearts-trainer\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
"""The WHEEL file of a wheel we build from Python files alone (ours, the IPython stand-in)."""


def write_wheel(target: pathlib.Path, files: dict[str, bytes], dist_info: str) -> None:
    """A wheel of ``files`` (archive name → bytes) with its RECORD; stable bytes for the same files."""
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in sorted(files.items()):
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files = {**files, f"{dist_info}/RECORD": record.getvalue().encode()}
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)


def _pyodide_core(into: pathlib.Path) -> None:
    """The npm package's files in INTO (npm pack, unpacked)."""
    if (into / "pyodide.asm.wasm").exists():
        return
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            ["npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}"],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        (package,) = pathlib.Path(folder).glob("pyodide-*.tgz")
        with tarfile.open(package) as archive:
            for member in archive.getmembers():
                if member.isfile() and member.name.startswith("package/"):
                    target = into / member.name.removeprefix("package/")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.extractfile(member).read())
    (into / "pyodide-lock.json").rename(into / "pyodide-lock.original.json")


def build_mirror(folder: pathlib.Path) -> pathlib.Path:
    folder = folder.resolve()
    if mirror_ready(folder):
        return folder
    core = folder / "pyodide"
    _pyodide_core(core)
    lock = json.loads((core / "pyodide-lock.original.json").read_text())
    packages = lock["packages"]
    locked = {
        name: packages[name]["version"] for name in _closure(packages, LOCKED_ROOTS) if name != "pyyaml"
    }
    for name, wheel in _pip_download(locked, core).items():
        packages[name]["file_name"], packages[name]["sha256"] = wheel.name, _sha256(wheel)
    pyyaml = packages["pyyaml"]
    wheel = _pure_pyyaml(pyyaml["version"], core)
    pyyaml["file_name"], pyyaml["sha256"] = wheel.name, _sha256(wheel)
    (core / "pyodide-lock.json").write_text(json.dumps(lock))

    wheels = folder / "wheels"
    wheels.mkdir(exist_ok=True)
    simple = folder / "simple"
    served = _pip_download({name: version for name, version in INDEX.items() if name not in BUILT}, wheels)
    served.update(_pip_download({name: INDEX[name] for name in BUILT}, wheels, emscripten=True))
    for name, wheel in served.items():
        page = simple / _canonical(name) / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        href = f"../../wheels/{wheel.name}#sha256={_sha256(wheel)}"
        page.write_text(f'<!doctype html><a href="{html.escape(href)}">{html.escape(wheel.name)}</a>\n')
    (folder / "READY").write_text(PYODIDE_VERSION + "\n")
    return folder


def _closure(packages: dict, roots: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    pending = list(roots)
    while pending:
        name = _canonical(pending.pop())
        if name not in found:
            found.append(name)
            pending.extend(packages[name]["depends"])
    return sorted(found)


def mirror_ready(folder: pathlib.Path) -> bool:
    """The mirror is complete (its last step writes READY, naming the Pyodide version)."""
    ready = folder / "READY"
    return ready.exists() and ready.read_text().strip() == PYODIDE_VERSION


def main(argv: list[str] | None = None) -> int:
    from .needs import MIRROR_ENV, default_mirror, missing_needs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folder",
        type=pathlib.Path,
        nargs="?",
        help=f"where to make it (default: ${MIRROR_ENV} if set, else {default_mirror()})",
    )
    args = parser.parse_args(argv)
    folder = default_mirror() if args.folder is None else args.folder
    if not mirror_ready(folder):
        lines = [line for line in missing_needs(folder, mirror_ready=False) if "mirror" in line]
        if lines:
            raise SystemExit("\n".join(["hearts-trainer site mirror: nothing was made.", *lines]))
    print(build_mirror(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
