"""Why the forecast's lowest points bucket read high on fresh hands, and the forms tried for it.

The kept calibration runs of today's model are split into those the map was fitted on
(``engine.search.calibration_map.FITTED_HANDS``) and fresh ones. For seats the forecast gives under a
point, it counts where their points came from (outcomes of 10 points or more, with and without a
moon, and of 1-9 points) in both, and it fits other forms of the map's quiet part on the fitted
runs and tables the points of the fresh ones under each (``base`` is the shipped form).

``--folds K`` tables every form on every kept run instead, each of K blocks of runs (in seed
order) held out in turn and the whole map (moon and quiet) fitted on the others (``--before
SEED``: only the runs of hands before it, so that later ones stay fresh for a test). How the
forms were chosen: ``gone`` (a line whose intercept and slope move with the share of the points
already taken) over ``linear`` and the rest in the twenty-first session; in the twenty-fourth,
on 249 runs held out in eight blocks, ``gone`` still read the lowest buckets high (under a point
0.25 / 0.23, z -3.44; 1-3 points z -2.22). Tried on the fitted runs first, no term of the
position (the trick, solved deals, a share of 0, the Q♠, both ends) brought them in; two reasons
did. Once two seats have points (no moon possible), the seats that have none take less of what
is left than the play-outs say, and with a moon still possible more (it must be blocked); and a
seat that has taken no point yet is not a seat that has. ``base`` (the shipped form) is the
``gone`` line per kind, whose and, in play, whether a moon is possible, plus a level for a seat
with no point: held out, under a point z 1.10, 1-3 0.62, 3-6 2.21 (what is left there is the
moon part: other seats' moons against seats forecast 3-6 points, as ``points_mid_bucket.py``
found).

    PYTHONPATH=. .venv/bin/python benchmarks/quiet_low_bucket.py
        [--forms base hinge] [--folds 8] [--before SEED] [--json benchmarks/results/quiet_low_bucket.json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import coach_calibration as calibration
import fit_calibration as fit

from engine.search.calibration import FLOOR, MOON_VALUE, Calibration, _logit, _quiet_group, quiet_terms

FORMS = (
    "base",
    "gone",
    "linear",
    "trick",
    "clean",
    "outstanding",
    "square",
    "alike",
    "hinge",
    "late",
    "points_out",
    "zero",
    "zero_trick",
    "exact",
    "exact_zero",
    "split",
    "per_trick",
    "queen",
    "queen_late",
    "ends",
    "hinges",
    "under_a_point",
    "log_points",
    "moon_gone",
    "moon_gone_zero",
    "clean_slope",
)
"""The shipped form (``engine.search.calibration.quiet_terms``, in the six groups of
``fit_calibration.QUIET_GROUPS``: in play, whether a moon is still possible); the form shipped
before it (``gone``: a line whose intercept and slope move with the share of the points already
taken, in four groups, kind and whose); the form before that (``linear``: a line in the
log-odds); that line with a term for the trick, for a seat with no points yet, for the points
still out, for the square of the log-odds; every position weighted alike; a slope of its own for
shares below ``HINGE`` (how far below, in log-odds); an intercept and a slope that move with the
trick; and with the points still out. Tried on the ``gone`` form (2026-12-05, twenty-fourth
session): a level for a share no deal gave (``zero``), moving with the trick; a line of its own
from trick 9, where the deals are solved (``exact``, ``split``, ``per_trick``); terms for the Q♠
still out; the log-odds clipped at ``ENDS`` with levels for 0 and 1; slopes of their own at both
ends; a level for a seat the play-outs give under a point, or the log of their points. In the
six groups: the ``gone`` form (``moon_gone``), with a level for 0, and the shipped form with a
slope of its own for a seat that has taken no point (``clean_slope``)."""

HINGE = 0.05
ENDS = 0.01
FOUR_GROUPS = ("pass own", "pass other", "play own", "play other")


def _four_groups(where, seat: int) -> str:
    return f"{where.kind} {'own' if seat == where.seat else 'other'}"


def in_six_groups(form: str) -> bool:
    return form in ("base", "moon_gone", "moon_gone_zero", "clean_slope")


def _gone_terms(where, seat: int, share: float) -> list[float]:
    gone = 1.0 - where.outstanding / MOON_VALUE
    return [1.0, _logit(share), gone, gone * _logit(share)]


def features(where, seat: int, share: float, form: str) -> list[float]:
    log_odds, unseen = _logit(share), float(share <= FLOOR)
    solved = max(0, where.trick - 8) / 5  # EXACT_CARDS: from trick 9 the deals are solved
    clean = float(where.kind == "play" and where.taken[seat] == 0)
    queen = float(where.kind == "play" and where.outstanding >= 13)  # the Q♠ may still be out
    line = [1.0, log_odds]
    gone = _gone_terms(where, seat, share)
    if form in ("base", "clean_slope"):
        line = quiet_terms(where, seat, share) + ([clean * log_odds] if form == "clean_slope" else [])
    elif form in ("gone", "moon_gone"):
        line = gone
    elif form == "moon_gone_zero":
        line = [*gone, unseen]
    elif form == "trick":
        line.append(where.trick / 13)
    elif form == "clean":
        line.append(clean)
    elif form == "outstanding":
        line.append(where.outstanding / MOON_VALUE)
    elif form == "square":
        line.append(log_odds**2 / 10)
    elif form == "hinge":
        line.append(max(0.0, _logit(HINGE) - log_odds))
    elif form == "late":
        line += [where.trick / 13, where.trick / 13 * log_odds]
    elif form == "points_out":
        line += [where.outstanding / MOON_VALUE, where.outstanding / MOON_VALUE * log_odds]
    elif form in ("zero", "zero_trick"):
        line = [*gone, unseen] + ([unseen * where.trick / 13] if form == "zero_trick" else [])
    elif form in ("exact", "exact_zero"):
        line = [*gone, solved, solved * log_odds] + ([unseen] if form == "exact_zero" else [])
    elif form == "split":
        late = float(solved > 0)
        line = [term * (1.0 - late) for term in [*gone, unseen]] + [term * late for term in [*gone, unseen]]
    elif form == "per_trick":  # from trick 9 a line of its own each trick
        line = [*gone, unseen] if where.trick < 9 else [0.0] * 5
        for trick in range(9, 13):
            line += [1.0, log_odds, unseen] if where.trick == trick else [0.0] * 3
    elif form in ("queen", "queen_late"):
        line = [*gone, queen, queen * log_odds]
        line += [where.trick / 13, where.trick / 13 * log_odds] if form == "queen_late" else []
    elif form == "ends":
        clipped = _logit(min(max(share, ENDS), 1.0 - ENDS))
        line = [1.0, clipped, gone[2], gone[2] * clipped, unseen, float(share >= 1.0 - FLOOR)]
    elif form == "hinges":
        line = [
            *gone,
            max(0.0, _logit(HINGE) - log_odds),
            max(0.0, log_odds - _logit(1.0 - HINGE)),
            unseen,
        ]
    elif form == "under_a_point":
        line = [*gone, float(where.outstanding * share < 1.0)]
    elif form == "log_points":
        line = [*gone, math.log(max(where.outstanding * share, 0.01))]
    return line


def fit_quiet(pairs: list[dict], form: str) -> dict[str, tuple[float, ...]]:
    """``fit_calibration.fit_quiet`` with the form's terms, weights and groups."""
    six = in_six_groups(form)
    return fit.fit_quiet(
        pairs,
        terms=lambda where, seat, share: features(where, seat, share, form),
        weight=(lambda where: 1.0) if form == "alike" else fit._by_points_out,
        groups=fit.QUIET_GROUPS if six else FOUR_GROUPS,
        group_of=_quiet_group if six else _four_groups,
    )


