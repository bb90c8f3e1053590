"""The table a lesson step opens with, as the learner sees it, and where it parts from the step.

A step's facts (``trainer.lessons.facts``) are checked here against the table the page shows,
not only the position the step builds: the step is put on a lesson's own table
(``LessonRunner``, bots acting at once) and the bots play as far as they will before the
learner acts. Besides its declared facts, every step's table is held to what any step needs:

- it stands still until the learner acts (a game step excepted: there the learner plays on);
- it announces no "Game over" before the learner answers, unless the step declares its winners;
- a question's table shows no finished hand's scores, unless the step declares ``phase: done``
  (its question is not the hand's score: the hand stops before the learner's last card instead);
- its pass badge is the pass of the hand number it shows, in the rules' cycle (a set-up hold
  hand is shown as hand 4 of a game: ``runner.score_rows_shown``);
- words in the text about the pass, the number of players, the cards held or **Last trick**
  come with the fact that checks them (``undeclared``).
"""

from __future__ import annotations

import re

from engine import PlayAction

from ..seats import seat_word
from .facts import fact_problems
from .runner import LessonRunner
from .steps import Lesson, Step

__all__ = ["TELLING", "step_table_problems", "table_problems", "undeclared"]

TELLING = (
    (re.compile(r"\bpass(es|ed|ing)? (left|right|across)\b|\bhold hand\b|\bpass: ", re.I), "pass"),
    (re.compile(r"\bwith (three|five|six|seven)\b", re.I), "players"),
    (re.compile(r"\bLast trick\b"), "last_trick"),  # the button's name
    (re.compile(r"\bhow many cards\b|\b(13|thirteen) each\b|\bholds? \d+ cards\b", re.I), "cards"),
)
"""Words about the table, and the fact kind that must check them."""


def undeclared(step: Step) -> list[str]:
    """The fact kinds the step's words call for that it does not declare (under some variant)."""
    words = f"{step.text} {step.task}".replace("*", "")
    declared = [
        {fact.partition(":")[0].strip() for fact in step.facts_for(v)} for v in step.variant_names or [""]
    ]
    return [
        kind for pattern, kind in TELLING if pattern.search(words) and any(kind not in d for d in declared)
    ]


def table_problems(runner: LessonRunner, step: Step, variant: str) -> list[str]:
    """Where the table now on ``runner`` (the step set up, the bots done) parts from the step."""
    session = runner.widget.session
    shown = session.hand
    position = step.context(variant).state
    if position is None:
        return []
    rows = session.game.earlier_scores
    problems = fact_problems(shown, rows, step.facts_for(variant))
    if shown.players != position.players:
        problems.append(f"the table seats {shown.players}, the step's hand {position.players}")
        return problems
    moved = [
        a
        for a in shown.history[len(position.history) :]
        if isinstance(a, PlayAction) and a.seat != session.seat
    ]
    if step.kind != "game" and moved:
        plays = ", ".join(
            f"{seat_word(a.seat, shown.players, session.seat)} plays the {a.card}" for a in moved[:3]
        )
        problems.append(f"the table moves on before the learner acts: {plays}")
    facts = [fact.replace(" ", "") for fact in step.facts_for(variant)]
    if session.winners and not any(fact.startswith("winners:") for fact in facts):
        problems.append("the table says 'Game over' before the learner answers")
    if step.kind in ("choice", "calc") and shown.is_over and "phase:done" not in facts:
        problems.append("the table shows the hand's scores before the learner answers")
    cycle = shown.rules.pass_direction(session.hand_index)
    if shown.pass_direction is not cycle:
        problems.append(
            f"the badge says 'Pass: {shown.pass_direction.value}' on hand {session.hand_index + 1}, "
            f"which passes {cycle.value}"
        )
    return problems


def step_table_problems(lesson: Lesson) -> dict[str, list[str]]:
    """Every step of ``lesson`` under every variant, each on the lesson's own table: its problems."""
    runner = LessonRunner(lesson, None, bot_delay=0)
    found: dict[str, list[str]] = {}
    try:
        for index, step in enumerate(lesson.steps):
            runner.go(index)
            for variant in step.variant_names or [""]:
                if variant:
                    runner.set_variant(variant)
                if problems := table_problems(runner, step, variant):
                    found[f"{lesson.key}/{step.key} [{variant}]"] = problems
    finally:
        runner.close()
    return found
