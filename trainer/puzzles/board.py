"""The puzzles page's logic: the table shows a puzzle, the learner acts on it, the coach answers.

The notebook only wires UI elements to this object. The puzzles come from the library's index
(``trainer.puzzles.library``): the filters are built from the listed metadata, and only the puzzle
shown is read from its file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from engine import CardSet

from ..coach.heatmap import pass_heatmap
from ..coach.hint import Hint
from ..table import TableWidget
from .entry import RULES_LABELS, rules_label
from .format import PUZZLES_DIR, THEMES, Puzzle
from .library import PuzzleLibrary, open_library
from .practice import DAYS, PracticeItem, Streak, practised
from .rating import Rating
from .ratings import load_ratings
from .schedule import PuzzleProgress
from .trainer import Attempt, PuzzleTrainer

__all__ = ["PUZZLES_DIR", "PuzzleBoard"]


class PuzzleTable(TableWidget):
    """The puzzle's table: one position, so no New hand (a fresh deal would sit under the puzzle's
    prompt as if it were the puzzle); Next puzzle shows another."""

    no_new_hand = "A puzzle is one position, not a game: Next puzzle shows another."


class PuzzleBoard:
    """A card table in puzzle mode (the bots stay still) and a puzzle trainer behind it."""

    def __init__(
        self,
        folder: str | Path = PUZZLES_DIR,
        progress: PuzzleProgress | None = None,
        on_attempt: Callable[[Attempt, PuzzleProgress], None] | None = None,
        seed: int = 0,
    ) -> None:
        library = open_library(folder)
        self.problems = library.problems
        """One message per puzzle file left out (file: field: reason)."""
        self.on_attempt = on_attempt
        self.trainer = PuzzleTrainer(library, progress, self._attempted, seed, self._hinted)
        self.ratings = load_ratings(folder)
        """Each puzzle's rating from the bots' answers, where a puzzle not tried yet starts."""
        self.trainer.progress.base = self.ratings.ratings
        self.mode = "puzzles"
        """``puzzles`` (near the learner's rating), ``practice`` (a session from their own
        mistakes, ``start_practice``) or ``streak`` (``start_streak``)."""
        self.whys: dict[str, str] = {}
        """In practice: why each puzzle of the session is in it."""
        self.sources: dict[str, str] = {}
        self.items: dict[str, PracticeItem] = {}
        self.today = dt.date.today()
        self.last_item: PracticeItem | None = None
        """In practice: the puzzle's schedule after the last counted answer (what is saved)."""
        self.streak = Streak()
        self.on_streak: Callable[[Streak], None] | None = None
        """Called when a hint ends the streak (an answer's change goes through ``on_attempt``)."""
        self.on_hinted: Callable[[Puzzle, PuzzleProgress], None] | None = None
        """Called when a hint counted the puzzle as missed (the page keeps the ratings, the
        practice schedule and the streak it moved)."""
        self.finished = False
        """In practice: every puzzle of the session has been shown."""
        self.widget = PuzzleTable(
            autoplay=False,
            still_status="Answered: the coach's verdict is below the table.",
            practice=False,
            table_id="puzzle",
            hints=self._hint,
        )
        self.widget.on_event(self._on_event)
        self.last: Attempt | None = None
        self.error = ""
        self.hint_missed = False
        """A hint before any answer counted the puzzle on the table as missed."""
        self.unmatched = False
        """The last filters matched no puzzle (the one shown before stays)."""
        self.notice = ""
        """A message for the learner about their saved progress ("" when all is well)."""
        self.store = None
        """The learner's store when progress is saved (``trainer.progress.puzzles.open_board``)."""
        self._listeners: list[Callable[[], None]] = []

    def start_practice(
        self,
        puzzles: Sequence[Puzzle],
        whys: Mapping[str, str],
        sources: Mapping[str, str],
        items: Mapping[str, PracticeItem],
        today: dt.date,
    ) -> None:
        """Practice mode: these puzzles in this order (the filters do not apply), each answer
        rescheduling it by days (``trainer.puzzles.practice``); ``items`` are those kept."""
        self.mode = "practice"
        self.trainer.library = PuzzleLibrary.from_puzzles(puzzles)
        self.trainer.queue = [puzzle.id for puzzle in puzzles]
        self.whys, self.sources, self.items, self.today = dict(whys), dict(sources), dict(items), today
        self.finished = not puzzles

    def start_streak(self, streak: Streak) -> None:
        """Streak mode: puzzles near the learner's rating, counted in a row until the first miss."""
        self.mode = "streak"
        self.streak = streak

    def _attempted(self, attempt: Attempt, progress: PuzzleProgress) -> None:
        """An answer: a counted one moves the streak or the practice schedule, then the page's hook."""
        if attempt.counted:
            self._moved(attempt.puzzle.id, attempt.solved)
        if self.on_attempt:
            self.on_attempt(attempt, progress)

    def _hinted(self, puzzle: Puzzle, progress: PuzzleProgress) -> None:
        """A hint before any answer: a miss for the streak and the practice schedule too."""
        self.hint_missed = True
        self._moved(puzzle.id, False)
        if self.mode == "streak" and self.on_streak:
            self.on_streak(self.streak)
        if self.on_hinted:
            self.on_hinted(puzzle, progress)

    def _moved(self, puzzle: str, solved: bool) -> None:
        if self.mode == "streak":
            self.streak = self.streak.after(solved)
        elif self.mode == "practice":
            kept = self.items.get(puzzle) or PracticeItem(puzzle, self.sources.get(puzzle, "library"))
            self.last_item = self.items[puzzle] = practised(kept, solved, self.today)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every answer (the notebook re-runs its verdict cell)."""
        self._listeners.append(callback)

    @property
    def has_puzzles(self) -> bool:
        """Whether any puzzle can come to the table (the page shows no table without one: the
        widget alone would deal a random hand that is no puzzle)."""
        return bool(self.trainer.queue) if self.mode == "practice" else bool(self.trainer.puzzles)

    @property
    def themes(self) -> dict[str, str]:
        """The themes filter's choices: each theme in the library by its title (the label shown),
        to its name (the value ``show_next`` filters by), as ``mo.ui.multiselect`` takes them."""
        present = {theme for puzzle in self.trainer.puzzles for theme in puzzle.themes}
        return {text: theme for theme, text in THEMES.items() if theme in present}

    @property
    def difficulty_range(self) -> tuple[int, int]:
        start = self.trainer.progress.start_for
        ratings = [round(start(puzzle).rating) for puzzle in self.trainer.puzzles] or [int(Rating().rating)]
        return min(ratings), max(ratings)

    KINDS: ClassVar[dict[str, str | None]] = {
        "Pass or play": None,
        "What would you pass?": "pass",
        "What would you play?": "play",
    }
    ANY_TABLE: ClassVar[str] = "Any table"
    ANY_RULES: ClassVar[str] = "Any rules"

    @property
    def table_sizes(self) -> dict[str, int | None]:
        """The table-size filter's choices: a label for each size in the library."""
        sizes = sorted({entry.players for entry in self.trainer.puzzles})
        return {self.ANY_TABLE: None, **{f"{size} players": size for size in sizes}}

    @property
    def rules_choices(self) -> dict[str, str | None]:
        """The rules filter's choices: a label for each set of rules in the library."""
        present = {entry.rules for entry in self.trainer.puzzles}
        named = [label for label in RULES_LABELS if label in present] + sorted(present - set(RULES_LABELS))
        return {self.ANY_RULES: None, **{_rules_name(label): label for label in named}}

    @property
    def library_notices(self) -> list[str]:
        """What the library read again because its index was missing or out of date, and a
        ratings file that could not be used."""
        return [*self.trainer.library.notices, *filter(None, [self.ratings.problem])]

    def show_next(
        self,
        themes: Iterable[str] | None = None,
        difficulty: tuple[int, int] | None = None,
        kind: str | None = None,
        players: int | str | None = None,
        rules: str | None = None,
    ) -> bool:
        """Put the next puzzle on the table; False when no puzzle matches the filters.
        ``kind`` is "pass", "play", or one of ``KINDS``' labels; ``players`` a table size or one
        of ``table_sizes``' labels; ``rules`` a rules label or one of ``rules_choices``' labels."""
        kind = self.KINDS.get(kind, kind)
        if isinstance(players, str):
            players = self.table_sizes.get(players)
        rules = self.rules_choices.get(rules, rules) if rules is not None else None
        names = {text: theme for theme, text in THEMES.items()}
        themes = [names.get(theme, theme) for theme in themes or []]
        puzzle = self.trainer.next(themes or None, difficulty, kind, players, rules)
        if self.mode == "practice":
            self.finished = puzzle is None
        else:
            self.unmatched = puzzle is None
        if puzzle is None:  # the puzzle on the table stays, answerable, and the prompt says so
            return False
        self.last = None
        self.error = ""
        self.hint_missed = False
        if puzzle.rules.players != self.widget.session.rules.players:
            self.widget.seat_table(puzzle.rules)  # a puzzle at another table size
        self.widget.set_position(puzzle.state.copy(), [], totals_before=puzzle.scores)
        return True

    def _hint(self, _view: object, _seed: int) -> Hint:
        """The Hint button: the puzzle's own verified answer (not a fresh look), and the puzzle
        then counts as not solved."""
        hint = self.trainer.hint()  # before an answer, a miss at once (``_hinted``)
        for callback in self._listeners:
            callback()
        return hint

    def _on_event(self, event: dict) -> None:
        seat = self.trainer.current.seat if self.trainer.current else None
        if event.get("seat") != seat or self.last is not None:
            return
        choice = event.get("cards") if event["type"] == "pass" else event.get("card")
        if event["type"] in ("pass", "play") and choice:
            try:
                self.last = self.trainer.answer(choice)
            except ValueError as error:
                self.error = str(error)
            for callback in self._listeners:
                callback()

    # ----- what the page shows -----

    def skipped_markdown(self) -> str:
        """The puzzle files left out and why ("" when every file loaded)."""
        if not self.problems:
            return ""
        count = len(self.problems)
        head = "1 puzzle file was skipped" if count == 1 else f"{count} puzzle files were skipped"
        quoted = (problem.replace("`", "'") for problem in self.problems)  # each one code span
        lines = [f"- `{problem}`" for problem in quoted]
        return "\n".join([f"**{head}:**", "", *lines])

    def notices_markdown(self) -> str:
        """The library's notices ("" when the index listed every file as it is)."""
        quoted = (notice.replace("`", "'") for notice in self.library_notices)
        return "\n".join(f"- {notice}" for notice in quoted)

    def practice_markdown(self) -> str:
        """In practice: which puzzle of the session this is and why, or that it is done."""
        shown, total = len(self.trainer.shown), len(self.trainer.queue or ())
        if not total:
            return (
                "**Nothing to practise yet.** Practice is built from your kept decisions: answer "
                "lesson steps, solve puzzles or review a game, then come back."
            )
        if self.finished:
            tried = [self.items[i] for i in self.trainer.shown if i in self.items]
            missed = sum(item.due == self.today + dt.timedelta(days=1) and item.step == 0 for item in tried)
            return (
                f"**Practice done for today:** {total} puzzle{'' if total == 1 else 's'}, "
                f"{missed} missed (due again tomorrow). The others come back on the days they are due."
            )
        puzzle = self.trainer.current
        return f"**Practice: puzzle {shown} of {total}.** {self.whys.get(puzzle.id, '') if puzzle else ''}"

    def streak_markdown(self) -> str:
        """In streak mode: the run so far and the best, or that the last miss ended it ("" in
        the other modes)."""
        if self.mode != "streak":
            return ""
        missed = self.last is not None and not self.last.solved and self.last.counted
        if missed or self.hint_missed:
            return f"**Streak over.** Best **{self.streak.best}**: the next puzzle starts a new one."
        return f"Streak: **{self.streak.current}** in a row · best **{self.streak.best}**"

    def prompt_markdown(self) -> str:
        puzzle = self.trainer.current
        if self.mode == "practice" and (self.finished or puzzle is None):
            return self.practice_markdown()
        if not self.trainer.puzzles:
            return "**No puzzles to show:** every puzzle file was skipped."
        unmatched = ""
        if self.unmatched:
            unmatched = "**No puzzle matches these filters.** Widen the kind, themes, rating, table or rules."
            if puzzle is None:
                return unmatched
            unmatched += " The puzzle below is still the one you had.\n\n"
        themes = ", ".join(THEMES[theme] for theme in puzzle.themes)
        count = puzzle.rules.pass_count
        cards = {1: "a card and pass it", 3: "three cards and pass them"}.get(
            count, f"{count} cards and pass them"
        )
        task = f"Choose {cards}." if puzzle.kind == "pass" else "Play a card."
        scores = ""
        if any(puzzle.scores):
            scores = f" Scores so far: {', '.join(str(s) for s in puzzle.scores)}."
        table = ""
        label = rules_label(puzzle.rules)
        if puzzle.rules.players != 4 or label != "standard":
            table = f" {puzzle.rules.players} players, {_rules_name(label)} rules."
        rating = self.trainer.progress.start_for(puzzle).rating
        head = f"{self.practice_markdown()}\n\n" if self.mode == "practice" else ""
        return (
            f"{head}{unmatched}### {puzzle.title}\n{task}{scores}{table} *Themes: {themes}. "
            f"Puzzle {puzzle.id}, rating {rating:.0f}.*"
        )

    def verdict_markdown(self) -> str:
        if self.error:
            return f"**{self.error}**"
        attempt = self.last
        if attempt is None:
            return ""
        verdict = attempt.verdict
        if attempt.solved:
            mark = "✅ Solved."
        elif attempt.hinted and attempt.accepted:
            mark = "☑️ Right, with a hint: it counts as not solved and will come back later."
        elif self.mode == "streak":
            mark = "❌ Not this time: the streak ends here."
        elif self.mode == "practice":
            mark = "❌ Not this time: it comes back tomorrow."
        else:
            mark = "❌ Not this time: it will come back later."
        lines = [f"**{mark}** {verdict.headline}", "", *verdict.reasons, "", f"*{verdict.numbers}*"]
        lines += ["", f"**Why, in the author's words:** {attempt.puzzle.explanation}"]
        if attempt.puzzle.kind == "pass":
            top = verdict.evaluation.options[:5]
            rows = [f"| {i} | {value.option} | {value.loss:.1f} |" for i, value in enumerate(top, start=1)]
            lines += ["", "| rank | pass | points lost |", "|---|---|---|", *rows]
            lines.append(f"\nYour pass ranks {verdict.grade.rank} of {verdict.grade.options}.")
        return "\n".join(lines)

    def analysis_markdown(self) -> str:
        """After an answer: a link that opens the puzzle's position on the analysis board (before
        one it would give the answer away); "" when the board cannot show it."""
        if self.last is None:
            return ""
        from ..analysis.links import puzzle_link

        link = puzzle_link(self.last.puzzle)
        if link is None:
            return ""
        return f"[Analyse this position →]({link}) every option ranked by the coach, on the analysis board."

    def pass_chart(self):
        """After a pass puzzle's answer: the heat map of every pass, the learner's outlined."""
        attempt = self.last
        if attempt is None or attempt.puzzle.kind != "pass":
            return None
        return pass_heatmap(attempt.verdict.evaluation, attempt.puzzle.view.hand, CardSet(attempt.choice))

    def status_markdown(self) -> str:
        progress = self.trainer.progress
        learner = progress.learner
        solved = sum(record.solved for record in progress.records.values())
        mode = ""
        if self.mode == "practice" and self.last is not None and self.last_item is not None:
            item = self.last_item
            if item.due is None and item.attempts == 1:
                mode = "Solved at first sight: it will not come back.\n\n"
            elif item.due is None:
                mode = f"Learnt: solved on {len(DAYS)} due days in a row, it will not come back.\n\n"
            else:
                days = (item.due - self.today).days
                mode = f"Due again on {item.due.isoformat()} (in {days} day{'' if days == 1 else 's'}).\n\n"
        return mode + (
            f"Your puzzle rating: **{learner.rating:.0f}** (±{2 * learner.deviation:.0f}) · "
            f"{progress.attempts} attempt{'' if progress.attempts == 1 else 's'}, {solved} solved"
        )


def _rules_name(label: str) -> str:
    return RULES_LABELS.get(label) or label.replace("_", " ").capitalize()
