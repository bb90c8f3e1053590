"""Checks of single values read from a user's file: each takes the value and returns it, or
raises ``Bad`` with a short reason that quotes at most an excerpt of it (never a 50 MB value).

The caller puts the file and the field in front (``trainer.progress.schema``). A check that reads
JSON kept in a text column parses it and checks its shape, so what a page later loads from the
store is what was checked here.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from engine import PassDirection, Rules, RulesError
from engine.cards import CARDS, CardParseError, parse_card
from engine.excerpt import clip, excerpt
from engine.records import RecordError, loads

__all__ = [
    "INT64",
    "Bad",
    "FieldCheck",
    "cards",
    "hand_record",
    "integer",
    "json_text",
    "key",
    "list_of",
    "mapping",
    "name",
    "object_with",
    "one_of",
    "real",
    "rules",
    "text",
    "timestamp",
]

INT64 = (-(2**63), 2**63 - 1)
"""What SQLite keeps in an INTEGER column: a wider number is an OverflowError there."""


class Bad(ValueError):
    """A value that fails its check; ``field`` is a path below the checked value (``.rules``)."""

    def __init__(self, reason: str, field: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field


FieldCheck = Callable[[Any], Any]


def name(value: object) -> str:
    """A key of the file as a field's name: as it is when short, plain text, else an excerpt."""
    plain = isinstance(value, str) and len(value) <= 40 and value.isprintable()
    if plain and not any("\ud800" <= char <= "\udfff" for char in value):
        return value
    return excerpt(value, 40)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(low: int = INT64[0], high: int = INT64[1]) -> FieldCheck:
    def check(value: Any) -> int:
        if not _is_int(value):
            raise Bad(f"expected a whole number, not {excerpt(value)}")
        if not low <= value <= high:
            raise Bad(f"must be {low:,} to {high:,}, not {excerpt(value)}")
        return value

    return check


