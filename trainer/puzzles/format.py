"""Puzzle files: one TOML file per puzzle, read and checked field by field.

The format is documented in ``puzzles/README.md``. Version 2 (written since issue 51) differs
from version 1 in one field only: ``answer.options``, every option's figures, is one packed
text (``trainer.puzzles.packed``: the same figures, exactly, in about a tenth of the bytes)
instead of one row of numbers per option under ``answer.option_columns``. The loader reads
both, into the same ``Answer``; ``puzzle_text`` writes version 2 whenever the rows pack exactly
(``python -m trainer.puzzles migrate`` rewrites version 1 files). Loading a malformed file raises one
``PuzzleError`` naming the file, the field and what is wrong, whatever the defect (encoding,
TOML syntax, types, an impossible position, an answer the position does not allow); nothing
else is affected.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from engine import (
    CardParseError,
    CardSet,
    DealError,
    HandState,
    PassDirection,
    PlayerView,
    Rules,
    RulesError,
    setup_position,
)
from engine.excerpt import clip, excerpt
from engine.search.evaluator import MEASURES, Evaluation, OptionValue, Z

from ..data_files import PUZZLES_DIR
from .choices import Choices
from .errors import PuzzleError
from .packed import FIGURES, PackError, pack_rows, unpack_rows
from .source import read_toml

__all__ = [
    "FORMAT",
    "OPTION_COLUMNS",
    "PUZZLES_DIR",
    "THEMES",
    "Answer",
    "Puzzle",
    "PuzzleError",
    "load_files",
    "load_library",
    "load_puzzle",
    "load_puzzles",
    "position_state",
    "puzzle_from_data",
    "puzzle_text",
    "save_puzzle",
]

FORMAT = "hearts-trainer/puzzle"
VERSION = 2
VERSIONS = (1, 2)
"""The versions the loader reads; it writes ``VERSION`` (1 only for rows that do not pack)."""
KINDS = ("pass", "play")
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
LARGEST_FIGURE = 10_000
"""Points an option's figure may reach: a hand holds a few dozen, never thousands."""
DEALS = 10**9
"""The most deals an option's figures may rest on (the coach's deepest pass look is 524,288)."""
SCORES = 10**6
THEMES = {
    "queen_of_spades": "The Q♠: where she is and how to avoid her",
    "spade_control": "High and low spades",
    "voids": "Building and using voids",
    "high_hearts": "What to do with high hearts",
    "short_suits": "Which suit to shorten",
    "high_or_low": "High or low: which card of a suit to pass",
    "ducking": "Ducking under the winning card",
    "cannot_duck": "Following suit when you cannot duck",
    "dumping": "What to discard when void",
    "leading": "Choosing a lead",
    "breaking_hearts": "Leading hearts",  # the name kept in saved progress; the choice leads a heart or not
    "counting": "Counting cards and voids",
    "moon_defence": "Stopping a moon",
    "moon_shooting": "Shooting the moon",
    "endgame": "The last tricks",
}
METHODS = ("policy", "exact")
"""How a stored evaluation's deals were played out (``engine.search.evaluator.Evaluation.method``)."""
OPTION_COLUMNS = ("option", *FIGURES, "samples")
"""A stored option's fields, in version 1's order (the packed rows of version 2 keep it)."""


