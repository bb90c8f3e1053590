"""Are the coach's losses true against strong players? Two options of one decision, both played on.

``coach_calibration.py`` checks what the evaluator predicts for the option Hard chose; a verdict
is a *difference*: what another option costs against the best. Here, on positions from Hard x4
games (the ``--save`` pickles of ``coach_calibration.py``, or its ``--replay`` of kept runs):

1. the evaluator values every option from the deciding seat's view (``--deals`` deals, the
   coach's way: passes screened, finalists on fresh deals), and an option other than its best
   is drawn at random among those it says lose between ``--low`` and ``--high`` points; the
   two are then valued again on fresh deals (as the coach values a learner's choice), and that
   paired difference is the predicted loss;
2. from the true deal, the best option and that option are each played on to the hand's end by
   Hard at every seat, ``--continuations`` times with the same seeds for both (so the luck of
   the play-outs is shared and the difference is sharp);
3. realised loss = the deciding seat's score less the others' average after the option, minus
   the same after the best; against it, the predicted loss (the play-outs', paired on the same
   imagined deals: the verdict's) and the forecasts' difference (``engine.search.calibration``).
   With ``--measure forecast`` the evaluator ranks options and measures the verdict's loss by
   the forecast, as the coach does (``trainer.coach.depth.Depth.measure``).

Tables by the verdict's loss, with standard errors clustered by hand, and the least-squares slope
of realised on predicted loss through the origin (1: the losses are true on average; below 1:
they are too large).

    PYTHONPATH=. .venv/bin/python benchmarks/loss_calibration.py RUN.pickle ... [--per-hand 2]
        [--continuations 4] [--workers 2] [--json benchmarks/results/loss_calibration.json]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import pickle
import random
import time
from multiprocessing import Pool
from pathlib import Path

from benchmarks.coach_calibration import apply, play_to_end
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import MEASURES, evaluate_pass, evaluate_play

LOSS_BUCKETS = (-100.0, 1.0, 2.5, 6.0, 100.0)
SEED = 4_400_000
FRESH = 1_000_003
"""Added to a decision's seed for the fresh deals its two options are valued on again."""


def _difference(scores: list[int], seat: int) -> float:
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def judge(job: tuple[int, dict, int, float, float, int, str]) -> dict | None:
    """Steps 1-3 for one decision (None when no option loses within the range)."""
    number, row, deals, low, high, continuations, measure = job
    state, seat, kind = row["state"], row["seat"], row["kind"]
    view = state.view(seat)
    seed = SEED + number
    if kind == "pass":
        evaluation = evaluate_pass(view, PassBudget(samples=deals, measure=measure), seed=seed)
    else:
        evaluation = evaluate_play(view, PlayBudget(samples=deals, measure=measure), seed=seed)
    best = evaluation.best
    within = [value for value in evaluation.options[1:] if low <= value.loss <= high]
    if not within:
        return None
    other = random.Random(seed).choice(within)
    # The two valued again on fresh deals: an option screened out of a pass (or any option against
    # a best chosen on the same deals) has a loss flattered by the choice of the best; the coach
    # values the learner's option on fresh deals too.
    if kind == "pass":
        again = evaluate_pass(
            view,
            PassBudget(samples=deals, measure=measure),
            seed=seed + FRESH,
            only=[best.option, other.option],
        )
    else:
        again = evaluate_play(view, PlayBudget(samples=deals, measure=measure), seed=seed + FRESH)
    fresh_best, fresh_other = again.value_of(best.option), again.value_of(other.option)
    realised = []
    for k in range(continuations):
        seeds = [SEED * 3 + 1000 * number + 4 * k + s for s in range(4)]
        outcome = []
        for option in (other.option, best.option):
            scores, shooter = play_to_end(apply(state, kind, seat, option), seeds)
            outcome.append((_difference(list(scores), seat), shooter))
        realised.append((outcome[0][0] - outcome[1][0], outcome[0][1], outcome[1][1]))
    forecast = (
        None
        if fresh_best.forecast is None or fresh_other.forecast is None
        else fresh_other.forecast.difference - fresh_best.forecast.difference
    )
    return {
        "hand": row["seed"],
        "kind": kind,
        "seat": seat,
        "best": str(best.option),
        "other": str(other.option),
        "screened_loss": other.loss,
        "loss": fresh_other.difference - fresh_best.difference,
        "forecast_loss": forecast,
        "realised": realised,
    }


