"""One mining task: a candidate position in, a verified puzzle or a rejection with its figures out.

A candidate is plain data (a few hundred bytes: the table's rules, the position turned so the
solver sits at seat 0, the natural-looking choice, a key), and so is the answer, so a task runs
in any process on any machine (``trainer.puzzles.job`` ships them with Dask). Its seeds come
from its key, so the same candidate is decided the same way wherever and whenever it runs.

A task decides in four steps, each cheaper than the next and each able to reject:

1. *screen* (``MiningBudget.screen`` deals): the natural choice (the Normal bot's) must lose at
   least ``MIN_NATURAL_LOSS`` points and three standard errors to the best option;
2. *pre-verify* (``MiningBudget.pre_verify`` fresh deals, every option): rejects a position the
   acceptance rule is already seen to fail by three standard errors (an option stuck between
   "right" and "clearly wrong", or the natural choice as good as the best), or will fail at
   verification with a chance of 90% or more: it can only lose puzzles, never admit one, and
   saves much of the cost of the doomed;
3. *verify* (``MiningBudget.verify`` fresh deals on another seed, every option, all 286 passes):
   the acceptance rule of ``trainer.puzzles.verify``, moon check included;
4. *evidence*: how the Easy, Normal and Hard bots answer it gives its starting rating
   (``trainer.puzzles.evidence``).
"""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from statistics import NormalDist

from engine import CardSet, HandState, PlayerView, Rules, deal_game_hand, parse_card
from engine.bots import bot_action, make_bot
from engine.rules import PRESETS
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play

from ..coach import coach_pass, coach_play
from ..coach.grading import TOLERANCE
from .evidence import bot_evidence, rating_from
from .format import answer_from_evaluation, as_stored, position_state
from .themes import pass_themes, play_themes, title_of
from .verify import MEASURE, MIN_ERRORS, MIN_LOSS, Acceptance, evaluate_all, text_of, verify_position

__all__ = ["TABLES", "Candidate", "MiningBudget", "candidates", "decide"]

MIN_NATURAL_LOSS = 1.5
"""The natural choice must cost at least this much on the screen to be worth verifying."""
SIGMAS = 3.0
"""Standard errors by which the pre-verification must see the rule fail before rejecting."""
PROBABLY_DOOMED = 0.9
"""Or how sure it must be that the rule fails at verification (a rejection here only ever loses a
puzzle: it cannot admit one)."""

TABLES: dict[str, Rules] = {
    name: PRESETS[name]
    for name in ("standard", "three_players", "five_players", "omnibus", "black_maria", "shooters_choice")
}
"""The tables puzzles are mined under: standard Hearts and the variants the lessons teach."""


@dataclass(frozen=True)
class MiningBudget:
    """Deals spent on one candidate at each step (tests use a small one)."""

    screen: int = 192
    pre_verify: dict = field(default_factory=lambda: {"play": 512, "pass": 1024})
    verify: dict = field(default_factory=lambda: {"play": 4096, "pass": 8192})
    exact: int = 1024
    bot_tries: int = 3
    """Seeds each of Easy and Hard answers with (Normal is the natural choice itself)."""


@dataclass(frozen=True)
class Candidate:
    key: str
    """``table/seed/hand/decision``: unique, and the source of the task's seeds."""
    table: str
    kind: str
    rules: dict
    position: dict
    natural: str

    def seed(self, step: str) -> int:
        """An independent seed for each step of this candidate."""
        return zlib.crc32(f"{self.key}|{step}".encode()) * 7919 + 13


def candidates(table: str, seed: int, hands: int, first_hand: int = 0) -> Iterator[Candidate]:
    """Every decision with a real choice in ``hands`` hands of four (or three, five...) Normal bots
    under ``TABLES[table]``: the mining's raw material, in a fixed order."""
    rules = TABLES[table]
    bots = [make_bot("normal", seat) for seat in range(rules.players)]
    for hand in range(first_hand, first_hand + hands):
        state = deal_game_hand(rules, seed, hand)
        number = 0
        while (seat := state.seat_to_act) is not None:
            view = state.view(seat)
            action = bot_action(bots[seat], view)
            if action.kind != "moon":
                if action.kind == "pass" or len(view.legal_cards) > 1:
                    key = f"{table}/{seed}/{hand}/{number}"
                    yield _candidate(table, rules, key, action.kind, state, seat, action.choice)
                number += 1
            state.apply(action)


