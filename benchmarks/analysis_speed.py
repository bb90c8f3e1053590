"""How long the analysis board takes to rank every option of a position: a pass and a play.

Normal bots play hands (standard rules, four players); the positions are seat 0's passes and its
plays in tricks 2 to 9 with two or more legal cards, ``--positions`` of each, set up on the board
from the seat's view (``trainer.analysis.from_view``) and analysed as the page does
(``trainer.analysis.analyse``: the coach's first look, then its verdict on its choice). Two depths:

- ``installed``: the coach's depth in the installed app (``FULL``, compiled play-outs);
- ``browser-proxy``: the static site's depth (``BROWSER``) run in CPython with numba blocked, the
  pure-Python play-outs Pyodide runs. A proxy only: Pyodide is several times slower than CPython
  (``site_speed`` measures the coach inside the browser itself).

Each depth runs in its own process, one after the other; ``HEARTS_THREADS=1`` keeps the compiled
play-outs on one core (the installed app uses every core: a figure on one is the slower one).
Reported: seconds per analysis, median, 95th percentile and maximum, for passes and plays; the
machine's load.

    PYTHONPATH=. HEARTS_THREADS=1 nice -n 5 .venv/bin/python -m benchmarks.analysis_speed
        [--positions 5] [--seed 54] [--depths installed browser-proxy]
        [--json benchmarks/results/analysis_speed.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEPTHS = ("installed", "browser-proxy")


def positions(count: int, seed: int) -> dict[str, list]:
    """``count`` pass and play positions of seat 0 in Normal bots' hands."""
    from engine import Phase, Rules, deal_game_hand
    from engine.bots import bot_acts, make_bot
    from trainer.analysis import from_view

    rules = Rules()
    found: dict[str, list] = {"pass": [], "play": []}
    index = 0
    while len(found["pass"]) < count or len(found["play"]) < count:
        state = deal_game_hand(rules, seed, index)
        bots = [make_bot("normal", seed + seat) for seat in range(4)]
        plays = 0
        while not state.is_over:
            seat = state.seat_to_act
            view = state.view(seat)
            if seat == 0:
                if state.phase is Phase.PASSING and len(found["pass"]) < count:
                    found["pass"].append(from_view(view))
                elif (
                    state.phase is Phase.PLAYING
                    and 1 <= len(state.tricks) <= 8
                    and len(view.legal_cards) >= 2
                    and plays < 2  # two plays a hand at most: several hands' worth
                    and len(found["play"]) < count
                ):
                    found["play"].append(from_view(view))
                    plays += 1
            bot_acts(state, seat, bots[seat])
        index += 1
    return found


def spread(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "median": round(statistics.median(ordered), 3),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
    }


def measure(depth_name: str, count: int, seed: int) -> dict:
    """Time every position's analysis at one depth (in this process)."""
    from engine.search.outcomes import HAVE_COMPILED
    from engine.search.threads import playout_threads
    from engine.search.warm_up import warm_up
    from trainer.analysis import analyse
    from trainer.coach.depth import BROWSER, FULL

    depth = FULL if depth_name == "installed" else BROWSER
    warm = warm_up()  # the compiler's first run is the app's set-up, not an analysis
    found = positions(count, seed)
    report: dict = {
        "compiled": HAVE_COMPILED,
        "threads": playout_threads(),
        "warm_up_seconds": round(warm, 2),
        "kinds": {},
    }
    for kind, chosen in found.items():
        seconds, deals = [], []
        for number, pos in enumerate(chosen):
            start = time.perf_counter()
            analysis = analyse(pos, depth, seed=seed + number)
            seconds.append(time.perf_counter() - start)
            deals.append(analysis.evaluation.samples)
        report["kinds"][kind] = {"seconds": spread(seconds), "deals_median": statistics.median(deals)}
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5, help="pass and play positions each (5)")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--depths", nargs="+", choices=DEPTHS, default=list(DEPTHS))
    parser.add_argument("--json", metavar="PATH", help="write the report there")
    parser.add_argument("--one", choices=DEPTHS, help=argparse.SUPPRESS)  # a child: one depth, JSON out
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.positions, args.seed)))
        return
    report: dict = {
        "positions": args.positions,
        "seed": args.seed,
        "load_before": os.getloadavg(),
        "depths": {},
    }
    for name in args.depths:
        # numba blocked as Pyodide has none: the engine then plays out in pure Python
        block = "import sys; sys.modules['numba'] = None; " if name == "browser-proxy" else ""
        code = block + "import runpy; runpy.run_module('benchmarks.analysis_speed', run_name='__main__')"
        command = [sys.executable, "-c", code, "--one", name, "--positions", str(args.positions)]
        command += ["--seed", str(args.seed)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        report["depths"][name] = result
        for kind, row in result["kinds"].items():
            s = row["seconds"]
            print(
                f"{name}: {kind} {s['count']} positions, seconds median {s['median']:.2f} p95 {s['p95']:.2f} "
                f"max {s['max']:.2f}; deals median {row['deals_median']:.0f} (compiled: {result['compiled']})"
            )
    report["load_after"] = os.getloadavg()
    print(f"load average before {report['load_before'][0]:.1f}, after {report['load_after'][0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
