"""How long the exact solver takes per imagined deal: the pure-Python reference
(``engine.search.solver.solve_options``, what Pyodide runs) and its compiled twin
(``engine.search.compiled_solver``, where numba is there) on the same positions, side by side.

Four players, standard rules. Positions are reached by random legal play from seeded deals
until every seat holds N cards: at the trick boundary, and mid-trick (1 to 3 cards of the
next trick played, so the seats that have played hold N - 1). Each position is solved once,
timed with ``time.perf_counter`` (after one warm-up solve that builds the tables the solver
keeps per rules, and loads the twin's machine code); the table gives the median, 95th
percentile and maximum per N for each, and the ratio of their total times. The twin's
outcomes are checked equal to the reference's on every position.

    PYTHONPATH=. .venv/bin/python benchmarks/solver_speed.py [--positions 200] [--sizes 3 4 5 6]
        [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from engine import HandState, Rules
from engine.search.solver import solve_options

try:
    from engine.search.compiled_solver import solve_options_compiled
except ImportError:  # no numba: the reference alone
    solve_options_compiled = None

FIRST_SEED = 3_000_000


def position(seed: int, rules: Rules, cards: int, mid_trick: bool) -> HandState:
    """Random legal play from a seeded deal until every seat holds ``cards`` (then, mid-trick,
    1 to players - 1 cards more)."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, rules, "hold")
    plays = (rules.hand_size - cards) * rules.players
    if mid_trick:
        plays += rng.randrange(1, rules.players)
    for _ in range(plays):
        state.play(rng.choice(list(state.legal_cards())))
    return state


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(sizes: list[int], positions: int) -> list[dict]:
    rules = Rules()
    rows = []
    for cards in sizes:
        for mid_trick in (False, True):
            times, twin = [], []
            for index in range(positions):
                state = position(FIRST_SEED + index, rules, cards, mid_trick)
                start = time.perf_counter()
                solved = solve_options(state)
                times.append((time.perf_counter() - start) * 1000)
                if solve_options_compiled is not None:
                    start = time.perf_counter()
                    fast = solve_options_compiled(state)
                    twin.append((time.perf_counter() - start) * 1000)
                    if fast != [(int(card), scores, shooter) for card, scores, shooter in solved]:
                        raise SystemExit(
                            f"the compiled solver differs from the reference at seed {FIRST_SEED + index}"
                        )
            row = {
                "cards": cards,
                "where": "mid-trick" if mid_trick else "trick start",
                "positions": positions,
                "median_ms": statistics.median(times),
                "p95_ms": percentile(times, 0.95),
                "max_ms": max(times),
            }
            if twin:
                row |= {
                    "compiled_median_ms": statistics.median(twin),
                    "compiled_p95_ms": percentile(twin, 0.95),
                    "compiled_max_ms": max(twin),
                    "ratio": sum(times) / sum(twin),
                }
            rows.append(row)
            line = (
                f"{cards:>5} {row['where']:<12} {positions:>9} {row['median_ms']:>10.2f} "
                f"{row['p95_ms']:>9.2f} {row['max_ms']:>9.2f}"
            )
            if twin:
                line += (
                    f" {row['compiled_median_ms']:>10.2f} {row['compiled_p95_ms']:>9.2f} "
                    f"{row['compiled_max_ms']:>9.2f} {row['ratio']:>6.1f}"
                )
            print(line, flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per size and kind")
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5, 6], help="cards per seat")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    solve_options(position(FIRST_SEED - 1, Rules(), 2, False))  # builds the rules' tables, once
    warm_up = (time.perf_counter() - start) * 1000
    if solve_options_compiled is not None:
        solve_options_compiled(position(FIRST_SEED - 1, Rules(), 2, False))  # loads its machine code
    print(f"ms per deal, 4 players, standard rules; the reference's first call {warm_up:.1f} ms")
    header = f"{'cards':>5} {'where':<12} {'positions':>9} {'median':>10} {'p95':>9} {'max':>9}"
    if solve_options_compiled is not None:
        header += f" {'c median':>10} {'c p95':>9} {'c max':>9} {'ratio':>6}"
    print(header)
    rows = measure(args.sizes, args.positions)
    if args.json:
        report = {
            "benchmark": "solver_speed",
            "python": sys.version.split()[0],
            "machine": platform.machine(),
            "rules": "standard, 4 players",
            "first_call_ms": warm_up,
            "compiled": solve_options_compiled is not None,
            "load": Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else None,
            "rows": rows,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"written to {args.json}")


if __name__ == "__main__":
    main()