def real(low: float = -1e300, high: float = 1e300) -> FieldCheck:
    def check(value: Any) -> float:
        if not ((_is_int(value) and INT64[0] <= value <= INT64[1]) or isinstance(value, float)):
            raise Bad(f"expected a number, not {excerpt(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise Bad(f"must be a finite number, not {value}")
        if not low <= value <= high:
            raise Bad(f"must be {low:g} to {high:g}, not {excerpt(value)}")
        return value

    return check


def text(longest: int = 200, pattern: str | None = None, what: str = "") -> FieldCheck:
    """A string of at most ``longest`` characters, valid Unicode (no lone surrogate), matching
    ``pattern`` when given (``what`` says what it should look like)."""
    shape = re.compile(pattern) if pattern else None

    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise Bad(f"expected text, not {excerpt(value)}")
        if len(value) > longest:
            raise Bad(f"{len(value):,} characters, more than the {longest:,} it may hold: {excerpt(value)}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            lone = value[error.start]
            raise Bad(f"not valid text: a lone surrogate {lone!r} at character {error.start}") from None
        if shape is not None and not shape.fullmatch(value):
            raise Bad(f"{excerpt(value)} is not {what or 'of the expected form'}")
        return value

    return check


key = text(200, r"[^\x00-\x1f]+", "a name (1 to 200 characters, no control characters)")
"""A lesson, step, puzzle or place name."""


def one_of(choices: Iterable[str]) -> FieldCheck:
    allowed = tuple(choices)

    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise Bad(f"{excerpt(value)} is not one of {', '.join(allowed)}")
        return value

    return check


_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?")


def timestamp(value: Any) -> str:
    """A time as the store writes it: ``2026-01-31T09:05:00``."""
    if not isinstance(value, str) or not _TIME.fullmatch(value):
        raise Bad(f"expected a time such as '2026-01-31T09:05:00', not {excerpt(value)}")
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError as error:
        raise Bad(f"{excerpt(value)} is not a time: {clip(str(error), 80)}") from None
    return value


@functools.lru_cache(maxsize=4096)
def _cards(value: str) -> int:
    """How many distinct cards ``value`` names (``QS AH KH``); CardParseError if one is not a card."""
    parsed = [parse_card(part) for part in value.split()]
    if len(set(parsed)) != len(parsed):
        raise CardParseError(f"{excerpt(value)} names a card twice")
    return len(parsed)


def cards(fewest: int = 1, most: int = 52) -> FieldCheck:
    """Card codes separated by spaces (``QS AH KH``), between ``fewest`` and ``most`` of them."""

    def check(value: Any) -> str:
        text(200)(value)
        try:
            count = _cards(value)
        except CardParseError as error:
            raise Bad(clip(str(error), 160)) from None
        if not fewest <= count <= most:
            wanted = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise Bad(f"{excerpt(value)} names {count} cards, not {wanted}")
        return value

    return check


def json_text(shape: FieldCheck, longest: int = 5_000_000) -> FieldCheck:
    """Text holding JSON (a record kept in a column), parsed and checked with ``shape``."""
    outer = text(longest)

    def check(value: Any) -> Any:
        outer(value)
        try:
            parsed = loads(value)
        except RecordError as error:
            raise Bad(clip(str(error).removeprefix("record: "), 160)) from None
        return shape(parsed)

    return check


def _field(data: dict, field: str, check: FieldCheck) -> Any:
    if field not in data:
        raise Bad("missing", f".{field}")
    try:
        return check(data[field])
    except Bad as bad:
        raise Bad(bad.reason, f".{field}{bad.field}") from None


def _object(value: Any) -> dict:
    if not isinstance(value, dict):
        raise Bad(f"expected an object, not {excerpt(value)}")
    return value


def list_of(check: FieldCheck, longest: int = 1000) -> FieldCheck:
    """A list of at most ``longest`` items, each passing ``check``."""

    def each(value: Any) -> list:
        if not isinstance(value, list):
            raise Bad(f"expected a list, not {excerpt(value)}")
        if len(value) > longest:
            raise Bad(f"{len(value):,} items, more than {longest:,}")
        for index, item in enumerate(value):
            try:
                check(item)
            except Bad as bad:
                raise Bad(bad.reason, f"[{index}]{bad.field}") from None
        return value

    return each


@functools.lru_cache(maxsize=256)
def _rules_of(frozen: tuple) -> Rules:
    return Rules.from_dict(dict(frozen))


def rules(value: Any) -> Rules:
    _object(value)
    try:
        return _rules_of(tuple(sorted(value.items())))
    except TypeError:  # a value that cannot be a key (a list): not a rule's value either
        raise Bad(f"expected the rules' options, not {excerpt(value)}") from None
    except RulesError as error:
        reason = str(error).removeprefix("rules")
        field, _, why = reason.partition(": ")
        raise Bad(clip(why or reason, 160), field if field.startswith(".") else "") from None


_one_card = cards(1, 1)
_CODES = frozenset(card.code for card in CARDS)
_SEED = integer(0, 2**64 - 1)
_DIRECTION = one_of(d.value for d in PassDirection)


def _card(value: Any) -> str:
    """One card's code; the usual ``QS`` found at once (a position holds dozens)."""
    if value.__class__ is str and value in _CODES:
        return value
    return _one_card(value)


def hand_record(value: Any) -> dict:
    """The shape of a hand record (``engine.records``): header, rules, deal, pass direction and
    actions, every card a card. Where every action is legal is left to the page that replays it
    (``hand_from_record``): a decision's position is kept, never replayed, by the pages."""
    _object(value)
    if value.get("format") != "hearts-trainer/hand":
        raise Bad(f"expected 'hearts-trainer/hand', not {excerpt(value.get('format'))}", ".format")
    if value.get("version") != 1:
        raise Bad(f"this program reads version 1, not {excerpt(value.get('version'))}", ".version")
    table = _field(value, "rules", rules)
    deal = _field(value, "deal", _object)
    if "seed" in deal:
        _field(deal, "seed", _SEED)
    else:
        try:
            _field(deal, "hands", list_of(list_of(_card, 52), table.players))
        except Bad as bad:
            raise Bad(bad.reason, f".deal{bad.field}") from None
    _field(value, "pass_direction", _DIRECTION)
    _field(value, "actions", _actions(table.players))
    return value


@functools.lru_cache(maxsize=8)
def _actions(players: int) -> FieldCheck:
    seat, passed = integer(0, players - 1), list_of(_card, 52)
    moon = text(40)

    def action(value: Any) -> None:
        _object(value)
        if "pass" in value:
            _field(value, "seat", seat)
            _field(value, "pass", passed)
        elif "play" in value:
            _field(value, "play", _card)
        elif "moon" in value:
            _field(value, "moon", moon)
        else:
            raise Bad(f"expected 'pass', 'play' or 'moon', not {excerpt(value)}")

    def check(value: Any) -> list:
        if not isinstance(value, list):
            raise Bad(f"expected a list, not {excerpt(value)}")
        if len(value) > 300:
            raise Bad(f"{len(value):,} actions, more than a hand holds")
        for index, item in enumerate(value):
            if item.__class__ is dict and len(item) == 1:  # a play, the most of them: at once
                card = item.get("play")
                if card.__class__ is str and card in _CODES:
                    continue
            try:
                action(item)
            except Bad as bad:
                raise Bad(bad.reason, f"[{index}]{bad.field}") from None
        return value

    return check


def object_with(fields: dict[str, FieldCheck], optional: Iterable[str] = ()) -> FieldCheck:
    """An object holding these fields (each checked); others may be there too."""
    may_miss = set(optional)

    def check(value: Any) -> dict:
        _object(value)
        for name, inner in fields.items():
            if name in value or name not in may_miss:
                _field(value, name, inner)
        return value

    return check


def mapping(keys: FieldCheck, values: FieldCheck, longest: int = 100) -> FieldCheck:
    def check(value: Any) -> dict:
        _object(value)
        if len(value) > longest:
            raise Bad(f"{len(value):,} entries, more than {longest:,}")
        for key_, inner in value.items():
            keys(key_)
            try:
                values(inner)
            except Bad as bad:
                raise Bad(bad.reason, f".{name(key_)}{bad.field}") from None
        return value

    return check
