"""Do the figures a verdict prints add up, and say what was computed? (issue 50)

Verdicts on held-out decisions from Normal-bot hands (``coach_stability.positions``, a seed of
their own, and ``--late`` plays from tricks 10-12, solved exactly), judged at the coach's depth.
For every option's figure set (the learner's points, the others' average, every seat's moon
chance) it checks the hand's identity
(``engine.scoring.hand_total``: own + 3 x others = 26 + 52 x P(moon) at the standard table), over
all options and over the two sets a verdict prints (the best option's and the learner's); that
the headline's loss is the difference of the figures printed; that a play solved exactly prints
its solved values (not a forecast of them) and a certain outcome as whole points. ``--before``
takes an earlier run's ``--json`` on the same positions (the engine before a change, e.g. run
with ``PYTHONPATH`` at another checkout) and counts the verdicts whose band changed.

    PYTHONPATH=. .venv/bin/python benchmarks/figures_conserve.py [--plays 60] [--passes 20]
        [--late 40] [--seed 780000] [--before EARLIER.json] [--json benchmarks/results/figures_conserve.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

from benchmarks.coach_stability import positions
from engine import Rules
from engine.scoring import hand_total
from trainer.coach.depth import COACH, judge
from trainer.coach.explain import coach_pass, coach_play
from trainer.puzzles.mine import decisions

OFF = 0.5
"""Points a figure set may miss the hand's identity by before it counts as off."""

WHOLE = re.compile(r"you take (\d+) points? \(")


LATE_SEED = 50_000
"""The late plays come from other hands than the rest: ``--seed`` plus this."""


def late_positions(count: int, seed: int) -> list[tuple]:
    """``count`` plays from tricks 10-12 (solved exactly at the coach's depth), one a hand, from
    Normal-bot hands of their own."""
    rng, chosen, hand = random.Random(seed), [], 0
    while len(chosen) < count:
        found = [d for d in decisions(Rules(), seed + LATE_SEED + hand, 1) if d[0] == "play"]
        hand += 1
        late = [d for d in found if 9 <= d[1].trick_number <= 11]  # 0-based: tricks 10-12
        if late:
            chosen.append(rng.choice(late))
    return chosen


def conservation_error(rules, value) -> float:
    """How far an option's figures miss what the hand's points add up to (no-trick bonus: 0)."""
    points = list(value.seat_points) or [value.points] + [value.others] * (rules.players - 1)
    moons = sum(value.moon_by_seat) if value.moon_by_seat else value.moon_for + value.moon_against
    return sum(points) - hand_total(rules, moons)


def one(index: int, kind: str, state, seat: int, choice, seed: int) -> dict:
    view = state.view(seat)
    start = time.perf_counter()
    evaluation = judge(view, choice, seed=seed + index, depth=COACH)
    seconds = time.perf_counter() - start
    verdict = (coach_pass if kind == "pass" else coach_play)(view, choice, evaluation)
    g = verdict.grade
    errors = [conservation_error(view.rules, value) for value in evaluation.options]
    printed = {g.best.option, g.chosen.option}
    printed_errors = [conservation_error(view.rules, v) for v in evaluation.options if v.option in printed]
    row = {
        "index": index,
        "kind": kind,
        "choice": str(choice),
        "label": g.label,
        "loss": round(g.loss, 4),
        "seconds": round(seconds, 3),
        "method": evaluation.method,
        "every_deal": evaluation.every_deal,
        "measure": evaluation.measure,
        "sets": len(errors),
        "sets_off": sum(abs(e) > OFF for e in errors),
        "max_error": round(max(map(abs, errors)), 4),
        "printed": len(printed_errors),
        "printed_off": sum(abs(e) > OFF for e in printed_errors),
        "printed_max_error": round(max(map(abs, printed_errors)), 4),
    }
    if g.moon_line is None or g.moon_line.holds:  # else the headline is the moon line's words
        shown = (g.chosen.points - g.chosen.others) - (g.best.points - g.best.others)
        row["headline_gap"] = round(g.loss - shown, 4)
    certain = [v for v in (g.best, g.chosen) if getattr(v, "certain", False)]
    row["certain"] = len(certain)
    row["certain_whole"] = bool(certain) and bool(WHOLE.search(verdict.numbers))
    return row


