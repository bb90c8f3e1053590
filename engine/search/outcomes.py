"""Playing options out: every option of a decision, in every imagined deal, to the hand's end.

The evaluator imagines deals (``engine.search.sampling``) and asks this module how each option ends in
each of them: the hand's score for every seat and who shot the moon. Three ways, one answer
format (option-major rows: row ``o * deals + d`` is option ``o`` in deal ``d``):

- compiled: ``engine.search.batch`` with ``engine.search.compiled`` (numpy and numba), the play-out policy;
- pure Python: ``engine.search.playout``, the same policy card for card (Pyodide, or no numba);
- exact: ``engine.search.solver`` solves each deal with every hand open (late in a hand, when every
  seat holds few cards), instead of trusting the policy; its compiled twin
  (``engine.search.compiled_solver``) where numba is there.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hand import HandState
from ..kernel import exchange, first_leader
from ..moon import BLOCKERS, Blocking
from ..rng import SplitMix64
from ..view import PlayerView
from . import threads
from .inference import (
    BLOCKER_TREMBLE,
    TREMBLE,
    RunnerPlays,
    blocker_plays,
    blocker_weight,
    mismatches,
    runner_losers,
    runner_plays,
    weight_of,
)
from .pass_worlds import PASS_DEAL_BLOCK, deal_for_pass, pass_room
from .playout import playout_result
from .sampling import RETRIES, WorldSampler, world_seed

try:
    import numpy as np

    from .batch import Batch
    from .compiled import RulesCode, deal_pass_blocks, hands_after_passes, quick_worlds, runner_mismatches
    from .compiled_solver import solve_options_compiled, supports
except ImportError:  # pragma: no cover - the engine also runs without numpy and numba, more slowly
    np = None
    Batch = None
    solve_options_compiled = supports = None

__all__ = [
    "HAVE_COMPILED",
    "Outcomes",
    "PlayWorlds",
    "pass_deals",
    "pass_outcomes",
    "play_outcomes",
    "public_play",
]

HAVE_COMPILED = Batch is not None

Outcomes = tuple[Sequence[Sequence[int]], Sequence[int]]
"""Per row (option ``o`` in deal ``d`` is row ``o * deals + d``): every seat's score for the
hand, and the moon's shooter or -1. numpy arrays from the compiled path, lists otherwise."""


def public_play(view: PlayerView) -> tuple[list, list[int], int, bool]:
    """What every seat knows of the play so far: tricks, the current trick, its leader, hearts."""
    tricks = [(trick.leader, tuple(int(c) for c in trick.cards), trick.winner) for trick in view.tricks]
    current = view.current_trick
    return tricks, [int(c) for c in current.cards], current.leader, view.hearts_broken


THIN_POOL = 64
"""Most worlds drawn per world ``PlayWorlds.thinned`` keeps."""

_THIN_SALT = 0x7A1D_5EED_0F_7E1A
"""Keeps a world's keep-or-drop draw apart from the draws that made the world."""


