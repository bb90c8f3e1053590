"""Why the forecast's lowest points bucket read high on fresh hands, and the forms tried for it.

The kept calibration runs of today's model are split into those the map was fitted on
(``engine.calibration_map.FITTED_HANDS``) and fresh ones. For seats the forecast gives under a
point, it counts where their points came from (outcomes of 10 points or more, with and without a
moon, and of 1-9 points) in both, and it fits other forms of the map's quiet part on the fitted
runs and tables the points of the fresh ones under each (``base`` is the shipped form).

``--folds K`` tables every form on every kept run instead, each of K blocks of runs (in seed
order) held out in turn and the whole map (moon and quiet) fitted on the others: how the form of
2026-12-05 (``base``, whose line moves with the share of the points already taken) was chosen
over the form before it (``linear``) and the rest.

    PYTHONPATH=. .venv/bin/python benchmarks/quiet_low_bucket.py
        [--forms base hinge] [--folds 8] [--json benchmarks/results/quiet_low_bucket.json]
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

from engine.calibration import MOON_VALUE, Calibration, _logit

FORMS = (
    "base",
    "linear",
    "trick",
    "clean",
    "outstanding",
    "square",
    "alike",
    "hinge",
    "late",
    "points_out",
)
"""The shipped form (``fit_calibration._quiet_terms``); the form before it (a line in the
log-odds); that line with a term for the trick, for a seat with no points yet, for the points
still out, for the square of the log-odds; every position weighted alike; a slope of its own for
shares below ``HINGE`` (how far below, in log-odds); an intercept and a slope that move with the
trick; and with the points still out (the shipped form's span, another ridge)."""

HINGE = 0.05


def features(where, seat: int, share: float, form: str) -> list[float]:
    if form == "base":
        return fit._quiet_terms(where, seat, share)
    line = [1.0, _logit(share)]
    if form == "trick":
        line.append(where.trick / 13)
    elif form == "clean":
        line.append(1.0 if where.kind == "play" and where.taken[seat] == 0 else 0.0)
    elif form == "outstanding":
        line.append(where.outstanding / MOON_VALUE)
    elif form == "square":
        line.append(_logit(share) ** 2 / 10)
    elif form == "hinge":
        line.append(max(0.0, _logit(HINGE) - _logit(share)))
    elif form == "late":
        line += [where.trick / 13, where.trick / 13 * _logit(share)]
    elif form == "points_out":
        line += [where.outstanding / MOON_VALUE, where.outstanding / MOON_VALUE * _logit(share)]
    return line


def fit_quiet(pairs: list[dict], form: str) -> dict[str, tuple[float, ...]]:
    """``fit_calibration.fit_quiet`` with the form's terms and weights."""
    return fit.fit_quiet(
        pairs,
        terms=lambda where, seat, share: features(where, seat, share, form),
        weight=(lambda where: 1.0) if form == "alike" else fit._by_points_out,
    )


def calibration_in(form: str) -> type[Calibration]:
    """``engine.calibration.Calibration`` with the form's quiet part."""

    class InForm(Calibration):
        def quiet_log_odds(self, group: str, seat: int, share: float) -> float:
            return float(np.dot(self.quiet_map[group], features(self.where, seat, share, form)))

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
    report = {}
    for form in forms:
        rows = []
        for block in blocks:
            test = [pair for index in block for pair in runs[index]]
            train = [pair for index, run in enumerate(runs) if index not in block for pair in run]
            rows += rows_of(test, fit.fit_moon(train), fit_quiet(train, form), form)
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
    args = parser.parse_args()
    fingerprint, runs = fit.todays_runs()
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
