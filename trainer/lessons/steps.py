"""The step model: a lesson is a list of short steps, each a few sentences, a table set up to
show the point, something to do, and a check that answers with a specific verdict.

Kinds of step (what the learner does):

- ``read``: nothing to answer; the table shows the point.
- ``play``: play a card on the table. ``answer`` is the card code (e.g. ``"QS"``).
- ``pass``: pass cards on the table. ``answer`` is a list of codes.
- ``choice``: pick one of ``choices``. ``answer`` is the option text.
- ``calc``: type the cards each seat took (lesson 6's calculator). ``answer`` is a list of
  strings, one per seat.
- ``game``: play on; ``answer`` is the table's ``TableSession``.

A check is ``check(answer, context) -> StepVerdict``. Rule questions are answered from the
engine's own ``Refusal`` (``refusal_verdict``); judgement from ``engine.search.evaluator``
through the context (``Context.evaluate``), with a small, seeded sample budget: the context keeps
the evaluation it was asked for, so the runner records the very figures the check judged with,
and the runner's ``Evaluations`` (bounded) give a repeated answer the same figures.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import CARDS, CardSet, HandState, Rules, parse_card, to_card
from engine.cards import card_mask
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play

from ..coach.depth import COACH, judge
from .facts import FACT_KINDS

__all__ = [
    "Context",
    "Evaluations",
    "Lesson",
    "Step",
    "StepVerdict",
    "card_names",
    "deal_with",
    "evaluate",
    "hand_with",
    "refusal_verdict",
]

SAMPLES = 128  # imagined deals per judgement: well under a second on a slow machine


@dataclass(frozen=True)
class StepVerdict:
    correct: bool
    message: str
    """Markdown: what was right or wrong, and the idea behind it."""
    code: str = ""
    """A short name for the case (``"right"``, ``"hearts_not_broken"``, ``"kept_queen"``...),
    so tests can tell the messages apart."""


@dataclass
class Context:
    """What a check sees: the step's position before the learner acted, under the rules now
    switched on, and the learner's seat."""

    rules: Rules
    state: HandState | None = None
    seat: int = 0
    variant: str = ""
    evaluations: Evaluations = field(default_factory=lambda: Evaluations())
    evaluation: Evaluation | None = None
    """The evaluation the last check on this context asked for (``evaluate``); None when it judged
    without the evaluator (a rule question). The runner keeps it as the graded decision."""

    def evaluate(self, choice: str | Sequence[str] | None = None) -> Evaluation:
        """The evaluator on this position for this seat (the coach's verdict on ``choice``), kept
        in ``evaluations`` and as ``evaluation``."""
        if self.state is None:
            raise ValueError("this step has no position to evaluate")
        self.evaluation = self.evaluations.get(self.state, self.seat, choice=choice)
        return self.evaluation


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    text: str
    kind: str = "read"
    position: Callable[[Rules], HandState] | None = None
    """The hand the table shows, built under the rules in force (variants change them)."""
    rules: Rules = field(default_factory=Rules)
    variants: tuple[tuple[str, Rules], ...] = ()
    """Rule switches on the table: (label, rules); the first is what the step starts with."""
    variant_label: str = ""
    choices: tuple[str, ...] = ()
    check: Callable[[Any, Context], StepVerdict] | None = None
    open_seats: tuple[int, ...] = ()
    conceal: tuple[str, ...] = ()
    """What the table keeps back until the step is answered, because it would give the answer
    away (``trainer.table.snapshot.CONCEALABLE``): "points" (the seats' points, when the question
    asks for a count) or "pass" (the pass direction, when it asks which way the pass goes)."""
    score_rows: tuple[tuple[int, ...], ...] = ()
    task: str = ""
    """One line: what to do now (shown above the feedback)."""
    bots: tuple[str, ...] = ()
    """Bot level for the other seats, one per variant (lesson 9 chooses its opponents)."""
    facts: tuple[str, ...] = ()
    """What the text says about the table, checked against the position under every variant
    (``trainer.lessons.facts``)."""
    variant_facts: tuple[tuple[str, ...], ...] = ()
    """What the text says about the table under each variant, one tuple per variant."""

    def __post_init__(self) -> None:
        kinds = ("read", "play", "pass", "choice", "calc", "game")
        if self.kind not in kinds:
            raise ValueError(f"step {self.key}: kind {self.kind!r} is not one of {kinds}")
        if self.kind != "read" and self.check is None:
            raise ValueError(f"step {self.key}: a {self.kind} step needs a check")
        if self.kind == "choice" and len(self.choices) < 2:
            raise ValueError(f"step {self.key}: a choice step needs at least two choices")
        if self.variant_facts and len(self.variant_facts) != len(self.variants):
            raise ValueError(f"step {self.key}: variant_facts needs one tuple per variant")
        for fact in (*self.facts, *(f for facts in self.variant_facts for f in facts)):
            if fact.partition(":")[0].strip() not in FACT_KINDS:
                raise ValueError(f"step {self.key}: fact {fact!r} is not one of {', '.join(FACT_KINDS)}")

    def rules_for(self, variant: str = "") -> Rules:
        for label, rules in self.variants:
            if label == variant:
                return rules
        return self.variants[0][1] if self.variants else self.rules

    @property
    def variant_names(self) -> list[str]:
        return [label for label, _ in self.variants]

    def context(self, variant: str = "", evaluations: Evaluations | None = None) -> Context:
        """A fresh context; ``evaluations``: the runner's kept evaluations (else a new store)."""
        rules = self.rules_for(variant)
        state = self.position(rules) if self.position else None
        label = variant or (self.variant_names[0] if self.variants else "")
        return Context(rules, state, 0, label, evaluations if evaluations is not None else Evaluations())

    def facts_for(self, variant: str = "") -> tuple[str, ...]:
        """The facts that must hold on the table under ``variant``."""
        if not self.variant_facts:
            return self.facts
        names = self.variant_names
        return (*self.facts, *self.variant_facts[names.index(variant) if variant in names else 0])

    def judge(self, answer: Any, variant: str = "") -> StepVerdict:
        """The check on an answer, in a fresh context (what the tests call)."""
        if self.check is None:
            raise ValueError(f"step {self.key} has nothing to check")
        return self.check(answer, self.context(variant))


