"""A puzzle's stored options packed into one text (version 2 of the puzzle format), and back.

Version 1 keeps each option as a row of ten numbers, one a line: a pass puzzle (286 options)
takes about 50 KB. Version 2 keeps the same rows, every figure exactly, in a few KB:

- every figure of a row (``points``, ``others``, ``difference``, ``standard_error``, ``loss``,
  ``loss_error``, ``moon_for``, ``moon_against``) is a whole number of ten-thousandths, as
  version 1 writes them (``format.as_stored``): it is kept as that whole number, so the loader
  reads back the very same float, and ``samples`` as the count it is;
- what follows from a row is kept as its departure from that (a few ten-thousandths of
  rounding): ``difference`` from the row before (options come best first), ``others`` from the
  row before, ``points`` from ``difference + others``, ``loss`` from ``difference`` minus the
  best option's; the others as they are;
- each value becomes an unsigned 32-bit integer (zigzag: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...),
  column after column, and the bytes are grouped by significance (every value's lowest byte,
  then every second byte ...), so the many small values leave long runs of zeros;
- before them come the options' cards, one byte a card (the engine's card number 0-51), after
  a first byte giving the cards an option has (1 for a play, the pass count for a pass), then
  one byte a row marking its figures that are -0.0 (bit i for figure i of ``FIGURES``: the
  evaluator's rounding makes them, and a shown "-0.0" must stay one);
- the whole is compressed (zlib) and written as base64 in lines of 76 characters.

A row that cannot be kept exactly this way (a figure that is not a whole number of
ten-thousandths, or beyond 32 bits) is not packed: ``pack_rows`` returns None and the file is
written in version 1, so writing never loses a figure.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import sys
import zlib
from array import array
from collections.abc import Sequence

from engine import Card, CardParseError, parse_cards

__all__ = ["FIGURES", "PackError", "pack_rows", "unpack_rows"]

FIGURES = (
    "points",
    "others",
    "difference",
    "standard_error",
    "loss",
    "loss_error",
    "moon_for",
    "moon_against",
)
"""The figures of a row after its option, as version 1 orders them; ``samples`` comes last."""
ORDER = ("difference", "others", "points", "standard_error", "loss", "loss_error", "moon_for", "moon_against")
"""The order the packed columns come in (each predicted from those before it), then ``samples``."""
UNIT = 10_000
"""Figures are kept in ten-thousandths."""
LARGEST = 1 << 22
"""The most bytes a packed text may unpack to (a pass puzzle's rows take about 11 KB)."""
LINE = 76
CODES = tuple(Card(number).code for number in range(52))


class PackError(ValueError):
    """Packed options that cannot be read: ``str()`` says why, in a few words."""


def pack_rows(rows: Sequence[Sequence[object]]) -> str | None:
    """Version 1 rows (option text, eight figures, samples) as version 2's text, or None when a
    row cannot be kept exactly (the caller then writes the rows as they are)."""
    try:
        cards = [parse_cards(row[0]) for row in rows]  # type: ignore[arg-type]
        units = [[_units(row[1 + i]) for i in range(len(FIGURES))] + [_count(row[-1])] for row in rows]
    except (CardParseError, TypeError, ValueError, IndexError, OverflowError):
        return None
    if not rows or any(len(row) != len(FIGURES) + 2 for row in rows):
        return None
    width = len(cards[0])
    if not 0 < width < 256 or any(len(option) != width for option in cards):
        return None
    columns = _columns(units)
    if any(not 0 <= value < 1 << 32 for column in columns for value in column):
        return None
    numbers = array("I", (value for column in columns for value in column))
    if sys.byteorder == "big":
        numbers.byteswap()
    raw = numbers.tobytes()
    body = bytes([width]) + bytes(int(card) for option in cards for card in option)
    body += bytes(
        sum(1 << i for i, v in enumerate(row[1 : 1 + len(FIGURES)]) if _negative_zero(v)) for row in rows
    )
    body += b"".join(raw[plane::4] for plane in range(4))
    text = base64.b64encode(zlib.compress(body, 9)).decode("ascii")
    return "\n".join(text[at : at + LINE] for at in range(0, len(text), LINE))


def unpack_rows(text: str) -> list[list[object]]:
    """Version 2's text as version 1 rows: [option text, eight figures (floats), samples]."""
    try:
        packed = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise PackError("not base64 text (letters, digits, '+', '/' and '=' padding)") from None
    unzip = zlib.decompressobj()
    try:
        body = unzip.decompress(packed, LARGEST)
    except zlib.error as error:
        raise PackError(f"not zlib-compressed data ({error})") from None
    if unzip.unconsumed_tail:
        raise PackError(f"unpacks to more than {LARGEST:,} bytes: not a puzzle's options")
    if not unzip.eof:
        raise PackError("cut short: the compressed data ends too soon")
    if not body or body[0] == 0:
        raise PackError("empty: no option is packed")
    width = body[0]
    row_bytes = width + 1 + 4 * (len(FIGURES) + 1)
    count, extra = divmod(len(body) - 1, row_bytes)
    if extra or not count:
        raise PackError(
            f"{len(body) - 1:,} bytes of options are not a whole number of rows of {row_bytes} "
            f"(options of {width} cards)"
        )
    card_bytes, planes = body[1 : 1 + count * width], body[1 + count * (width + 1) :]
    zeros = body[1 + count * width : 1 + count * (width + 1)]
    raw = bytearray(len(planes))
    size = len(planes) // 4
    for plane in range(4):
        raw[plane::4] = planes[plane * size : (plane + 1) * size]
    numbers = array("I")
    numbers.frombytes(bytes(raw))
    if sys.byteorder == "big":
        numbers.byteswap()
    columns = [numbers[at * count : (at + 1) * count] for at in range(len(ORDER) + 1)]
    if bad := next((b for b in card_bytes if b >= 52), None):
        index = card_bytes.index(bad) // width
        raise PackError(f"option {index}: card number {bad} is not a card (0 to 51)")
    figures = _figures(columns, count)
    in_rows = [figures[name] for name in FIGURES]  # version 1's order
    rows = []
    for index in range(count):
        option = card_bytes[index * width : (index + 1) * width]
        text = " ".join([CODES[b] for b in option])
        values = [column[index] / UNIT for column in in_rows]
        if zeros[index]:
            for at, name in enumerate(FIGURES):
                if zeros[index] >> at & 1:
                    if values[at] != 0:
                        raise PackError(f"option {index}: {name} is marked -0.0 but is {values[at]}")
                    values[at] = -0.0
            if zeros[index] >> len(FIGURES):
                raise PackError(f"option {index}: its -0.0 marks name no figure ({zeros[index]:#04x})")
        rows.append([text, *values, columns[-1][index]])
    return rows


def _columns(units: list[list[int]]) -> list[list[int]]:
    """Each column of ``ORDER`` as zigzagged departures from its prediction, then samples."""
    named = [dict(zip(FIGURES, row[:-1], strict=True)) for row in units]
    first = named[0]["difference"]
    columns: list[list[int]] = [[] for _ in range(len(ORDER) + 1)]
    before = {"difference": 0, "others": 0}
    for row, values in zip(units, named, strict=True):
        predicted = {
            "difference": before["difference"],
            "others": before["others"],
            "points": values["difference"] + values["others"],
            "loss": values["difference"] - first,
        }
        for at, name in enumerate(ORDER):
            columns[at].append(_zigzag(values[name] - predicted.get(name, 0)))
        columns[-1].append(row[-1])
        before = values
    return columns


def _figures(columns: list[array], count: int) -> dict[str, list[int]]:
    """``_columns`` undone: each figure of ``ORDER`` in ten-thousandths, row by row."""
    departures = {name: [_unzigzag(value) for value in columns[at][:count]] for at, name in enumerate(ORDER)}
    figures = dict(departures)
    for name in ("difference", "others"):  # each from the row before
        figures[name] = list(itertools.accumulate(departures[name]))
    difference, others = figures["difference"], figures["others"]
    figures["points"] = [d + o + p for d, o, p in zip(difference, others, departures["points"], strict=True)]
    first = difference[0] if count else 0
    figures["loss"] = [d - first + p for d, p in zip(difference, departures["loss"], strict=True)]
    return figures


def _units(value: object) -> int:
    """A figure in ten-thousandths, when that keeps it exactly (the loader divides back)."""
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError("a figure is a float")
    units = round(value * UNIT)
    if repr(units / UNIT) != repr(abs(value) if value == 0 else value):  # repr: exact; -0.0 is marked apart
        raise ValueError("not a whole number of ten-thousandths")
    return units


def _negative_zero(value: object) -> bool:
    return isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("a count is an int")
    return value


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


def _unzigzag(value: int) -> int:
    return value // 2 if value % 2 == 0 else -(value + 1) // 2
