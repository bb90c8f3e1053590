"""A short, safe quotation of bad input for an error message: never the whole of a hostile value.

``repr`` of a 5 MB string is 5 MB, of an int of 5,000 digits a ValueError, of a list nested
100,000 deep a RecursionError; ``excerpt`` is at most ``LIMIT`` characters whatever it is given.
"""

from __future__ import annotations

import math
import reprlib

__all__ = ["LIMIT", "clip", "excerpt"]

LIMIT = 60


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:  # too long to show, and past a few thousand digits repr fails
            digits = int(x.bit_length() * math.log10(2)) + 1
            return f"{'-' if x < 0 else ''}<an integer of about {digits} digits>"
        return repr(x)


_SHORT = _ShortRepr()
_SHORT.maxlevel = 3
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = LIMIT


def excerpt(value: object, limit: int = LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (ending in "…" when cut)."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # a value whose repr fails says at least what kind it is
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(text: str, limit: int = 200) -> str:
    """Another error's message, cut to ``limit`` characters (it may quote the bad input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
