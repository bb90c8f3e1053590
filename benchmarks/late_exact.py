"""Late plays: the coach's band against the band of exact solving of the same view's deals.

Held-out play decisions from Normal-bot hands (seeds from ``FIRST_SEED``, which no test uses),
tricks 8-12 (six cards a seat down to two), spread over the hands: at most one play a trick a
hand. Each is judged by the coach (``trainer.coach.depth.judge_play`` at ``COACH`` depth, timed
on one process) and by the reference: the view's deals solved exactly, every deal the view
allows when there are at most ``--deals`` of them, else ``--deals`` sampled deals, each solved
(``engine.search.solver``'s max^n, every hand open), the card's loss read in the solved points
themselves (no forecast map). Per trick it reports how often the coach's verdict names the
reference's band (decided and the same band), how often an undecided verdict ("between A and
B") spans it, the "best" verdicts whose solved loss is 1.0 or more, and the verdicts' seconds
(median, p95, max). Exact verdicts that miss are judged again in the solved points
(``measure="playout"``): a miss that this removes is the forecast map's, not the solving's.
With ``--before``, every position is judged too at the coach's depth before issue 50
(``BEFORE``), for the side-by-side figure; at trick 8 its times against the coach's are the
cost of the check.

    PYTHONPATH=. .venv/bin/python benchmarks/late_exact.py [--plays 40] [--deals 1024]
        [--tricks 8 9 10 11 12] [--before] [--json benchmarks/results/late_exact.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from engine import Rules
from engine.search.budget import PlayBudget
from engine.search.evaluator import evaluate_play
from trainer.coach.depth import COACH, judge_play
from trainer.coach.grading import Band, band_of, grade
from trainer.puzzles.mine import decisions

FIRST_SEED = 6_100_000
BEFORE = replace(COACH, exact_cards=4, check_cards=0, exact_samples=512, exact_measure=COACH.measure)
"""The coach's depth before issue 50: solving from four cards a seat on up to 512 deals, read
through the forecast map, and no check of a policy's "best"."""


def positions(plays: int, tricks: list[int], seed: int) -> list[tuple]:
    """(trick, state, seat, card): ``plays`` Normal-bot plays of each trick (1-based), at most
    one a trick a hand, chosen at random among those with a real choice."""
    rng = random.Random(seed)
    wanted = dict.fromkeys(tricks, plays)
    chosen = []
    hand = 0
    while any(wanted.values()):
        by_trick: dict[int, list] = {}
        for kind, state, seat, card in decisions(Rules(), seed + hand, 1):
            trick = state.trick_number + 1
            if kind == "play" and wanted.get(trick):
                by_trick.setdefault(trick, []).append((trick, state, seat, card))
        hand += 1
        for trick, found in sorted(by_trick.items()):
            chosen.append(rng.choice(found))
            wanted[trick] -= 1
    return chosen


def solved_loss(view, card, deals: int, seed: int) -> tuple[float, int, bool]:
    """The card's loss over the view's deals solved exactly: (loss, deals, every deal)."""
    reference = evaluate_play(
        view,
        PlayBudget(
            samples=deals,
            exact_cards=view.rules.hand_size,
            exact_samples=deals,
            exact_min_samples=deals,
            every_deal=True,
        ),
        seed=seed,
    )
    return reference.loss_of(card), reference.samples, reference.every_deal


def judged(view, card, seed: int, depth) -> tuple[dict, float]:
    start = time.perf_counter()
    evaluation = judge_play(view, card, seed=seed, depth=depth)
    seconds = time.perf_counter() - start
    g = grade(evaluation, card)
    return {
        "label": g.label,
        "band": g.band.value if g.decided else None,
        "called_best": g.correct,
        "loss": round(g.loss, 3),
        "method": evaluation.method,
        "checked": evaluation.solved_check is not None,
        "seconds": round(seconds, 4),
    }, seconds


