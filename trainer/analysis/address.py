"""A position in a page address: compact, versioned, safe in a URL query value.

``1.`` then base64url (no padding) of the position's fields packed in bits, a checksum byte last:

======================= =====================================================================
players - 3             3 bits
preset                  5 bits: its place in ``PRESET_CODES`` (new presets are added at the end)
moment                  1 bit: pass, play
direction               2 bits: left, right, across, hold
hand                    52 bits: one a card
passed, received        4 bits (how many), then 6 bits a card
tricks                  5 bits (how many); each: 3 bits its leader, 3 bits its cards, 6 a card
scores                  1 bit (all zero); else 11 bits a seat, two's complement
checksum                8 bits: the low byte of the CRC-32 of the bytes before it
======================= =====================================================================

A position of 4 players at its last trick is about 70 bytes, under 100 characters.
``from_address`` reads an address like any user file: a length cap, a known version, sound
base64, the checksum, every field in range and nothing left over, then the position's own
``check``; anything else is one ``PositionError`` line with field "address".
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from engine import CARDS
from engine.excerpt import excerpt
from engine.rules import PassDirection

from .errors import PositionError
from .position import MOMENTS, AnalysisPosition, Trick

__all__ = ["LONGEST", "PRESET_CODES", "VERSION", "from_address", "to_address"]

VERSION = 1
LONGEST = 400
"""Characters an address may have: every position fits in well under 200."""

PRESET_CODES = (
    "standard",
    "short_game",
    "no_hold",
    "queen_breaks_hearts",
    "points_on_first_trick",
    "new_moon",
    "shooters_choice",
    "omnibus",
    "spot_hearts",
    "black_maria",
    "play_off_ties",
    "openspiel",
    "three_players",
    "five_players",
    "six_players",
    "seven_players",
)
"""The presets by their number in an address: a number once given is never changed."""

DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)
SCORE_BITS = 11
_SHAPE = re.compile(r"(\d{1,4})\.([A-Za-z0-9_-]*)")


class _Bits:
    def __init__(self) -> None:
        self.value = 0
        self.count = 0

    def put(self, value: int, bits: int) -> None:
        self.value = self.value << bits | value
        self.count += bits

    def data(self) -> bytes:
        pad = -self.count % 8
        return (self.value << pad).to_bytes((self.count + pad) // 8, "big")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.value = int.from_bytes(data, "big")
        self.left = len(data) * 8

    def take(self, bits: int) -> int:
        if bits > self.left:
            raise PositionError("address", "it ends too early: part of it is missing (copy the whole link)")
        self.left -= bits
        return self.value >> self.left & ((1 << bits) - 1)


def _put_cards(bits: _Bits, cards: tuple) -> None:
    bits.put(len(cards), 4)
    for card in cards:
        bits.put(card, 6)


def to_address(pos: AnalysisPosition) -> str:
    """The position as a query value (``/analysis/?p=...``); ``from_address`` gives it back
    exactly. The position is checked first: only a possible position has an address."""
    pos.check()
    bits = _Bits()
    bits.put(pos.players - 3, 3)
    bits.put(PRESET_CODES.index(pos.preset), 5)
    bits.put(MOMENTS.index(pos.moment), 1)
    bits.put(DIRECTIONS.index(pos.direction), 2)
    bits.put(sum(1 << card for card in pos.hand), 52)
    _put_cards(bits, pos.passed)
    _put_cards(bits, pos.received)
    bits.put(len(pos.tricks), 5)
    for trick in pos.tricks:
        bits.put(trick.leader, 3)
        bits.put(len(trick.cards), 3)
        for card in trick.cards:
            bits.put(card, 6)
    zero = not any(pos.scores)
    bits.put(zero, 1)
    if not zero:
        for score in pos.scores:
            bits.put(score & ((1 << SCORE_BITS) - 1), SCORE_BITS)
    data = bits.data()
    data += bytes([zlib.crc32(data) & 0xFF])
    return f"{VERSION}." + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _card(reader: _Reader, where: str):
    value = reader.take(6)
    if value >= 52:
        raise PositionError("address", f"{where}: {value} is not a card number")
    return CARDS[value]


def _cards(reader: _Reader, where: str) -> tuple:
    return tuple(_card(reader, where) for _ in range(reader.take(4)))


def _decode(data: bytes) -> AnalysisPosition:
    reader = _Reader(data)
    players = reader.take(3) + 3
    if players > 7:
        raise PositionError("address", f"players: {players} is not 3 to 7")
    code = reader.take(5)
    if code >= len(PRESET_CODES):
        raise PositionError("address", f"preset: number {code} is not one this app knows")
    moment = MOMENTS[reader.take(1)]
    direction = DIRECTIONS[reader.take(2)]
    mask = reader.take(52)
    hand = tuple(card for card in CARDS if mask >> card & 1)
    passed = _cards(reader, "passed")
    received = _cards(reader, "received")
    tricks = []
    for number in range(1, reader.take(5) + 1):
        leader, count = reader.take(3), reader.take(3)
        tricks.append(Trick(leader, tuple(_card(reader, f"trick {number}") for _ in range(count))))
    scores = ()
    if not reader.take(1):
        scores = tuple(_signed(reader.take(SCORE_BITS)) for _ in range(players))
    if reader.left >= 8 or reader.value & ((1 << reader.left) - 1):
        raise PositionError("address", "it has more than a position in it: check that the link is whole")
    return AnalysisPosition(
        players, PRESET_CODES[code], moment, hand, direction, passed, received, tuple(tricks), scores
    )


def _signed(value: int) -> int:
    return value - (1 << SCORE_BITS) if value >> (SCORE_BITS - 1) else value


def from_address(text: str) -> AnalysisPosition:
    """The position an address holds, checked (``AnalysisPosition.check``); anything else raises
    ``PositionError`` with field "address"."""
    if not isinstance(text, str):
        raise PositionError("address", f"expected text, got {excerpt(text, 40)}")
    if len(text) > LONGEST:
        raise PositionError(
            "address", f"{len(text):,} characters is too long for a position (at most {LONGEST})"
        )
    text = text.strip()
    shape = _SHAPE.fullmatch(text)
    if shape is None:
        if re.match(r"\d{1,4}\.", text):
            raise PositionError("address", "it has characters no position address has (only A-Z a-z 0-9 - _)")
        raise PositionError(
            "address", f"{excerpt(text, 40)} does not start with a version such as '{VERSION}.'"
        )
    version, body = int(shape.group(1)), shape.group(2)
    if version != VERSION:
        raise PositionError(
            "address", f"version {version} is not one this app reads (it reads version {VERSION})"
        )
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise PositionError("address", "it is not sound base64: part of it is missing or changed") from None
    if len(data) < 2:
        raise PositionError("address", "it is too short to hold a position")
    if zlib.crc32(data[:-1]) & 0xFF != data[-1]:
        raise PositionError("address", "it is damaged (its checksum does not match): copy the whole link")
    pos = _decode(data[:-1])
    try:
        pos.check()
    except PositionError as error:
        raise PositionError("address", f"this position cannot happen: {error}") from None
    return pos
