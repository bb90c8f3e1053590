"""A practice session from the learner's own mistakes: what the review's charts show.

In this order, up to ``SESSION`` puzzles:

1. those due today (``trainer.puzzles.practice``: a miss comes back the next day, then 3, 7, 16
   and 35 days after each solve), the learner's own key moments first;
2. key moments of their last ``RECENT`` reviewed games not practised yet, as puzzles
   (``replay.moment_puzzle``, kept with the review), newest game first, at most half the session;
3. library puzzles of their weakest themes and phases: the themes and phases whose mean loss a
   decision is above the learner's own average (``charts.areas``, ``charts.loss_by_phase``),
   worst first, one puzzle for each in turn, each the puzzle nearest a little above the
   learner's rating that they have not solved.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..progress.decisions import Decision
from ..progress.games import SavedGame
from ..puzzles.format import THEMES, Puzzle, puzzle_from_data, puzzle_text
from ..puzzles.library import PuzzleLibrary
from ..puzzles.practice import DAYS, PracticeItem, due_items
from ..puzzles.schedule import STRETCH, PuzzleProgress
from .charts import areas, decision_rows, loss_by_phase, theme_label
from .replay import moment_id
from .stored import stored_review

__all__ = [
    "SESSION",
    "Area",
    "OwnMoment",
    "Pick",
    "own_moments",
    "practice_due",
    "practice_session",
    "practise_markdown",
    "weak_areas",
]

SESSION = 10
RECENT = 10
"""Reviewed games whose new key moments a session offers, newest first: reading a kept review
checks each of its moments' puzzles, so a long history is not read whole on every visit."""
GAME_ID = re.compile(r"review-g(\d+)-")
PHASE_WORDS = {"pass": "the pass", "early": "early tricks", "middle": "middle tricks", "late": "late tricks"}


@dataclass(frozen=True)
class Area:
    """A theme or a phase whose mean loss is above the learner's average."""

    kind: str
    """``theme`` or ``phase``."""
    name: str
    mean_loss: float
    average: float

    @property
    def label(self) -> str:
        return theme_label(self.name) if self.kind == "theme" else PHASE_WORDS[self.name]

    @property
    def why(self) -> str:
        return (
            f"{'Theme' if self.kind == 'theme' else 'Phase'} *{self.label}*: you lose {self.mean_loss:.2f} "
            f"points a decision there, {self.average:.2f} on average."
        )


@dataclass(frozen=True)
class OwnMoment:
    id: str
    data: dict
    """The puzzle's plain data (what ``save_puzzle`` writes), with its id."""
    why: str


@dataclass(frozen=True)
class Pick:
    puzzle: Puzzle
    source: str
    """``library`` or ``moment``."""
    why: str


def weak_areas(decisions: Sequence[Decision]) -> list[Area]:
    """The themes (with at least a few decisions) and then the phases whose mean loss is above
    the learner's average, worst first."""
    rows = decision_rows(decisions)
    if not rows:
        return []
    average = sum(row["loss"] for row in rows) / len(rows)
    themes = [
        Area("theme", a["theme"], a["mean_loss"], average)
        for a in areas(rows)
        if a["area"] == "improve" and a["theme"] in THEMES
    ]
    phases = sorted(
        (
            Area("phase", p["phase"], p["mean_loss"], average)
            for p in loss_by_phase(rows)
            if p["mean_loss"] > average
        ),
        key=lambda area: -area.mean_loss,
    )
    return themes + phases


def own_moments(games: Sequence[SavedGame]) -> list[OwnMoment]:
    """The key moments kept with the learner's reviewed games, newest game first. A review that
    does not read back gives none (the review page offers it again)."""
    out = []
    for game in reversed(games):
        review = stored_review(game)
        for moment in review.moments if review is not None else ():
            decision = moment.decision
            where = "the pass" if decision.kind == "pass" else f"trick {decision.trick}"
            why = f"From your game of {game.finished_at[:10]}: hand {moment.hand_index + 1}, {where}."
            puzzle_id = moment_id(game.id, moment.hand_index, decision.trick)
            out.append(OwnMoment(puzzle_id, {**moment.puzzle, "id": puzzle_id}, why))
    return out


def _worth_reading(games: Sequence[SavedGame], due: Sequence[PracticeItem]) -> list[SavedGame]:
    """The last ``RECENT`` reviewed games, and the games of the key moments due (in order)."""
    reviewed = [game for game in games if game.review is not None]
    wanted = {int(match[1]) for item in due if (match := GAME_ID.match(item.puzzle))}
    recent = {game.id for game in reviewed[-RECENT:]}
    return [game for game in reviewed if game.id in recent or game.id in wanted]


def _moment_puzzle(moment: OwnMoment) -> Puzzle:
    return puzzle_from_data(tomllib.loads(puzzle_text(moment.data)), moment.id)


def _due_why(item: PracticeItem, today: dt.date) -> str:
    late = (today - item.due).days if item.due else 0
    when = "today" if late == 0 else f"{late} day{'' if late == 1 else 's'} ago"
    if item.step == 0:
        return f"Due {when}: you missed it last time."
    times = f"{item.step} time{'' if item.step == 1 else 's'}"
    return f"Due {when}: solved {times} in a row; next in {DAYS[item.step]} days if solved."