def _candidate(
    table: str, rules: Rules, key: str, kind: str, state: HandState, seat: int, choice
) -> Candidate:
    return Candidate(key, table, kind, rules.to_dict(), position_of(kind, state, seat), text_of(choice))


def position_of(kind: str, state: HandState, seat: int) -> dict:
    """The position as a puzzle file stores it, turned round so that the solver sits at seat 0
    (seat numbers are only labels: left, right and across stay where they were)."""
    players = state.players

    def turned(values: list) -> list:
        return [values[(s + seat) % players] for s in range(players)]

    position: dict = {
        "seat": 0,
        "pass_direction": state.pass_direction.value,
        "hands": turned([text_of(state.hand(s)) for s in range(players)]),
    }
    if kind == "pass":
        return position
    tricks = [trick for trick in (*state.tricks, state.current_trick) if trick.cards]
    position["tricks"] = [" ".join(card.code for card in trick.cards) for trick in tricks]
    if state.pass_direction.value != "hold":
        position["passed"] = turned([text_of(state.passed(s)) for s in range(players)])
    position["first_leader"] = (tricks[0].leader - seat) % players
    return position


def decide(candidate: Candidate | dict, budget: MiningBudget | None = None) -> dict:
    """The task: a verified puzzle's data (``status`` "puzzle") or a rejection (``status``
    "rejected", with the ``step`` and the ``reason``), with the figures either way."""
    if isinstance(candidate, dict):
        candidate = Candidate(**candidate)
    budget = budget or MiningBudget()
    start = time.perf_counter()
    rules = Rules.from_dict(candidate.rules)
    kind = candidate.kind
    _, state = position_state(kind, rules, candidate.position)
    view = state.view(0)
    natural = CardSet(candidate.natural) if kind == "pass" else parse_card(candidate.natural)
    result = {"key": candidate.key, "table": candidate.table, "kind": kind, "natural": candidate.natural}

    def rejected(step: str, reason: str, **figures) -> dict:
        return {
            **result,
            **figures,
            "status": "rejected",
            "step": step,
            "reason": reason,
            "seconds": round(time.perf_counter() - start, 3),
        }

    screen = _screen(kind, view, candidate.seed("screen"), natural, budget.screen)
    value = screen.value_of(natural)
    if value.loss < MIN_NATURAL_LOSS or value.loss < SIGMAS * value.loss_error:
        return rejected(
            "screen",
            f"the natural choice loses {value.loss:.2f} ± {value.loss_error:.2f}",
            natural_loss=round(value.loss, 3),
        )
    pre = evaluate_all(kind, view, candidate.seed("pre-verify"), budget.pre_verify[kind], exact=budget.exact)
    if reason := doomed(pre, natural, budget.verify[kind]):
        return rejected("pre-verify", reason, natural_loss=round(pre.value_of(natural).loss, 3))
    checked = verify_position(
        kind, view, candidate.seed("verify"), natural, deals=budget.verify[kind], exact=budget.exact
    )
    natural_loss = round(checked.evaluation.value_of(natural).loss, 3)
    if not checked.holds:
        return rejected("verify", checked.reason, natural_loss=natural_loss)
    evidence = bot_evidence(kind, view, checked.accepted, budget.bot_tries, candidate.seed("bots"))
    data = puzzle_data(kind, view, rules, candidate.position, checked, natural, evidence)
    return {
        **result,
        "status": "puzzle",
        "step": "verify",
        "natural_loss": natural_loss,
        "margin": round(checked.margin, 2),
        "data": data,
        "seconds": round(time.perf_counter() - start, 3),
    }


