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

_RETRIES = 50


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
    # Place the most constrained cards first, so a seat's last places are not taken by cards
    # that could have gone anywhere.
    cards.sort(key=lambda card: len(options[card]))
    for _ in range(_RETRIES):
        hands = list(fixed)
        hands[view.seat] = view.hand.mask
        room = list(free)
        for card in cards:
            seats = [seat for seat in options[card] if room[seat]]
            if not seats:
                break
            # Weighting by room left keeps the deal close to uniform among consistent deals.
            pick = rng.random() * sum(room[seat] for seat in seats)
            for seat in seats:
                pick -= room[seat]
                if pick < 0:
                    break
            hands[seat] |= 1 << card
            room[seat] -= 1
        else:
            return hands
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(options[card]))
    raise ImpossibleView(f"no deal of the unseen cards fits seat {view.seat}'s view")


def sample_worlds(view: PlayerView, count: int, rng: random.Random) -> list[list[int]]:
    return [sample_world(view, rng) for _ in range(count)]