def table(results: list[dict], key: str) -> dict:
    """Per bucket of the prediction ``key``: predicted and realised means, SE clustered by hand."""
    buckets = []
    for low, high in itertools.pairwise(LOSS_BUCKETS):
        rows = [r for r in results if r[key] is not None and low <= r["loss"] < high]
        if not rows:
            continue
        count = sum(len(r["realised"]) for r in rows)
        predicted = sum(r[key] * len(r["realised"]) for r in rows) / count
        realised = sum(gap for r in rows for gap, _, _ in r["realised"]) / count
        error = _clustered(rows, key, realised - predicted, count)
        buckets.append(
            {
                "bucket": [low, high],
                "positions": len(rows),
                "outcomes": count,
                "predicted": predicted,
                "realised": realised,
                "clustered_error": error,
                "z": (realised - predicted) / error if error > 0 else math.inf,
                "within_2_se": abs(realised - predicted) <= 2 * error,
            }
        )
    rows = [r for r in results if r[key] is not None]
    x = [r[key] for r in rows for _ in r["realised"]]
    y = [gap for r in rows for gap, _, _ in r["realised"]]
    slope = sum(a * b for a, b in zip(x, y, strict=True)) / sum(a * a for a in x)
    # slope's SE clustered by hand (sandwich)
    sums: dict[int, float] = {}
    for r in rows:
        sums[r["hand"]] = sums.get(r["hand"], 0.0) + sum(
            r[key] * (gap - slope * r[key]) for gap, _, _ in r["realised"]
        )
    clusters = len(sums)
    slope_error = math.sqrt(sum(s * s for s in sums.values()) * clusters / max(clusters - 1, 1)) / sum(
        a * a for a in x
    )
    return {"buckets": buckets, "slope": slope, "slope_error": slope_error, "positions": len(rows)}


def _clustered(rows: list[dict], key: str, gap: float, count: int) -> float:
    sums: dict[int, float] = {}
    for r in rows:
        sums[r["hand"]] = sums.get(r["hand"], 0.0) + sum(g - r[key] - gap for g, _, _ in r["realised"])
    clusters = len(sums)
    if clusters < 2:
        return math.inf
    return math.sqrt(sum(s * s for s in sums.values()) * clusters / (clusters - 1)) / count


def show(title: str, report: dict) -> None:
    slope, error, positions = report["slope"], report["slope_error"], report["positions"]
    print(f"\n{title}: slope {slope:.3f} ± {error:.3f} on {positions} positions")
    heads = (("loss", 10), ("positions", 11), ("outcomes", 10), ("predicted", 11), ("realised", 10))
    heads += (("SE (hand)", 11), ("z", 7))
    print("".join(f"{name:>{width}}" for name, width in heads))
    for row in report["buckets"]:
        low, high = row["bucket"]
        print(
            f"{f'{low:g}-{high:g}':>10}{row['positions']:>11}{row['outcomes']:>10}{row['predicted']:>11.2f}"
            f"{row['realised']:>10.2f}{row['clustered_error']:>11.2f}{row['z']:>7.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="--save pickles of coach_calibration.py")
    parser.add_argument("--per-hand", type=int, default=2, help="decisions drawn a hand")
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--low", type=float, default=0.5)
    parser.add_argument("--high", type=float, default=10.0)
    parser.add_argument("--continuations", type=int, default=4)
    parser.add_argument(
        "--passes", type=float, default=1 / 3, help="share of drawn decisions that are passes"
    )
    parser.add_argument("--hands", type=int, default=10**9, help="at most this many hands a run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--measure",
        choices=MEASURES,
        default="playout",
        help="what the evaluator ranks and measures losses by (the coach: forecast)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    start = time.perf_counter()
    rng = random.Random(args.seed)
    jobs = []
    for path in args.runs:
        rows = pickle.loads(Path(path).read_bytes())["rows"]
        by_hand: dict[int, list[dict]] = {}
        for row in rows:
            by_hand.setdefault(row["seed"], []).append(row)
        for decisions in list(by_hand.values())[: args.hands]:
            passes = [r for r in decisions if r["kind"] == "pass"]
            plays = [r for r in decisions if r["kind"] == "play"]
            for _ in range(args.per_hand):
                pool = passes if passes and rng.random() < args.passes else plays
                if pool:
                    jobs.append(pool.pop(rng.randrange(len(pool))))
    work = [
        (n, row, args.deals, args.low, args.high, args.continuations, args.measure)
        for n, row in enumerate(jobs)
    ]
    with Pool(args.workers) as pool:
        results = [r for r in pool.imap_unordered(judge, work) if r is not None]
    results.sort(key=lambda r: (r["hand"], r["kind"]))
    report = {
        "runs": [Path(path).name for path in args.runs],
        "decisions_drawn": len(jobs),
        "positions": len(results),
        "continuations": args.continuations,
        "deals": args.deals,
        "measure": args.measure,
        "loss_range": [args.low, args.high],
    }
    for kind in ("all", "pass", "play"):
        part = [r for r in results if kind == "all" or r["kind"] == kind]
        if not part:
            continue
        report[kind] = {"loss": table(part, "loss"), "screened_loss": table(part, "screened_loss")}
        show(f"{kind}: the verdict's loss ({args.measure}, paired, fresh deals)", report[kind]["loss"])
        show(f"{kind}: the loss on the deals that chose the best", report[kind]["screened_loss"])
        if any(r["forecast_loss"] is not None for r in part):
            report[kind]["forecast_loss"] = table(part, "forecast_loss")
            show(f"{kind}: the forecasts' difference", report[kind]["forecast_loss"])
    report["seconds"] = time.perf_counter() - start
    print(f"\n{len(results)} positions, {report['seconds']:.0f} s")
    if args.json:
        report["date"] = datetime.date.today().isoformat()
        report["results"] = results
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
