"""Reading hands from what was played, while a moon is on: the runner's, and the blockers'.

Imagined deals are drawn as if every consistent deal were equally likely. But a player who has
taken every point so far did not play its cards at random: a player that leads its aces and wins
tricks it could have ducked is likely to hold the cards to shoot. So while a runner threatens
the moon (``engine.moon``), each imagined deal is weighted by the losers left in the runner's
hand of that deal (``engine.moon.losers``): the more tricks the runner has come through with
every point, the less likely a hand that cannot take the rest.

How strongly is a question of fact, fitted in ``benchmarks/runner_read.py`` to what Hard x4
went on to do from 2,374 runner positions of four kept calibration runs (each run held out in
turn, the fitted law beat the old one on it every time). The fit also said that how well the
play-out policy explains each of the runner's plays (``mismatches``, each one multiplying the
weight by ``TREMBLE``) tells nothing against players who are not that policy, so ``TREMBLE``
is 1: the count is kept, compiled in ``engine.search.compiled`` and held to the reference by the
tests, for the benchmark to re-fit against another model of the players.

The other way round, while the deciding seat is itself the runner, deals are drawn as if the
blockers' high hearts could be anywhere; but a strong blocker keeps its high hearts under the
runner's and takes a point trick from it when that is cheap, so how it played onto the runner's
tricks shows where the stoppers are. Each of those plays (``blocker_plays``) the policy would
have made otherwise with the blocker's hand of a deal multiplies the deal's weight by
``BLOCKER_TREMBLE``, fitted the same way (``benchmarks/runner_read.py --blockers``): against
Hard's blockers these plays do tell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..kernel import breaks_hearts, legal_mask
from ..moon import losers, moon_candidate, moon_cards, moon_threat
from ..rules import QUEEN_OF_SPADES, Rules
from ..view import PlayerView
from .policy import choose_card

__all__ = [
    "BLOCKER_TREMBLE",
    "GROWTH",
    "STRENGTH",
    "TREMBLE",
    "RunnerPlays",
    "blocker_plays",
    "blocker_weight",
    "loser_strength",
    "mismatches",
    "runner_losers",
    "runner_plays",
    "weight_of",
]

TREMBLE = 1.0
"""How much a deal's weight shrinks for each runner's play the policy would not have made
(1: not at all, as fitted)."""

BLOCKER_TREMBLE = 0.02
"""While the deciding seat runs for the moon, how much a deal's weight shrinks for each of the
blockers' plays (``blocker_plays``) the policy would not have made with their hands of that
deal. Fitted (``benchmarks/runner_read.py --blockers``) to what Hard x4 went on to do from 157
positions of two kept calibration runs: the runner's predicted moon's log-loss fell from 0.29
(no read) to 0.20, and on each run held out with the tremble fitted on the other, from 0.37 to
0.30 and from 0.19 to 0.08. Blockers who keep their high hearts under the runner's and take its
point tricks cheaply hold the cards that stop a moon; a deal where they would not have played
so is a less likely deal."""

STRENGTH = 0.1
GROWTH = 0.5
"""A deal's weight shrinks by ``exp(-STRENGTH * tricks_done ** (1 + GROWTH))`` for each loser in
the runner's hand: to 0.90 after one trick, 0.75 after two, 0.10 after eight (fitted, see above)."""

_QUEEN_BIT = 1 << QUEEN_OF_SPADES


@dataclass(frozen=True)
class RunnerPlays:
    """A seat's plays so far, each with the public state just before it: the runner's
    (``runner_plays``) or a blocker's (``blocker_plays``)."""

    runner: int
    """The seat that made these plays."""
    cards: tuple[int, ...]
    tricks: tuple[tuple[int, ...], ...]
    """The cards of its trick played before it."""
    leaders: tuple[int, ...]
    first: tuple[bool, ...]
    """Whether it was in the first trick."""
    broken: tuple[bool, ...]
    """Whether hearts were free to lead then."""
    queen_out: tuple[bool, ...]
    runners: tuple[int, ...]
    runner_cards: tuple[int, ...]
    played: tuple[int, ...]
    """Every card played before it."""
    later: tuple[int, ...]
    """The seat's own cards played from this play on (it held them then)."""


def runner_plays(view: PlayerView) -> RunnerPlays | None:
    """The plays to read, or None when nobody else threatens the moon (deals are not weighted)."""
    threat = moon_threat(view)
    if threat is None:
        return None
    return _seat_plays(view, threat.seat, None)