@dataclass(frozen=True)
class Answer:
    best: str
    accepted: tuple[str, ...]
    seed: int
    samples: int
    stages: tuple[tuple[int, int], ...]
    include: tuple[str, ...]
    """Passes the evaluation was told to evaluate fully (the natural-looking one)."""
    verified: str
    options: tuple[OptionValue, ...]
    measure: str = "playout"
    """What the options' figures are (``engine.search.evaluator.MEASURES``); files written before the
    forecast measure hold the play-outs' own."""
    method: str = "policy"
    """How the deals were played out: "policy" or "exact" (every deal solved exactly), so the
    stored evaluation says how deep it looked."""
    every_deal: bool = False
    """With "exact": the deals were every one the view allows, each solved once (the figures
    are exact, ``engine.search.evaluator.Evaluation.every_deal``)."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    kind: str
    title: str
    themes: tuple[str, ...]
    difficulty: int
    explanation: str
    rules: Rules
    seat: int
    state: HandState
    scores: tuple[int, ...]
    answer: Answer
    position: dict[str, Any] = field(repr=False, compare=False)
    path: Path | None = field(default=None, compare=False)

    @property
    def view(self) -> PlayerView:
        """What the solver sees: the seat's view, with the game's scores."""
        return self.state.view(self.seat, scores=self.scores)

    @property
    def evaluation(self) -> Evaluation:
        """The stored evaluation, as the evaluator returned it."""
        return Evaluation(
            self.kind,
            self.seat,
            self.answer.options,
            self.answer.seed,
            self.answer.samples,
            0.0,
            method=self.answer.method,
            measure=self.answer.measure,
            every_deal=self.answer.every_deal,
        )

    def is_accepted(self, option: CardSet | str) -> bool:
        chosen = CardSet(option) if not isinstance(option, CardSet) else option
        return any(CardSet(text) == chosen for text in self.answer.accepted)


class _Reader:
    """Field access that names the file and the field in every complaint."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.field = "format"
        """The field being read: where an unforeseen defect is reported."""

    def fail(self, where: str, message: str) -> PuzzleError:
        return PuzzleError(f"{self.path}: {where}: {clip(message, 240)}")

    def get(self, data: dict, key: str, kind: type | tuple, where: str, default: Any = ...) -> Any:
        self.field = f"{where}{key}"
        if key not in data:
            if default is not ...:
                return default
            raise self.fail(f"{where}{key}", "missing")
        value = data[key]
        bad_bool = isinstance(value, bool) and kind in (int, float)
        if not isinstance(value, kind) or bad_bool:
            expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(f"{where}{key}", f"expected {expected}, got {excerpt(value)}")
        return value

    def cards(self, text: Any, where: str) -> CardSet:
        self.field = where
        if not isinstance(text, str):
            raise self.fail(where, f"expected cards as text such as 'QS 10H 2C', got {excerpt(text)}")
        try:
            return CardSet(text)
        except CardParseError as error:
            raise self.fail(where, str(error)) from None


def _option_rows(reader: _Reader, data: dict, version: int) -> list:
    """The stored options as version 1's rows, whichever version keeps them."""
    where = "answer."
    if version == 1:
        columns = tuple(reader.get(data, "option_columns", list, where))
        if columns != OPTION_COLUMNS:
            raise reader.fail(f"{where}option_columns", f"expected {list(OPTION_COLUMNS)}")
        return reader.get(data, "options", list, where)
    if "option_columns" in data:
        raise reader.fail(f"{where}option_columns", "not in version 2: its packed options have fixed columns")
    packed = reader.get(data, "options", str, where)
    try:
        return unpack_rows(packed)
    except PackError as error:
        raise reader.fail(f"{where}options", f"packed options (version 2): {error}") from None


def _check_figures(reader: _Reader, values: dict, columns: Sequence[str], where: str) -> None:
    """Each figure of an option's row a finite number within a hand's points, and its samples a
    count of deals: the first that is not raises, naming its field."""
    for name in columns[1:]:
        value, at = values[name], f"{where}.{name}"
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise reader.fail(at, f"expected a number, got {excerpt(value)}")
        if name == "samples":
            if value != int(value) or not 0 < value <= DEALS:
                raise reader.fail(at, f"{excerpt(value)} is not a count of deals from 1 to {DEALS:,}")
        elif abs(value) > LARGEST_FIGURE:
            raise reader.fail(at, f"{excerpt(value)} is beyond any hand's points")


