"""Game review: every pass and play the learner made in a finished game, judged by the evaluator.

For each hand it replays the actions from the deal and, at each of the learner's decisions, values
every option from the learner's view only (``engine.search.evaluator``), then grades the choice (the
coach's bands). A play with one legal card is no decision and is not graded.

Figures (all in the evaluator's unit: expected points minus the other players' average, per hand;
lower is better for the learner):

- **accuracy**: the share of decisions graded best or good, in percent.
- **lost per hand**: the sum of expected losses over the decisions, divided by the hands played.
- **key moments**: the decisions that cost most (inaccuracy or worse), largest loss first.
- **luck and skill**, per hand: *cards* is what the hand was expected to give with best play,
  valued at the learner's first decision (the best option's expected score difference against
  strong players, its ``forecast``: the play-outs' figures miss most of the moons strong players
  make, so luck would lean one way; a bad hand is positive); *decisions* is the sum of the
  expected losses (skill); *luck* is the rest,
  ``result - cards - decisions``: how the hidden cards and the others' play fell. The hand's
  *result* is the learner's points minus the others' average, so the three add up exactly.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from engine import HandState, MoonAction, PassAction, Phase
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play
from engine.search.threads import one_thread

from ..coach.depth import Depth, judge
from ..coach.hint import decision_seed
from ..progress.decisions import Decision, graded_decision, insert, now, option_symbols
from ..progress.games import SavedGame
from ..store import Store

__all__ = [
    "GameReview",
    "HandReview",
    "Moment",
    "ReviewDepth",
    "decision_points",
    "decision_seed_at",
    "evaluate_decision",
    "moment_label",
    "review_game",
    "review_hands",
    "save_review",
]

WORKERS = 1 if sys.platform == "emscripten" else min(2, os.cpu_count() or 1)
"""Processes a game review spreads its decisions over (each decision is valued alike on any
of them: the seed decides); one in the browser (Pyodide has no processes)."""

KEY_BANDS = ("inaccuracy", "mistake", "blunder")
KEY_MOMENTS = 5

ProgressCallback = Callable[[int, int, str], None]


@dataclass(frozen=True)
class ReviewDepth(Depth):
    """How hard the review looks at each decision: the coach's own depth (``COACH``), so a
    decision gets the same verdict here as in a lesson, a puzzle or a hint; and the seed."""

    seed: int = 0


@dataclass(frozen=True)
class Moment:
    """One graded decision, with the position and the evaluation behind it."""

    decision: Decision
    state: HandState
    """The hand just before the decision."""
    evaluation: Evaluation
    hand_index: int
    scores: tuple[int, ...]
    """Game totals before this hand."""

    @property
    def loss(self) -> float:
        return self.decision.loss

    @property
    def label(self) -> str:
        return moment_label(self.hand_index, self.decision)


def moment_label(hand_index: int, d: Decision) -> str:
    """A key moment in a line: where, the choice (as the table shows cards), the band and the best."""
    where = "the pass" if d.kind == "pass" else f"trick {d.trick}"
    choice, best = option_symbols(d.choice), option_symbols(d.best)
    return f"Hand {hand_index + 1}, {where}: {choice} ({d.band}, {d.loss:.1f} lost; best {best})"


@dataclass(frozen=True)
class HandReview:
    index: int
    pass_direction: str
    scores: tuple[int, ...]
    points: int
    """The learner's points in the hand."""
    result: float
    """The learner's points minus the others' average."""
    cards: float
    """Expected result with best play, from the learner's first decision."""
    expected_points: float
    """Expected points (the learner's own) with best play, from the first decision."""
    moments: tuple[Moment, ...]

    @property
    def decisions_loss(self) -> float:
        return sum(moment.loss for moment in self.moments)

    @property
    def luck(self) -> float:
        return self.result - self.cards - self.decisions_loss


