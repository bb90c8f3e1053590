"""What each column of the learner's progress may hold, and the check of a row against it.

One entry per table and column (``SCHEMA``): its check (``trainer.progress.checks``), whether a
row may leave it out and whether it may be null; then the checks that need the whole row (a
pass names as many cards as the rules pass, a kept game reads back as the review page reads
it, a game in play resumes as lesson 9 resumes it). ``import-progress`` runs every row of a
file through here before it writes anything; a column the store has and ``SCHEMA`` does not
(a later migration) still gets its declared type's check.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import PassDirection, Rules
from engine.deal import MAX_PLAYERS, hand_size
from engine.excerpt import clip, excerpt
from engine.records import RecordError

from ..coach.grading import BANDS
from . import checks as c
from .checks import Bad, FieldCheck

__all__ = ["SCHEMA", "Column", "check_row", "column_check"]


@dataclass(frozen=True)
class Column:
    check: FieldCheck
    required: bool = True
    """The row must hold it (the merge reads it); else a missing one takes the store's default."""
    nullable: bool = False


MOST_TRICKS = hand_size(3)
SEATS = c.integer(0, MAX_PLAYERS - 1)
COUNT = c.integer(0, 10**9)
FLAG = c.integer(0, 1)
LOSS = c.real(-1000, 1000)
"""Expected points lost: a hand holds at most a few dozen points, a learner's choice can lose
less than nothing (the evaluator's noise), never thousands."""
RATING = c.real(-5000, 10000)
DEVIATION = c.real(1e-6, 5000)
VOLATILITY = c.real(1e-9, 10)
ID = c.integer(1, c.INT64[1])
TIME = Column(c.timestamp)
MAYBE_TIME = Column(c.timestamp, required=False, nullable=True)
THEME = c.text(40, r"[a-z0-9_]+", "a theme's name (letters, digits and _)")
BAND = c.one_of(band.value for band in BANDS)
DIRECTION = c.one_of(d.value for d in PassDirection)
GAME = c.object_with(
    {
        "format": c.one_of(("hearts-trainer/table-game",)),
        "version": c.integer(1, 1),
        "hands": c.list_of(c.hand_record, 1000),
        "bot_made": c.list_of(c.list_of(c.integer(0, 10**6), 2), 100_000),  # checked on load too
    },
    optional=("bot_made",),
)


def _as_is(value: Any) -> Any:
    return value


LEVEL = c.text(40, r"[a-z][a-z0-9_ -]*", "a bot's level such as 'normal'")
FIGURE = c.real(-10_000, 10_000)
REVIEW = c.object_with(
    {
        "accuracy": c.real(0, 100),
        "loss_per_hand": FIGURE,
        **dict.fromkeys(("total_loss", "cards", "luck", "result"), FIGURE),
        "points": c.integer(-(10**6), 10**6),
        **dict.fromkeys(("hands", "decisions"), c.integer(0, 10**6)),
        "bands": c.mapping(c.text(40), c.integer(0, 10**6)),
        "per_hand": c.list_of(
            c.object_with(
                {
                    "hand": c.integer(1, 10_000),
                    "pass": DIRECTION,
                    "points": c.integer(-(10**6), 10**6),
                    **dict.fromkeys(("result", "cards", "decisions", "luck"), FIGURE),
                }
            ),
            10_000,
        ),
    },
    optional=("total_loss", "cards", "luck", "result", "hands", "decisions", "points", "bands", "per_hand"),
)
"""A review's summary (``GameReview.summary``): the page shows the first two."""
DAY = c.text(10, r"[0-9]{4}-[0-9]{2}-[0-9]{2}", "a day (YYYY-MM-DD)")
RECORD = 5_000_000
"""Characters a kept record may hold: a whole game is a few tens of thousands."""

