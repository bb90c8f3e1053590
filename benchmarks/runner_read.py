"""How the coach reads a moon runner's hand, held against what Hard x4 went on to do.

While another seat has taken every moon card so far, the evaluator weights each imagined deal by
how well the runner's hand in it explains the runner's plays and by the losers left in it
(``engine.search.inference``). How strongly is a question of fact: a runner with one heart at trick 3
has shown little, a runner with seven moon cards at trick 9 has shown a hand that can shoot.

``--collect`` takes positions with a runner from replayed calibration runs (``--save`` pickles
of ``coach_calibration.py``, with their Hard x4 outcomes) and, for each, draws the deciding
seat's imagined deals once: per deal the evidence (mismatched plays, losers), the runner's moon
cards and whether the runner shoots after the option Hard chose (the compiled policy, or exact
solving late, as the evaluator plays it). A weight law only reweights those deals, so ``--fit``
tries many laws on the same deals in seconds and reports, per law, the log-loss of the runner's
predicted moon against the realised outcomes and the table by predicted bucket (standard errors
clustered by hand). Fit on some runs, check on others (``--test``): the law is chosen on hands
it is then not judged by.

    PYTHONPATH=. .venv/bin/python benchmarks/runner_read.py --collect rows.pickle [...] \
        --out evidence.pickle [--deals 256] [--exact-deals 128] [--workers 2]
    PYTHONPATH=. .venv/bin/python benchmarks/runner_read.py --fit evidence.pickle [--test other.pickle]
    PYTHONPATH=. .venv/bin/python benchmarks/runner_read.py --held-out ev1.pickle ev2.pickle [...] \
        [--json benchmarks/results/runner_read.json]

``--held-out`` holds each run out in turn, fits among the laws near the engine's (``NEAR``) on
the others and reports the held-out log-loss of the old law, the engine's and the fitted one,
then both laws' tables over every run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import pickle
from multiprocessing import Pool
from pathlib import Path

from benchmarks.coach_calibration import MOON_BUCKETS, _clustered_error, bucket_of
from engine.moon import BLOCKERS, moon_candidate, moon_cards, taken_masks
from engine.search.evaluator import EXACT_CARDS
from engine.search.inference import BLOCKER_TREMBLE, GROWTH, STRENGTH, TREMBLE, loser_strength
from engine.search.outcomes import PlayWorlds, play_outcomes

FIRST_SEED = 4_400_000


def evidence_of(job: tuple[int, dict, int, int]) -> dict | None:
    """The imagined deals of one position with a runner: evidence and outcome per deal."""
    number, row, deals, exact_deals = job
    view = row["state"].view(row["seat"])
    source = PlayWorlds(view, FIRST_SEED + number, "compiled")
    if source.reading is None:
        return None
    runner = source.reading.runner
    exact = max(view.hand_sizes) <= EXACT_CARDS
    worlds = source.next(exact_deals if exact else deals)
    mismatched, losers = source.evidence(worlds)
    how = "exact" if exact else "compiled"
    _, shooters = play_outcomes(view, worlds, [int(row["choice"])], how, BLOCKERS)
    _, cards = moon_candidate(taken_masks(view), moon_cards(view.rules))
    realised = [1.0 if shooter == runner else 0.0 for _, shooter in row["outcomes"]]
    return {
        "hand": row["hand"],
        "trick": len(view.tricks) + 1,
        "runner_cards": cards,
        "exact": exact,
        "mismatched": list(mismatched),
        "losers": list(losers),
        "shoots": [int(shooter) == runner for shooter in shooters],
        "realised": realised,
    }


def blocker_evidence_of(job: tuple[int, dict, int, int]) -> dict | None:
    """A position whose deciding seat is the runner: per imagined deal, the blockers' plays the
    policy would have made otherwise (``PlayWorlds.blocked``) and whether the seat shoots after
    the option Hard chose; None when the seat is not the runner."""
    number, row, deals, exact_deals = job
    view = row["state"].view(row["seat"])
    runner, cards = moon_candidate(taken_masks(view), moon_cards(view.rules))
    if runner != view.seat:
        return None
    source = PlayWorlds(view, FIRST_SEED + number, "compiled")
    exact = max(view.hand_sizes) <= EXACT_CARDS
    worlds = source.next(exact_deals if exact else deals)
    blocked = source.blocked(worlds)
    how = "exact" if exact else "compiled"
    _, shooters = play_outcomes(view, worlds, [int(row["choice"])], how, BLOCKERS)
    return {
        "hand": row["hand"],
        "trick": len(view.tricks) + 1,
        "runner_cards": cards,
        "exact": exact,
        "read": sum(len(plays.cards) for plays in source.blockers),
        "mismatched": blocked,
        "losers": [0] * len(worlds),
        "shoots": [int(shooter) == runner for shooter in shooters],
        "realised": [1.0 if shooter == runner else 0.0 for _, shooter in row["outcomes"]],
    }


def collect(
    paths: list[str], deals: int, exact_deals: int, workers: int, blockers: bool = False
) -> list[dict]:
    rows = []
    for path in paths:
        saved = pickle.loads(Path(path).read_bytes())
        rows.extend(row for row in saved["rows"] if row["kind"] == "play")
    jobs = [(number, row, deals, exact_deals) for number, row in enumerate(rows)]
    found = []
    work = blocker_evidence_of if blockers else evidence_of
    with Pool(workers) as pool:
        for done, item in enumerate(pool.imap(work, jobs, chunksize=16), start=1):
            if item is not None:
                found.append(item)
            if done % 500 == 0:
                print(f"{done}/{len(jobs)} positions, {len(found)} with a runner", flush=True)
    return found


def predicted(item: dict, tremble: float, strength: float) -> float:
    total = shot = 0.0
    for mismatched, losers, shoots in zip(item["mismatched"], item["losers"], item["shoots"], strict=True):
        weight = tremble**mismatched * math.exp(-strength * losers)
        total += weight
        shot += weight * shoots
    return shot / total if total > 0 else 0.0


LAWS = {
    "constant": lambda item, s, g: s,
    "by moon cards": lambda item, s, g: s * (1.0 + g * (min(item["runner_cards"], 8) - 1)),
    "by trick": lambda item, s, g: s * (1.0 + g * (item["trick"] - 2)),
    "per trick done": lambda item, s, g: loser_strength(item["trick"] - 1, s, g),
}
"""How the strength per loser may depend on the position: one constant, or growing with the runner's
moon cards or the trick (``g`` per card or trick; 0 is the constant law)."""


def score(items: list[dict], tremble: float, law: str, strength: float, growth: float) -> tuple[float, list]:
    """Log-loss per outcome of the runner's predicted moon, and the (hand, p, realised) rows."""
    rule = LAWS[law]
    loss, count, rows = 0.0, 0, []
    for item in items:
        p = predicted(item, tremble, rule(item, strength, growth))
        clipped = min(max(p, 1e-4), 1 - 1e-4)
        for outcome in item["realised"]:
            loss -= outcome * math.log(clipped) + (1 - outcome) * math.log(1 - clipped)
            count += 1
        rows.append((item["hand"], p, item["realised"]))
    return loss / max(count, 1), rows


