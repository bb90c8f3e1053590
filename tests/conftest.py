"""Shared helpers: build exactly the hand a test talks about."""

from __future__ import annotations

import pytest

from engine import CARDS, HandState, Rules
from engine.cards import card_mask


def deal_with(seats: dict[int, str], rules: Rules | None = None) -> list[int]:
    """A deal where the given seats hold the given cards; the other cards in play are shared
    out in card order to whoever still needs some."""
    rules = rules or Rules()
    hands = [card_mask(seats.get(seat, "")) for seat in range(rules.players)]
    used = 0
    for mask in hands:
        used |= mask
    free = [card for card in CARDS if rules.deck_mask >> card & 1 and not used >> card & 1]
    for seat in range(rules.players):
        while hands[seat].bit_count() < rules.hand_size:
            hands[seat] |= 1 << free.pop(0)
    return hands


def hand_with(seats: dict[int, str], rules: Rules | None = None, plays: str = "") -> HandState:
    """A hold hand (no passing) dealt by ``deal_with``, with ``plays`` already made."""
    rules = rules or Rules()
    state = HandState(rules, deal_with(seats, rules), "hold")
    for card in plays.split():
        state.play(card)
    return state


@pytest.fixture
def snapshot():
    """Everything observable about a hand, to show that a refused action changed nothing."""

    def take(state: HandState) -> tuple:
        return (
            state.phase,
            tuple(state.hand(seat) for seat in range(state.players)),
            tuple(state.passed(seat) for seat in range(state.players)),
            state.to_move,
            state.current_trick,
            state.tricks,
            state.hearts_broken,
            state.points_taken,
            state.history,
        )

    return take
