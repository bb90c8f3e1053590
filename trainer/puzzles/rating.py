"""Glicko-2 ratings for learners and puzzles (Glickman, "Example of the Glicko-2 system", 2013).

Each attempt is scored as a game between the learner and the puzzle: 1 for the learner when
solved, 0 when not, and the reverse for the puzzle. Both ratings move, so puzzles that many
learners fail drift up and the next puzzle can be chosen near the learner's level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "update"]

SCALE = 173.7178
TAU = 0.5  # how fast volatility may change
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """``player``'s rating after one rating period with ``results``: (opponent, score) pairs,
    score 1 for a win, 0 for a loss, 0.5 for a draw."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    if not results:
        return Rating(
            player.rating, min(350.0, math.sqrt(phi**2 + player.volatility**2) * SCALE), player.volatility
        )
    games = [((o.rating - 1500) / SCALE, o.deviation / SCALE, s) for o, s in results]
    v = 1 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in games
    )
    delta = v * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    sigma = _new_volatility(phi, player.volatility, v, delta)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    return Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma)


def _new_volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of the algorithm: the Illinois method on f(x) = 0."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = new, f_new
    return math.exp(low / 2)