@dataclass(frozen=True)
class GameReview:
    seat: int
    hands: tuple[HandReview, ...]
    game_id: int | None = None
    moments: tuple[Moment, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "moments", tuple(m for hand in self.hands for m in hand.moments))

    @property
    def decisions(self) -> int:
        return len(self.moments)

    @property
    def accuracy(self) -> float:
        """Percent of decisions graded best or good (100 when there were none)."""
        if not self.moments:
            return 100.0
        return 100.0 * sum(m.decision.good for m in self.moments) / len(self.moments)

    @property
    def total_loss(self) -> float:
        return sum(m.loss for m in self.moments)

    @property
    def loss_per_hand(self) -> float:
        return self.total_loss / len(self.hands) if self.hands else 0.0

    @property
    def cards(self) -> float:
        return sum(hand.cards for hand in self.hands)

    @property
    def luck(self) -> float:
        return sum(hand.luck for hand in self.hands)

    @property
    def result(self) -> float:
        return sum(hand.result for hand in self.hands)

    @property
    def points(self) -> int:
        return sum(hand.points for hand in self.hands)

    def bands(self) -> dict[str, int]:
        counts = dict.fromkeys(("best", "good", "inaccuracy", "mistake", "blunder"), 0)
        for moment in self.moments:
            counts[moment.decision.band] += 1
        return counts

    def key_moments(self, count: int = KEY_MOMENTS) -> list[Moment]:
        """The costliest decisions (inaccuracy or worse), largest loss first."""
        key = [m for m in self.moments if m.decision.band in KEY_BANDS]
        return sorted(key, key=lambda m: (-m.loss, m.hand_index, m.decision.trick))[:count]

    def summary(self) -> dict:
        """Plain figures, as kept with the game in the store."""
        return {
            "hands": len(self.hands),
            "decisions": self.decisions,
            "accuracy": round(self.accuracy, 2),
            "loss_per_hand": round(self.loss_per_hand, 3),
            "total_loss": round(self.total_loss, 3),
            "cards": round(self.cards, 3),
            "luck": round(self.luck, 3),
            "result": round(self.result, 3),
            "points": self.points,
            "bands": self.bands(),
            "per_hand": [
                {
                    "hand": hand.index + 1,
                    "pass": hand.pass_direction,
                    "points": hand.points,
                    "result": round(hand.result, 3),
                    "cards": round(hand.cards, 3),
                    "decisions": round(hand.decisions_loss, 3),
                    "luck": round(hand.luck, 3),
                }
                for hand in self.hands
            ],
        }


def _fresh(hand: HandState) -> HandState:
    return HandState(hand.rules, hand.dealt, hand.pass_direction, seed=hand.seed)


def decision_points(hand: HandState, seat: int) -> list[tuple[int, HandState, object, bool]]:
    """The learner's decisions in a finished hand: (action index, the hand before it, the
    choice, whether it was a real choice). The first one is always listed (it values the
    cards); forced plays after it are not."""
    state = _fresh(hand)
    points = []
    for index, action in enumerate(hand.history):
        if getattr(action, "seat", None) == seat and not isinstance(action, MoonAction):
            if isinstance(action, PassAction):
                points.append((index, state.copy(), action.cards, True))
            else:
                real = len(state.legal_cards(seat)) > 1
                if real or not points:
                    points.append((index, state.copy(), action.card, real))
        state.apply(action)
    return points


def decision_seed_at(budget: ReviewDepth, hand_index: int, state: HandState) -> int:
    """The evaluator's seed for the decision at ``state``: the same decision is always valued
    alike, here and in the hint the learner could ask for (``trainer.coach.hint``)."""
    return decision_seed(hand_index, state.cards_played, state.phase is Phase.PASSING, budget.seed)


def evaluate_decision(
    state: HandState, seat: int, choice: object, scores: tuple[int, ...], budget: ReviewDepth, seed: int
) -> Evaluation:
    """Value every option of ``seat``'s pass or play at ``state``, from its view only, until the
    band of ``choice`` is decided (the coach's verdict, ``trainer.coach.depth.judge``); with no
    choice yet (None), on the budget's full depth."""
    view = state.view(seat, scores=scores)
    if choice is not None:
        return judge(view, choice, seed, budget)
    if state.phase is Phase.PASSING:
        return evaluate_pass(view, budget.for_pass("full"), seed=seed)
    return evaluate_play(view, budget.for_play(view, "full"), seed=seed)


def _evaluate_job(job: tuple) -> Evaluation:
    return evaluate_decision(*job)