def _shown_due(
    due: Sequence[PracticeItem],
    moments: Collection[str],
    library: Collection[str],
    leave: Collection[str],
    size: int,
) -> list[PracticeItem]:
    """The due items a session shows, in its order: a key moment still in the learner's kept
    reviews, a library puzzle still in the library (a moment a changed review no longer has, or
    a puzzle the library dropped, cannot be shown), none whose kept row does not read back."""
    shown = [
        item
        for item in due
        if item.puzzle not in leave
        and (item.puzzle in moments if item.source == "moment" else item.puzzle in library)
    ]
    return shown[:size]


def practice_due(
    items: Mapping[str, PracticeItem],
    games: Sequence[SavedGame],
    library: Collection[str],
    today: dt.date,
    size: int = SESSION,
) -> list[PracticeItem]:
    """The due items a session today shows (``practice_session``'s first part), for the home
    page's count: ``library`` holds the library's puzzle ids (``library.library_ids``)."""
    due = due_items(items.values(), today)
    if not any(item.source == "moment" for item in due):
        games = ()  # no kept review to read
    moments = {moment.id for moment in own_moments(_worth_reading(games, due))}
    return _shown_due(due, moments, library, (), size)


def practice_session(
    library: PuzzleLibrary,
    phases: Mapping[str, str],
    progress: PuzzleProgress,
    items: Mapping[str, PracticeItem],
    decisions: Sequence[Decision],
    games: Sequence[SavedGame],
    today: dt.date,
    size: int = SESSION,
    leave: frozenset[str] = frozenset(),
) -> list[Pick]:
    """The session (see the module's note). ``phases`` gives a library puzzle's phase
    (``trainer.puzzles.ratings``); ``leave`` names puzzles whose kept row does not read back."""
    entries = {entry.id: entry for entry in library.entries}
    due = due_items(items.values(), today)
    moments = {moment.id: moment for moment in own_moments(_worth_reading(games, due))}
    picks: list[Pick] = []

    def add(puzzle: Puzzle | None, source: str, why: str) -> None:
        if puzzle is not None and len(picks) < size and puzzle.id not in {p.puzzle.id for p in picks}:
            picks.append(Pick(puzzle, source, why))

    for item in _shown_due(due, moments, entries, leave, size):
        if item.source == "moment":
            add(_moment_puzzle(moments[item.puzzle]), "moment", _due_why(item, today))
        else:
            add(library.load(entries[item.puzzle]), "library", _due_why(item, today))
    fresh = [m for m in moments.values() if m.id not in items and m.id not in leave]
    for moment in fresh[: max(0, size // 2 - sum(p.source == "moment" for p in picks))]:
        add(_moment_puzzle(moment), "moment", moment.why)
    weak = weak_areas(decisions)
    target = progress.learner.rating + STRETCH
    taken = {p.puzzle.id for p in picks}
    candidates = [
        entry
        for entry in library.entries
        if entry.id not in items
        and entry.id not in leave
        and not getattr(progress.records.get(entry.id), "solved", 0)
    ]
    while weak and len(picks) < size:
        before = len(picks)
        for area in weak:
            matching = [
                entry
                for entry in candidates
                if entry.id not in taken
                and (
                    area.name in entry.themes if area.kind == "theme" else _phase(entry, phases) == area.name
                )
            ]
            if matching:
                best = min(
                    matching,
                    key=lambda e: (
                        e.id in progress.records,
                        abs(progress.record_for(e).rating.rating - target),
                        e.id,
                    ),
                )
                taken.add(best.id)
                add(library.load(best), "library", area.why)
        if len(picks) == before:
            break  # no area has a puzzle left
    return picks


def _phase(entry, phases: Mapping[str, str]) -> str | None:
    """A library puzzle's phase: from the ratings file, else ``pass`` for a pass (a play puzzle
    not rated yet matches no phase)."""
    return phases.get(entry.id) or ("pass" if entry.kind == "pass" else None)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def practise_markdown(
    decisions: Sequence[Decision],
    games: Sequence[SavedGame],
    items: Mapping[str, PracticeItem],
    today: dt.date,
    address: str,
) -> str:
    """The review's "Practise this" line: what a session today will hold, from the same figures
    the charts show and the kept practice ("" when there is nothing to practise yet)."""
    due = due_items(items.values(), today)
    weak, moments = weak_areas(decisions), own_moments(_worth_reading(games, due))
    fresh = [moment for moment in moments if moment.id not in items]
    mine = len({item.puzzle for item in due if item.source == "moment"} & {m.id for m in moments})
    parts = []
    themes = [area.label for area in weak if area.kind == "theme"]
    phases = [area.label for area in weak if area.kind == "phase"]
    if themes:
        parts.append(f"puzzles of your weakest theme{'s' if len(themes) > 1 else ''} ({_listed(themes)})")
    if phases:
        lead = "of" if themes else "puzzles of"  # "puzzles of your weakest themes … and of the phase …"
        plural = "s" if len(phases) > 1 else ""
        parts.append(f"{lead} the phase{plural} where you lose most ({_listed(phases)})")
    # as the session takes them: the due ones, then new ones up to half the session
    count = min(SESSION, mine + min(len(fresh), max(0, SESSION // 2 - mine)))
    if count:
        parts.append(f"{count} key moment{'' if count == 1 else 's'} of your own games")
    if not parts:
        return ""
    later = ", ".join(map(str, DAYS[1:-1])) + f" and {DAYS[-1]}"
    return (
        f"**[Practise this →]({address})** A session of {_listed(parts)}. A puzzle you miss comes "
        f"back the next day, then {later} days after each solve."
    )
