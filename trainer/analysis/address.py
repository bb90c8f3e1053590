"""A position in a page address: compact, versioned, safe in a URL query value.

``1.`` then base64url (no padding) of a few bits a field: a card is 6 bits, a hand a 52-bit mask;
a checksum byte ends it. ``from_address`` reads it like any user file: a length cap, a known
version, sound base64, every field in range, then the position's own ``check``; anything else is
one ``PositionError`` line naming the address and what is wrong.
"""

from __future__ import annotations

from .errors import PositionError
from .position import AnalysisPosition

__all__ = ["LONGEST", "VERSION", "from_address", "to_address"]

VERSION = 1
LONGEST = 400
"""Characters an address may have: every position fits in well under 200."""


def to_address(pos: AnalysisPosition) -> str:
    """The position as a query value (``/analysis/?p=...``); ``from_address`` gives it back
    exactly."""
    raise NotImplementedError


def from_address(text: str) -> AnalysisPosition:
    """The position an address holds, checked (``AnalysisPosition.check``); anything else raises
    ``PositionError`` with field "address"."""
    raise PositionError("address", "not read yet")  # filled in next