def summary(rows: list[dict]) -> dict:
    gaps = [abs(r["headline_gap"]) for r in rows if "headline_gap" in r]
    exact = [r for r in rows if r["method"] == "exact"]
    plays = sorted(r["seconds"] for r in rows if r["kind"] == "play")
    passes = sorted(r["seconds"] for r in rows if r["kind"] == "pass")

    def p95(times: list[float]) -> float | None:
        return times[min(len(times) - 1, int(0.95 * len(times)))] if times else None

    return {
        "verdicts": len(rows),
        "figure_sets": sum(r["sets"] for r in rows),
        "figure_sets_off": sum(r["sets_off"] for r in rows),
        "max_error": max((r["max_error"] for r in rows), default=0.0),
        "printed_sets": sum(r["printed"] for r in rows),
        "printed_sets_off": sum(r["printed_off"] for r in rows),
        "printed_max_error": max((r["printed_max_error"] for r in rows), default=0.0),
        "headlines": len(gaps),
        "headlines_off_0.05": sum(g > 0.05 for g in gaps),
        "headline_max_gap": round(max(gaps, default=0.0), 3),
        "solved": len(exact),
        "solved_shown_as_forecast": sum(r["measure"] == "forecast" for r in exact),
        "solved_every_deal": sum(r["every_deal"] for r in exact),
        "verdicts_with_a_certain_outcome": sum(r.get("certain", 0) > 0 for r in rows),
        "certain_said_whole": sum(r.get("certain_whole", False) for r in rows),
        "play_seconds_median_p95": [statistics.median(plays), p95(plays)] if plays else None,
        "pass_seconds_median_p95": [statistics.median(passes), p95(passes)] if passes else None,
    }


def band_changes(rows: list[dict], before: list[dict]) -> dict:
    earlier = {(r["index"], r["kind"], r["choice"]): r for r in before}
    changed, compared = [], 0
    for row in rows:
        old = earlier.get((row["index"], row["kind"], row["choice"]))
        if old is None:
            continue
        compared += 1
        if old["label"] != row["label"]:
            changed.append(
                {
                    "index": row["index"],
                    "kind": row["kind"],
                    "choice": row["choice"],
                    "method": row["method"],
                    "before": f"{old['label']} ({old['loss']:.2f})",
                    "after": f"{row['label']} ({row['loss']:.2f})",
                }
            )
    by_kind = {kind: sum(c["kind"] == kind for c in changed) for kind in ("play", "pass")}
    return {"compared": compared, "changed": len(changed), "by_kind": by_kind, "rows": changed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=60)
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--late", type=int, default=40, help="plays from tricks 10-12 besides (solved)")
    parser.add_argument("--seed", type=int, default=780_000, help="first hand's seed (held out)")
    parser.add_argument("--before", metavar="EARLIER.json", help="an earlier run on the same positions")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    if min(args.plays, args.passes, args.late) < 0:
        parser.error("--plays, --passes and --late: a count of 0 or more")
    before = None
    if args.before:
        try:
            before = json.loads(Path(args.before).read_text(encoding="utf-8"))
            if before.get("positions") != [args.plays, args.passes, args.late, args.seed]:
                parser.error(f"--before {args.before}: positions {before.get('positions')}, not these")
        except (OSError, json.JSONDecodeError) as error:
            parser.error(f"--before {args.before}: not a --json of this tool ({error})")
    rows = []
    chosen = positions(args.plays, args.passes, args.seed) + late_positions(args.late, args.seed)
    for index, (kind, state, seat, choice) in enumerate(chosen):
        rows.append(one(index, kind, state, seat, choice, args.seed))
        print(f"{index + 1}: {kind} {rows[-1]['label']} {rows[-1]['method']}", file=sys.stderr, flush=True)
    where = [args.plays, args.passes, args.late, args.seed]
    result = {"positions": where, "summary": summary(rows), "rows": rows}
    if before is not None:
        result["before"] = before["summary"]
        result["bands"] = band_changes(rows, before["rows"])
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
