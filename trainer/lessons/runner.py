"""Runs one lesson for one notebook session: the table, the step the learner is on, the rule
switch, the verdicts, and the progress on disk. The notebooks only lay this out.

Actions on the table reach ``_on_message`` once the widget has applied them (refusing anything
illegal with the engine's reason; ``TableWidget.on_message``). A play or pass
that the step asked for is judged by the step's check; a wrong one that the engine allowed is
taken back by putting the step's position on the table again, so the learner can try again
at once. A right one stands, and the bots play on.
"""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable
from typing import Any

from engine import HandState, deal_game_hand
from trainer.progress.decisions import graded_decision, record_decisions
from trainer.progress.games import game_record, save_game
from trainer.progress.tables import load_table, save_table
from trainer.site import HOME, REVIEW
from trainer.store import Store, StoreError, open_store
from trainer.table import TableError, TableSession, TableWidget

from .catalog import LESSONS, lesson_address, next_lesson
from .deals import THREE_HANDS
from .progress import LessonProgressStore
from .steps import Context, Evaluations, Lesson, Step, StepVerdict

__all__ = ["LessonRunner", "open_lesson"]


REVIEW_ADDRESS = REVIEW
NEW_HAND_NOTE = (
    "A new hand is on the table: play it freely. The step is about its own table: press **Set the "
    "table up again** to go back to it."
)
_NOT_SAVED = frozenset({"select", "hint", "error"})  # events that change nothing in the game


def _bot_delay() -> float:
    return float(os.environ.get("HEARTS_BOT_DELAY", "0.7"))


