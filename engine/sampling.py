"""Imagining the hidden hands: deals consistent with everything one seat knows.

A seat knows its own hand, the cards it passed and to whom (they stay there until played), the
cards it received, every card played and by whom, and the suits players have shown they lack
by not following. A sampled world gives every other seat exactly as many cards as it holds,
never a card it cannot have, and otherwise spreads the unseen cards at random.
"""

from __future__ import annotations

import random

from .cards import SUIT_MASKS, iter_mask
from .view import PlayerView

__all__ = ["ImpossibleView", "sample_world", "sample_worlds"]

_RETRIES = 8


class ImpossibleView(ValueError):
    """No deal fits what the view says (a position set up by hand can be contradictory)."""


def _constraints(view: PlayerView) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per seat: cards it surely holds, how many more it holds, and the cards it may hold."""
    players = view.players
    unseen = view.unseen_cards.mask
    fixed = [view.known_cards(seat).mask if seat != view.seat else 0 for seat in range(players)]
    for mask in fixed:
        unseen &= ~mask
    free = [view.hand_sizes[seat] - fixed[seat].bit_count() for seat in range(players)]
    free[view.seat] = 0
    allowed = []
    for seat in range(players):
        mask = unseen
        for suit in view.shown_void(seat):
            mask &= ~SUIT_MASKS[suit]
        allowed.append(mask if seat != view.seat else 0)
    return fixed, free, allowed, [unseen]


def sample_world(view: PlayerView, rng: random.Random) -> list[int]:
    """One deal of the hidden cards: every seat's hand as a mask (the viewer's is its own)."""
    fixed, free, allowed, (unseen,) = _constraints(view)
    cards = list(iter_mask(unseen))
    options = {card: [seat for seat, mask in enumerate(allowed) if mask >> card & 1] for card in cards}
    hands = list(fixed)
    hands[view.seat] = view.hand.mask
    # Place the most constrained cards first, so a seat's last places are not taken by cards
    # that could have gone anywhere. This quick way can paint itself into a corner when
    # several seats have shown voids late in a hand; then the careful way takes over.
    cards.sort(key=lambda card: len(options[card]))
    for _ in range(_RETRIES):
        dealt = _quick_deal(cards, options, free, rng)
        if dealt is not None:
            return [hand | extra for hand, extra in zip(hands, dealt, strict=True)]
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(options[card]))
    dealt = _careful_deal(cards, options, free, rng)
    if dealt is None:
        raise ImpossibleView(f"no deal of the unseen cards fits seat {view.seat}'s view")
    return [hand | extra for hand, extra in zip(hands, dealt, strict=True)]


def _pick(seats: list[int], room: list[int], rng: random.Random) -> int:
    """A seat, chosen with probability proportional to the room it has left (which keeps the
    deal close to uniform among the consistent deals)."""
    pick = rng.random() * sum(room[seat] for seat in seats)
    for seat in seats:
        pick -= room[seat]
        if pick < 0:
            return seat
    return seats[-1]


def _quick_deal(cards: list[int], options: dict, free: list[int], rng: random.Random) -> list[int] | None:
    dealt = [0] * len(free)
    room = list(free)
    for card in cards:
        seats = [seat for seat in options[card] if room[seat]]
        if not seats:
            return None
        seat = _pick(seats, room, rng)
        dealt[seat] |= 1 << card
        room[seat] -= 1
    return dealt


def _feasible(counts: dict[tuple[int, ...], int], room: list[int]) -> bool:
    """Hall's condition: every group of cards (grouped by the seats that may hold them) fits in
    the room of the seats that may hold at least one of them."""
    groups = list(counts.items())
    for chosen in range(1, 1 << len(groups)):
        cards = 0
        seats: set[int] = set()
        for index, (allowed, count) in enumerate(groups):
            if chosen >> index & 1:
                cards += count
                seats.update(allowed)
        if cards > sum(room[seat] for seat in seats):
            return False
    return True


def _careful_deal(cards: list[int], options: dict, free: list[int], rng: random.Random) -> list[int] | None:
    """Card by card, only ever choosing a seat that leaves the rest dealable."""
    counts: dict[tuple[int, ...], int] = {}
    for card in cards:
        key = tuple(options[card])
        counts[key] = counts.get(key, 0) + 1
    room = list(free)
    if not _feasible(counts, room):
        return None
    dealt = [0] * len(free)
    for card in cards:
        key = tuple(options[card])
        counts[key] -= 1
        if not counts[key]:
            del counts[key]
        seats = []
        for seat in key:
            if room[seat]:
                room[seat] -= 1
                if _feasible(counts, room):
                    seats.append(seat)
                room[seat] += 1
        if not seats:
            return None
        seat = _pick(seats, room, rng)
        dealt[seat] |= 1 << card
        room[seat] -= 1
    return dealt


def sample_worlds(view: PlayerView, count: int, rng: random.Random) -> list[list[int]]:
    return [sample_world(view, rng) for _ in range(count)]
