"""Graded decisions: every pass or play a learner makes in a lesson, a puzzle or a game, with the
evaluator's verdict on it, kept in the store's ``decisions`` table.

A decision holds the position before it (a hand record, ``engine.hand_to_record``, so it can be
set up again), the choice, the evaluator's best option, the expected loss against the best and
its standard error, the coach's band, the themes the position teaches, the phase of the hand and
the pass direction.

Phases: ``pass`` (the pass itself), then by the trick being played: ``early`` for tricks 1–4,
``late`` for the last four (10–13 with four players) and ``middle`` between.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import CardParseError, CardSet, HandState, hand_to_record, to_card
from engine.excerpt import clip
from engine.records import RecordError, loads
from engine.search.evaluator import Evaluation

from ..coach.grading import grade
from ..puzzles.themes import pass_themes, phase_of, play_themes
from ..store import Store

__all__ = [
    "PHASES",
    "SOURCES",
    "Decision",
    "graded_decision",
    "load_decisions",
    "now",
    "option_symbols",
    "option_text",
    "phase_of",
    "readable_decisions",
    "record_decisions",
]

PHASES = ("pass", "early", "middle", "late")
SOURCES = ("lesson", "puzzle", "game")

_COLUMNS = (
    "id",
    "source",
    "ref",
    "game_id",
    "hand_index",
    "kind",
    "seat",
    "position",
    "choice",
    "best",
    "loss",
    "loss_error",
    "band",
    "themes",
    "phase",
    "pass_direction",
    "trick",
    "at",
)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def option_text(option: object) -> str:
    """A card as its code (``QS``), a pass as codes in hand order (``QS AH KH``)."""
    if isinstance(option, CardSet):
        return " ".join(option.codes)
    return option.code  # type: ignore[attr-defined]


def option_symbols(text: str) -> str:
    """Card codes as the table shows them (``QS AH`` → ``Q♠ A♥``); anything else as it is."""
    try:
        return " ".join(str(to_card(code)) for code in text.split())
    except CardParseError:
        return text


@dataclass(frozen=True)
class Decision:
    source: str
    """``lesson``, ``puzzle`` or ``game``."""
    kind: str
    """``pass`` or ``play``."""
    seat: int
    position: dict
    """The hand before the decision, as a hand record."""
    choice: str
    best: str
    loss: float
    """Expected points lost against the best option (the evaluator's score difference)."""
    loss_error: float
    band: str
    themes: tuple[str, ...]
    phase: str
    pass_direction: str
    trick: int
    """1-based trick of the play; 0 for a pass."""
    ref: str = ""
    """Which lesson step (``l02_passing/queen``) or puzzle (``pass-003``) it came from."""
    game_id: int | None = None
    hand_index: int | None = None
    at: str = ""
    id: int | None = None

    @property
    def good(self) -> bool:
        """Best or good: what accuracy counts."""
        return self.band in ("best", "good")


def graded_decision(
    state: HandState,
    seat: int,
    choice: object,
    evaluation: Evaluation,
    *,
    source: str,
    ref: str = "",
    themes: Sequence[str] | None = None,
    game_id: int | None = None,
    hand_index: int | None = None,
    at: str = "",
) -> Decision:
    """The decision ``seat`` made at ``state`` (before it is made), graded against ``evaluation``
    of that position. Themes default to those the position implies (``trainer.puzzles.themes``)."""
    if source not in SOURCES:
        raise ValueError(f"source {source!r} is not one of {SOURCES}")
    g = grade(evaluation, choice)
    kind = evaluation.kind
    if themes is None:
        view = state.view(seat)
        finder = pass_themes if kind == "pass" else play_themes
        themes = finder(view, evaluation, g.chosen.option)
    trick = 0 if kind == "pass" else state.trick_number + 1
    return Decision(
        source=source,
        kind=kind,
        seat=seat,
        position=hand_to_record(state),
        choice=option_text(g.chosen.option),
        best=option_text(g.best.option),
        loss=float(g.loss),
        loss_error=float(g.loss_error),
        band=g.band.value,
        themes=tuple(themes),
        phase=phase_of(kind, trick, state.rules.hand_size),
        pass_direction=state.pass_direction.value,
        trick=trick,
        ref=ref,
        game_id=game_id,
        hand_index=hand_index,
        at=at or now(),
    )


def _row(decision: Decision) -> tuple:
    return (
        decision.source,
        decision.ref,
        decision.game_id,
        decision.hand_index,
        decision.kind,
        decision.seat,
        json.dumps(decision.position, separators=(",", ":")),
        decision.choice,
        decision.best,
        decision.loss,
        decision.loss_error if decision.loss_error == decision.loss_error else 0.0,
        decision.band,
        json.dumps(list(decision.themes)),
        decision.phase,
        decision.pass_direction,
        decision.trick,
        decision.at or now(),
    )


INSERT = f"INSERT INTO decisions ({', '.join(_COLUMNS[1:])}) VALUES ({', '.join('?' * (len(_COLUMNS) - 1))})"


def insert(db, decision: Decision) -> int:
    """Insert inside an open transaction (``db`` is what ``store.transaction()`` gives)."""
    return db.execute(INSERT, _row(decision)).lastrowid


def record_decisions(store: Store, decisions: Iterable[Decision]) -> list[int]:
    """Keep decisions, all in one transaction; their new ids."""
    with store.transaction() as db:
        return [insert(db, decision) for decision in decisions]


def load_decisions(store: Store, source: str | None = None, game_id: int | None = None) -> list[Decision]:
    """Kept decisions, oldest first; only one source's or one game's when asked. A row that does
    not read back is left out (and left in the file): ``readable_decisions`` names it."""
    return readable_decisions(store, source, game_id)[0]


def readable_decisions(
    store: Store, source: str | None = None, game_id: int | None = None
) -> tuple[list[Decision], list[str]]:
    """``load_decisions``, and a sentence for each row whose position or themes do not read back
    (kept by an import before issue 49 checked them): a page shows the rest, not a traceback."""
    where, params = [], []
    if source is not None:
        where.append("source = ?")
        params.append(source)
    if game_id is not None:
        where.append("game_id = ?")
        params.append(game_id)
    sql = f"SELECT {', '.join(_COLUMNS)} FROM decisions"
    if where:
        sql += " WHERE " + " AND ".join(where)
    rows = store.query(sql + " ORDER BY at, id", tuple(params))
    decisions, problems = [], []
    for row in rows:
        values = dict(zip(_COLUMNS, row, strict=True))
        try:
            values["position"] = _read(values, "position", dict)
            values["themes"] = tuple(_read(values, "themes", list))
        except RecordError as error:
            problems.append(str(error))
            continue
        decisions.append(Decision(**values))
    return decisions, problems


def _read(values: dict, column: str, kind: type) -> Any:
    try:
        value = loads(values[column])
    except RecordError as error:
        raise RecordError(f"decisions row {values['id']}, {column}: {clip(str(error))}") from None
    if not isinstance(value, kind):
        raise RecordError(f"decisions row {values['id']}, {column}: expected a {kind.__name__}")
    return value


def with_time(decision: Decision, at: str) -> Decision:
    return replace(decision, at=at)
