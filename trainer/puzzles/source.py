"""A puzzle file's bytes as TOML data, or one ``PuzzleError`` saying where they are not."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from .errors import PuzzleError

__all__ = ["read_toml"]


def read_toml(path: Path) -> dict[str, Any]:
    """The file's data: it must be readable, UTF-8 and valid TOML."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise PuzzleError(f"{path}: cannot be read: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        where = _field_with_bad_bytes(raw) or f"line {line}"
        raise PuzzleError(
            f"{path}: {where}: not UTF-8 text: byte 0x{raw[error.start]:02x} on line {line}"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib ends its message with where: "Invalid value (at line 3, column 8)".
        found = re.fullmatch(r"(.*) \(at (.*)\)", str(error))
        reason, where = found.groups() if found else (str(error), "somewhere")
        raise PuzzleError(f"{path}: {where}: not valid TOML: {reason}") from None


def _field_with_bad_bytes(raw: bytes) -> str | None:
    """The dotted name of the first value holding bytes that are not UTF-8, when the rest of
    the file parses (undecodable bytes become lone surrogates, which TOML strings accept)."""
    try:
        data = tomllib.loads(raw.decode("utf-8", "surrogateescape"))
    except tomllib.TOMLDecodeError:
        return None
    return _find_surrogate(data, "")


def _find_surrogate(value: Any, where: str) -> str | None:
    if isinstance(value, str):
        return where if _undecoded(value) else None
    if isinstance(value, dict):
        items = [(f"{where}.{key}" if where else key, item) for key, item in value.items()]
    elif isinstance(value, list):
        items = [(f"{where}[{index}]", item) for index, item in enumerate(value)]
    else:
        return None
    for name, item in items:
        if _undecoded(name):  # a key's own bytes: shown with U+FFFD where they are
            return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        if found := _find_surrogate(item, name):
            return found
    return None


def _undecoded(text: str) -> bool:
    """Whether ``text`` holds a byte ``surrogateescape`` could not decode."""
    return any("\udc80" <= char <= "\udcff" for char in text)
