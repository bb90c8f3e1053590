"""Do the coach's verdicts hold under a deeper look?

Decisions from Normal-bot hands (our own seeds: plays over tricks 1-12 with a real choice, and
passes left, right and across) are judged twice: at the coach's depth (what lessons, puzzles and
the review use) and at ``--factor`` times the deals everywhere, each with its own seed; the deep
look never stops before it has used ``--factor`` times the deals the coach's verdict used. The
deep verdict's band (of its estimated loss) is the reference.

For each kind it reports: how often the coach's verdict is decided and names the reference's
band (*agree*), how often the verdict shown is the deep look's (*unchanged*: it agrees, or both
looks say "between" the same two bands), decided but another band (*wrong*), undecided
("between A and B", with the reference inside or outside that span), how often the best option
differs, and how long the coach's verdicts took.

    .venv/bin/python -m benchmarks.coach_stability [--plays 60] [--passes 30]
        [--factor 10] [--workers 2] [--alone] [--json benchmarks/results/coach_stability.json]
        [--reference EARLIER.json]
    PYTHONPATH=. .venv/bin/python benchmarks/coach_stability.py --pooled RUN.json ... [--json PATH]

The deep verdicts cost ten times the coach's: ``--reference`` takes them from an earlier run's
JSON on the same positions (same ``--seed``, ``--plays`` and ``--passes``; every row's decision is
checked to match), so a change to the coach's depth is measured in minutes. The deep verdicts
must still be true of the engine in use: report which run they came from.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

from engine import PlayerView
from engine.search.evaluator import Evaluation
from engine.search.inference import blocker_plays
from engine.search.threads import one_thread, playout_threads
from trainer.coach.depth import COACH, Depth, judge
from trainer.coach.grading import BANDS, Band, grade
from trainer.puzzles.mine import spread_decisions

FIRST_SEED = 770_000


def positions(plays: int, passes: int, seed: int) -> list[tuple]:
    """(kind, state, seat, choice) for plays over tricks 1-12 and passes, from Normal-bot hands:
    at most two plays and one pass a hand, chosen at random."""
    return spread_decisions(plays, passes, seed, last_trick=False)


def judge_one(job: tuple) -> dict:
    index, (kind, state, seat, choice), factor, reference, shallow_again = job
    view = state.view(seat)
    start = time.perf_counter()
    coach = judge(view, choice, seed=FIRST_SEED + index, depth=COACH)
    coach_seconds = time.perf_counter() - start
    g = grade(coach, choice)
    again = reference is not None and reference.get("deep_again", False)
    if again:
        reference = None  # judged again (``--deep-again-when-running``)
    if reference is not None and shallow_again and reference["deep_samples"] < factor * coach.samples:
        reference = None  # judged again (``--deep-again-when-shallow``)
        again = True
    if reference is None:
        deep = judge(view, choice, seed=FIRST_SEED + 100_000 + index, depth=deep_depth(coach, factor))
        d = grade(deep, choice)
        reference = {
            "deep_band": d.band.value,
            "deep_label": d.label,
            "deep_loss": d.loss,
            "deep_samples": deep.samples,
            "deep_best": str(deep.best.option),
            "deep_again": again,
        }
    deep_band = Band(reference["deep_band"])
    low, high = g.span
    best = reference.get("deep_best")
    return {
        "kind": kind,
        "trick": 0 if kind == "pass" else state.trick_number + 1,
        "choice": str(choice),
        "coach_label": g.label,
        "coach_band": g.band.value,
        "coach_loss": g.loss,
        "coach_interval": [g.low, g.high],
        "coach_samples": coach.samples,
        "coach_seconds": coach_seconds,
        "coach_clock_stopped": coach.clock_stopped,
        **reference,
        "decided": g.decided,
        "agree": g.decided and g.band is deep_band,
        "between_holds": (not g.decided) and BANDS.index(low) <= BANDS.index(deep_band) <= BANDS.index(high),
        "same_best": None if best is None else str(coach.best.option) == best,
    }


def deep_depth(coach: Evaluation, factor: int) -> Depth:
    """``factor`` times the coach's budget, and never fewer than ``factor`` times the deals the
    coach's verdict used: the reference must be the deeper look of the two. (Both stop once the
    band is decided, so without this floor a deep look could stop at 2,880 deals where the
    coach, undecided, had used 81,920.)"""
    deep = COACH.deeper(factor)
    used = factor * coach.samples
    if coach.kind == "pass":
        floor = min(deep.pass_samples, max(deep.pass_min_samples, used))
        return replace(deep, pass_min_samples=floor, pass_playouts=None)  # deals bound the reference
    if coach.method == "exact":
        return replace(deep, exact_min_samples=min(deep.exact_samples, max(deep.exact_min_samples, used)))
    return replace(deep, min_samples=min(deep.play_samples, max(deep.min_samples, used)))


DEEP_KEYS = ("deep_band", "deep_label", "deep_loss", "deep_samples", "deep_best")


def earlier_deep(path: str, points: list[tuple]) -> list[dict]:
    """The deep verdicts of an earlier run on the same positions, row by row."""
    rows = json.loads(Path(path).read_text())["rows"]
    if len(rows) != len(points):
        raise SystemExit(f"{path}: {len(rows)} rows, but these options give {len(points)} positions")
    for number, (row, (kind, _state, _seat, choice)) in enumerate(zip(rows, points, strict=True)):
        if (row["kind"], row["choice"]) != (kind, str(choice)):
            raise SystemExit(
                f"{path}: row {number} judged {row['kind']} {row['choice']}, here it is {kind} {choice}: "
                "another seed or other counts"
            )
    return [{key: row[key] for key in DEEP_KEYS if key in row} for row in rows]


def time_alone(index: int, point: tuple) -> float:
    _kind, state, seat, choice = point
    start = time.perf_counter()
    judge(state.view(seat), choice, seed=FIRST_SEED + index, depth=COACH)
    return time.perf_counter() - start


def solved_exactly(view: PlayerView) -> bool:
    """Whether the coach's look at this play solves each deal exactly (late in the hand)."""
    return max(view.hand_sizes) <= COACH.exact_cards


