"""Reading a moon runner's hand from what it has played.

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
is 1: the count is kept, compiled in ``engine.compiled`` and held to the reference by the
tests, for the benchmark to re-fit against another model of the players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import HEARTS_MASK, SUIT_MASKS, Suit
from .moon import losers, moon_candidate, moon_cards, moon_threat
from .policy import choose_card
from .rules import QUEEN_OF_SPADES, Rules
from .view import PlayerView

__all__ = [
    "GROWTH",
    "STRENGTH",
    "TREMBLE",
    "RunnerPlays",
    "loser_strength",
    "mismatches",
    "runner_losers",
    "runner_plays",
    "weight_of",
]

TREMBLE = 1.0
"""How much a deal's weight shrinks for each runner's play the policy would not have made
(1: not at all, as fitted)."""

STRENGTH = 0.1
GROWTH = 0.5
"""A deal's weight shrinks by ``exp(-STRENGTH * tricks_done ** (1 + GROWTH))`` for each loser in
the runner's hand: to 0.90 after one trick, 0.75 after two, 0.10 after eight (fitted, see above)."""

_CLUBS = SUIT_MASKS[Suit.CLUBS]
_QUEEN_BIT = 1 << QUEEN_OF_SPADES


@dataclass(frozen=True)
class RunnerPlays:
    """The runner's plays so far, each with the public state just before it."""

    runner: int
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
    """The runner's own cards played from this play on (it held them then)."""


def runner_plays(view: PlayerView) -> RunnerPlays | None:
    """The plays to read, or None when nobody else threatens the moon (deals are not weighted)."""
    threat = moon_threat(view)
    if threat is None:
        return None
    rules = view.rules
    moon_mask = moon_cards(rules)
    runner = threat.seat
    players = view.players
    taken = [0] * players
    played = 0
    rows: list[tuple] = []
    tricks = (*view.tricks, view.current_trick)
    for number, trick in enumerate(tricks):
        before, runner_cards_now = moon_candidate(taken, moon_mask)
        for position, card in enumerate(trick.cards):
            seat = (trick.leader + position) % players
            if seat == runner:
                broken = not rules.must_break_hearts or bool(played & HEARTS_MASK)
                if rules.queen_breaks_hearts and played & _QUEEN_BIT:
                    broken = True
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
            played |= 1 << card
        if trick.is_complete:
            for card in trick.cards:
                taken[trick.winner] |= 1 << card
    if not rows:
        return None
    later = []
    mask = 0
    for row in reversed(rows):
        mask |= 1 << row[0]
        later.append(mask)
    later.reverse()
    columns = list(zip(*rows, strict=True))
    return RunnerPlays(
        runner,
        tuple(columns[0]),
        tuple(columns[1]),
        tuple(columns[2]),
        tuple(columns[3]),
        tuple(columns[4]),
        tuple(columns[5]),
        tuple(columns[6]),
        tuple(columns[7]),
        tuple(columns[8]),
        tuple(later),
    )


def _legal(hand: int, trick: Sequence[int], first: bool, broken: bool, rules: Rules) -> int:
    """``HandState``'s legal cards for ``hand`` at that moment."""
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return follow
        if first and rules.no_points_on_first_trick:
            safe = hand & ~rules.point_mask
            if safe:
                return safe
        return hand
    if first:
        return hand & _CLUBS if rules.lead_any_club else hand & 1 << rules.lowest_club
    if broken:
        return hand
    others = hand & ~HEARTS_MASK
    if not others or (others == _QUEEN_BIT and rules.hearts_instead_of_queen):
        return hand
    return others


def mismatches(plays: RunnerPlays, hand: int, rules: Rules) -> int:
    """How many of the runner's plays the policy would have made otherwise, had the runner
    held ``hand`` now (and, at each play, the cards it has played since)."""
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