class PlayWorlds:
    """Imagined deals for a play decision (``engine.search.sampling``), drawn compiled or in pure
    Python: world ``k`` of a seed is the same either way."""

    def __init__(self, view: PlayerView, seed: int, how: str) -> None:
        self.sampler = WorldSampler(view)
        self.seed = seed & ((1 << 64) - 1)
        self.compiled = how == "compiled"
        self.drawn = 0
        self.reading = runner_plays(view)
        self.rules = view.rules
        self.played = view.played_cards.mask
        self.tricks_done = len(view.tricks)
        self.ceiling: float | None = None
        self.blockers = blocker_plays(view)
        """While this seat runs for the moon: the blockers' plays to read."""
        self.weighted = self.reading is not None or bool(self.blockers and BLOCKER_TREMBLE != 1.0)
        """Whether worlds carry weights (``weights``)."""
        if self.compiled:
            self.reading_arrays = _plays_arrays(self.reading, view) if self.reading is not None else None
            self.blocker_arrays = [_plays_arrays(plays, view) for plays in self.blockers]
            sampler = self.sampler
            self.arrays = (
                np.array(sampler.cards, dtype=np.int64),
                np.array(sampler.seats_of, dtype=np.int64),
                np.array([len(sampler.options[card]) for card in sampler.cards], dtype=np.int64),
                np.array(sampler.free, dtype=np.int64),
                np.array(sampler.fixed, dtype=np.int64),
            )

    def weights(self, worlds: Sequence[Sequence[int]]) -> list[float] | None:
        """Each world's weight from the moon runner's plays, or from the blockers' plays while
        this seat is the runner (``engine.search.inference``); None when nothing is read (every world
        counts the same)."""
        if not self.weighted:
            return None
        if self.reading is None:
            return [blocker_weight(count) for count in self.blocked(worlds)]
        # With TREMBLE 1 the mismatches cannot change a weight: not counted.
        counts = self.mismatched(worlds) if TREMBLE != 1.0 else [0] * len(worlds)
        left = self.losers(worlds)
        done = self.tricks_done
        return [weight_of(count, losers, done) for count, losers in zip(counts, left, strict=True)]

    def evidence(self, worlds: Sequence[Sequence[int]]) -> tuple[list[int], list[int]] | None:
        """Per world, what a weight can be made of: the runner's plays the policy would have
        made otherwise, and the losers left in the runner's hand; None when no runner is read."""
        if self.reading is None:
            return None
        return self.mismatched(worlds), self.losers(worlds)

    def mismatched(self, worlds: Sequence[Sequence[int]]) -> list[int]:
        plays = self.reading
        runner = plays.runner
        if self.compiled:
            hands = np.array([world[runner] for world in worlds], dtype=np.int64)
            return runner_mismatches(hands, runner, *self.reading_arrays).tolist()
        return [mismatches(plays, world[runner], self.rules) for world in worlds]

    def blocked(self, worlds: Sequence[Sequence[int]]) -> list[int]:
        """Per world, the blockers' plays (``blocker_plays``) the policy would have made otherwise
        with their hands of that world; zeros when this seat is not the runner."""
        counts = [0] * len(worlds)
        for number, plays in enumerate(self.blockers):
            seat = plays.runner
            if self.compiled:
                hands = np.array([world[seat] for world in worlds], dtype=np.int64)
                found = runner_mismatches(hands, seat, *self.blocker_arrays[number]).tolist()
            else:
                found = [mismatches(plays, world[seat], self.rules) for world in worlds]
            counts = [a + b for a, b in zip(counts, found, strict=True)]
        return counts

    def losers(self, worlds: Sequence[Sequence[int]]) -> list[int]:
        plays = self.reading
        return [runner_losers(plays, world[plays.runner], self.rules, self.played) for world in worlds]

    def thinned(self, count: int) -> tuple[list[list[int]], list[float] | None]:
        """``count`` worlds and their weights, for an evaluation that costs far more a world than
        drawing one (an exact solve): when a runner is read, each world drawn is kept with
        probability its weight over the first pool's highest (the rest are never solved), so
        the kept worlds weigh the same and each solve counts as a whole deal. Worlds whose
        weight is over that ceiling weigh their share above it. If too few are kept from
        ``THIN_POOL`` times ``count`` worlds, the rest are taken as drawn, with their weights
        (unbiased either way: every world counts its weight over the ceiling, in expectation)."""
        if not self.weighted:
            return self.next(count), None
        kept: list[list[int]] = []
        weights: list[float] = []
        drawn = 0
        while len(kept) < count and drawn < THIN_POOL * count:
            pool_start = self.drawn
            pool = self.next(max(256, 4 * (count - len(kept))))
            drawn += len(pool)
            pool_weights = self.weights(pool)
            if self.ceiling is None:
                self.ceiling = max(pool_weights)
            for k, (world, weight) in enumerate(zip(pool, pool_weights, strict=True)):
                chance = world_seed(self.seed ^ _THIN_SALT, pool_start + k) / 2.0**64
                if weight >= self.ceiling or chance * self.ceiling < weight:
                    kept.append(world)
                    weights.append(max(1.0, weight / self.ceiling))
                    if len(kept) == count:
                        break
        if len(kept) < count:
            rest = self.next(count - len(kept))
            kept.extend(rest)
            weights.extend(weight / self.ceiling for weight in self.weights(rest))
        return kept, weights

    def next(self, count: int) -> list[list[int]]:
        first = self.drawn
        self.drawn += count
        if not self.compiled:
            return [self.sampler.world(world_seed(self.seed, first + k)) for k in range(count)]
        hands, done, states = quick_worlds(*self.arrays, np.uint64(self.seed), first, count, RETRIES)
        worlds = hands.tolist()
        for k in np.flatnonzero(~done):
            worlds[k] = self.sampler.careful(SplitMix64(int(states[k])))
        return worlds