def _screen(kind: str, view: PlayerView, seed: int, natural: object, deals: int) -> Evaluation:
    if kind == "pass":
        return evaluate_pass(view, PassBudget(samples=deals, measure=MEASURE), seed=seed, include=[natural])
    return evaluate_play(view, PlayBudget(samples=deals, measure=MEASURE), seed=seed)


def doomed(evaluation: Evaluation, natural: object, final_deals: int | None = None) -> str:
    """Why the acceptance rule will fail at verification ("" if that is not likely): seen
    ``SIGMAS`` standard errors clear, or (given ``final_deals``, the verification's deals) a chance
    below ``1 - PROBABLY_DOOMED`` that it holds there. That chance treats each option's final loss
    as its loss now give or take its error now and the final one (fresh deals:
    ``error² (1 + deals now / final_deals)``), options as independent."""
    holds = 1.0
    for value in evaluation.options:
        low, high = value.loss - SIGMAS * value.loss_error, value.loss + SIGMAS * value.loss_error
        if value.option == natural and high <= TOLERANCE:
            return (
                f"the natural {text_of(natural)} is as good as the best "
                f"({value.loss:.2f} ± {value.loss_error:.2f})"
            )
        if low > TOLERANCE and high < MIN_LOSS:
            return (
                f"{text_of(value.option)} loses {value.loss:.2f} ± {value.loss_error:.2f}: between right "
                f"and clearly wrong"
            )
        if final_deals and value.loss > 0.0:
            spread = value.loss_error * math.sqrt(1.0 + value.samples / final_deals)
            if spread > 0.0:
                below = NormalDist(value.loss, spread)
                between = below.cdf(MIN_LOSS) - below.cdf(TOLERANCE)
                holds *= 1.0 - (below.cdf(MIN_LOSS) if value.option == natural else between)
    if holds < 1.0 - PROBABLY_DOOMED:
        return f"the rule would hold with a chance of {holds:.1%} (options near 0.5 or 1 point)"
    return ""


def puzzle_data(
    kind: str,
    view: PlayerView,
    rules: Rules,
    position: dict,
    checked: Acceptance,
    natural: object,
    evidence: list,
) -> dict:
    """A verified position as a puzzle file's plain data (without its id: the job numbers it)."""
    evaluation = checked.evaluation
    if kind == "pass":  # the themes as the file's own figures give them
        themes = pass_themes(view, as_stored(evaluation), natural)
        verdict = coach_pass(view, natural, evaluation)
    else:
        themes = play_themes(view, as_stored(evaluation), natural)
        verdict = coach_play(view, natural, evaluation)
    explanation = (
        f"The natural-looking {natural} costs about {verdict.grade.loss:.1f} points against the other "
        f"players; {evaluation.best.option} is best. " + " ".join(verdict.reasons)
    ).strip()
    measured = f"{evaluation.method} play-outs"
    if evaluation.measure == "forecast":
        measured += " read as strong players' points"
    deals = (
        f"every one of the {evaluation.samples} deals the position allows"
        if evaluation.every_deal
        else f"the same {evaluation.samples} fresh imagined deals"
    )
    verified = (
        f"All {len(evaluation.options)} options valued on {deals} (seed {evaluation.seed}, {measured}); "
        f"every option outside 'accepted' loses at least {MIN_LOSS} points and {MIN_ERRORS:.0f} "
        f"standard errors (the smallest margin is {checked.margin:.1f} errors)."
    )
    rating = rating_from(evidence)
    return {
        "kind": kind,
        "title": title_of(kind, themes),
        "themes": themes,
        "difficulty": round(rating.rating),
        "explanation": explanation,
        "rules": {k: v for k, v in rules.to_dict().items() if v != Rules().to_dict()[k]},
        "position": position,
        "answer": answer_from_evaluation(evaluation, list(checked.accepted), verified),
        "evidence": {
            "rating_deviation": round(rating.deviation, 1),
            "answers": [asdict(answer) for answer in evidence],
        },
    }