def _read_answer(
    reader: _Reader, data: dict, kind: str, state: HandState, seat: int, version: int = VERSION
) -> Answer:
    where = "answer."
    open_to = Choices(reader.fail, state, seat, kind)  # listed once, not once an option

    def choice(text: Any, field: str) -> Any:
        reader.field = field
        return open_to.read(text, field)

    columns = OPTION_COLUMNS
    rows = _option_rows(reader, data, version)
    options = []
    for index, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(columns):
            raise reader.fail(f"{where}options[{index}]", f"expected a row of {len(columns)} values")
        values = dict(zip(columns, row, strict=True))
        values["option"] = choice(row[0], f"{where}options[{index}].option")
        samples = row[-1]
        # The figures as the writer leaves them pass at a glance; any other row is looked at
        # value by value, to name the first that is wrong.
        if not (
            type(samples) is int
            and 0 < samples <= DEALS
            and all(type(v) is float and -LARGEST_FIGURE <= v <= LARGEST_FIGURE for v in row[1:-1])
        ):
            _check_figures(reader, values, columns, f"{where}options[{index}]")
        # The file keeps each loss and its standard error; the interval is the evaluator's.
        values["loss_low"] = max(0.0, values["loss"] - Z * values["loss_error"])
        values["loss_high"] = values["loss"] + Z * values["loss_error"]
        options.append(OptionValue(**values))
    open_to.check([value.option for value in options], f"{where}options")
    stages = reader.get(data, "stages", list, where, default=[])
    if not all(isinstance(s, list) and len(s) == 2 and all(_count(n) for n in s) for s in stages):
        raise reader.fail(f"{where}stages", "expected pairs [deals, survivors]")
    accepted = reader.get(data, "accepted", list, where)
    if not accepted:
        raise reader.fail(f"{where}accepted", "empty: name every option graded correct")
    chosen = [choice(text, f"{where}accepted[{index}]") for index, text in enumerate(accepted)]
    for index, option in enumerate(chosen):
        if option in chosen[:index]:
            raise reader.fail(f"{where}accepted[{index}]", f"{option} is listed twice")
    best = reader.get(data, "best", str, where)
    best_choice = choice(best, f"{where}best")
    if best_choice not in chosen:
        raise reader.fail(f"{where}accepted", "must include the best option")
    if best_choice != options[0].option:
        raise reader.fail(
            f"{where}best", f"{excerpt(best)} is not the first option (options are listed best first)"
        )
    include = reader.get(data, "include", list, where, default=[])
    for index, text in enumerate(include):
        choice(text, f"{where}include[{index}]")
    measure = reader.get(data, "measure", str, where, default="playout")
    if measure not in MEASURES:
        raise reader.fail(f"{where}measure", f"{excerpt(measure)} is not one of {', '.join(MEASURES)}")
    method = reader.get(data, "method", str, where, default="policy")
    if method not in METHODS:
        raise reader.fail(f"{where}method", f"{excerpt(method)} is not one of {', '.join(METHODS)}")
    every_deal = reader.get(data, "every_deal", bool, where, default=False)
    if every_deal and method != "exact":
        raise reader.fail(f"{where}every_deal", f"true only for deals solved exactly, not method {method!r}")
    return Answer(
        best=best,
        accepted=tuple(accepted),
        seed=_in_range(reader, data, "seed", where, 0, 2**64 - 1),
        samples=_in_range(reader, data, "samples", where, 0, 10**12),
        stages=tuple((a, b) for a, b in stages),
        include=tuple(include),
        verified=_text_field(reader, data, "verified", where, 2000),
        options=tuple(options),
        measure=measure,
        method=method,
        every_deal=every_deal,
    )


def _read_state(reader: _Reader, kind: str, rules: Rules, data: dict) -> tuple[int, HandState]:
    where = "position."
    seat = reader.get(data, "seat", int, where)
    if not 0 <= seat < rules.players:
        raise reader.fail(f"{where}seat", f"there is no seat {seat} at a table of {rules.players}")
    direction_text = reader.get(data, "pass_direction", str, where)
    try:
        direction = PassDirection(direction_text)
    except ValueError:
        raise reader.fail(
            f"{where}pass_direction", f"{excerpt(direction_text)} is not left, right, across or hold"
        ) from None
    hands = reader.get(data, "hands", list, where)
    cards = [reader.cards(text, f"{where}hands[{i}]") for i, text in enumerate(hands)]
    try:
        if kind == "pass":
            state = HandState.from_deal(cards, rules, direction)
        else:
            passed = reader.get(data, "passed", list, where, default=None)
            if passed is not None:
                passed = [reader.cards(text, f"{where}passed[{i}]") for i, text in enumerate(passed)]
            tricks = reader.get(data, "tricks", list, where, default=[])
            for i, trick in enumerate(tricks):
                reader.cards(trick, f"{where}tricks[{i}]")
            state = setup_position(
                cards,
                rules,
                pass_direction=direction,
                passed=passed,
                tricks=tricks,
                first_leader=reader.get(data, "first_leader", int, where, default=None),
            )
    except (DealError, CardParseError) as error:
        raise _position_error(reader, str(error)) from None
    if kind == "pass" and state.phase != "passing":
        raise reader.fail(f"{where}pass_direction", "a pass puzzle needs a hand that passes")
    if kind == "play" and state.to_move != seat:
        raise reader.fail(f"{where}seat", f"seat {seat} is not the one to play in this position")
    return seat, state


