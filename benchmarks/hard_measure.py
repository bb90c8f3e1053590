"""Hard ranking its options by the forecast instead of the play-outs' points, against Normal.

The coach measures losses by the forecast (``engine.search.calibration``: what strong players make of
such hands); this asks whether Hard should too. The same duplicate tournament as
``python -m engine.tournament hard normal normal normal``, with Hard built with ``--measure``:

    PYTHONPATH=. .venv/bin/python benchmarks/hard_measure.py --measure forecast --deals 250 \\
        [--seed 2026] [--workers 2] [--json benchmarks/results/hard_forecast_vs_normal.json]

Compare its margin with ``hard_vs_normal.json`` (the same deals and seed, Hard by the play-outs).
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial

from engine.bots import make_bot
from engine.bots.hard import HardBot
from engine.rules import PRESETS
from engine.search.evaluator import MEASURES
from engine.tournament import format_table, run_tournament, summarize

LINEUP = ("hard", "normal", "normal", "normal")


def make(measure: str, level: str, seed: int = 0):
    """The tournament's bot factory, with Hard ranking by ``measure``."""
    return HardBot(seed, measure=measure) if level == "hard" else make_bot(level, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", choices=MEASURES, default="forecast")
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    start = time.perf_counter()
    factory = partial(make, args.measure)
    results = run_tournament(
        LINEUP, PRESETS["standard"], args.deals, args.seed, args.workers, factory=factory
    )
    summary = summarize(results)
    summary.update(
        lineup=[f"hard-{args.measure}", *LINEUP[1:]], seed=args.seed, seconds=time.perf_counter() - start
    )
    print(format_table(summary))
    if args.json:
        with open(args.json, "w") as file:
            json.dump(summary, file, indent=2)


if __name__ == "__main__":
    main()