def _plays_arrays(plays: RunnerPlays, view: PlayerView) -> tuple:
    """A seat's plays as the arrays ``engine.search.compiled.runner_mismatches`` reads."""
    tricks = np.zeros((len(plays.cards), view.players), dtype=np.int64)
    for k, trick in enumerate(plays.tricks):
        tricks[k, : len(trick)] = trick
    return (
        np.array(plays.cards, dtype=np.int64),
        tricks,
        np.array([len(trick) for trick in plays.tricks], dtype=np.int64),
        np.array(plays.leaders, dtype=np.int64),
        np.array(plays.first, dtype=np.bool_),
        np.array(plays.broken, dtype=np.bool_),
        np.array(plays.queen_out, dtype=np.bool_),
        np.array(plays.runners, dtype=np.int64),
        np.array(plays.runner_cards, dtype=np.int64),
        np.array(plays.played, dtype=np.int64),
        np.array(plays.later, dtype=np.int64),
        RulesCode.of(view.rules),
    )


def play_outcomes(
    view: PlayerView,
    worlds: Sequence[Sequence[int]],
    cards: Sequence[int],
    how: str,
    blocking: Blocking = BLOCKERS,
) -> Outcomes:
    """Each of ``cards`` (the seat to move's options) played in each world, then played out
    ``how``: "compiled", "python" or "exact" (where every seat plays perfectly, so blocks
    every moon it can and ``blocking`` does not apply)."""
    tricks, trick, leader, broken = public_play(view)
    if how == "compiled":
        batch = _play_batch(view, worlds, tricks, trick, leader, broken).tile(len(cards))
        batch.play(np.repeat(np.array(cards, dtype=np.int64), len(worlds)))
        return batch.run("heuristic", blocking=blocking), batch.shooters()
    states = [HandState.imagined(view.rules, hands, tricks, trick, leader, broken) for hands in worlds]
    if how == "exact":
        by_card = [{int(card): (scores, shooter) for card, scores, shooter in _solve(s)} for s in states]
        rows = [by_card[world][card] for card in cards for world in range(len(states))]
        return [scores for scores, _ in rows], [shooter for _, shooter in rows]
    scores, shooters = [], []
    for card in cards:
        for state in states:
            world = state.copy()
            world.play(card)
            result = playout_result(world, None, blocking=blocking)
            scores.append(result.scores)
            shooters.append(-1 if result.shooter is None else result.shooter)
    return scores, shooters


def _solve(state: HandState) -> list:
    """``engine.search.solver.solve_options``, by its compiled twin where numba is there and the twin
    holds the rules' scores (the same outcomes, card for card, several times faster)."""
    if solve_options_compiled is not None and supports(state.rules):
        return solve_options_compiled(state)
    from .solver import solve_options

    return solve_options(state)


