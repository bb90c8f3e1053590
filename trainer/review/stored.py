"""A finished game review kept whole with the game, so it reopens at once.

A review takes the evaluator through every decision (tens of seconds, more on a busy machine).
Once done, ``keep_review`` stores with the game's summary figures (``games.review``, JSON) its key
moments and each moment's replay puzzle; ``stored_review`` reads it back as a ``StoredReview``,
which the review page shows as it shows a fresh ``GameReview``. A summary kept by an older
version (no key moments) or one that does not read back gives None: the page offers the review.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass

from ..progress.games import SavedGame
from ..puzzles.format import puzzle_from_data, puzzle_text
from ..store import Store
from .game import GameReview, Moment, moment_label, save_review
from .notes import hand_note
from .replay import moment_puzzle

__all__ = [
    "STORED",
    "StoredDecision",
    "StoredHand",
    "StoredMoment",
    "StoredReview",
    "keep_review",
    "stored_review",
]

STORED = 1
"""The version of what ``keep_review`` adds to the summary (its ``"stored"`` key)."""

BANDS = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class StoredDecision:
    """What the page reads of a key moment's decision (as ``Decision`` has it)."""

    kind: str
    trick: int
    seat: int
    choice: str
    best: str
    loss: float
    band: str
    game_id: int | None


@dataclass(frozen=True)
class StoredMoment:
    decision: StoredDecision
    hand_index: int
    players: int
    puzzle: dict
    """The moment as a puzzle's plain data (``trainer.review.replay.moment_puzzle``)."""

    @property
    def loss(self) -> float:
        return self.decision.loss

    @property
    def label(self) -> str:
        return moment_label(self.hand_index, self.decision)  # type: ignore[arg-type]


@dataclass(frozen=True)
class StoredHand:
    index: int
    pass_direction: str
    points: int
    result: float
    cards: float
    decisions_loss: float
    luck: float
    note: str | None = None
    """The note on a hand whose decisions pass its points (``notes.hand_note``), checked when kept."""


@dataclass(frozen=True)
class StoredReview:
    """A kept review, with the figures and key moments a ``GameReview`` gives the page."""

    reviewed_at: str
    accuracy: float
    loss_per_hand: float
    total_loss: float
    decisions: int
    points: int
    cards: float
    luck: float
    result: float
    counts: dict[str, int]
    hands: tuple[StoredHand, ...]
    moments: tuple[StoredMoment, ...]

    def bands(self) -> dict[str, int]:
        return dict(self.counts)

    def key_moments(self) -> list[StoredMoment]:
        return list(self.moments)


def _moment_data(moment: Moment) -> dict:
    d = moment.decision
    return {
        "hand": moment.hand_index,
        "kind": d.kind,
        "trick": d.trick,
        "seat": d.seat,
        "choice": d.choice,
        "best": d.best,
        "loss": d.loss,
        "band": d.band,
        "players": moment.state.players,
        "puzzle": moment_puzzle(moment, "review"),
    }


def keep_review(store: Store, review: GameReview) -> None:
    """Save a finished review (``save_review``) with its key moments and their replay puzzles."""
    moments = [_moment_data(moment) for moment in review.key_moments()]
    notes = {str(note.hand): note.text for note in filter(None, map(hand_note, review.hands))}
    save_review(store, review, {"stored": STORED, "moments": moments, "notes": notes})


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where} is not a finite number")
    return float(value)


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where} is not a count")
    return value


def _integer(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
        raise ValueError(f"{where} is not a whole number in range")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where} is not text")
    return value


def _note(value: object) -> str | None:
    return None if value is None else _text(value, "notes")


def _read(summary: dict, reviewed_at: str, game_id: int) -> StoredReview:
    notes = summary.get("notes", {})
    if not isinstance(notes, dict):
        raise ValueError("notes is not a table of hands")
    hands = tuple(
        StoredHand(
            _count(h["hand"], "per_hand.hand") - 1,
            _text(h["pass"], "per_hand.pass"),
            _integer(h["points"], "per_hand.points"),
            _number(h["result"], "per_hand.result"),
            _number(h["cards"], "per_hand.cards"),
            _number(h["decisions"], "per_hand.decisions"),
            _number(h["luck"], "per_hand.luck"),
            _note(notes.get(str(h["hand"] - 1))),
        )
        for h in summary["per_hand"]
    )
    moments = []
    for m in summary["moments"]:
        if not isinstance(m["puzzle"], dict):
            raise ValueError("moments.puzzle is not a puzzle")
        # its replay must load as the file it is written to (PuzzleError, a ValueError, otherwise)
        puzzle_from_data(tomllib.loads(puzzle_text(m["puzzle"])), "moments.puzzle")
        decision = StoredDecision(
            _text(m["kind"], "moments.kind"),
            _count(m["trick"], "moments.trick"),
            _count(m["seat"], "moments.seat"),
            _text(m["choice"], "moments.choice"),
            _text(m["best"], "moments.best"),
            _number(m["loss"], "moments.loss"),
            _text(m["band"], "moments.band"),
            game_id,
        )
        hand, players = _count(m["hand"], "moments.hand"), _count(m["players"], "moments.players")
        moments.append(StoredMoment(decision, hand, players, m["puzzle"]))
    counts = {band: _count(summary["bands"][band], f"bands.{band}") for band in BANDS}
    return StoredReview(
        reviewed_at,
        _number(summary["accuracy"], "accuracy"),
        _number(summary["loss_per_hand"], "loss_per_hand"),
        _number(summary["total_loss"], "total_loss"),
        _count(summary["decisions"], "decisions"),
        _integer(summary["points"], "points"),
        _number(summary["cards"], "cards"),
        _number(summary["luck"], "luck"),
        _number(summary["result"], "result"),
        counts,
        hands,
        tuple(moments),
    )


def stored_review(game: SavedGame | None) -> StoredReview | None:
    """The game's kept review, whole; None when it has none kept whole or it does not read back."""
    summary = game.review if game is not None else None
    if not isinstance(summary, dict) or summary.get("stored") != STORED or game.reviewed_at is None:
        return None
    try:
        return _read(summary, game.reviewed_at, game.id)
    except (KeyError, TypeError, ValueError):
        return None  # the page offers the review again: nothing kept is changed