def bucket_table(rows: list) -> list[tuple]:
    groups: dict[int, list] = {}
    for hand, p, realised in rows:
        groups.setdefault(bucket_of(p, MOON_BUCKETS), []).append((hand, p, realised))
    table = []
    for index in sorted(groups):
        part = groups[index]
        count = sum(len(r) for _, _, r in part)
        mean_p = sum(p * len(r) for _, p, r in part) / count
        mean_r = sum(sum(r) for _, _, r in part) / count
        clustered = _clustered_error(part, count)
        binomial = math.sqrt(sum(p * (1 - p) * len(r) for _, p, r in part)) / count
        error = max(clustered, binomial)
        table.append((MOON_BUCKETS[index], count, mean_p, mean_r, (mean_r - mean_p) / max(error, 1e-12)))
    return table


OLD_LAW = ("constant", 0.5, 1.0, 0.0)
"""The law before the fit (2026-12-01): every loser ``exp(-1)``, every mismatched play 0.5."""
ENGINE_LAW = ("per trick done", TREMBLE, STRENGTH, GROWTH)

WIDE = [
    (law, tremble, strength, growth)
    for law in LAWS
    for tremble, strength, growth in itertools.product(
        (0.35, 0.5, 0.6, 0.7, 0.85, 1.0),
        (0.1, 0.15, 0.2, 0.25, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0),
        (0.0, 0.25, 0.5, 0.75, 1.0),
    )
    if law != "constant" or not growth
]
NEAR = [OLD_LAW] + [
    ("per trick done", tremble, strength, growth)
    for tremble, strength, growth in itertools.product(
        (0.85, 1.0), (0.05, 0.075, 0.1, 0.15, 0.2), (0.25, 0.5, 0.75)
    )
]
"""The laws ``--held-out`` fits among: the old one and the neighbourhood of the wide grid's best."""