def row_for(index: int, point: tuple, deals: int, before: bool) -> dict:
    trick, state, seat, card = point
    view = state.view(seat)
    loss, count, every = solved_loss(view, card, deals, FIRST_SEED + 500_000 + index)
    reference = band_of(loss).value
    coach, _ = judged(view, card, FIRST_SEED + index, COACH)
    row = {
        "trick": trick,
        "cards": max(view.hand_sizes),
        "card": str(card),
        "solved_loss": round(loss, 3),
        "solved_band": reference,
        "solved_deals": count,
        "every_deal": every,
        "coach": coach,
    }
    if coach["method"] == "exact" and coach["band"] != reference:
        measured, _ = judged(view, card, FIRST_SEED + index, replace(COACH, measure="playout"))
        row["coach_in_solved_points"] = measured["label"]
    if before:
        row["before"], _ = judged(view, card, FIRST_SEED + index, BEFORE)
    return row


def spans(label: str, band: str) -> bool:
    names = [b.value for b in Band]
    low, _, high = label.partition("-")
    return names.index(low) <= names.index(band) <= names.index(high or low)


def summary(rows: list[dict], key: str) -> dict:
    count = len(rows)
    seconds = sorted(row[key]["seconds"] for row in rows)
    same = sum(1 for row in rows if row[key]["band"] == row["solved_band"])
    between = [row for row in rows if row[key]["band"] is None]
    false_best = [row for row in rows if row[key]["called_best"] and row["solved_loss"] >= 1.0]
    # Exact verdicts that miss only through the forecast map: right when measured in solved points.
    forecast_only = [
        row
        for row in rows
        if row[key]["band"] != row["solved_band"] and row.get(f"{key}_in_solved_points") == row["solved_band"]
    ]
    return {
        "plays": count,
        "same_band": same / count,
        "between": len(between) / count,
        "between_spans_solved": sum(1 for row in between if spans(row[key]["label"], row["solved_band"])),
        "decided_other_band": sum(1 for row in rows if row[key]["band"] not in (None, row["solved_band"])),
        "best_with_solved_loss_1": len(false_best),
        "same_band_in_solved_points": (same + len(forecast_only)) / count,
        "seconds_median": statistics.median(seconds),
        "seconds_p95": seconds[min(count - 1, int(0.95 * count))],
        "seconds_max": seconds[-1],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=40, help="plays per trick")
    parser.add_argument("--tricks", type=int, nargs="+", default=[8, 9, 10, 11, 12], help="tricks, 1-based")
    parser.add_argument("--deals", type=int, default=1024, help="deals solved for the reference")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first seed of the Normal-bot hands")
    parser.add_argument(
        "--before", action="store_true", help="also judge at the depth before (exact_cards 4)"
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    load_before = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else None
    points = positions(args.plays, args.tricks, args.seed)
    rows = []
    for index, point in enumerate(points):
        rows.append(row_for(index, point, args.deals, args.before))
        row = rows[-1]
        print(
            f"trick {row['trick']:>2} {row['card']:>4} solved {row['solved_loss']:6.2f} "
            f"{row['solved_band']:<10} coach {row['coach']['label']:<18} {row['coach']['seconds']:6.3f} s"
            + (f"  before {row['before']['label']}" if args.before else ""),
            flush=True,
        )
    report = {
        "benchmark": "late_exact",
        "seed": args.seed,
        "reference_deals": args.deals,
        "load": [load_before, Path("/proc/loadavg").read_text().split()[:3] if load_before else None],
        "coach": {str(t): summary([r for r in rows if r["trick"] == t], "coach") for t in args.tricks},
    }
    if args.before:
        report["before"] = {
            str(t): summary([r for r in rows if r["trick"] == t], "before") for t in args.tricks
        }
    report["misses"] = [row for row in rows if row["coach"]["band"] != row["solved_band"]]
    for name in ("coach", "before") if args.before else ("coach",):
        print(f"{name}: trick  plays  same band  between(spans)  other band  false best  p95 s")
        for trick, s in report[name].items():
            print(
                f"{'':>6} {trick:>5} {s['plays']:>6} {s['same_band']:>10.0%} {s['between']:>8.0%}"
                f"({s['between_spans_solved']}) {s['decided_other_band']:>11}"
                f" {s['best_with_solved_loss_1']:>11} {s['seconds_p95']:>6.2f}"
            )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
        print(f"written to {args.json}")


if __name__ == "__main__":
    main()
