"""Which cards are in play for each table size, and seeded deals."""

from __future__ import annotations

from functools import cache

from .cards import ALL_CARDS_MASK, CARDS, SUIT_MASKS, Card, Suit, parse_card
from .rng import SplitMix64

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "deal_from_seed",
    "deck_mask",
    "hand_seed",
    "hand_size",
    "lowest_club",
    "removed_cards",
]

MIN_PLAYERS = 3
_BITS = tuple(1 << card for card in range(52))
MAX_PLAYERS = 7

# The standard removals that let every player hold the same number of cards.
_REMOVED = {
    3: ("2D",),
    4: (),
    5: ("2D", "2C"),
    6: ("2D", "3D", "3C", "4C"),
    7: ("2D", "3D", "3C"),
}


def _check_players(players: int) -> None:
    if players not in _REMOVED:
        raise ValueError(f"Hearts is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


def removed_cards(players: int) -> tuple[Card, ...]:
    _check_players(players)
    return tuple(parse_card(code) for code in _REMOVED[players])


@cache
def deck_mask(players: int) -> int:
    mask = ALL_CARDS_MASK
    for card in removed_cards(players):
        mask &= ~(1 << card)
    return mask


@cache
def _deck(players: int) -> tuple[Card, ...]:
    mask = deck_mask(players)
    return tuple(card for card in CARDS if mask >> card & 1)


def hand_size(players: int) -> int:
    return deck_mask(players).bit_count() // players


def lowest_club(players: int) -> Card:
    """The card that leads the first trick: the 2♣, or the 3♣ when the 2♣ is out."""
    clubs = deck_mask(players) & SUIT_MASKS[Suit.CLUBS]
    return CARDS[(clubs & -clubs).bit_length() - 1]


def deal_from_seed(seed: int, players: int = 4) -> tuple[int, ...]:
    """Deal the deck for ``players`` from ``seed``; one card mask per seat.

    The cards in play, in index order, are shuffled with SplitMix64(seed) and dealt one at a
    time round the table, seat 0 first.
    """
    deck = list(_deck(players))
    SplitMix64(seed).shuffle(deck)
    bit = _BITS.__getitem__
    return tuple([sum(map(bit, deck[seat::players])) for seat in range(players)])


def hand_seed(game_seed: int, hand_index: int) -> int:
    """The seed of hand ``hand_index`` (0-based) of a game: that many steps into the game's
    generator, so hands of one game are independent of each other."""
    rng = SplitMix64(game_seed)
    value = rng.next_u64()
    for _ in range(hand_index):
        value = rng.next_u64()
    return value