def ranked(items: list[dict], laws: list[tuple]) -> list[tuple]:
    """(log-loss, law, tremble, strength, growth), best first."""
    return sorted(
        (score(items, tremble, law, strength, growth)[0], law, tremble, strength, growth)
        for law, tremble, strength, growth in laws
    )


def held_out(runs: dict[str, list[dict]]) -> dict:
    """Each run held out in turn: the law fitted on the others, and on the held-out run the
    log-loss of the old law, the engine's and the fitted one; then both tables pooled."""
    report: dict = {"runs": {}, "pooled": {}}
    for name, part in runs.items():
        rest = [item for other, items in runs.items() if other != name for item in items]
        fitted = ranked(rest, NEAR)[0][1:]
        losses = {
            label: score(part, law[1], law[0], law[2], law[3])[0]
            for label, law in (("old", OLD_LAW), ("engine", ENGINE_LAW), ("fitted", fitted))
        }
        report["runs"][name] = {"positions": len(part), "fitted_on_the_others": fitted, "log_loss": losses}
        print(
            f"{name} held out ({len(part)} positions): fitted on the others {fitted}; log-loss old "
            f"{losses['old']:.4f}, engine's {losses['engine']:.4f}, fitted {losses['fitted']:.4f}",
            flush=True,
        )
    pooled = [item for items in runs.values() for item in items]
    for label, law in (("old", OLD_LAW), ("engine", ENGINE_LAW)):
        loss, rows = score(pooled, law[1], law[0], law[2], law[3])
        report["pooled"][label] = pooled_entry("law", law, loss, rows, f"{label} law {law}", len(pooled))
    return report


def pooled_entry(key: str, law: object, loss: float, rows: list, title: str, positions: int) -> dict:
    """One law's table over every run: printed, and as the JSON report keeps it."""
    table = bucket_table(rows)
    print(f"\n{title} on all {positions} positions: log-loss {loss:.4f}")
    print_table(table)
    return {
        key: law,
        "log_loss": loss,
        "buckets": [
            {"from": low, "outcomes": count, "predicted": p, "realised": r, "z": z}
            for low, count, p, r, z in table
        ],
    }