def blocker_plays(view: PlayerView) -> list[RunnerPlays]:
    """While ``view``'s own seat is the runner: each other seat's plays onto a trick the runner
    was winning at that moment, with every moon card so far the runner's (its blocking plays,
    ``RunnerPlays.runner`` being that seat); empty otherwise. Strong blockers keep their high
    hearts under the runner's and take its point tricks when that is cheap, so a deal in which
    those plays would have been made otherwise is a less likely deal (``BLOCKER_TREMBLE``)."""
    threat = moon_threat(view, include_self=True)
    if threat is None or threat.seat != view.seat:
        return []
    found = []
    for seat in range(view.players):
        if seat != view.seat:
            plays = _seat_plays(view, seat, view.seat)
            if plays is not None:
                found.append(plays)
    return found


def _seat_plays(view: PlayerView, seat: int, blocking: int | None) -> RunnerPlays | None:
    """``seat``'s plays so far, each with the public state just before it: all of them, or with
    ``blocking`` (the runner's seat) only those onto a trick that runner was winning while it
    held every moon card taken so far. None when there are none."""
    rules = view.rules
    moon_mask = moon_cards(rules)
    players = view.players
    taken = [0] * players
    played = 0
    rows: list[tuple] = []
    read: list[bool] = []
    tricks = (*view.tricks, view.current_trick)
    for number, trick in enumerate(tricks):
        before, runner_cards_now = moon_candidate(taken, moon_mask)
        winner, winning = trick.leader, -1
        for position, card in enumerate(trick.cards):
            player = (trick.leader + position) % players
            if player == seat:
                broken = not rules.must_break_hearts or breaks_hearts(played, rules.queen_breaks_hearts)
                rows.append(
                    (
                        int(card),
                        tuple(int(c) for c in trick.cards[:position]),
                        trick.leader,
                        number == 0,
                        broken,
                        not played & _QUEEN_BIT,
                        before,
                        runner_cards_now,
                        played,
                    )
                )
                read.append(blocking is None or (before == blocking and position > 0 and winner == blocking))
            if position == 0 or (card // 13 == trick.cards[0] // 13 and card > winning):
                winner, winning = player, card
            played |= 1 << card
        if trick.is_complete:
            for card in trick.cards:
                taken[trick.winner] |= 1 << card
    later = []
    mask = 0
    for row in reversed(rows):
        mask |= 1 << row[0]
        later.append(mask)
    later.reverse()
    kept = [(*row, held) for row, held, keep in zip(rows, later, read, strict=True) if keep]
    if not kept:
        return None
    columns = list(zip(*kept, strict=True))
    return RunnerPlays(seat, *(tuple(column) for column in columns))


def _legal(hand: int, trick: Sequence[int], first: bool, broken: bool, rules: Rules) -> int:
    """``HandState``'s legal cards for ``hand`` at that moment."""
    return legal_mask(hand, trick[0] // 13 if trick else -1, first, broken, rules.play_rules)


def mismatches(plays: RunnerPlays, hand: int, rules: Rules) -> int:
    """How many of the seat's plays the policy would have made otherwise, had the seat held
    ``hand`` now (and, at each play, the cards it has played since)."""
    count = 0
    moon_mask = moon_cards(rules)
    deck = rules.deck_mask
    for k, card in enumerate(plays.cards):
        held = hand | plays.later[k]
        legal = _legal(held, plays.tricks[k], plays.first[k], plays.broken[k], rules)
        if legal & (legal - 1) == 0:
            continue  # a forced card says nothing
        policy = choose_card(
            held,
            legal,
            list(plays.tricks[k]),
            rules.players,
            plays.queen_out[k],
            plays.runner,
            plays.leaders[k],
            plays.runners[k],
            moon_mask,
            plays.runner_cards[k],
            deck & ~plays.played[k] & ~held,
        )
        if policy != card:
            count += 1
    return count


def runner_losers(plays: RunnerPlays, hand: int, rules: Rules, played: int) -> int:
    """Losers in the runner's ``hand`` now, against every card not yet played (``played``)."""
    return losers(hand, rules.deck_mask & ~played & ~hand, rules.players)


def loser_strength(tricks_done: int, strength: float = STRENGTH, growth: float = GROWTH) -> float:
    """How much one loser in the runner's hand lowers a deal's log-weight after ``tricks_done``
    complete tricks (``benchmarks/runner_read.py`` fits ``strength`` and ``growth``)."""
    return strength * tricks_done ** (1.0 + growth)


def weight_of(count: int, losers_left: int = 0, tricks_done: int = 0) -> float:
    """A deal's weight: ``count`` runner's plays the policy would have made otherwise and
    ``losers_left`` in the runner's hand of the deal, after ``tricks_done`` complete tricks."""
    return TREMBLE**count * math.exp(-loser_strength(tricks_done) * losers_left)


def blocker_weight(count: int) -> float:
    """A deal's weight from ``count`` blockers' plays the policy would have made otherwise."""
    return BLOCKER_TREMBLE**count
