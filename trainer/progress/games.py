"""Finished games against bots, kept so they can be reviewed.

A game record is plain JSON: the learner's seat, the opponents' levels, and every hand as a
hand record (``engine.hand_to_record``: its deal and every action), in order::

    {"format": "hearts-trainer/table-game", "version": 1, "seat": 0,
     "opponents": {"1": "normal", ...}, "hands": [{hand record}, ...]}

Each hand carries its own deal, so a game from a lesson whose first hand was set up by hand is
kept as exactly as a seeded one. A room's game may add ``"bot_made": [[hand, action], ...]``:
the seat's actions a bot made for it (its timer ran out, or it was away), which a review does
not grade as the learner's.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import HandState, hand_from_record, hand_to_record
from engine.excerpt import clip, excerpt
from engine.records import RecordError, loads

from ..store import Store
from .decisions import now

__all__ = [
    "GAME_FORMAT",
    "SavedGame",
    "game_record",
    "is_seat_action",
    "last_game",
    "load_game",
    "load_games",
    "readable_games",
    "save_game",
]

GAME_FORMAT = "hearts-trainer/table-game"


def game_record(
    hands: Sequence[HandState],
    seat: int,
    opponents: Mapping[int, str] | None = None,
    bot_made: Collection[tuple[int, int]] = (),
) -> dict:
    """A finished game's record: its hands in order, as the learner at ``seat`` played them;
    ``bot_made``: (hand index, index in its history) of the seat's actions a bot made for it."""
    record = {
        "format": GAME_FORMAT,
        "version": 1,
        "seat": seat,
        "opponents": {str(s): level for s, level in (opponents or {}).items()},
        "hands": [hand_to_record(hand) for hand in hands],
    }
    if bot_made:
        record["bot_made"] = [list(pair) for pair in sorted(bot_made)]
    return record


@dataclass(frozen=True)
class SavedGame:
    id: int
    key: str
    seat: int
    opponents: dict[str, str]
    hands: tuple[HandState, ...]
    totals: tuple[int, ...]
    finished_at: str
    reviewed_at: str | None
    review: dict | None
    """The review's summary figures, once reviewed (``trainer.review``)."""
    bot_made: frozenset[tuple[int, int]] = frozenset()
    """The seat's actions a bot made for it (a room's timer or absence): not the learner's."""

    @property
    def score_rows(self) -> list[tuple[int, ...]]:
        return [hand.result.scores for hand in self.hands]


def _totals(hands: Sequence[HandState]) -> tuple[int, ...]:
    totals = [0] * hands[0].players
    for hand in hands:
        for seat, points in enumerate(hand.result.scores):
            totals[seat] += points
    return tuple(totals)


def save_game(store: Store, record: dict, key: str) -> int:
    """Keep a finished game (or replace the one saved under ``key``); its id."""
    if record.get("format") != GAME_FORMAT:
        raise ValueError(f"not a game record: format {excerpt(record.get('format'))}")
    hands = [hand_from_record(hand) for hand in record["hands"]]
    if not hands or not all(hand.is_over for hand in hands):
        raise ValueError("only a game whose every hand is finished can be kept")
    totals = json.dumps(list(_totals(hands)))
    with store.transaction() as db:
        db.execute(
            "INSERT INTO games (key, seat, opponents, record, totals, finished_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET record = excluded.record, totals = excluded.totals, "
            "finished_at = excluded.finished_at, reviewed_at = NULL, review = NULL",
            (key, record["seat"], json.dumps(record["opponents"]), json.dumps(record), totals, now()),
        )
        game_id = db.execute("SELECT id FROM games WHERE key = ?", (key,)).fetchone()[0]
        db.execute("DELETE FROM decisions WHERE source = 'game' AND game_id = ?", (game_id,))
    return game_id


_COLUMNS = "id, key, seat, opponents, record, totals, finished_at, reviewed_at, review"


def _saved(row: tuple[Any, ...]) -> SavedGame:
    game_id, key, seat, opponents, record, totals, finished_at, reviewed_at, review = row
    column = "record"
    try:  # a row that does not read back is named (and left as it is), not a bare crash
        data = loads(record)
        hands = tuple(hand_from_record(hand) for hand in data["hands"])
        bot_made = _bot_made(data.get("bot_made", []), hands, seat)
        column = "opponents"
        opponents = loads(opponents)
        column = "totals"
        totals = tuple(loads(totals))
        column = "review"
        review = loads(review) if review else None
    except (RecordError, KeyError, TypeError) as error:
        raise RecordError(f"games row {game_id}, {column}: {clip(str(error))}") from None
    return SavedGame(game_id, key, seat, opponents, hands, totals, finished_at, reviewed_at, review, bot_made)


def _bot_made(pairs: object, hands: Sequence[HandState], seat: int) -> frozenset[tuple[int, int]]:
    """The record's ``bot_made``, each pair naming one of ``seat``'s actions."""
    if not isinstance(pairs, list):
        raise RecordError(f"bot_made: expected a list of [hand, action] pairs, not {excerpt(pairs)}")
    made = set()
    for pair in pairs:
        ok = isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair)
        if not (ok and is_seat_action(hands, seat, *pair)):
            raise RecordError(f"bot_made: {excerpt(pair)} is not an action of seat {seat}")
        made.add((pair[0], pair[1]))
    return frozenset(made)


def is_seat_action(hands: Sequence[HandState], seat: int, hand: int, index: int) -> bool:
    """Whether action ``index`` of hand ``hand``'s history is one of ``seat``'s (a ``bot_made`` pair)."""
    history = hands[hand].history if 0 <= hand < len(hands) else ()
    return 0 <= index < len(history) and getattr(history[index], "seat", None) == seat


def load_games(store: Store) -> list[SavedGame]:
    """Every kept game, oldest first."""
    return [_saved(row) for row in store.query(f"SELECT {_COLUMNS} FROM games ORDER BY finished_at, id")]


def readable_games(store: Store) -> tuple[list[SavedGame], list[str]]:
    """Every kept game that reads back, oldest first, and a sentence for each row that does not
    (left in the file as it is)."""
    games, problems = [], []
    for row in store.query(f"SELECT {_COLUMNS} FROM games ORDER BY finished_at, id"):
        try:
            games.append(_saved(row))
        except RecordError as error:
            problems.append(str(error))
    return games, problems


def load_game(store: Store, game_id: int) -> SavedGame:
    rows = store.query(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if not rows:
        raise KeyError(f"no game {game_id}")
    return _saved(rows[0])


def last_game(store: Store) -> SavedGame | None:
    rows = store.query(f"SELECT {_COLUMNS} FROM games ORDER BY finished_at DESC, id DESC LIMIT 1")
    return _saved(rows[0]) if rows else None