def unchanged(row: dict) -> bool:
    """The verdict a learner sees holds under the deeper look: it names the deep loss's band, or
    both looks leave the same two bands open ("between good and inaccuracy" at either depth)."""
    return row["agree"] or row["coach_label"] == row["deep_label"]


def summary(rows: list[dict]) -> dict:
    count = len(rows)
    seconds = sorted(row["coach_seconds"] for row in rows)

    def share(key: str) -> float | None:
        if any(row[key] is None for row in rows):
            return None  # not known (deep verdicts taken from a run that did not keep it)
        return sum(1 for row in rows if row[key]) / count

    undecided = [row for row in rows if not row["decided"]]
    return {
        "positions": count,
        "agree": share("agree"),
        "wrong": sum(1 for row in rows if row["decided"] and not row["agree"]) / count,
        "between": len(undecided) / count,
        "between_holds": share("between_holds"),
        "agree_or_between_holds": (sum(1 for r in rows if r["agree"] or r["between_holds"])) / count,
        "unchanged": sum(1 for row in rows if unchanged(row)) / count,
        "same_best": share("same_best"),
        "seconds_median": statistics.median(seconds),
        "seconds_p95": seconds[min(count - 1, int(0.95 * count))],
        "seconds_max": seconds[-1],
        "samples_median": statistics.median(row["coach_samples"] for row in rows),
        **shared_times(rows),
    }


def shared_times(rows: list[dict]) -> dict:
    """The worker's times, taken beside another verdict, when the verdicts were also timed alone."""
    if not rows or "coach_seconds_shared" not in rows[0]:
        return {}
    seconds = sorted(row["coach_seconds_shared"] for row in rows)
    return {
        "shared_seconds_median": statistics.median(seconds),
        "shared_seconds_p95": seconds[min(len(rows) - 1, int(0.95 * len(rows)))],
        "shared_seconds_max": seconds[-1],
    }