class LessonRunner:
    """``deal_seed`` makes a game step's deals reproducible (tests); by default every new game
    is a fresh deal."""

    def __init__(
        self,
        lesson: Lesson,
        store: Store | None = None,
        notice: str = "",
        deal_seed: int | None = None,
        bot_delay: float | None = None,
    ) -> None:
        self.lesson = lesson
        self._evaluations = Evaluations()
        """The evaluations this lesson's checks asked for: a repeated answer is judged alike."""
        self._deals = random.Random(deal_seed) if deal_seed is not None else random.SystemRandom()
        self.notice = notice
        self.progress = LessonProgressStore(store) if store is not None else None
        delay = _bot_delay() if bot_delay is None else bot_delay
        self.widget = TableWidget(
            bots=dict(lesson.bots), bot_delay=delay, trick_pause=min(1.2, 2 * delay), table_id="lesson"
        )
        self.widget.on_message(self._on_message)
        self.store = store
        self.saved_game: int | None = None
        """The id of the last game kept for review (lesson 9)."""
        if store is not None:
            self.widget.session.on_game_over = self._keep_game
            self.widget.session.review_href = REVIEW_ADDRESS
            self.widget.on_event(self._keep_table)
        self._listeners: list[Callable[[], None]] = []
        saved = self.progress.of(lesson.key, len(lesson.steps)) if self.progress else None
        self.index = min(saved.step, len(lesson.steps) - 1) if saved else 0
        self.variant = ""
        self.verdict: StepVerdict | None = None
        self._answered: Any = None
        self._context: Context | None = None
        self._step_hand: object = None
        """The hand the step put on the table (a New hand deals another: free play, not judged)."""
        self.finished_message = ""
        self.go(self.index)

    # ----- where the learner is -----

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def is_last(self) -> bool:
        return self.index == len(self.lesson.steps) - 1

    def on_change(self, callback: Callable[[], None]) -> None:
        """Called after a verdict from the table (so a notebook can re-run its feedback)."""
        self._listeners.append(callback)

    def go(self, index: int) -> Step:
        """Show step ``index`` (clamped): its position on the table under its first rules."""
        self.index = max(0, min(index, len(self.lesson.steps) - 1))
        self.variant = self.step.variant_names[0] if self.step.variants else ""
        self.finished_message = ""
        self._reset_answer()
        self._seat_table()
        self._apply_bots()
        self._set_table(resume=True)
        if self.progress:
            self._saving(lambda: self.progress.reach(self.lesson.key, self.index, len(self.lesson.steps)))
        return self.step

    def _saving(self, write: Callable[[], object]) -> bool:
        """Run one write to the store; when the file cannot be used just now (another program
        holds it, say), the lesson goes on and the notice says why. True when it was saved."""
        try:
            write()
        except StoreError as error:
            self.notice = f"{error} It was not saved; the lesson goes on."
            return False
        return True

    def set_variant(self, variant: str | bool) -> None:
        """Switch a rule on the table (a label, or a switch's True/False for two variants) and
        set the same position up again under it."""
        names = self.step.variant_names
        if not names:
            return
        if isinstance(variant, bool):
            variant = names[1] if variant and len(names) > 1 else names[0]
        if variant not in names:
            raise ValueError(f"{variant!r} is not one of {names}")
        if variant == self.variant:
            return
        self.variant = variant
        self._reset_answer()
        self._seat_table()
        self._apply_bots()
        self._set_table()

    def reset_table(self) -> None:
        """Put the step's position back (the learner's "start again")."""
        self._reset_answer()
        self._set_table()

    def _reset_answer(self) -> None:
        self.verdict = None
        self._answered = None
        self._context = self.step.context(self.variant, self._evaluations)

    def _seat_table(self) -> None:
        """A step at another table size (lesson 4's five players) seats a table of that size."""
        context = self._context
        if context is None or context.state is None:
            return
        if context.state.players != self.widget.session.rules.players:
            self.widget.seat_table(context.state.rules)

    def _apply_bots(self) -> None:
        step = self.step
        if step.bots:
            self.set_bots(step.bots[step.variant_names.index(self.variant)])
        else:
            self.widget.set_bots(dict(self.lesson.bots))

    def _set_table(self, resume: bool = False) -> None:
        """The step's position on the table; with ``resume``, a game step's game in play instead,
        when one was kept (under the variant it was played with)."""
        step = self.step
        context = self._context
        if context is None or context.state is None:
            return
        self.widget.open_seats = list(step.open_seats)
        self.widget.concealed = step.conceal if self.verdict is None else ()
        if resume and self._resume_game():
            return
        if step.kind == "game":  # a new game is a new deal, never the step's first one again
            seed = self._deals.randrange(2**31)
            self.widget.session.seed = seed  # the game's later hands follow from it
            state = deal_game_hand(context.rules, seed, 0)
        else:
            state = context.state.copy()
        self.widget.set_position(state, score_rows_shown(step, state))
        self._step_hand = self.widget.session.hand

    @property
    def _place(self) -> str:
        return f"{self.lesson.key}/{self.step.key}"

    def _resume_game(self) -> bool:
        if self.step.kind != "game" or self.store is None:
            return False
        try:
            kept = load_table(self.store, self._place)
        except (StoreError, ValueError, sqlite3.Error) as error:  # json or sqlite trouble: play on, say so
            self.notice = f"Your game in play could not be read back ({error}); a new one is dealt."
            return False
        if kept is None:
            return False
        variant, record = kept
        if variant and variant not in self.step.variant_names:
            return False
        if variant:
            self.variant = variant
            self._context = self.step.context(variant, self._evaluations)
            self._apply_bots()
        try:
            self.widget.resume(record)
        except TableError as error:
            self.notice = f"{error.message} A new game is dealt."
            return False
        return True

    def _keep_table(self, event: dict) -> None:
        """After every card (and every pass, deal or take-back) of a game step: keep the game."""
        if self.step.kind != "game" or event.get("type") in _NOT_SAVED or self.store is None:
            return
        try:
            save_table(self.store, self._place, self.variant, self.widget.session.to_record())
        except (StoreError, OSError, ValueError, sqlite3.Error) as error:
            self.notice = f"Your game could not be saved just now ({error}); it goes on."

    # ----- answers -----

    def _on_message(self, message: object) -> None:
        kind = self.step.kind
        if not isinstance(message, dict) or kind not in ("play", "pass") or message.get("type") != kind:
            return
        if self.verdict is not None and self.verdict.correct:
            return  # the step is done: the rest of the hand is free play
        if not self._on_step_hand():
            return  # a New hand (or the next one) is free play: the step's check is for its own hand
        answer = message.get("card") if kind == "play" else list(message.get("cards") or [])
        self.answer(answer)
        if not self.verdict.correct and self.widget.error == {}:
            self._set_table()  # the engine allowed it, the lesson did not: take it back
        for listener in list(self._listeners):
            listener()

    def _on_step_hand(self) -> bool:
        """The table still shows the hand the step set up (not one dealt since)."""
        return self.widget.session.hand is self._step_hand

    def answer(self, answer: Any) -> StepVerdict:
        """Judge an answer to the current step and record it (cached for a repeated answer)."""
        step = self.step
        if step.check is None:
            raise ValueError(f"step {step.key} asks for no answer")
        if step.kind == "game":
            self.verdict = step.check(self.widget.session, self._context)
            return self.verdict
        key = tuple(answer) if isinstance(answer, list) else answer
        if self.verdict is not None and key == self._answered:
            return self.verdict
        self._context.evaluation = None  # what this answer's check asks of the evaluator, if anything
        self.verdict = step.check(answer, self._context)
        self._answered = key
        self.widget.concealed = ()  # answered: what the question asked for may show now
        if self.progress and self._saving(
            lambda: self.progress.answer(self.lesson.key, step.key, self.verdict.correct)
        ):
            self._saving(lambda: self._keep_decision(answer))
        return self.verdict

    def _keep_decision(self, answer: Any) -> None:
        """A pass or play the step judged with the evaluator is kept as a graded decision."""
        context = self._context
        if self.step.kind not in ("play", "pass") or context is None or context.state is None:
            return
        evaluation = context.evaluation
        if evaluation is None:
            return
        try:
            decision = graded_decision(
                context.state,
                context.seat,
                answer,
                evaluation,
                source="lesson",
                ref=f"{self.lesson.key}/{self.step.key}",
            )
        except (KeyError, ValueError):
            return  # not one of the options valued (an illegal card): nothing to grade
        record_decisions(self.store, [decision])

    def _keep_game(self, session: TableSession) -> None:
        """A game played here from its first hand has ended: keep it for the review page."""
        record = game_record(session.game_hands, session.seat, session.opponents)
        try:  # the key names the lesson's table, so the home page counts the game there
            self.saved_game = save_game(self.store, record, f"{self._place}/{session.game_key}")
        except StoreError as error:
            self.notice = str(error)
            return
        if self.progress:  # a finished game is the game step answered
            self._saving(lambda: self.progress.answer(self.lesson.key, self.step.key, True))

    def feedback(self, answer: Any = None) -> tuple[str, str]:
        """(kind, markdown) for the feedback box: kind is "success", "danger" or "neutral"."""
        step = self.step
        if step.kind in ("choice", "calc") and answer not in (None, "", [], ()):
            if not (step.kind == "calc" and not any(str(a).strip() for a in answer)):
                self.answer(answer)
        elif step.kind == "game":
            self.answer(None)
        kind, text = self._verdict_shown()
        if step.kind == "game" or step.position is None or self._on_step_hand():
            return kind, text
        # A New hand is on the table: the step's text and check are about the step's own hand.
        if step.kind in ("play", "pass") and kind != "success":
            return "neutral", NEW_HAND_NOTE  # a card played now answers nothing
        return kind, f"{text}\n\n{NEW_HAND_NOTE}"

    def _verdict_shown(self) -> tuple[str, str]:
        step = self.step
        if self.verdict is None:
            return "neutral", step.task or "Read on, then press **Next step**."
        if step.kind == "game" and not self.verdict.correct:
            return "neutral", self.verdict.message  # a game in play is not a wrong answer
        return ("success" if self.verdict.correct else "danger"), self.verdict.message

    # ----- laying out -----

    def header_markdown(self) -> str:
        lesson = self.lesson
        return (
            f"[← All lessons]({HOME}) · Lesson {lesson.number} of {len(LESSONS)}\n\n"
            f"# {lesson.number}. {lesson.title}\n\n*{lesson.summary}*"
        )

    def step_markdown(self) -> str:
        step = self.step
        where = f"Step {self.index + 1} of {len(self.lesson.steps)}"
        return f"### {where}: {step.title}\n\n{step.text}"

    def finish(self) -> str:
        """The learner pressed Finish: complete the lesson if every check was answered right."""
        lesson = self.lesson
        if self.progress is None:
            return "Progress is not being saved in this session."
        done = self.progress.of(lesson.key, len(lesson.steps)).right
        missing = [s for s in lesson.checked_steps if s.key not in done]
        if missing:
            names = ", ".join(f"step {lesson.steps.index(s) + 1} ({s.title})" for s in missing)
            self.finished_message = f"Almost: answer {names} right to complete this lesson."
        elif self._saving(lambda: self.progress.complete(lesson.key, len(lesson.steps))):
            self.finished_message = f"**Lesson {lesson.number} complete.** " + self.next_link()
        else:
            self.finished_message = f"Well done, but it could not be saved: {self.notice}"
        return self.finished_message

    def next_link(self) -> str:
        following = next_lesson(self.lesson.key)
        if following is None:
            return f"That was the last lesson: [back to all lessons]({HOME})."
        return f"Next: [{following.number}. {following.title} →]({lesson_address(following.key)})"

    def close(self) -> None:
        self.widget.close()

    def set_bots(self, level: str) -> None:
        """Lesson 9: every other seat plays at ``level``."""
        self.widget.set_bots(dict.fromkeys(self.widget.session.bots, level))


def score_rows_shown(step: Step, state: HandState) -> tuple[tuple[int, ...], ...]:
    """The score rows on the table under a step: its own; or, for a set-up position that passes
    otherwise than a game's first hand (a hold hand, say), the earlier hands of a game up to the
    first hand that passes so, so that the table's hand number and its pass badge agree."""
    if step.score_rows:
        return step.score_rows
    cycle = state.rules.pass_cycle
    if state.pass_direction not in cycle or len(THREE_HANDS[0]) != state.players:
        return ()
    return THREE_HANDS[: cycle.index(state.pass_direction)]


def open_lesson(key: str, store: Store | None = None) -> LessonRunner:
    """The runner a lesson notebook uses: its lesson, with progress in the learner's store."""
    notice = ""
    if store is None:
        store, notice = open_store()
    return LessonRunner(LESSONS[key], store, notice)
