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

from collections.abc import MutableSequence
from typing import TypeVar

__all__ = ["SplitMix64"]

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15

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
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
