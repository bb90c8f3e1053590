"""Imagined deals for a pass decision, and the other seats' passes in them.

Before the pass a seat knows only its own hand, so every deal of the other cards is equally
likely: a shuffle. The other seats pass by the rule of thumb (``engine.passing``). Deals come
from the project's SplitMix64 stream (``engine.rng``) so that the compiled path
(``engine.search.compiled.deal_pass_blocks``) draws exactly the same deals as this reference: a pass
verdict does not depend on whether numba is installed. The deals come in blocks of
``PASS_DEAL_BLOCK``, each its own stream, so the compiled path deals a call's blocks on several
threads and still draws exactly these deals.
"""

from __future__ import annotations

from ..cards import iter_mask
from ..passing import rule_of_thumb_pass
from ..rng import SplitMix64
from ..view import PlayerView
from .sampling import world_seed

__all__ = ["PASS_DEAL_BLOCK", "deal_for_pass", "pass_room"]

PASS_DEAL_BLOCK = 2048
"""Deals a stream: block 0 of a call is dealt from its seed's stream, block ``b`` from
``world_seed(seed, b)``'s, each shuffling the unseen cards from lowest first."""


def pass_room(view: PlayerView) -> tuple[list[int], list[int]]:
    """The cards the others hold between them (lowest first) and how many each seat holds."""
    unseen = [int(card) for card in iter_mask(view.unseen_cards.mask)]
    room = [0 if seat == view.seat else size for seat, size in enumerate(view.hand_sizes)]
    if sum(room) != len(unseen):
        raise ValueError("the others' hands do not add up to the unseen cards")
    return unseen, room


def deal_for_pass(view: PlayerView, seed: int, deals: int) -> tuple[list[list[int]], list[list[int]]]:
    """``deals`` imagined deals (every seat's hand as a mask) and the others' passes."""
    unseen, room = pass_room(view)
    own = view.hand.mask
    count = view.rules.pass_count
    hands, passes = [], []
    for deal in range(deals):
        if deal % PASS_DEAL_BLOCK == 0:
            block = deal // PASS_DEAL_BLOCK
            stream = SplitMix64(seed if block == 0 else world_seed(seed, block))
            cards = list(unseen)
        stream.shuffle(cards)
        hand_row, pass_row = [], []
        position = 0
        for seat, size in enumerate(room):
            if seat == view.seat:
                hand_row.append(own)
                pass_row.append(0)
                continue
            mask = 0
            for card in cards[position : position + size]:
                mask |= 1 << card
            position += size
            hand_row.append(mask)
            pass_row.append(rule_of_thumb_pass(mask, count))
        hands.append(hand_row)
        passes.append(pass_row)
    return hands, passes