def calibration_in(form: str) -> type[Calibration]:
    """``engine.search.calibration.Calibration`` with the form's quiet part."""
    group_of = _quiet_group if in_six_groups(form) else _four_groups

    class InForm(Calibration):
        def quiet_log_odds(self, seat: int, share: float) -> float:
            weights = self.quiet_map[group_of(self.where, seat)]
            return float(np.dot(weights, features(self.where, seat, share, form)))

    return InForm


def rows_of(pairs: list[dict], moon: dict, quiet: dict, form: str) -> list[dict]:
    return fit.predicted_rows(pairs, moon, quiet, calibration_in(form))


def low_bucket(rows: list[dict]) -> dict:
    """Where the points of seats forecast under a point came from."""
    low = [(row, seat) for row in rows for seat in range(len(row["points"])) if row["points"][seat] < 1.0]
    outcomes = [
        (row["hand"], scores[seat], shooter) for row, seat in low for scores, shooter in row["outcomes"]
    ]
    count = len(outcomes)
    big = [(hand, points) for hand, points, _ in outcomes if points >= 10]
    quiet_big = [(hand, points) for hand, points, shooter in outcomes if points >= 10 and shooter == -1]
    return {
        "positions": len(low),
        "hands": len({row["hand"] for row, _ in low}),
        "forecast": sum(row["points"][seat] for row, seat in low) / len(low),
        "made": sum(points for _, points, _ in outcomes) / count,
        "from_10_or_more": sum(points for _, points in big) / count,
        "from_1_to_9": sum(points for _, points, _ in outcomes if 1 <= points < 10) / count,
        "positions_10_or_more": len(big),
        "hands_10_or_more": len({hand for hand, _ in big}),
        "positions_10_or_more_without_a_moon": len(quiet_big),
        "hands_10_or_more_without_a_moon": len({hand for hand, _ in quiet_big}),
    }


