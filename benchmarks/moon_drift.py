"""Are the kept calibration runs one population? The moons of Hard x4 hands, run by run.

The calibration tables (``coach_calibration.py --pool``) test the map on hands kept after it was
fitted. When every bucket reads low at once, either the hands changed (the engine that plays them,
so a new model the fingerprint missed) or the draw did. This reads each kept hand's own outcome
(did some seat shoot the moon?) in seed order and asks three questions of the moon rate:

- across runs: are the runs' counts spread as one binomial rate spreads them? (dispersion
  chi-square over runs, its upper tail as ``coach_calibration.chi_square_tail`` gives it);
- along the seeds: did the rate change somewhere? (the largest gap between the running count of
  moons and its share of the hands so far, scaled as a Brownian bridge: the Kolmogorov tail gives
  the chance of a gap so large anywhere, so the change point is not chosen after looking);
- the map's fitted hands against the rest (``engine.search.calibration_map.FITTED_HANDS``): two rates
  and the z of their difference.

Replaying a run (``coach_calibration.py --replay``) says whether today's engine plays its hands
as kept; this says whether the counts need any cause but chance.

    PYTHONPATH=. .venv/bin/python benchmarks/moon_drift.py [--model r00f79924e63f0eb]
        [--json benchmarks/results/moon_drift.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import coach_calibration as calibration  # (beside this script)

from engine.moon import BLOCKERS


def kolmogorov_tail(gap: float) -> float:
    """P(sup |Brownian bridge| >= gap): the chance of a scaled gap this large somewhere."""
    if gap <= 0.0:
        return 1.0
    tail = 2.0 * sum((-1) ** (j - 1) * math.exp(-2.0 * j * j * gap * gap) for j in range(1, 101))
    return min(1.0, max(0.0, tail))


chi_square_tail = calibration.chi_square_tail


def largest_gap(moons: Sequence[bool]) -> tuple[float, int]:
    """The largest |moons so far - rate x hands so far| over the hands in order, scaled by
    sqrt(hands x rate x (1 - rate)), and after how many hands it falls."""
    hands, total = len(moons), sum(moons)
    if hands == 0 or total in (0, hands):
        return 0.0, 0
    rate = total / hands
    scale = math.sqrt(hands * rate * (1.0 - rate))
    best, where, count = 0.0, 0, 0
    for seen, moon in enumerate(moons, start=1):
        count += moon
        gap = abs(count - rate * seen) / scale
        if gap > best:
            best, where = gap, seen
    return best, where


def two_rates(first: Sequence[bool], second: Sequence[bool]) -> dict:
    """Two moon rates and the z of their difference (pooled binomial error)."""
    if not first or not second:
        return {"first": None, "second": None, "z": None}
    p1, p2 = sum(first) / len(first), sum(second) / len(second)
    pooled = (sum(first) + sum(second)) / (len(first) + len(second))
    error = math.sqrt(pooled * (1.0 - pooled) * (1.0 / len(first) + 1.0 / len(second)))
    return {"first": p1, "second": p2, "z": (p2 - p1) / error if error > 0 else 0.0}


def hands_of_runs(folder: Path) -> list[tuple[str, list[tuple[int, bool]]]]:
    """Each kept run (file) with its hands in seed order: (seed, whether the game's own outcome
    was a moon). A hand kept by two runs counts in the first only, as ``--pool`` counts it."""
    runs, seen = [], set()
    for path in sorted(folder.glob("*.json.gz")):
        kept = json.loads(gzip.decompress(path.read_bytes()))
        shooters: dict[int, int] = {}
        for row in kept["rows"]:
            if row["hand"] not in seen:
                shooters.setdefault(row["hand"], row["outcomes"][0][1])
        seen.update(shooters)
        runs.append((path.name, sorted((hand, shooter >= 0) for hand, shooter in shooters.items())))
    return runs


def drift(runs: list[tuple[str, list[tuple[int, bool]]]], fitted=calibration.fitted_on) -> dict:
    """The three questions above, over ``hands_of_runs``' answer."""
    hands = sorted(hand for _, run in runs for hand in run)
    moons = [moon for _, moon in hands]
    if not hands:
        raise ValueError("no kept hands to read")
    rate = sum(moons) / len(moons)
    counted = [(name, len(run), sum(moon for _, moon in run)) for name, run in runs if run]
    spread = sum(
        (made - size * rate) ** 2 / (size * rate * (1.0 - rate)) for _, size, made in counted if 0 < rate < 1
    )
    gap, after = largest_gap(moons)
    before_after = two_rates(moons[:after], moons[after:])
    fit = [moon for hand, moon in hands if fitted(hand)]
    rest = [moon for hand, moon in hands if not fitted(hand)]
    fit_rest = two_rates(fit, rest)
    return {
        "hands": len(hands),
        "moons": sum(moons),
        "rate": rate,
        "runs": [{"run": name, "hands": size, "moons": made} for name, size, made in counted],
        "dispersion": {
            "chi_square": spread,
            "freedom": len(counted) - 1,
            "p": chi_square_tail(spread, len(counted) - 1) if len(counted) > 1 else None,
        },
        "change": {
            "largest_gap": gap,
            "p": kolmogorov_tail(gap),
            "after_seed": hands[after - 1][0] if after else None,
            "rate_before": before_after["first"],
            "rate_after": before_after["second"],
            "z": before_after["z"],
        },
        "fitted_against_rest": {
            "fitted_hands": len(fit),
            "rest_hands": len(rest),
            "fitted_rate": fit_rest["first"],
            "rest_rate": fit_rest["second"],
            "z": fit_rest["z"],
        },
    }


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="the kept runs' folder name (default: today's model)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    model = args.model or calibration.model_fingerprint(BLOCKERS)
    folder = calibration.KEPT / model
    if not folder.is_dir():
        parser.error(f"--model: no kept runs under {folder}")
    report = {"model": model, **drift(hands_of_runs(folder))}
    spread, change, split = report["dispersion"], report["change"], report["fitted_against_rest"]
    runs, rate = len(report["runs"]), _percent(report["rate"])
    print(f"{report['hands']} hands in {runs} runs of {model}: {report['moons']} moons ({rate})")
    chi = f"chi-square {spread['chi_square']:.1f} on {spread['freedom']} df"
    print(f"runs' spread: {chi}, p = {spread['p']:.3f}")
    rates = f"{_percent(change['rate_before'])} before, {_percent(change['rate_after'])} after"
    gap = f"gap {change['largest_gap']:.3f} after seed {change['after_seed']}"
    print(f"largest change along the seeds: {gap}, p = {change['p']:.3f} ({rates})")
    z = "-" if split["z"] is None else f"{split['z']:.2f}"
    fit = f"{_percent(split['fitted_rate'])} ({split['fitted_hands']})"
    rest = f"{_percent(split['rest_rate'])} ({split['rest_hands']})"
    print(f"the map's fitted hands {fit}, the rest {rest}, z = {z}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
