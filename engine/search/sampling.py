"""Imagining the hidden hands: deals consistent with everything one seat knows.

A seat knows its own hand, the cards it passed and to whom (they stay there until played), the
cards it received, every card played and by whom, and the suits players have shown they lack
by not following. A sampled world gives every other seat exactly as many cards as it holds,
never a card it cannot have, and otherwise spreads the unseen cards at random.

Each world draws from its own SplitMix64 stream (``engine.rng``), seeded from the caller's seed
and the world's number, so the compiled sampler (``engine.search.compiled.quick_worlds``) produces
exactly the worlds this module does, and a verdict does not depend on whether numba is there.
"""

from __future__ import annotations

import functools
import random

from ..cards import SUIT_MASKS, iter_mask
from ..rng import SplitMix64
from ..view import PlayerView

__all__ = ["ImpossibleView", "WorldSampler", "sample_world", "sample_worlds", "world_seed"]

RETRIES = 8
_MASK64 = (1 << 64) - 1


class ImpossibleView(ValueError):
    """No deal fits what the view says (a position set up by hand can be contradictory)."""


def world_seed(seed: int, world: int) -> int:
    """The seed of world number ``world`` of a run seeded ``seed``."""
    return SplitMix64((seed + world * 0x9E3779B97F4A7C15) & _MASK64).next_u64()


class WorldSampler:
    """The constraints of one view, worked out once, and worlds drawn from them."""

    def __init__(self, view: PlayerView) -> None:
        players = view.players
        unseen = view.unseen_cards.mask
        fixed = [view.known_cards(seat).mask if seat != view.seat else 0 for seat in range(players)]
        for mask in fixed:
            unseen &= ~mask
        self.free = [view.hand_sizes[seat] - fixed[seat].bit_count() for seat in range(players)]
        self.free[view.seat] = 0
        allowed = []
        for seat in range(players):
            mask = unseen if seat != view.seat else 0
            for suit in view.shown_void(seat):
                mask &= ~SUIT_MASKS[suit]
            allowed.append(mask)
        fixed[view.seat] = view.hand.mask
        self.fixed = fixed
        self.players = players
        cards = [int(card) for card in iter_mask(unseen)]
        self.options = {
            card: [seat for seat, mask in enumerate(allowed) if mask >> card & 1] for card in cards
        }
        # Place the most constrained cards first, so a seat's last places are not taken by cards
        # that could have gone anywhere.
        self.cards = sorted(cards, key=lambda card: len(self.options[card]))
        self.seats_of = [sum(1 << seat for seat in self.options[card]) for card in self.cards]

    def world(self, seed: int) -> list[int]:
        """One deal of the hidden cards, from its own stream: every seat's hand as a mask."""
        stream = SplitMix64(seed)
        cards = list(self.cards)
        for _ in range(RETRIES):
            dealt = _quick_deal(cards, self.options, self.free, stream)
            if dealt is not None:
                return self._with_fixed(dealt)
            stream.shuffle(cards)
            cards.sort(key=lambda card: len(self.options[card]))
        return self.careful(stream)

    def careful(self, stream: SplitMix64) -> list[int]:
        """The deal when the quick way keeps painting itself into a corner (several seats have
        shown voids late in a hand): card by card, keeping the rest dealable."""
        dealt = _careful_deal(self.cards, self.options, self.free, stream)
        if dealt is None:
            raise ImpossibleView("no deal of the unseen cards fits this view")
        return self._with_fixed(dealt)

    def every_world(self, limit: int) -> list[list[int]] | None:
        """Every deal of the hidden cards that fits the view, each once (in a fixed order), or
        None when there are more than ``limit`` (or none: ``world`` says why): late in a hand
        there are few enough to value them all, and a value over all of them has no sampling
        error."""
        cards, options = self.cards, self.options

        @functools.cache
        def count(index: int, room: tuple[int, ...]) -> int:
            if index == len(cards):
                return 1
            rooms = (_one_less(room, seat) for seat in options[cards[index]])
            return sum(count(index + 1, less) for less in rooms if less is not None)

        start = tuple(self.free)
        if sum(start) != len(cards) or not 0 < count(0, start) <= limit:
            return None
        worlds: list[list[int]] = []

        def deal(index: int, room: tuple[int, ...], dealt: list[int]) -> None:
            if index == len(cards):
                worlds.append(self._with_fixed(dealt))
                return
            card = cards[index]
            for seat in options[card]:
                rest = _one_less(room, seat)
                if rest is not None and count(index + 1, rest):  # only branches that finish a deal
                    dealt[seat] |= 1 << card
                    deal(index + 1, rest, dealt)
                    dealt[seat] &= ~(1 << card)

        deal(0, start, [0] * self.players)
        return worlds

    def _with_fixed(self, dealt: list[int]) -> list[int]:
        return [hand | extra for hand, extra in zip(self.fixed, dealt, strict=True)]


def _one_less(room: tuple[int, ...], seat: int) -> tuple[int, ...] | None:
    """``room`` with one place fewer at ``seat``; None when it has none left."""
    if not room[seat]:
        return None
    return (*room[:seat], room[seat] - 1, *room[seat + 1 :])


def sample_world(view: PlayerView, rng: random.Random) -> list[int]:
    """One deal of the hidden cards: every seat's hand as a mask (the viewer's is its own)."""
    return WorldSampler(view).world(rng.getrandbits(64))


def sample_worlds(view: PlayerView, seed: int, count: int, first: int = 0) -> list[list[int]]:
    """Worlds ``first`` .. ``first + count - 1`` of a run seeded ``seed``."""
    sampler = WorldSampler(view)
    return [sampler.world(world_seed(seed, first + k)) for k in range(count)]


def _pick(seats: list[int], room: list[int], stream: SplitMix64) -> int:
    """A seat, chosen with probability proportional to the room it has left (which keeps the
    deal close to uniform among the consistent deals)."""
    pick = stream.below(sum(room[seat] for seat in seats))
    for seat in seats:
        pick -= room[seat]
        if pick < 0:
            return seat
    return seats[-1]


def _quick_deal(cards: list[int], options: dict, free: list[int], stream: SplitMix64) -> list[int] | None:
    dealt = [0] * len(free)
    room = list(free)
    for card in cards:
        seats = [seat for seat in options[card] if room[seat]]
        if not seats:
            return None
        seat = _pick(seats, room, stream)
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


def _careful_deal(cards: list[int], options: dict, free: list[int], stream: SplitMix64) -> list[int] | None:
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
        seat = _pick(seats, room, stream)
        dealt[seat] |= 1 << card
        room[seat] -= 1
    return dealt