def _count(value: object, low: int = 0, high: int = 10**12) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _in_range(reader: _Reader, data: dict, key: str, where: str, low: int, high: int) -> int:
    value = reader.get(data, key, int, where)
    if not low <= value <= high:
        raise reader.fail(f"{where}{key}", f"must be {low:,} to {high:,}, not {excerpt(value)}")
    return value


def _text_field(
    reader: _Reader, data: dict, key: str, where: str, longest: int, shape: re.Pattern | None = None
) -> str:
    """A text field: at most ``longest`` characters, of ``shape`` when given (TOML holds no lone
    surrogate; bytes that are not UTF-8 are named by ``read_toml``)."""
    value, at = reader.get(data, key, str, where), f"{where}{key}"
    if len(value) > longest:
        raise reader.fail(at, f"{len(value):,} characters, more than {longest:,}: {excerpt(value)}")
    if shape is not None and not shape.fullmatch(value):
        raise reader.fail(at, f"{excerpt(value)} is not a name of letters, digits, '-', '_' and '.'")
    return value


def _position_error(reader: _Reader, message: str) -> PuzzleError:
    """The engine names the position's field first ("tricks[2]: ..."), or speaks of the deal."""
    field, _, reason = message.partition(": ")
    if field.partition("[")[0] in ("hands", "passed", "tricks", "first_leader"):
        return reader.fail(f"position.{field}", reason)
    return reader.fail("position.hands", message)


def position_state(kind: str, rules: Rules, position: dict, where: str = "position") -> tuple[int, HandState]:
    """The solver's seat and the hand a puzzle's ``position`` table describes."""
    return _read_state(_Reader(where), kind, rules, position)


def load_puzzle(path: str | Path) -> Puzzle:
    path = Path(path)
    return _checked(path, lambda reader: _read_puzzle(reader, path, read_toml(path)))


def puzzle_from_data(data: dict, path: str | Path) -> Puzzle:
    """A puzzle from a file's data kept elsewhere (a kept review's replay), checked as
    ``load_puzzle`` checks a file; complaints name ``path`` and the field."""
    path = Path(path)
    return _checked(path, lambda reader: _read_puzzle(reader, path, data))


def _checked(path: Path, read: Callable[[_Reader], Puzzle]) -> Puzzle:
    reader = _Reader(str(path))
    try:
        return read(reader)
    except PuzzleError:
        raise
    except Exception as error:  # a defect no check foresaw is still this file's, at this field
        reason = f"cannot be read: {type(error).__name__}: {clip(str(error))}"
        raise reader.fail(reader.field, reason) from error


def _read_puzzle(reader: _Reader, path: Path, data: dict) -> Puzzle:
    if reader.get(data, "format", str, "") != FORMAT:
        raise reader.fail("format", f"expected {FORMAT!r}")
    version = reader.get(data, "version", int, "")
    if version not in VERSIONS:
        raise reader.fail("version", f"this program reads version {' or '.join(map(str, VERSIONS))}")
    kind = reader.get(data, "kind", str, "")
    if kind not in KINDS:
        raise reader.fail("kind", f"{excerpt(kind)} is not 'pass' or 'play'")
    themes = reader.get(data, "themes", list, "")
    for index, theme in enumerate(themes):
        if not isinstance(theme, str) or theme not in THEMES:
            known = ", ".join(THEMES)
            raise reader.fail(f"themes[{index}]", f"unknown theme {excerpt(theme)}; known: {known}")
    try:
        rules = Rules.from_dict(reader.get(data, "rules", dict, "", default={}))
    except RulesError as error:
        raise PuzzleError(f"{path}: {error}") from None
    position = reader.get(data, "position", dict, "")
    seat, state = _read_state(reader, kind, rules, position)
    scores = tuple(reader.get(position, "scores", list, "position.", default=[0] * rules.players))
    if len(scores) != rules.players or not all(_count(s, -SCORES, SCORES) for s in scores):
        wanted = f"expected {rules.players} whole numbers from {-SCORES:,} to {SCORES:,}"
        raise reader.fail("position.scores", wanted)
    return Puzzle(
        id=_text_field(reader, data, "id", "", 100, ID),
        kind=kind,
        title=_text_field(reader, data, "title", "", 200),
        themes=tuple(themes),
        difficulty=_in_range(reader, data, "difficulty", "", 0, 5000),
        explanation=_text_field(reader, data, "explanation", "", 20_000),
        rules=rules,
        seat=seat,
        state=state,
        scores=scores,
        answer=_read_answer(reader, reader.get(data, "answer", dict, ""), kind, state, seat, version),
        position=position,
        path=path,
    )