@dataclass(frozen=True)
class Lesson:
    number: int
    key: str
    """Also the notebook's file name in lessons/ (without .py)."""
    title: str
    summary: str
    steps: tuple[Step, ...]
    bots: Mapping[int, str] = field(default_factory=lambda: {1: "easy", 2: "easy", 3: "easy"})

    def step(self, key: str) -> Step:
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(f"lesson {self.key} has no step {key!r}")

    @property
    def checked_steps(self) -> list[Step]:
        return [step for step in self.steps if step.check is not None and step.kind != "game"]


# ----- building positions -----


def deal_with(seats: Mapping[int, str], rules: Rules | None = None) -> list[int]:
    """A deal where the given seats hold the given cards; the other cards in play go, in card
    order, to whoever still needs cards."""
    rules = rules or Rules()
    hands = [card_mask(seats.get(seat, "")) for seat in range(rules.players)]
    used = 0
    for mask in hands:
        if used & mask:
            raise ValueError("a card is given to two seats")
        used |= mask
    free = [card for card in CARDS if rules.deck_mask >> card & 1 and not used >> card & 1]
    for seat in range(rules.players):
        while hands[seat].bit_count() < rules.hand_size:
            hands[seat] |= 1 << free.pop(0)
    return hands


def hand_with(
    seats: Mapping[int, str],
    rules: Rules | None = None,
    plays: str = "",
    direction: str = "hold",
    passes: Mapping[int, str] | None = None,
) -> HandState:
    """A hand dealt by ``deal_with``; ``passes`` (when not a hold hand) and ``plays`` made."""
    rules = rules or Rules()
    state = HandState(rules, deal_with(seats, rules), direction)
    if passes:
        for seat, cards in passes.items():
            state.pass_cards(seat, cards.split())
    for card in plays.split():
        state.play(card)
    return state


# ----- judging -----


def card_names(cards: Sequence[Any]) -> str:
    names = [to_card(card).name for card in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def refusal_verdict(
    state: HandState, card: str, seat: int, explain: Mapping[str, str] | None = None
) -> StepVerdict | None:
    """The engine's refusal of a card, with the lesson's explanation for that reason, or None
    when the card is legal."""
    try:
        parsed = parse_card(card)
    except ValueError as error:
        return StepVerdict(False, f"{error}", "bad_card")
    refusal = state.why_not_play(parsed, seat)
    if refusal is None:
        return None
    extra = (explain or {}).get(refusal.reason.value, "")
    message = f"**The {parsed.name} is not allowed here.** The engine says: *{refusal.message}*"
    if extra:
        message += f" {extra}"
    return StepVerdict(False, message, refusal.reason.value)


def _position_key(state: HandState) -> tuple:
    """What makes two positions the same to the evaluator: rules, deal, pass direction, actions."""
    return (
        repr(state.rules),
        tuple(state.dealt_hand(s).mask for s in range(state.players)),
        state.pass_direction.value,
        tuple(repr(action) for action in state.history),
    )


def evaluate(
    state: HandState,
    seat: int = 0,
    seed: int = 1,
    include: Sequence[Sequence[str]] = (),
    choice: str | Sequence[str] | None = None,
) -> Evaluation:
    """The evaluator's values for the seat's pass or play, seeded so the same position always
    gets the same answer. With the learner's ``choice`` (a card, or the cards of a pass) it is the
    coach's verdict (``trainer.coach.depth.judge``): sampled until that choice's band is decided,
    as puzzles and the review judge it. ``include``: passes to value fully."""
    view = state.view(seat)
    if choice is not None:
        chosen = choice if isinstance(choice, str) else " ".join(sorted(choice))
        return judge(view, chosen, seed)  # the coach's own verdict, at the coach's depth
    if state.phase.value == "passing":
        budget = PassBudget(samples=SAMPLES, measure=COACH.measure)
        return evaluate_pass(view, budget, seed=seed, include=[CardSet(sorted(c)) for c in include])
    return evaluate_play(view, PlayBudget(samples=SAMPLES, measure=COACH.measure), seed=seed)


class Evaluations:
    """The evaluations a lesson's checks asked for, the most recent ``size`` kept: an answer given
    again (after the table is set up again, say) gets the very same figures at once. The runner
    owns one for its lesson; a context made without one (a test's) gets its own."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, Evaluation] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(
        self,
        state: HandState,
        seat: int,
        seed: int = 1,
        include: Sequence[Sequence[str]] = (),
        choice: str | Sequence[str] | None = None,
    ) -> Evaluation:
        chosen = None if choice is None else (choice,) if isinstance(choice, str) else tuple(sorted(choice))
        key = (_position_key(state), seat, seed, tuple(tuple(sorted(c)) for c in include), chosen)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        evaluation = evaluate(state, seat, seed, include, choice)
        self._kept[key] = evaluation
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return evaluation


def loss_words(loss: float) -> str:
    return f"about {loss:.1f} points a hand" if loss >= 0.05 else "nothing measurable"
