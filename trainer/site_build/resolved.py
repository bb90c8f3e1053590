"""marimo's answer to which packages a page needs, kept in the mirror from one build to the next.

marimo's offline export resolves a page's packages by starting Pyodide in Chromium, where micropip
resolves the page's requirements against the mirror: 15-25 s of every build. The answer depends
only on the mirror's files (each one's name and size: a wheel's name carries its version),
marimo's version, the page's requirements and imports and the project wheel's metadata (what it
requires and what it provides), so it is kept under a key made of those (in the mirror's
``resolved/``), with the addresses of the build's two local servers left out. A later build takes
it with its own addresses and its wheel's sha256 put back in; a changed mirror, marimo or wheel
metadata is another key, resolved afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import tempfile
import zipfile
from urllib.parse import urljoin

__all__ = ["KeptAnswers"]

FOLDER = "resolved"
MIRRORED = ("READY", "pyodide", "simple", "wheels")
"""What of the mirror an answer depends on (not its caches: ``resolved/``, ``compiled/``)."""
PAGE, MIRROR = "{page-server}/", "{mirror-server}/"


def _mirror_identity(mirror: pathlib.Path) -> str:
    digest = hashlib.sha256()
    for top in MIRRORED:
        paths = [mirror / top] if (mirror / top).is_file() else sorted((mirror / top).rglob("*"))
        for path in paths:
            if path.is_file():
                digest.update(f"{path.relative_to(mirror).as_posix()}\0{path.stat().st_size}\0".encode())
    return digest.hexdigest()


class KeptAnswers:
    """The answers kept in MIRROR's ``resolved/`` for the project's wheel (``use_wheel``)."""

    def __init__(self, mirror: pathlib.Path) -> None:
        from marimo import __version__

        self.folder = mirror / FOLDER
        self.base = f"{_mirror_identity(mirror)}\0{__version__}"
        self.wheel: pathlib.Path | None = None

    def use_wheel(self, wheel: pathlib.Path) -> None:
        """The project's wheel of this build: its metadata is part of every key."""
        with zipfile.ZipFile(wheel) as archive:
            about = [n for n in sorted(archive.namelist()) if n.endswith(("/METADATA", "/top_level.txt"))]
            self.base += "".join(f"\0{name}\0{archive.read(name).decode()}" for name in about)
        self.wheel = wheel

    def _path(self, key: tuple) -> pathlib.Path:
        digest = hashlib.sha256(f"{self.base}\0{json.dumps(key)}".encode()).hexdigest()
        return self.folder / f"{digest}.json"

    def get(self, key: tuple, where: dict) -> dict | None:
        """The kept answer for KEY, at this build's addresses (None: none kept)."""
        if self.wheel is None:
            return None
        try:
            text = self._path(key).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        text = text.replace(PAGE, urljoin(where["page_url"], "/"))
        answer = json.loads(text.replace(MIRROR, urljoin(where["package_base_url"], "/")))
        digest = hashlib.sha256(self.wheel.read_bytes()).hexdigest()
        for entry in answer["packages"].values():
            if entry["file_name"].endswith(f"/{self.wheel.name}"):
                entry["sha256"] = digest  # this build's wheel: its code may differ, not its metadata
        return answer

    def put(self, key: tuple, where: dict, answer: dict) -> None:
        """Keep ANSWER for KEY (written whole, then renamed: a build alongside reads all or none)."""
        if self.wheel is None:
            return
        text = json.dumps(answer, sort_keys=True).replace(urljoin(where["page_url"], "/"), PAGE)
        text = text.replace(urljoin(where["package_base_url"], "/"), MIRROR)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, partial = tempfile.mkstemp(dir=self.folder, suffix=".partial")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            pathlib.Path(partial).replace(self._path(key))
        except OSError:
            pass  # a mirror that cannot be written to: the next build resolves again
