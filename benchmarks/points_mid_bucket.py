"""Why the forecast's 3-6 points bucket reads low: where those seats' points come from.

Every kept calibration run of today's model is forecast by the shipped map
(``engine.search.calibration_map``). For each (decision, seat) the forecast gives 3-6 points, grouped by
kind (pass, play), whose seat (the deciding seat's own or another's) and the moon runner when the
decision was made (none yet, this seat, another seat), it compares forecast and made: the points,
the chance that another seat shoots the moon, and the points of the hands without a moon (the
forecast's quiet part, as ``engine.search.calibration.quiet_points`` splits it off).

    PYTHONPATH=. .venv/bin/python benchmarks/points_mid_bucket.py
        [--json benchmarks/results/points_mid_bucket.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fit_calibration as fit

from engine.search.calibration import MOON_VALUE, Calibration, quiet_points

LOW, HIGH = 3.0, 6.0


def runner_of(where, seat: int) -> str:
    if where.runner < 0:
        return "none"
    return "self" if where.runner == seat else "other"


def groups(pairs: list[dict]) -> dict[tuple[str, str, str], dict[str, float]]:
    """Per (kind, whose seat, runner): sums of the forecast and the made figures."""
    decisions = {}
    for pair in pairs:
        decisions.setdefault((pair["run"], pair["decision"]), pair)
    sums: dict = defaultdict(lambda: defaultdict(float))
    for pair in decisions.values():
        row, where = pair["row"], pair["where"]
        moons, points = Calibration(where).predict(row["moon"], row["points"])
        for seat, forecast in enumerate(points):
            if not LOW <= forecast < HIGH:
                continue
            others = sum(moons) - moons[seat]
            key = (row["kind"], "own" if seat == row["seat"] else "other", runner_of(where, seat))
            cell = sums[key]
            outcomes = row["outcomes"]
            cell["positions"] += 1
            cell["forecast"] += forecast
            cell["made"] += statistics.fmean(scores[seat] for scores, _ in outcomes)
            cell["others_moon_forecast"] += others
            cell["others_moon_made"] += statistics.fmean(
                1.0 if 0 <= shooter != seat else 0.0 for _, shooter in outcomes
            )
            quiet = [scores[seat] for scores, shooter in outcomes if shooter < 0]
            if quiet and sum(moons) < 1.0 - 1e-3:
                cell["quiet_positions"] += 1
                cell["quiet_forecast"] += quiet_points(forecast, others, sum(moons))
                cell["quiet_made"] += statistics.fmean(quiet)
    return sums


def means(cell: dict[str, float]) -> dict[str, float]:
    n, q = cell["positions"], max(1.0, cell["quiet_positions"])
    return {
        "positions": int(n),
        "forecast": cell["forecast"] / n,
        "made": cell["made"] / n,
        "others_moon_forecast": cell["others_moon_forecast"] / n,
        "others_moon_made": cell["others_moon_made"] / n,
        "quiet_forecast": cell["quiet_forecast"] / q,
        "quiet_made": cell["quiet_made"] / q,
        "moon_points_missing": MOON_VALUE * (cell["others_moon_made"] - cell["others_moon_forecast"]) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    fingerprint, runs = fit.todays_runs()
    sums = groups([pair for run in runs for pair in fit.pairs_of(run)])
    total: dict = defaultdict(float)
    report = {"model": fingerprint, "runs": len(runs), "groups": []}
    for key in sorted(sums):
        for name, value in sums[key].items():
            total[name] += value
        report["groups"].append({"kind": key[0], "seat": key[1], "runner": key[2], **means(sums[key])})
    report["all"] = means(total)
    for line in [*report["groups"], {"kind": "all", "seat": "", "runner": "", **report["all"]}]:
        print(
            f"{line['kind']:5} {line['seat']:6} runner {line['runner']:6} {line['positions']:6} positions: "
            f"points {line['forecast']:.2f} / {line['made']:.2f}; another's moon "
            f"{100 * line['others_moon_forecast']:.2f}% / {100 * line['others_moon_made']:.2f}%; "
            f"without a moon {line['quiet_forecast']:.2f} / {line['quiet_made']:.2f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
