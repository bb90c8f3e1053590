"""The evaluator: every option of a pass or play decision, valued in expected points.

For a seat's view it imagines many deals of the hidden cards that fit what the seat knows
(``engine.sampling``), plays each option out in every one of them with the play-out policy
(``engine.policy``, many at once through ``engine.batch`` when numpy is there), and reports
per option: the seat's expected points for the hand, the other seats' average, their
difference (what wins games, and what makes a moon worth its risk: the ranking key, lower is
better), its standard error, the chance of a moon for and against, and the expected loss
against the best option, with the standard error of that loss. Every option is played in the
same imagined deals, so the losses are paired comparisons and much tighter than the values.

Passing has C(13, 3) = 286 choices: all are screened on a few deals and the better ones
evaluated on more and more (successive halving; see ``PASS_STAGES``).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import Card, CardSet, iter_mask, to_card
from .hand import HandState, Phase
from .passing import rule_of_thumb_pass
from .playout import playout_result
from .sampling import sample_world
from .view import PlayerView

try:
    import numpy as np

    from .batch import Batch
except ImportError:  # pragma: no cover - the engine also runs without numpy, more slowly
    np = None

__all__ = ["PASS_STAGES", "Evaluation", "OptionValue", "evaluate_pass", "evaluate_play"]

Progress = Callable[[int, int], None]
_CHUNK = 64


@dataclass(frozen=True)
class OptionValue:
    option: Card | CardSet
    points: float
    """Expected points for the hand (the seat's own score; lower is better)."""
    others: float
    """Expected average points of the other seats."""
    difference: float
    """``points - others``: the ranking key."""
    standard_error: float
    """Standard error of ``difference``."""
    moon_for: float
    """Chance that this seat shoots the moon."""
    moon_against: float
    """Chance that another seat shoots the moon."""
    loss: float
    """Expected ``difference`` lost against the best option (0 for the best)."""
    loss_error: float
    """Standard error of ``loss``, from the same deals played both ways."""
    samples: int


@dataclass(frozen=True)
class Evaluation:
    kind: str
    """"play" or "pass"."""
    seat: int
    options: tuple[OptionValue, ...]
    """Every option, best first."""
    seed: int
    samples: int
    """Imagined deals behind the leading options' values."""
    seconds: float

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    def value_of(self, option: Card | CardSet | str | Sequence) -> OptionValue:
        """The value of one option: a card (or its text) for a play, cards for a pass."""
        if isinstance(option, (Card, CardSet)):
            wanted = option
        else:
            wanted = CardSet(option) if self.kind == "pass" else to_card(option)
        for value in self.options:
            if value.option == wanted:
                return value
        raise KeyError(f"{option} is not one of the options evaluated")

    def loss_of(self, option: Card | CardSet | str | Sequence) -> float:
        return self.value_of(option).loss


class _Tally:
    """Per option and per imagined deal: the seat's score, the others' average, and moons."""

    def __init__(self, count: int) -> None:
        self.own: list[list[float]] = [[] for _ in range(count)]
        self.others: list[list[float]] = [[] for _ in range(count)]
        self.moon_for: list[int] = [0] * count
        self.moon_against: list[int] = [0] * count

    def add(self, option: int, scores: Sequence[int], shooter: int, seat: int) -> None:
        own = scores[seat]
        self.own[option].append(own)
        self.others[option].append((sum(scores) - own) / (len(scores) - 1))
        if shooter == seat:
            self.moon_for[option] += 1
        elif shooter >= 0:
            self.moon_against[option] += 1

    def differences(self, option: int) -> list[float]:
        return [own - other for own, other in zip(self.own[option], self.others[option], strict=True)]


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def _play_out(states: list[HandState], cards: Sequence[int], vectorized: bool) -> list[tuple]:
    """Play each option card in each state, then play out; (option, state) -> (scores, shooter)."""
    if vectorized:
        batch = Batch.from_states(states).tile(len(cards))
        batch.play(np.repeat(np.array(cards, dtype=np.int64), len(states)))
        scores = batch.run("heuristic").tolist()
        shooters = batch.shooters().tolist()
        return list(zip(scores, shooters, strict=True))
    results = []
    for card in cards:
        for state in states:
            world = state.copy()
            world.play(card)
            result = playout_result(world, None)
            results.append((result.scores, -1 if result.shooter is None else result.shooter))
    return results


def _use_numpy(vectorized: bool | None) -> bool:
    if vectorized and np is None:
        raise RuntimeError("vectorized evaluation needs numpy")
    return np is not None if vectorized is None else vectorized


def _public_play(view: PlayerView) -> tuple[list, list[int], int, bool]:
    tricks = [(trick.leader, tuple(int(c) for c in trick.cards), trick.winner) for trick in view.tricks]
    current = view.current_trick
    return tricks, [int(c) for c in current.cards], current.leader, view.hearts_broken


def _rank(
    tally: _Tally, options: Sequence, best_first: Sequence[int], samples: Sequence[int]
) -> tuple[OptionValue, ...]:
    best = best_first[0]
    best_differences = tally.differences(best)
    ranked = []
    for index in best_first:
        differences = tally.differences(index)
        difference, error = _mean_and_error(differences)
        paired = [d - b for d, b in zip(differences, best_differences, strict=False)]
        loss, loss_error = _mean_and_error(paired) if index != best else (0.0, 0.0)
        count = len(differences)
        ranked.append(
            OptionValue(
                option=options[index],
                points=sum(tally.own[index]) / count,
                others=sum(tally.others[index]) / count,
                difference=difference,
                standard_error=error,
                moon_for=tally.moon_for[index] / count,
                moon_against=tally.moon_against[index] / count,
                loss=max(loss, 0.0),
                loss_error=loss_error,
                samples=samples[index],
            )
        )
    return tuple(ranked)


def evaluate_play(
    view: PlayerView,
    *,
    samples: int = 256,
    seconds: float | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    vectorized: bool | None = None,
) -> Evaluation:
    """Value every legal card for the seat to move. Stops after ``samples`` imagined deals or
    once ``seconds`` have passed (after at least one round of deals)."""
    if view.phase is not Phase.PLAYING or not view.is_my_turn:
        raise ValueError(f"seat {view.seat} has no card to play now")
    fast = _use_numpy(vectorized)
    start = time.perf_counter()
    rng = random.Random(seed)
    options = list(view.legal_cards)
    tally = _Tally(len(options))
    tricks, trick, leader, broken = _public_play(view)
    done = 0
    while done < samples:
        chunk = min(_CHUNK, samples - done)
        states = [
            HandState._imagined(view.rules, sample_world(view, rng), tricks, trick, leader, broken)
            for _ in range(chunk)
        ]
        results = _play_out(states, [int(card) for card in options], fast)
        for row, (scores, shooter) in enumerate(results):
            tally.add(row // chunk, scores, shooter, view.seat)
        done += chunk
        if progress:
            progress(done, samples)
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
    order = sorted(range(len(options)), key=lambda i: (sum(tally.differences(i)), i))
    ranked = _rank(tally, options, order, [done] * len(options))
    return Evaluation("play", view.seat, ranked, seed, done, time.perf_counter() - start)


def _pass_worlds(view: PlayerView, count: int, rng: random.Random) -> list[tuple[list[int], list[int]]]:
    """Imagined deals for a pass: every seat's hand, and what each other seat passes."""
    worlds = []
    for _ in range(count):
        hands = sample_world(view, rng)
        passes = [
            rule_of_thumb_pass(hand, view.rules.pass_count) if seat != view.seat else 0
            for seat, hand in enumerate(hands)
        ]
        worlds.append((hands, passes))
    return worlds


def _after_pass(view: PlayerView, candidate: int, hands: list[int], passes: list[int]) -> HandState:
    players = view.players
    offset = view.pass_direction.offset(players)
    passes = list(passes)
    passes[view.seat] = candidate
    after = [(hands[s] & ~passes[s]) | passes[(s - offset) % players] for s in range(players)]
    lowest = view.rules.lowest_club
    leader = next(seat for seat, hand in enumerate(after) if hand >> lowest & 1)
    return HandState._imagined(view.rules, after, [], [], leader, False)


def _simulate_passes(
    view: PlayerView,
    candidates: Sequence[int],
    worlds: list,
    tally: _Tally,
    indices: Sequence[int],
    fast: bool,
) -> None:
    """Play every candidate pass out in every world, adding to ``tally`` at ``indices``."""
    states = [_after_pass(view, candidates[i], hands, passes) for i in indices for hands, passes in worlds]
    if fast:
        batch = Batch.from_states(states)
        results = zip(batch.run("heuristic").tolist(), batch.shooters().tolist(), strict=True)
    else:
        results = []
        for state in states:
            result = playout_result(state, None)
            results.append((result.scores, -1 if result.shooter is None else result.shooter))
    for row, (scores, shooter) in enumerate(results):
        tally.add(indices[row // len(worlds)], scores, shooter, view.seat)


PASS_STAGES = ((32, 48), (96, 12))
"""Successive halving for passes: every pass is played on 32 imagined deals, the best 48 on 96
more, and the best 12 on the full budget. All survivors of a stage share its deals, so every
option's value can be compared, paired, with the winner's on the deals they both saw."""


def evaluate_pass(
    view: PlayerView,
    *,
    samples: int = 320,
    seconds: float | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    stages: Sequence[tuple[int, int]] = PASS_STAGES,
    include: Sequence[CardSet | str] = (),
    vectorized: bool | None = None,
) -> Evaluation:
    """Value every possible pass. ``stages`` screens them in rounds of (deals, survivors); the
    finalists are then played out on ``samples`` more deals (or until ``seconds`` have passed).
    Passes in ``include`` (a learner's choice, say) are evaluated to the end whatever their
    screening. Options are ranked finalists first, then by the stage they reached."""
    if view.phase is not Phase.PASSING or view.passed is not None:
        raise ValueError(f"seat {view.seat} has no pass to choose now")
    fast = _use_numpy(vectorized)
    start = time.perf_counter()
    rng = random.Random(seed)
    cards = list(iter_mask(view.hand.mask))
    candidates = [
        sum(1 << c for c in combo) for combo in itertools.combinations(cards, view.rules.pass_count)
    ]
    options = [CardSet(mask) for mask in candidates]
    forced = {candidates.index(CardSet(option).mask) for option in include}
    tally = _Tally(len(candidates))
    reached = [0] * len(candidates)
    alive = list(range(len(candidates)))
    total = sum(deals for deals, _ in stages) + samples
    done = 0

    def mean(index: int) -> float:
        return sum(tally.differences(index)) / len(tally.own[index])

    for deals, keep in stages:
        _simulate_passes(view, candidates, _pass_worlds(view, deals, rng), tally, alive, fast)
        done += deals
        if progress:
            progress(done, total)
        survivors = sorted(alive, key=lambda i: (mean(i), i))[:keep]
        for index in survivors:
            reached[index] += 1  # a forced pass keeps the place its own value earns
        alive = sorted(set(survivors) | forced)
    final = 0
    while final < samples:
        chunk = min(_CHUNK, samples - final)
        _simulate_passes(view, candidates, _pass_worlds(view, chunk, rng), tally, alive, fast)
        final += chunk
        if progress:
            progress(done + final, total)
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
    order = sorted(range(len(candidates)), key=lambda i: (-reached[i], mean(i), i))
    counts = [len(tally.own[i]) for i in range(len(candidates))]
    ranked = _rank(tally, options, order, counts)
    return Evaluation("pass", view.seat, ranked, seed, counts[order[0]], time.perf_counter() - start)