SCHEMA: dict[str, dict[str, Column]] = {
    "lesson_progress": {
        "lesson": Column(c.key),
        "step": Column(c.integer(0, 999)),
        "steps": Column(c.integer(0, 999)),
        "completed_at": MAYBE_TIME,
        "updated_at": TIME,
    },
    "lesson_steps": {
        "lesson": Column(c.key),
        "step": Column(c.key),
        "attempts": Column(COUNT, required=False),
        "correct_at": MAYBE_TIME,
    },
    "puzzle_learner": {
        "id": Column(c.integer(1, 1)),
        "rating": Column(RATING),
        "deviation": Column(DEVIATION),
        "volatility": Column(VOLATILITY),
        "attempts": Column(COUNT),
        "updated_at": TIME,
    },
    "puzzle_records": {
        "puzzle": Column(c.key),
        "rating": Column(RATING),
        "deviation": Column(DEVIATION),
        "volatility": Column(VOLATILITY),
        "attempts": Column(COUNT),
        "solved": Column(COUNT),
        "box": Column(c.integer(0, 100)),
        "due": Column(COUNT, required=False, nullable=True),
        "updated_at": TIME,
    },
    "puzzle_attempts": {
        "id": Column(ID, required=False),
        "puzzle": Column(c.key),
        "choice": Column(c.cards(1, 13)),
        "solved": Column(FLAG),
        "counted": Column(FLAG),
        "band": Column(BAND),
        "loss": Column(LOSS),
        "learner_rating": Column(RATING),
        "puzzle_rating": Column(RATING),
        "at": TIME,
    },
    "games": {
        "id": Column(ID, required=False),
        "key": Column(c.key),
        "seat": Column(SEATS),
        "opponents": Column(c.json_text(c.mapping(c.text(1, r"[0-9]"), LEVEL), 10_000)),
        "record": Column(c.json_text(GAME, RECORD)),
        "totals": Column(c.json_text(c.list_of(c.integer(-(10**6), 10**6), MAX_PLAYERS), 1000)),
        "finished_at": TIME,
        "reviewed_at": MAYBE_TIME,
        "review": Column(c.json_text(REVIEW, RECORD), required=False, nullable=True),
    },
    "decisions": {
        "id": Column(ID, required=False),
        "source": Column(c.one_of(("lesson", "puzzle", "game"))),
        "ref": Column(c.text(200), required=False),
        "game_id": Column(ID, required=False, nullable=True),
        "hand_index": Column(c.integer(0, 10_000), required=False, nullable=True),
        "kind": Column(c.one_of(("pass", "play"))),
        "seat": Column(SEATS),
        "position": Column(c.json_text(c.hand_record, 100_000)),
        "choice": Column(c.cards(1, 13)),
        "best": Column(c.cards(1, 13)),
        "loss": Column(LOSS),
        "loss_error": Column(c.real(0, 1000)),
        "band": Column(BAND),
        "themes": Column(c.json_text(c.list_of(THEME, 50), 5000)),
        "phase": Column(c.one_of(("pass", "early", "middle", "late"))),
        "pass_direction": Column(DIRECTION),
        "trick": Column(c.integer(0, MOST_TRICKS)),
        "at": TIME,
    },
    "table_games": {
        "place": Column(c.key),
        "variant": Column(c.text(200)),
        "record": Column(c.json_text(_as_is, RECORD)),  # read whole by _game_in_play
        "updated_at": TIME,
    },
    "career_matches": {
        "id": Column(ID, required=False),
        "game_key": Column(c.key),
        "level": Column(c.integer(1, 11)),
        "target": Column(c.integer(1, 1000)),
        "result": Column(c.one_of(("won", "lost"))),
        "points": Column(c.json_text(c.list_of(c.integer(-(10**6), 10**6), 1000), 100_000)),
        "hands": Column(c.integer(1, 1000)),
        "finished_at": TIME,
    },
    "practice_items": {
        "puzzle": Column(c.key),
        "source": Column(c.one_of(("library", "moment"))),
        "step": Column(c.integer(0, 100)),
        "due": Column(DAY, nullable=True),
        "attempts": Column(COUNT),
        "solved": Column(COUNT),
        "updated_at": TIME,
    },
    "puzzle_streak": {
        "id": Column(c.integer(1, 1)),
        "current": Column(COUNT),
        "best": Column(COUNT),
        "updated_at": TIME,
    },
}


def column_check(kind: str) -> FieldCheck:
    """The check of a column ``SCHEMA`` does not know, from its declared SQLite type."""
    return {"INTEGER": c.integer(), "REAL": c.real()}.get(kind.upper()) or c.text(RECORD)