def load_puzzles(folder: str | Path) -> list[Puzzle]:
    """Every ``*.toml`` puzzle in ``folder``, in file-name order; the first bad file raises."""
    return [load_puzzle(path) for path in sorted(Path(folder).glob("*.toml"))]


def load_library(folder: str | Path) -> tuple[list[Puzzle], list[str]]:
    """The puzzles in ``folder`` that load, and one message per file that does not: a bad
    file is reported and left out, and the rest are still there to solve."""
    return load_files(sorted(Path(folder).glob("*.toml")))


def load_files(paths: list[Path]) -> tuple[list[Puzzle], list[str]]:
    """``load_library`` for these files. A puzzle whose id an earlier file already has is a
    problem too: progress is kept by id."""
    puzzles, problems = [], []
    by_id: dict[str, Path] = {}
    for path in paths:
        try:
            puzzle = load_puzzle(path)
        except PuzzleError as error:
            problems.append(str(error))
            continue
        if puzzle.id in by_id:
            problems.append(f"{path}: id: {excerpt(puzzle.id)} is also the id of {by_id[puzzle.id]}")
            continue
        by_id[puzzle.id] = path
        puzzles.append(puzzle)
    return puzzles, problems


def as_stored(evaluation: Evaluation) -> Evaluation:
    """The evaluation with its figures as a puzzle file keeps them (``answer_from_evaluation``):
    what is read from it when the file is written (its themes) must follow from the file alone,
    and a figure at a threshold can fall either side of it once rounded."""
    options = tuple(
        replace(value, **{name: round(getattr(value, name), 4) for name in OPTION_COLUMNS[1:-1]})
        for value in evaluation.options
    )
    return replace(evaluation, options=options)


def answer_from_evaluation(
    evaluation: Evaluation, accepted: list[str], verified: str, stages=(), include: list[str] | None = None
) -> dict:
    return {
        "best": str(_text(evaluation.best.option)),
        "accepted": accepted,
        "seed": evaluation.seed,
        "samples": evaluation.samples,
        "stages": [list(stage) for stage in stages],
        "include": include or [],
        "verified": verified,
        "measure": evaluation.measure,
        "method": evaluation.method,
        **({"every_deal": True} if evaluation.every_deal else {}),
        "option_columns": list(OPTION_COLUMNS),
        "options": [
            [_text(v.option), *(getattr(v, name) for name in OPTION_COLUMNS[1:-1]), v.samples]
            for v in as_stored(evaluation).options
        ],
    }


def _text(option: object) -> str:
    if isinstance(option, CardSet):
        return " ".join(option.codes)
    return option.code  # type: ignore[attr-defined]


def save_puzzle(data: dict[str, Any], path: str | Path) -> None:
    """Write a puzzle's plain data as TOML (``tomli_w``), header first."""
    Path(path).write_text(puzzle_text(data), encoding="utf-8")


def puzzle_text(data: dict[str, Any], version: int | None = None) -> str:
    """A puzzle's plain data as its file's text, header first: version 2, its options packed,
    when they are rows that pack exactly (or are packed already); else the rows as they are, in
    version 1. ``version=1`` writes packed options out as rows."""
    answer = data.get("answer")
    if isinstance(answer, dict):
        answer = _answer_as(answer, version)
    packed = isinstance(answer, dict) and isinstance(answer.get("options"), str)
    if version == 2 and not packed:
        raise ValueError("these options do not pack exactly: write them as rows (version 1)")
    version = 2 if packed else 1
    ordered = {
        "format": FORMAT,
        "version": version,
        **{k: v for k, v in data.items() if k not in ("format", "version")},
        **({"answer": answer} if answer is not None else {}),
    }
    return tomli_w.dumps(ordered, multiline_strings=True)


def _answer_as(answer: dict[str, Any], version: int | None) -> dict[str, Any]:
    """``answer`` with its options packed (``version`` 2 or None) or as rows (1), where it can."""
    options = answer.get("options")
    rest = {k: v for k, v in answer.items() if k not in ("option_columns", "options")}
    if version == 1 and isinstance(options, str):
        return {**rest, "option_columns": list(OPTION_COLUMNS), "options": unpack_rows(options)}
    if version != 1 and isinstance(options, list) and answer.get("option_columns") == list(OPTION_COLUMNS):
        packed = pack_rows(options)
        if packed is not None:
            return {**rest, "options": packed}
    return answer
