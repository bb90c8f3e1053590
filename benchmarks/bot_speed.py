"""How fast the search's play-outs are next to OpenSpiel's, and how long the Hard bot thinks.

(a) Play-phase roll-outs per second from the same post-pass positions: OpenSpiel's Python API
    (``clone`` and random ``apply_action``), our batch (``engine.search.batch``: random cards with
    numpy, and the evaluator's heuristic policy compiled with numba, ``engine.search.compiled``) and
    our pure-Python loops (``engine.search.playout``: random, and the same heuristic policy, the
    fallback where numba is missing). Rounds alternate between engines; medians and the median
    of per-round ratios to OpenSpiel's random roll-outs are reported.
(b) The Hard bot's play decisions (the times ``choose_play`` takes, seated with three Normal
    bots) and its full pass evaluations: median, 95th percentile and maximum.

    PYTHONPATH=. .venv/bin/python benchmarks/bot_speed.py [--positions 1000] [--hands 20] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import numpy as np
import pyspiel

from benchmarks.engine_speed import openspiel_rollout, positions_after_pass
from engine import HandState, Phase, Rules
from engine.bots import make_bot
from engine.search.batch import Batch
from engine.search.playout import heuristic_playout, random_playout

FIRST_SEED = 2_000_000


def rollout_rates(positions: int, rounds: int) -> dict[str, list[float]]:
    game = pyspiel.load_game("hearts")
    ours, theirs = positions_after_pass(range(FIRST_SEED, FIRST_SEED + positions), game)
    rates: dict[str, list[float]] = {
        "openspiel": [],
        "batch_random": [],
        "batch_heuristic": [],
        "python_random": [],
        "python_heuristic": [],
    }

    def openspiel() -> None:
        rng = random.Random(1)
        for position in theirs:
            openspiel_rollout(position, rng)

    def batch_random() -> None:
        Batch.from_states(ours).run("random", np.random.default_rng(1))

    def batch_heuristic() -> None:
        Batch.from_states(ours).run("heuristic")

    def python_random() -> None:
        rng = random.Random(1)
        for position in ours:
            random_playout(position, rng)

    def python_heuristic() -> None:
        for position in ours:
            heuristic_playout(position)

    jobs = {
        "openspiel": openspiel,
        "batch_random": batch_random,
        "batch_heuristic": batch_heuristic,
        "python_random": python_random,
        "python_heuristic": python_heuristic,
    }
    Batch.from_states(ours[:8]).run("heuristic")  # compile (or load the compiled code) first
    names = list(jobs)
    for index in range(rounds):
        for name in names[index % len(names) :] + names[: index % len(names)]:
            start = time.perf_counter()
            jobs[name]()
            rates[name].append(positions / (time.perf_counter() - start))
    return rates


def hard_decision_times(hands: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds per Hard ``choose_play`` (all, and with two or more legal cards) and per pass."""
    plays, choices, passes = [], [], []
    rules = Rules()
    for deal in range(hands):
        state = HandState.from_seed(FIRST_SEED + deal, rules, rules.pass_direction(deal))
        bots = [make_bot("hard", deal)] + [make_bot("normal", seat) for seat in range(1, 4)]
        while not state.is_over:
            seat = state.seats_to_pass[0] if state.phase is Phase.PASSING else state.to_move
            view = state.view(seat)
            start = time.perf_counter()
            if state.phase is Phase.PASSING:
                state.pass_cards(seat, bots[seat].choose_pass(view))
                if seat == 0:
                    passes.append(time.perf_counter() - start)
            elif state.phase is Phase.MOON_CHOICE:
                state.choose_moon(bots[seat].choose_moon(view), seat)
            else:
                state.play(bots[seat].choose_play(view), seat)
                if seat == 0:
                    plays.append(time.perf_counter() - start)
                    if len(view.legal_cards) > 1:
                        choices.append(time.perf_counter() - start)
    return plays, choices, passes


def spread(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {
        "count": len(ordered),
        "median_ms": 1000 * statistics.median(ordered),
        "p95_ms": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max_ms": 1000 * ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000, help="post-pass positions per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20, help="hands the Hard bot plays for (b)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    rates = rollout_rates(args.positions, args.rounds)
    print(f"(a) play-phase roll-outs per second, {args.positions} positions x {args.rounds} rounds")
    report: dict = {"rollouts": {}, "rules": "OpenSpiel defaults", "positions": args.positions}
    for name, values in rates.items():
        ratios = [ours / theirs for ours, theirs in zip(values, rates["openspiel"], strict=True)]
        ratio = statistics.median(ratios)
        report["rollouts"][name] = {"median": statistics.median(values), "ratio_to_openspiel": ratio}
        print(f"    {name:18}{statistics.median(values):>12,.0f}   x{ratio:.2f} OpenSpiel")

    plays, choices, passes = hard_decision_times(args.hands)
    report["hard"] = {"play": spread(plays), "play_with_choice": spread(choices), "pass": spread(passes)}
    print(f"(b) Hard bot over {args.hands} hands (seat 0, three Normal bots):")
    for label, key in (
        ("every play", "play"),
        ("plays with a choice", "play_with_choice"),
        ("passes", "pass"),
    ):
        row = report["hard"][key]
        print(
            f"    {label:20} n={row['count']:<5} median {row['median_ms']:.0f} ms, "
            f"95th percentile {row['p95_ms']:.0f} ms, max {row['max_ms']:.0f} ms"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