BLOCKER_TREMBLES = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The blocker reads ``--blockers-held-out`` fits among (1: the blockers' plays tell nothing)."""


def blockers_held_out(runs: dict[str, list[dict]]) -> dict:
    """Each run held out in turn: the blockers' tremble fitted on the others, and on the held-out
    run the log-loss with no read (1), the engine's and the fitted one; then the tables pooled."""
    report: dict = {"runs": {}, "pooled": {}}

    def loss_of(items: list[dict], tremble: float) -> float:
        return score(items, tremble, "constant", 0.0, 0.0)[0]

    for name, part in runs.items():
        rest = [item for other, items in runs.items() if other != name for item in items]
        fitted = min(BLOCKER_TREMBLES, key=lambda tremble: loss_of(rest, tremble))
        losses = {
            "none": loss_of(part, 1.0),
            "engine": loss_of(part, BLOCKER_TREMBLE),
            "fitted": loss_of(part, fitted),
        }
        report["runs"][name] = {"positions": len(part), "fitted_on_the_others": fitted, "log_loss": losses}
        print(
            f"{name} held out ({len(part)} positions): tremble fitted on the others {fitted}; log-loss "
            f"no read {losses['none']:.4f}, engine's {losses['engine']:.4f}, fitted {losses['fitted']:.4f}",
            flush=True,
        )
    pooled = [item for items in runs.values() for item in items]
    print("\nlog-loss on every run by tremble:")
    for tremble in BLOCKER_TREMBLES:
        print(f"  {tremble:6.3f}  {loss_of(pooled, tremble):.4f}")
    for label, tremble in (("none", 1.0), ("engine", BLOCKER_TREMBLE)):
        loss, rows = score(pooled, tremble, "constant", 0.0, 0.0)
        title = f"{label} (tremble {tremble})"
        report["pooled"][label] = pooled_entry("tremble", tremble, loss, rows, title, len(pooled))
    return report


def print_table(table: list[tuple]) -> None:
    for low, count, mean_p, mean_r, z in table:
        print(
            f"  from {100 * low:5.1f}%  outcomes {count:5d}  predicted {100 * mean_p:6.2f}%  "
            f"realised {100 * mean_r:6.2f}%  z {z:6.2f}"
        )


def fit(items: list[dict], test: list[dict]) -> None:
    print(f"{len(items)} positions with a runner ({sum(len(i['realised']) for i in items)} outcomes)")
    results = ranked(items, WIDE)
    print("\nbest laws by log-loss on the fitting positions")
    for loss, law, tremble, strength, growth in results[:8]:
        print(f"  {loss:.4f}  {law:<14} tremble {tremble:<5} strength {strength:<4} growth {growth}")
    present = score(items, TREMBLE, "per trick done", STRENGTH, GROWTH)[0]
    print(f"  {present:.4f}  the engine's law (tremble {TREMBLE}, strength {STRENGTH}, growth {GROWTH})")
    for name, chosen in (("engine's", ENGINE_LAW), ("best", results[0][1:])):
        law, tremble, strength, growth = chosen
        for label, part in (("fit", items), ("test", test)):
            if not part:
                continue
            loss, rows = score(part, tremble, law, strength, growth)
            print(f"\n{name} law on the {label} positions: log-loss {loss:.4f}")
            print_table(bucket_table(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collect", nargs="+", metavar="PICKLE")
    parser.add_argument("--out", metavar="PATH")
    parser.add_argument("--deals", type=int, default=256)
    parser.add_argument("--exact-deals", type=int, default=128)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--blockers",
        action="store_true",
        help="positions where the deciding seat is the runner: read the blockers' plays",
    )
    parser.add_argument("--fit", nargs="+", metavar="PATH")
    parser.add_argument("--test", nargs="*", metavar="PATH", default=[])
    parser.add_argument("--held-out", nargs="+", metavar="PATH", help="evidence files, each held out in turn")
    parser.add_argument("--json", metavar="PATH", help="with --held-out: the report")
    args = parser.parse_args()
    if args.collect:
        if not args.out:
            parser.error("--collect needs --out")
        found = collect(args.collect, args.deals, args.exact_deals, args.workers, args.blockers)
        Path(args.out).write_bytes(pickle.dumps(found))
        print(f"{len(found)} positions with a runner kept in {args.out}")
    if args.fit:
        items = [item for path in args.fit for item in pickle.loads(Path(path).read_bytes())]
        test = [item for path in args.test for item in pickle.loads(Path(path).read_bytes())]
        fit(items, test)
    if args.held_out:
        runs = {Path(path).stem: pickle.loads(Path(path).read_bytes()) for path in args.held_out}
        report = blockers_held_out(runs) if args.blockers else held_out(runs)
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