def _play_batch(
    view: PlayerView,
    worlds: Sequence[Sequence[int]],
    tricks: list,
    trick: list[int],
    leader: int,
    broken: bool,
) -> Batch:
    """The imagined deals as one batch: the hands differ, everything public is shared."""
    players = view.players
    count = len(worlds)
    taken = [0] * players
    won = [0] * players
    for _, cards, winner in tricks:
        won[winner] += 1
        for card in cards:
            taken[winner] |= 1 << card
    current = np.zeros((count, players), dtype=np.int64)
    current[:, : len(trick)] = trick
    return Batch(
        view.rules,
        np.array(worlds, dtype=np.int64),
        current,
        len(trick),
        np.full(count, leader, dtype=np.int64),
        len(tricks),
        np.full(count, broken, dtype=bool),
        np.tile(np.array(taken, dtype=np.int64), (count, 1)),
        np.tile(np.array(won, dtype=np.int64), (count, 1)),
    )


def pass_deals(view: PlayerView, seed: int, deals: int, how: str) -> tuple:
    """Imagined deals for a pass and the others' passes (``engine.search.pass_worlds``), as numpy
    arrays for the compiled path, lists for pure Python: the same deals either way."""
    if how == "compiled":
        cards, room = pass_room(view)
        hands = np.zeros((deals, view.players), dtype=np.int64)
        passes = np.zeros((deals, view.players), dtype=np.int64)
        arguments = (
            np.array(cards, dtype=np.int64),
            np.array(room, dtype=np.int64),
            view.hand.mask,
            view.seat,
            view.rules.pass_count,
            np.uint64(seed),
            PASS_DEAL_BLOCK,
        )

        def deal(rows: tuple[int, int]) -> None:
            deal_pass_blocks(*arguments, rows[0], rows[1], hands, passes)

        threads.run_parts(deal, threads.block_parts(deals, PASS_DEAL_BLOCK))
        return hands, passes
    return deal_for_pass(view, seed, deals)


def hands_after_pass(
    view: PlayerView, candidate: int, hands: Sequence[int], passes: Sequence[int]
) -> tuple[list[int], int]:
    """Every seat's hand once the passes are made (the seat's own pass is ``candidate``), and
    the seat holding the lowest club, who leads."""
    passes = list(passes)
    passes[view.seat] = candidate
    after = exchange(hands, passes, view.pass_direction.offset(view.players))
    return after, first_leader(after, view.rules.lowest_club)


def pass_outcomes(
    view: PlayerView, candidates: Sequence[int], deals: tuple, how: str, blocking: Blocking = BLOCKERS
) -> Outcomes:
    """Each candidate pass (a mask) made in each deal of ``pass_deals``, then the hand played
    out ``how``: "compiled" or "python", playing the moon by ``blocking``."""
    hands, passes = deals
    if how == "compiled":
        players = view.players
        after, leader = hands_after_passes(
            hands,
            passes,
            np.array(candidates, dtype=np.int64),
            view.seat,
            view.pass_direction.offset(players),
            int(view.rules.lowest_club),
        )
        count = len(after)
        batch = Batch(
            view.rules,
            after,
            np.zeros((count, players), dtype=np.int64),
            0,
            leader,
            0,
            np.zeros(count, dtype=bool),
            np.zeros((count, players), dtype=np.int64),
            np.zeros((count, players), dtype=np.int64),
        )
        return batch.run("heuristic", blocking=blocking), batch.shooters()
    scores, shooters = [], []
    for candidate in candidates:
        for hand_row, pass_row in zip(hands, passes, strict=True):
            after, leader = hands_after_pass(view, candidate, hand_row, pass_row)
            state = HandState.imagined(view.rules, after, [], [], leader, False)
            result = playout_result(state, None, blocking=blocking)
            scores.append(result.scores)
            shooters.append(-1 if result.shooter is None else result.shooter)
    return scores, shooters
