"""The hint: the coach's choice for the learner's own pass or play, with one sentence of why.

A hint is a verdict the coach stands behind. The card (or pass) it names is judged with the same
function, depth and seed as the review uses for that decision (``depth.judge``), so a learner who
follows the hint is graded correct for it there too; and the why is the coach's own reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Card, Phase, PlayerView
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play

from .depth import COACH, Depth, judge
from .explain import Stance, coach_pass, coach_play, lower_first, moon_line_words
from .grading import TOLERANCE, Grade, grade, moon_dependent

__all__ = [
    "TRIES",
    "Hint",
    "HintSource",
    "coach_hint",
    "decision_seed",
    "first_look",
    "hint_from",
    "judged_choice",
]

TRIES = 3
"""Candidates judged at most: the first look's best, then the judged evaluation's best, and so on."""


@dataclass(frozen=True)
class Hint:
    cards: tuple[Card, ...]
    """One card to play, or the cards to pass."""
    text: str
    """What the learner reads: the choice and why."""
    evaluation: Evaluation | None = None

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)


HintSource = Callable[[PlayerView, int], Hint]
"""What answers the Hint button: the learner's view and the decision's seed give a hint."""


def decision_seed(hand_index: int, plays: int, passing: bool, seed: int = 0) -> int:
    """The evaluator's seed for one of the learner's decisions, the same for its hint and its
    review: the hand, and the cards played before it (a pass, made before any, has its own)."""
    return seed + 1000 * hand_index + (999 if passing else plays)


def first_look(view: PlayerView, seed: int, depth: Depth) -> object:
    """The best option of the coach's first look (``Depth``'s "first" budget)."""
    if view.phase.value == "passing":
        return evaluate_pass(view, depth.for_pass("first"), seed=seed).best.option
    return evaluate_play(view, depth.for_play(view, "first"), seed=seed).best.option


def judged_choice(
    view: PlayerView, seed: int, depth: Depth, starting: Callable[[int], None] | None = None
) -> tuple[object, Evaluation, bool]:
    """The first look's best, judged as a learner's choice would be (``judge``); while it is not
    graded best, that judgement's best, judged in turn (``TRIES`` judgements at most). Returns the
    last option judged, its evaluation and whether it was graded best. ``starting(n)`` is called
    before look ``n`` (0: the first look, then each judgement): the analysis board's progress."""
    if starting:
        starting(0)
    candidate = first_look(view, seed, depth)
    for attempt in range(TRIES):
        if starting:
            starting(attempt + 1)
        evaluation = judge(view, candidate, seed, depth)
        if grade(evaluation, candidate).correct:
            return candidate, evaluation, True
        if attempt < TRIES - 1:
            candidate = evaluation.best.option
    return candidate, evaluation, False


def _names(cards: tuple[Card, ...]) -> str:
    names = [f"the {card}" for card in cards]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def hint_from(view: PlayerView, option: object, evaluation: Evaluation, safe: Grade | None = None) -> Hint:
    """The hint for ``option``, the best (or as good as the best) in ``evaluation``: which it is
    and why, from the coach's reasons against the next best option. ``safe``: the grade of the
    next best when ``option`` is a moon line that does not keep its edge against strong
    blockers (the hint then says the moon is the greedy line)."""
    passing = view.phase is Phase.PASSING
    coach = coach_pass if passing else coach_play
    g = grade(evaluation, option)
    chosen = g.chosen
    cards = tuple(chosen.option) if passing else (chosen.option,)
    verb = "pass" if passing else "play"
    text = f"Hint: {verb} {_names(cards)}"
    if g.moon_line is not None and not g.moon_line.holds:
        # The safe line, judged best against blockers at any price.
        words = moon_line_words(g, str(chosen.option), str(g.best.option))
        return Hint(cards, f"{text}. {words}", evaluation)
    others = [value for value in evaluation.options if value.option != chosen.option]
    if not others:
        return Hint(cards, text + ": it is your only choice.", evaluation)
    runner_up = others[0]
    margin = runner_up.difference - chosen.difference
    other = _names(tuple(runner_up.option) if passing else (runner_up.option,))
    other = f"passing {other}" if passing else other
    if margin > TOLERANCE:
        # The coach's reasons against the next best say what makes the hinted choice better.
        why = coach(view, runner_up.option, evaluation).reasons
        text += f" (the next best, {other}, costs about {margin:.1f} points more)."
    else:
        explained = coach(view, chosen.option, evaluation).explained
        text += f" ({other} is about as good, within {TOLERANCE:.1f} points)."
        why = [r.text for r in explained[:1]]
        if explained and explained[0].stance is Stance.AGAINST and chosen.option != evaluation.best.option:
            # What the best has over the hinted choice: said as the best's, in the hint's words.
            why = [f"What speaks for {other}: {lower_first(explained[0].plain)}"]
    if why:
        text += f" {why[0]}"
    if safe is not None and safe.moon_line is not None and not safe.moon_line.holds:
        text += " " + moon_line_words(safe, str(safe.chosen.option), str(chosen.option))
    return Hint(cards, text, evaluation)


def coach_hint(view: PlayerView, seed: int = 0, depth: Depth = COACH) -> Hint:
    """The coach's hint for the seat to decide at ``view``. Each candidate is judged as the
    learner's choice would be (``judge``: sampled until its band is decided); the first one graded
    best is the hint, or the best option of its look when that one is graded best too. A moon
    line is hinted with care: the next best is judged too, and when the moon's edge does not
    hold against strong blockers the hint says so."""
    candidate, evaluation, correct = judged_choice(view, seed, depth)
    if not correct:
        candidate = evaluation.best.option
    best = evaluation.best.option
    if best != candidate and correct:
        # As good as the best, but the best's reasons against it would argue with the hint (seen:
        # "Hint: pass the 2♠... What speaks for passing the K♣...: the 2♠ is your protection.
        # Keep it."): hint the best itself when it is graded best on its own look.
        judged = judge(view, best, seed, depth)
        if grade(judged, best).correct:
            candidate, evaluation = best, judged
    safe = None
    hinted = grade(evaluation, candidate).chosen.option
    others = [value for value in evaluation.options if value.option != hinted]
    if others and moon_dependent(evaluation, others[0].option):
        safe = grade(judge(view, others[0].option, seed, depth), others[0].option)
    return hint_from(view, candidate, evaluation, safe)
