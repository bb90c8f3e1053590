"""The project's own random number generator, so a seed means the same deal everywhere.

SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
the generator Java's ``SplittableRandom`` uses and that seeds xoshiro): a 64-bit counter
advanced by the golden-ratio constant and passed through a fixed mixing function. It uses only
integer arithmetic taken modulo 2**64, so CPython on any platform and Pyodide in a browser
produce identical sequences. ``random.shuffle`` is not used because its algorithm and the
Mersenne Twister seeding are implementation details that may change between Python versions.

Bounded integers use rejection sampling (no modulo bias); shuffles are Fisher-Yates from the
last position down. Both are part of the deal format: changing either changes every seeded deal.
"""

from __future__ import annotations

import struct
from collections.abc import MutableSequence
from functools import cache
from typing import TypeVar

__all__ = ["SplitMix64"]

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_TOP = 1 << 64

T = TypeVar("T")


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = z = (self.state + _GOLDEN_GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)``."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        # Reject the top, incomplete block of 2**64 so that every residue is equally likely.
        limit = _TOP - _TOP % bound
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the last position down: position i swaps with ``below(i + 1)``."""
        draws = len(items) - 1
        if 0 < draws <= _MANY_AT_ONCE:
            values = _next_values(self.state, draws)
            # below(bound) redraws only a value of 2**64 - bound or more (about one shuffle in
            # 10**17); then the stream shifts, so the shuffle goes draw by draw instead.
            if max(values) < _TOP - draws:
                for i, value in zip(range(draws, 0, -1), values, strict=True):
                    j = value % (i + 1)
                    items[i], items[j] = items[j], items[i]
                self.state = (self.state + draws * _GOLDEN_GAMMA) & _MASK64
                return
        for i in range(draws, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# Many outputs at once: the counters state + k * gamma side by side in one Python int, one
# 64-bit value in each 128-bit lane, so that a product (64 x 64 bits) never reaches the next
# lane; the mixing function then runs once on every lane (four times faster than draw by draw).
_MANY_AT_ONCE = 64


@cache
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum((k + 1) << (128 * k) for k in range(count)) * _GOLDEN_GAMMA
    return ones, steps, _MASK64 * ones, struct.Struct(f"<{2 * count}Q")


def _next_values(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` outputs of ``next_u64`` from ``state`` (which it leaves alone)."""
    ones, steps, low, layout = _lanes(count)
    z = (state * ones + steps) & low
    z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
    z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
    z = (z ^ (z >> 31)) & low
    return layout.unpack(z.to_bytes(16 * count, "little"))[::2]