def _decision(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    """A decision's parts agree: a pass is made before the first trick, a play names one card and
    a pass as many as its rules pass."""
    if (row["kind"] == "pass") != (row["phase"] == "pass"):
        raise Bad(f"{row['phase']!r} is not the phase of a {row['kind']}", "phase")
    rules = c.rules(parsed["position"]["rules"])
    if row["seat"] >= rules.players:
        raise Bad(f"there is no seat {row['seat']} at a table of {rules.players}", "seat")
    count = 1 if row["kind"] == "play" else rules.pass_count
    wanted = "one card" if count == 1 else f"{count} cards"
    for name in ("choice", "best"):
        if len(row[name].split()) != count:
            raise Bad(f"{excerpt(row[name])}: a {row['kind']} here is {wanted}", name)


def _game(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    """A kept game reads back as the review page reads it, with a finished hand or more and
    totals for every seat."""
    from .games import _saved  # the page's own reader: what passes here opens there

    values = (row.get("id", 0), *(row.get(name) for name in ("key", "seat", "opponents", "record")))
    try:
        game = _saved((*values, row["totals"], row["finished_at"], row.get("reviewed_at"), row.get("review")))
    except RecordError as error:
        column = str(error).split(", ", 1)[-1].split(":", 1)[0]  # "games row 3, totals: ..."
        reason = clip(str(error).split(": ", 1)[-1], 200)
        raise Bad(reason, column if column in SCHEMA["games"] else "record") from None
    if not game.hands or not all(hand.is_over for hand in game.hands):
        raise Bad("a kept game has every hand played to its end", "record")
    players = game.hands[0].players
    if any(hand.players != players for hand in game.hands):
        raise Bad("its hands are not all for the same number of players", "record")
    if game.seat >= players:
        raise Bad(f"there is no seat {game.seat} at a table of {players}", "seat")
    if len(game.totals) != players:
        raise Bad(f"{len(game.totals)} totals for a table of {players}", "totals")
    if game.review is not None and game.reviewed_at is None:
        raise Bad("a reviewed game says when it was reviewed", "reviewed_at")


def _game_in_play(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    """A game in play resumes as a lesson's table resumes it (``TableSession.resume``)."""
    from ..table.session import TableError, TableSession

    record = parsed["record"]
    if not isinstance(record, dict):
        raise Bad(f"expected a game in play (an object), not {excerpt(record)}", "record")
    seat, hands = record.get("seat"), record.get("hands")
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < MAX_PLAYERS):
        raise Bad(f"expected the learner's seat, not {excerpt(seat)}", "record.seat")
    if not isinstance(hands, list) or not hands:
        raise Bad(f"expected a list of hands, not {excerpt(hands)}", "record.hands")
    try:
        first = c.hand_record(hands[0])
    except Bad as bad:
        raise Bad(bad.reason, f"record.hands[0]{bad.field}") from None
    fields = (("seed", c.integer(0, 2**64 - 1)), ("redeals", c.integer(0, 10_000)), ("key", c.key))
    for name, check in fields:
        try:
            check(record.get(name))
        except Bad as bad:
            raise Bad(bad.reason, f"record.{name}") from None
    rows = c.list_of(c.list_of(c.integer(-(10**6), 10**6), MAX_PLAYERS), 1000)
    try:
        rows(record.get("earlier_scores"))
    except Bad as bad:
        raise Bad(bad.reason, f"record.earlier_scores{bad.field}") from None
    players = c.rules(first["rules"]).players
    if seat >= players:
        raise Bad(f"there is no seat {seat} at a table of {players}", "record.seat")
    try:
        TableSession(Rules(players=players), seat=seat).resume(record)
    except TableError as error:
        raise Bad(clip(error.message, 200), "record") from None


def _lesson(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    if row["steps"] and row["step"] >= row["steps"]:
        raise Bad(f"step {row['step']} is past the lesson's {row['steps']} steps (counted from 0)", "step")


def _puzzle(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    if row["solved"] > row["attempts"]:
        raise Bad(f"more solved ({row['solved']}) than attempted ({row['attempts']})", "solved")


def _practice(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    if row["solved"] > row["attempts"]:
        raise Bad(f"more solved ({row['solved']}) than attempted ({row['attempts']})", "solved")
    if row.get("due") is not None:
        try:
            datetime.date.fromisoformat(row["due"])
        except ValueError:
            raise Bad(f"{excerpt(row['due'])} is not a day of the calendar", "due") from None


def _streak(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    if row["current"] > row["best"]:
        raise Bad(f"the current streak ({row['current']}) is longer than the best ({row['best']})", "current")


def _match(row: dict[str, Any], parsed: dict[str, Any]) -> None:
    """A career match has the learner's points for each hand it played."""
    if len(parsed["points"]) != row["hands"]:
        raise Bad(f"{len(parsed['points'])} hands' points for {row['hands']} hands played", "points")


ROW_CHECKS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "lesson_progress": _lesson,
    "puzzle_records": _puzzle,
    "decisions": _decision,
    "games": _game,
    "table_games": _game_in_play,
    "career_matches": _match,
    "practice_items": _practice,
    "puzzle_streak": _streak,
}


def check_row(table: str, row: object, columns: dict[str, Column]) -> dict[str, Any]:
    """ROW checked against ``columns`` (the table's, from ``SCHEMA`` and the store), then as a
    whole; ``Bad`` with the column as its field."""
    if not isinstance(row, dict):
        raise Bad(f"expected an object of columns, not {excerpt(row)}")
    for name in row:
        if name not in columns:
            raise Bad(f"not a column of {table}", f".{c.name(name)}")
    parsed: dict[str, Any] = {}  # each column's value as its check read it (JSON text parsed)
    for name, column in columns.items():
        if name not in row:
            if column.required:
                raise Bad("missing", f".{name}")
            continue
        value = row[name]
        if value is None:
            if not column.nullable:
                raise Bad("may not be null", f".{name}")
            continue
        try:
            parsed[name] = column.check(value)
        except Bad as bad:
            raise Bad(bad.reason, f".{name}{bad.field}") from None
    if whole := ROW_CHECKS.get(table):
        try:
            whole(row, parsed)
        except Bad as bad:
            raise Bad(bad.reason, f".{bad.field}" if bad.field else "") from None
    return row
