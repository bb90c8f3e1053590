"""The rules of play written once, over plain ints and bit masks: every caller uses these.

A card is ``suit * 13 + rank`` (suits clubs, diamonds, spades, hearts; rank 0 is the 2), a set
of cards is an int with bit ``card`` set. The hand (``engine.hand``), the play-outs, inference,
outcomes and the solver apply the rules through this module; ``engine.kernel_compiled`` holds
its numba twin, card for card the same (``tests/test_kernel.py`` holds every twin to its
reference). This module imports nothing, so that anything may import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "CLUBS",
    "FIRST_HEART",
    "HEARTS",
    "NOT_HEARTS",
    "QUEEN_BIT",
    "QUEEN_OF_SPADES",
    "SUIT_MASKS",
    "PlayRules",
    "breaks_hearts",
    "exchange",
    "first_leader",
    "legal_mask",
    "play_rules",
    "trick_taker",
    "trick_winner",
]

SUIT_SIZE = 13
SUIT_MASKS: tuple[int, ...] = tuple(((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * suit) for suit in range(4))
CLUBS = SUIT_MASKS[0]
HEARTS = SUIT_MASKS[3]
NOT_HEARTS = (1 << 39) - 1
FIRST_HEART = 39  # hearts are the highest-numbered suit
QUEEN_OF_SPADES = 2 * SUIT_SIZE + 10
QUEEN_BIT = 1 << QUEEN_OF_SPADES
_BITS = tuple(1 << card for card in range(52))


class PlayRules(NamedTuple):
    """The rule options the legal-card rule reads, as plain values (``play_rules``)."""

    first_lead: int
    """The cards that may lead the first trick: every club, or only the lowest club."""
    safe: int
    """The cards a seat that cannot follow may play on the first trick while it holds one of
    them (the cards worth nothing), or -1 (every card) when points may go on it."""
    hearts_for_queen: bool
    """A seat holding only hearts and the Q♠ may lead a heart before hearts are broken."""
    must_break: bool
    """Hearts may not be led until one has been played (or the Q♠, with ``queen_breaks``)."""
    queen_breaks: bool


def play_rules(rules) -> PlayRules:
    """``engine.rules.Rules``'s options for ``legal_mask`` and ``breaks_hearts``."""
    return PlayRules(
        CLUBS if rules.lead_any_club else 1 << rules.lowest_club,
        ~rules.point_mask if rules.no_points_on_first_trick else -1,
        bool(rules.hearts_instead_of_queen),
        bool(rules.must_break_hearts),
        bool(rules.queen_breaks_hearts),
    )


def legal_mask(hand: int, led: int, first: bool, broken: bool, rules: PlayRules) -> int:
    """The cards of ``hand`` its seat may play: ``led`` is the suit led in the trick (-1 when
    the seat leads), ``first`` says the trick is the hand's first, ``broken`` that hearts are
    broken; ``rules`` is ``play_rules(...)`` (read only where a rule option matters)."""
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
        if first:
            return hand & rules.safe or hand
        return hand
    if first:
        return hand & rules.first_lead
    if broken or not rules.must_break:
        return hand
    others = hand & NOT_HEARTS
    if not others or (others == QUEEN_BIT and rules.hearts_for_queen):
        return hand
    return others


def breaks_hearts(cards: int, queen_breaks: bool) -> bool:
    """Whether hearts are broken once ``cards`` (a mask: one card, or every card played) have
    been played: a heart among them, or the Q♠ where the rules say so."""
    return bool(cards & HEARTS or (queen_breaks and cards & QUEEN_BIT))


def trick_taker(trick: Sequence[int]) -> tuple[int, int]:
    """(position in the trick of the card taking it, mask of the trick's cards). Within a suit a
    higher card is a higher number, so the taker is the largest card of the led suit. Of a trick
    not yet complete: the card winning it so far."""
    if len(trick) == 4:  # the usual table, without a loop (the hand calls this every trick)
        first, second, third, fourth = trick
        mask = _BITS[first] | _BITS[second] | _BITS[third] | _BITS[fourth]
    else:
        mask = 0
        for card in trick:
            mask |= _BITS[card]
    # The highest bit of the led suit's cards (bit tricks: the hand calls this every trick).
    return trick.index((mask & SUIT_MASKS[trick[0] // SUIT_SIZE]).bit_length() - 1), mask


def trick_winner(trick: Sequence[int], leader: int, players: int) -> tuple[int, int]:
    """(the seat taking a complete trick led by ``leader``, mask of the trick's cards)."""
    best, mask = trick_taker(trick)
    return (leader + best) % players, mask


def exchange(hands: Sequence[int], passes: Sequence[int], offset: int) -> list[int]:
    """Every seat's hand once the passes are made: seat ``s`` gives ``passes[s]`` to seat
    ``s + offset`` and receives the passes of seat ``s - offset``."""
    players = len(hands)
    return [(hands[s] & ~passes[s]) | passes[(s - offset) % players] for s in range(players)]


def first_leader(hands: Sequence[int], lowest_club: int) -> int:
    """The seat holding the lowest club in play: it leads the first trick."""
    for seat, hand in enumerate(hands):
        if hand >> lowest_club & 1:
            return seat
    raise ValueError(f"no hand holds card {lowest_club}, the lowest club")
