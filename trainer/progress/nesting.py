"""Where JSON text nests too deeply: the field, for a file ``json.loads`` gives up on.

Python's parser stops with a RecursionError past about a thousand levels, naming no place. This
reads the text's tokens (strings whole, so brackets inside them do not count) and gives the path
of the value that goes deeper than ``limit`` (``tables.games[0].record``), without building it.
"""

from __future__ import annotations

import re

__all__ = ["too_deep"]

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]')


def too_deep(text: str, limit: int = 500) -> str | None:
    """The path of the first value nested more than ``limit`` deep in ``text``, or None."""
    path: list[str | int] = []  # per open container: its key or index now
    expecting_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if len(path) >= limit:
                return _shown(path)
            path.append(0 if token == "[" else "")
            expecting_key = token == "{"
        elif token in "]}":
            if path:
                path.pop()
            expecting_key = False
        elif token == ",":
            if path and isinstance(path[-1], int):
                path[-1] += 1
            else:
                expecting_key = True
        elif token == ":":
            expecting_key = False
        elif expecting_key and path:  # a key: the next value is this field
            path[-1] = token[1:-1][:40]
            expecting_key = False
    return None


def _shown(path: list[str | int]) -> str:
    """The path to the last field named, and at most a few levels more."""
    named = max((i for i, part in enumerate(path) if isinstance(part, str)), default=-1)
    shown = ""
    for part in path[: min(named + 1, 12)]:
        shown += f"[{part}]" if isinstance(part, int) else f".{part}" if shown else part
    return shown + ("…" if named + 1 > 12 else "")