def table(rows: list[dict], report: dict) -> None:
    """Print each kind's summary and put it in ``report``."""
    columns = (("n", 5), ("agree", 8), ("unchanged", 11), ("wrong", 8), ("between", 9), ("(holds)", 9))
    columns += (("best=", 8),)
    columns += (("median s", 10), ("p95 s", 8))
    print("\n      " + "".join(f"{name:>{width}}" for name, width in columns))
    for kind in ("play", "pass"):
        part = [row for row in rows if row["kind"] == kind]
        if not part:
            continue
        s = summary(part)
        report[kind] = s
        print(
            f"{kind:6}{s['positions']:>5}{s['agree']:>8.1%}{s['unchanged']:>11.1%}{s['wrong']:>8.1%}"
            f"{s['between']:>9.1%}"
            f"{s['between_holds']:>9.1%}{_percent(s['same_best']):>8}{s['seconds_median']:>10.2f}"
            f"{s['seconds_p95']:>8.2f}"
        )


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=60)
    parser.add_argument("--passes", type=int, default=30)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--seed", type=int, default=FIRST_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument(
        "--reference", metavar="EARLIER.json", help="take the deep verdicts from an earlier run's JSON"
    )
    parser.add_argument(
        "--deep-again-when-running",
        action="store_true",
        help="with --reference: judge the deep verdict again where the deciding seat runs for the moon "
        "(the coach reads the blockers' plays there since 2026-12-03; the earlier deep verdict did not)",
    )
    parser.add_argument(
        "--deep-again-when-exact",
        action="store_true",
        help="with --reference: judge the deep verdict again where the play is solved exactly (the coach "
        "solves every deal the view allows there, when they are few enough, since 2026-12-04)",
    )
    parser.add_argument(
        "--deep-again-when-shallow",
        action="store_true",
        help="with --reference: judge the deep verdict again where it used fewer than --factor times the "
        "deals of the coach's verdict (deep looks have not stopped sooner than that since 2026-12-04)",
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="time the coach's verdicts again one at a time, as a learner's are (the workers' times "
        "were taken beside another verdict)",
    )
    parser.add_argument(
        "--pooled",
        nargs="+",
        metavar="RUN.json",
        help="judge nothing: the figures of earlier runs' rows taken together",
    )
    args = parser.parse_args()
    if args.pooled:
        report = {"pooled": args.pooled}
        table([row for path in args.pooled for row in json.loads(Path(path).read_text())["rows"]], report)
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1))
        return
    points = positions(args.plays, args.passes, args.seed)
    references = earlier_deep(args.reference, points) if args.reference else [None] * len(points)
    if args.deep_again_when_running:
        for point, reference in zip(points, references, strict=True):
            if reference is not None and point[0] == "play" and blocker_plays(point[1].view(point[2])):
                reference["deep_again"] = True
    if args.deep_again_when_exact:
        for point, reference in zip(points, references, strict=True):
            if reference is not None and point[0] == "play" and solved_exactly(point[1].view(point[2])):
                reference["deep_again"] = True
    pairs = enumerate(zip(points, references, strict=True))
    jobs = [
        (index, point, args.factor, reference, args.deep_again_when_shallow)
        for index, (point, reference) in pairs
    ]
    start = time.perf_counter()
    with Pool(args.workers, initializer=one_thread if args.workers > 1 else None) as pool:
        rows = []
        for row in pool.imap(judge_one, jobs):
            rows.append(row)
            print(
                f"{len(rows):4d}/{len(jobs)} {row['kind']:4} trick {row['trick']:2d} {row['choice']:>10}: "
                f"coach {row['coach_label']:<22} deep {row['deep_band']:<10} "
                f"({row['coach_loss']:.2f} vs {row['deep_loss']:.2f}, {row['coach_seconds']:.2f} s)",
                flush=True,
            )
    report = {"depth": COACH.__dict__, "factor": args.factor, "seconds": time.perf_counter() - start}
    if args.reference:
        report["deep_verdicts_from"] = args.reference
    if args.alone:
        # The times above were taken beside another worker's deep verdict; a learner's verdict
        # has the machine to itself (and the play-outs' threads).
        report["threads"] = playout_threads()
        for index, (row, point) in enumerate(zip(rows, points, strict=True)):
            row["coach_seconds_shared"] = row["coach_seconds"]
            row["coach_seconds"] = time_alone(index, point)
    table(rows, report)
    report["rows"] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
