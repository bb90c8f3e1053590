"""What the play-outs predict, mapped onto what strong players make of the same positions.

The play-out policy is not Hard: on the hands of ``benchmarks/coach_calibration.py`` (Hard at
every seat, each decision's chosen option predicted from the deciding seat's view and played on
from the true deal by Hard x4), the play-outs expect unlikely moons far too rarely (given under
0.5%: 0.03% on average, where Hard x4 make 0.47%) and likely ones too often (given 35-65%: 47%,
made 34%; 65-100%: 89%, made 77%; 456 hands, 2026-12-04). This module maps each seat's predicted moon chance
and expected points onto the realised ones, with a map fitted on those hands
(``benchmarks/fit_calibration.py`` writes it, with its provenance, to ``calibration_map.json``):

- moon chance: a logistic curve in the log-odds of the predicted chance, the trick and the
  log-odds of the seat's share of the points in the hands without a moon (as the play-outs
  predict it: another seat that would take most of the points when nobody shoots is a shooter
  more often than the play-outs' own moon chance says, ``benchmarks/DECISIONS.md``),
  one per kind of decision (pass, play), whose moon (the deciding seat's or another's) and, in
  play, whether that seat is running (has taken every moon card so far). A seat that can no
  longer shoot (another has taken a moon card) keeps 0;
- points: of the hands without a moon, the share of the points still out that a seat takes, a
  logistic curve in the log-odds of the share predicted whose intercept and slope move with the
  share of the points already taken, with a level of its own for a seat that has taken none, per
  kind, whose and, in play, whether a moon is still possible (once two seats have points, the
  play-outs give the seats that have none too much of what is left, ``benchmarks/DECISIONS.md``),
  the seats' shares then scaled to add up to the whole (the forecast conserves the hand's points:
  every seat's points add up to 26 + 52 x the moon chances under standard scoring); so what is
  certain stays certain: points taken are kept, and none are added once every point card is
  taken; then the moons added back (standard scoring: 26 to every seat but the shooter). A
  moon already made keeps its 1.

The map is fitted for the table it was measured at: four players and standard scoring. At other
tables (``applies``) predictions are left as the play-outs give them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..moon import IMPOSSIBLE, NOBODY, moon_candidate, moon_cards, taken_masks
from ..rules import Rules
from ..view import PlayerView
from .calibration_map import MOON, QUIET

__all__ = ["FLOOR", "Calibration", "applies", "calibration_for", "situation"]

FLOOR = 1 / 2048
"""Predicted chances are read as at least this (and at most 1 minus it): a chance of exactly 0
from a few hundred deals is not a certainty, and the log-odds need a finite value."""

MOON_VALUE = 26
"""What a moon adds to every other seat under the scoring the map was fitted for."""

_FITTED = Rules()


def applies(rules: Rules) -> bool:
    """Whether the map was fitted for hands played by these rules: every rule of a hand as in
    ``Rules()`` (the game's target, its ties and whether a hold hand is played do not bear on one
    hand's play)."""
    return replace(rules, target=_FITTED.target, ties=_FITTED.ties, hold_hand=_FITTED.hold_hand) == _FITTED


@dataclass(frozen=True)
class Situation:
    """What the map reads of a position besides the predictions."""

    kind: str
    """"pass" or "play"."""
    seat: int
    """The deciding seat."""
    trick: int
    """The trick being played, 1 to 13 (0 for a pass)."""
    runner: int
    """The seat that has taken every moon card so far; ``engine.moon.NOBODY`` when none has been
    taken, ``engine.moon.IMPOSSIBLE`` when two seats have."""
    taken: tuple[int, ...] = (0, 0, 0, 0)
    """Points every seat has taken so far."""
    outstanding: int = MOON_VALUE
    """Points not taken yet."""


def situation(view: PlayerView, kind: str) -> Situation:
    if kind == "pass":
        return Situation("pass", view.seat, 0, NOBODY, (0,) * view.players, view.rules.moon_value)
    runner, _ = moon_candidate(taken_masks(view), moon_cards(view.rules))
    taken = tuple(view.points_taken)
    outstanding = view.rules.moon_value - sum(taken)
    return Situation("play", view.seat, len(view.tricks) + 1, runner, taken, outstanding)


def _logit(chance: float) -> float:
    chance = min(max(chance, FLOOR), 1.0 - FLOOR)
    return math.log(chance / (1.0 - chance))


def _quiet_group(where: Situation, seat: int) -> str:
    whose = "own" if seat == where.seat else "other"
    if where.kind == "pass":
        return f"pass {whose}"
    return f"play {whose} {'no moon' if where.runner == IMPOSSIBLE else 'moon open'}"


def quiet_terms(where: Situation, seat: int, share: float) -> list[float]:
    """What the map's points part weighs (``QUIET``, per ``_quiet_group``), the fit's design
    too: 1, the log-odds of the play-outs' share, both again times the share of the points
    already taken (0 in a pass), and 1 for a seat in play that has taken none."""
    gone = 1.0 - where.outstanding / MOON_VALUE
    log_odds = _logit(share)
    clean = 1.0 if where.kind == "play" and where.taken[seat] == 0 else 0.0
    return [1.0, log_odds, gone, gone * log_odds, clean]


def _moon_group(where: Situation, seat: int) -> str:
    whose = "own" if seat == where.seat else "other"
    if where.kind == "pass":
        return f"pass {whose}"
    return f"play {whose} {'running' if where.runner == seat else 'open'}"


@dataclass(frozen=True)
class Calibration:
    where: Situation
    moon_map: dict = field(default_factory=lambda: MOON)
    """``engine.search.calibration_map.MOON`` unless a fit under test gives its own."""
    quiet_map: dict = field(default_factory=lambda: QUIET)

    def moons(self, predicted: Sequence[float], points: Sequence[float]) -> tuple[float, ...]:
        """Every seat's moon chance, calibrated, from the play-outs' moon chances and points."""
        return self._moons(predicted, self.quiet_shares(predicted, points))

    def quiet_shares(self, moons: Sequence[float], points: Sequence[float]) -> tuple[float, ...]:
        """Each seat's share of the points still out in the hands without a moon, by the
        play-outs (0 for every seat once no point is out)."""
        where, moon_total = self.where, sum(moons)
        if where.outstanding <= 0:
            return (0.0,) * len(points)
        return tuple(
            (quiet_points(points[seat], moon_total - moons[seat], moon_total) - where.taken[seat])
            / where.outstanding
            for seat in range(len(points))
        )

    def _moons(self, predicted: Sequence[float], shares: Sequence[float]) -> tuple[float, ...]:
        if self.where.runner >= 0 and self.where.outstanding == 0:
            return tuple(predicted)  # the runner has taken every point: the moon is made
        chances = []
        for seat, chance in enumerate(predicted):
            if self.where.runner not in (NOBODY, seat):
                chances.append(0.0)  # another seat has taken a moon card: no moon for this one
                continue
            intercept, slope, per_trick, unseen, per_share = self.moon_map[_moon_group(self.where, seat)]
            seen = slope * _logit(chance)
            if chance <= FLOOR:  # no imagined deal made this moon: a level of its own
                seen += unseen
            else:  # and a moon some deal made is never less likely than one none made
                seen = max(seen, slope * _logit(FLOOR) + unseen)
            log_odds = intercept + seen + per_trick * self.where.trick / 13
            log_odds += per_share * _logit(shares[seat])
            chances.append(1.0 / (1.0 + math.exp(-log_odds)))
        total = sum(chances)
        return tuple(c / total for c in chances) if total > 1.0 else tuple(chances)

    def quiet_log_odds(self, seat: int, share: float) -> float:
        """The log-odds of the share of the points still out that ``seat`` takes in a hand
        without a moon, from the play-outs' ``share``: a line in its log-odds whose intercept and
        slope move with the share of the points already taken (late in a hand the play-outs
        read a seat that takes nothing about right, early they read it too low), plus a level
        for a seat in play that has taken no point yet (``quiet_terms``; other forms:
        ``benchmarks/DECISIONS.md``)."""
        weights = self.quiet_map[_quiet_group(self.where, seat)]
        return sum(w * term for w, term in zip(weights, quiet_terms(self.where, seat, share), strict=True))

    def quiet_mapped(self, shares: Sequence[float]) -> tuple[float, ...]:
        """Every seat's share of the points still out in a hand without a moon, mapped
        (``quiet_log_odds``) and scaled so the shares add up to 1: the points still out are all
        taken by someone, so the forecast deals out exactly the hand's points (each seat mapped
        alone gave 28.9 of 26.4, issue 50). Points taken are kept apart, so they stay certain."""
        if self.where.outstanding <= 0:
            return (0.0,) * len(shares)
        mapped = [1.0 / (1.0 + math.exp(-self.quiet_log_odds(s, share))) for s, share in enumerate(shares)]
        total = sum(mapped)
        return tuple(share / total for share in mapped)

    def predict(
        self, moons: Sequence[float], points: Sequence[float]
    ) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(moon chances, expected points) of every seat, calibrated, from the play-outs'."""
        players = len(points)
        shares = self.quiet_shares(moons, points)
        calibrated = self._moons(moons, shares)
        calibrated_total = sum(calibrated)
        expected = []
        where = self.where
        quiet_shares = self.quiet_mapped(shares)
        for seat in range(players):
            quiet = where.taken[seat] + where.outstanding * quiet_shares[seat]
            others_moons = calibrated_total - calibrated[seat]
            expected.append((1.0 - calibrated_total) * quiet + MOON_VALUE * others_moons)
        return calibrated, tuple(expected)


QUIET_UNKNOWN = MOON_VALUE / 4
"""Expected points of a hand without a moon when the play-outs saw (almost) none: a fair share."""


def quiet_points(points: float, others_moons: float, moon_total: float) -> float:
    """A seat's expected points in the hands without a moon, from its expected points, other
    seats' moon chances and every seat's: the shooter scores 0 and the others ``MOON_VALUE``."""
    if moon_total > 1.0 - 1e-3:
        return QUIET_UNKNOWN
    return (points - MOON_VALUE * others_moons) / (1.0 - moon_total)


def calibration_for(view: PlayerView, kind: str) -> Calibration | None:
    """The calibration of ``view``'s decision, or None at a table the map was not fitted for."""
    return Calibration(situation(view, kind)) if applies(view.rules) else None
