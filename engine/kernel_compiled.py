"""The rules kernel's numba twin: ``engine.kernel`` compiled, for the compiled play-outs and solver.

Each function here is registered with ``twin_of`` beside its reference in ``engine.kernel``,
written the same way over the same ints (a trick is an int64 array and its length), so the
compiled search applies the very rules of the hand. Where numba is missing the functions run as
plain Python, the same answers more slowly. ``tests/test_kernel.py`` runs every twin against its
reference, and fails when a module defines a twin it does not know. numba's cache does not follow
calls into another module: after changing a function here, delete ``engine/__pycache__/*.nb*`` so
that ``engine.search.compiled`` and ``engine.search.compiled_solver`` compile against the new one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import kernel

try:
    from numba import njit
except ImportError:  # pragma: no cover - the engine runs without numba, more slowly

    def njit(*args, **options):
        return args[0] if args and callable(args[0]) else lambda function: function


__all__ = [
    "TWINS",
    "breaks_hearts",
    "exchange",
    "first_leader",
    "legal_mask",
    "legal_rows",
    "trick_winner",
    "twin_of",
]

TWINS: dict[str, tuple[Callable, Callable]] = {}
"""Every compiled twin of the kernel by name: (the twin, its reference in ``engine.kernel``)."""

_SUIT = (1 << kernel.SUIT_SIZE) - 1
_NOT_HEARTS = kernel.NOT_HEARTS
_QUEEN_BIT = kernel.QUEEN_BIT
_HEARTS = kernel.HEARTS


def twin_of(reference: Callable) -> Callable[[Callable], Callable]:
    """Compile the function (cached, no GIL) and register it as ``reference``'s twin."""

    def register(function: Callable) -> Callable:
        compiled = njit(cache=True, nogil=True)(function)
        TWINS[function.__name__] = (compiled, reference)
        return compiled

    return register


@twin_of(kernel.legal_mask)
def legal_mask(hand: int, led: int, first: bool, broken: bool, rules: tuple) -> int:
    """``engine.kernel.legal_mask``; ``rules`` a ``PlayRules`` as a plain tuple (read by index)."""
    if led >= 0:
        follow = hand & (_SUIT << (13 * led))
        if follow:
            return follow
        if first:
            safe_cards = hand & rules[1]
            return safe_cards if safe_cards else hand
        return hand
    if first:
        return hand & rules[0]
    if broken or not rules[3]:
        return hand
    others = hand & _NOT_HEARTS
    if not others or (others == _QUEEN_BIT and rules[2]):
        return hand
    return others


@twin_of(kernel.breaks_hearts)
def breaks_hearts(cards: int, queen_breaks: bool) -> bool:
    """``engine.kernel.breaks_hearts``."""
    if cards & _HEARTS:
        return True
    if queen_breaks and cards & _QUEEN_BIT:  # noqa: SIM103 - one type for numba, whatever queen_breaks is
        return True
    return False


@twin_of(kernel.trick_taker)
def trick_taker(trick: np.ndarray, length: int) -> tuple[int, int]:
    """``engine.kernel.trick_taker`` of the trick's first ``length`` cards (a trick so far, too)."""
    high = trick[0]
    suit_end = (high // 13 + 1) * 13
    best = 0
    mask = 0
    for position in range(length):
        card = trick[position]
        mask |= 1 << card
        if high < card < suit_end:
            high = card
            best = position
    return best, mask


@twin_of(kernel.trick_winner)
def trick_winner(trick: np.ndarray, leader: int, players: int) -> tuple[int, int]:
    """``engine.kernel.trick_winner`` of the trick's first ``players`` cards."""
    best, mask = trick_taker(trick, players)
    return (leader + best) % players, mask


@twin_of(kernel.exchange)
def exchange(hands: np.ndarray, passes: np.ndarray, offset: int) -> np.ndarray:
    """``engine.kernel.exchange``."""
    players = hands.shape[0]
    after = np.empty(players, dtype=np.int64)
    for seat in range(players):
        after[seat] = (hands[seat] & ~passes[seat]) | passes[(seat - offset) % players]
    return after


@twin_of(kernel.first_leader)
def first_leader(hands: np.ndarray, lowest_club: int) -> int:
    """``engine.kernel.first_leader`` (-1 when no hand holds the lowest club)."""
    for seat in range(hands.shape[0]):
        if (hands[seat] >> lowest_club) & 1:
            return seat
    return -1


@njit(cache=True, nogil=True)
def legal_rows(
    hands: np.ndarray,
    led: np.ndarray,
    first: bool,
    broken: np.ndarray,
    rules: tuple,
) -> np.ndarray:
    """``legal_mask`` for every game of a batch (``engine.search.batch``): its own hand, led suit
    (-1 when leading) and hearts; every game at the same trick."""
    legal = np.empty(hands.shape[0], dtype=np.int64)
    for row in range(hands.shape[0]):
        legal[row] = legal_mask(hands[row], led[row], first, broken[row], rules)
    return legal


@njit(cache=True, nogil=True)
def broken_rows(broken: np.ndarray, cards: np.ndarray, queen_breaks: bool) -> np.ndarray:
    """Each game's hearts once it plays its card of ``cards`` (``breaks_hearts``)."""
    now = np.empty(cards.shape[0], dtype=np.bool_)
    for row in range(cards.shape[0]):
        now[row] = broken[row] or breaks_hearts(np.int64(1) << cards[row], queen_breaks)
    return now


@njit(cache=True, nogil=True)
def winner_rows(tricks: np.ndarray, leaders: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Each game's complete trick's taker and cards (``trick_winner``)."""
    winners = np.empty(tricks.shape[0], dtype=np.int64)
    masks = np.empty(tricks.shape[0], dtype=np.int64)
    for row in range(tricks.shape[0]):
        winners[row], masks[row] = trick_winner(tricks[row], leaders[row], players)
    return winners, masks