def at_most(observed: int, expected: float) -> float:
    """Poisson chance of ``observed`` or fewer."""
    return sum(math.exp(-expected) * expected**k / math.factorial(k) for k in range(observed + 1))


def short(bucket: dict) -> dict:
    return {k: bucket[k] for k in ("bucket", "predicted", "realised", "z", "error", "clustered_error")}


def line_of(buckets: list[dict], digits: int) -> str:
    return "; ".join(
        f"{b['predicted']:.{digits}f} / {b['realised']:.{digits}f} ({b['z']:.2f})" for b in buckets
    )


def held_out_in_folds(runs: list[list[dict]], forms: list[str], folds: int) -> dict:
    """Every form's tables on every run, each of ``folds`` blocks of runs held out in turn."""
    blocks = [range(k * len(runs) // folds, (k + 1) * len(runs) // folds) for k in range(folds)]
    report, moons = {}, {}  # the moon part does not depend on the form: fitted once a block
    for form in forms:
        rows = []
        for number, block in enumerate(blocks):
            test = [pair for index in block for pair in runs[index]]
            train = [pair for index, run in enumerate(runs) if index not in block for pair in run]
            if number not in moons:
                moons[number] = fit.fit_moon(train)
            rows += rows_of(test, moons[number], fit_quiet(train, form), form)
        moon = calibration.table(rows, "moon", calibration.MOON_BUCKETS)
        points = calibration.table(rows, "points", calibration.POINT_BUCKETS)
        report[form] = {"moon": [short(b) for b in moon], "points": [short(b) for b in points]}
        print(f"{form:12} held out, moon (forecast / made, z): {line_of(moon, 3)}")
        print(f"{'':12} held out, points: {line_of(points, 2)}", flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--forms", nargs="+", choices=FORMS, default=FORMS, help="forms to fit (base first)")
    parser.add_argument("--folds", type=int, metavar="K", help="hold out K blocks of every kept run in turn")
    parser.add_argument(
        "--before",
        type=int,
        metavar="SEED",
        help="only the kept runs of hands before this seed (later ones are kept fresh for a test)",
    )
    args = parser.parse_args()
    fingerprint, runs = fit.todays_runs()
    if args.before is not None:
        runs = [run for run in runs if fit.first_seed(run) < args.before]
    if args.folds:
        if not 2 <= args.folds <= len(runs):
            parser.error(f"--folds: between 2 and the {len(runs)} kept runs")
        report = {"model": fingerprint, "runs": len(runs), "folds": args.folds}
        report["forms"] = held_out_in_folds([fit.pairs_of(run) for run in runs], args.forms, args.folds)
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        return
    if "base" not in args.forms:
        parser.error("--forms: give base too (the where-from counts are the shipped form's)")
    fitted, fresh = [], []
    for run in runs:
        pairs = fit.pairs_of(run)
        (fitted if calibration.fitted_on(pairs[0]["row"]["hand"]) else fresh).extend(pairs)
    if not fresh:
        parser.error("no fresh runs since the map was fitted: keep some, or give --folds")
    moon = fit.fit_moon(fitted)
    report = {"model": fingerprint, "forms": {}}
    for form in args.forms:
        quiet = fit_quiet(fitted, form)
        rows = rows_of(fresh, moon, quiet, form)
        points = calibration.table(rows, "points", calibration.POINT_BUCKETS)
        report["forms"][form] = {
            "quiet_map": {name: [round(float(v), 4) for v in w] for name, w in quiet.items()},
            "fresh_points": [short(b) for b in points],
        }
        print(f"{form:12} fresh points by bucket (forecast / made, z): {line_of(points, 2)}")
        if form == "base":
            report["fitted_low"] = low_bucket(rows_of(fitted, moon, quiet, form))
            report["fresh_low"] = low_bucket(rows)
    mine, theirs = report["fresh_low"], report["fitted_low"]
    for key in ("hands_10_or_more", "hands_10_or_more_without_a_moon"):
        expected = theirs[key] / theirs["hands"] * mine["hands"]
        report[f"{key}_expected_fresh"] = expected
        report[f"{key}_chance_of_so_few"] = at_most(mine[key], expected)
    print(json.dumps({k: v for k, v in report.items() if k != "forms"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