def _evaluations(jobs: list[tuple], workers: int) -> Iterator[Evaluation]:
    """Each job's evaluation, in order; over ``workers`` fresh processes when more than one
    (spawned, not forked: the caller may be a notebook server with threads of its own)."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(_evaluate_job, jobs)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=min(workers, len(jobs)), mp_context=context, initializer=one_thread
    ) as pool:
        yield from pool.map(_evaluate_job, jobs)


def review_hands(
    hands: Sequence[HandState],
    seat: int,
    budget: ReviewDepth | None = None,
    progress: ProgressCallback | None = None,
    game_id: int | None = None,
    workers: int = 1,
) -> GameReview:
    """Review finished hands (a game's, in order) from ``seat``. ``progress(done, total, label)``
    is called after each evaluation. ``workers`` processes share the evaluations; the review is
    the same with any number."""
    budget = budget or ReviewDepth()
    if not all(hand.is_over for hand in hands):
        raise ValueError("only finished hands can be reviewed")
    plan = [decision_points(hand, seat) for hand in hands]
    total = sum(len(points) for points in plan)
    totals = [0] * (hands[0].players if hands else 4)
    jobs = []
    for hand_index, (hand, points) in enumerate(zip(hands, plan, strict=True)):
        for _action_index, state, choice, _real in points:
            jobs.append(
                (state, seat, choice, tuple(totals), budget, decision_seed_at(budget, hand_index, state))
            )
        for s, points_taken in enumerate(hand.result.scores):
            totals[s] += points_taken
    evaluations = _evaluations(jobs, workers)
    done = 0
    totals = [0] * (hands[0].players if hands else 4)
    reviewed = []
    for hand_index, (hand, points) in enumerate(zip(hands, plan, strict=True)):
        before = tuple(totals)
        moments = []
        cards = expected_points = 0.0
        for number, (_action_index, state, choice, real) in enumerate(points):
            evaluation = next(evaluations)
            if number == 0:
                expected = evaluation.best.forecast or evaluation.best
                cards, expected_points = expected.difference, expected.points
            if real:
                decision = graded_decision(
                    state, seat, choice, evaluation, source="game", game_id=game_id, hand_index=hand_index
                )
                moments.append(Moment(decision, state, evaluation, hand_index, before))
            done += 1
            if progress:
                progress(done, total, f"hand {hand_index + 1}")
        scores = hand.result.scores
        others = (sum(scores) - scores[seat]) / (len(scores) - 1)
        reviewed.append(
            HandReview(
                hand_index,
                hand.pass_direction.value,
                scores,
                scores[seat],
                scores[seat] - others,
                cards,
                expected_points,
                tuple(moments),
            )
        )
        for s, points_taken in enumerate(scores):
            totals[s] += points_taken
    return GameReview(seat, tuple(reviewed), game_id)


def review_game(
    game: SavedGame,
    budget: ReviewDepth | None = None,
    progress: ProgressCallback | None = None,
    workers: int = WORKERS,
) -> GameReview:
    """Review a kept game (``trainer.progress.games``) from its learner's seat, on ``workers``
    processes; the decisions a bot made for the seat (a room's game) are valued but not graded as
    the learner's: their cost counts as luck."""
    review = review_hands(game.hands, game.seat, budget, progress, game.id, workers)
    return without_bot_made(review, game.bot_made)


def without_bot_made(review: GameReview, bot_made: frozenset[tuple[int, int]]) -> GameReview:
    """``review`` without the moments of the actions in ``bot_made`` ((hand index, index in its
    history))."""
    hands = []
    for hand in review.hands:
        mine = tuple(m for m in hand.moments if (hand.index, m.state.actions_made) not in bot_made)
        hands.append(replace(hand, moments=mine))
    return GameReview(review.seat, tuple(hands), review.game_id)


def save_review(store: Store, review: GameReview, extra: dict | None = None) -> None:
    """Keep a game's review: its decisions (replacing any from an earlier review of the same
    game) and its summary figures (with ``extra``'s keys: ``trainer.review.stored``), in one
    transaction."""
    if review.game_id is None:
        raise ValueError("the review is of no kept game")
    with store.transaction() as db:
        db.execute("DELETE FROM decisions WHERE source = 'game' AND game_id = ?", (review.game_id,))
        for moment in review.moments:
            insert(db, moment.decision)
        db.execute(
            "UPDATE games SET reviewed_at = ?, review = ? WHERE id = ?",
            (now(), json.dumps({**review.summary(), **(extra or {})}), review.game_id),
        )
