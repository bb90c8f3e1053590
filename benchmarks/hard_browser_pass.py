"""What Hard's smaller pass budget in the browser costs: its pass against the installed budget's.

On ``--positions`` seeded deals that pass (every seat of each), Hard chooses a pass at the
installed budget (``engine.bots.hard.FULL_PASS``) and at the browser's (``BROWSER_PASS``), each
with its own seeded bot; where they differ, both passes are valued on the same ``--deep`` fresh
deals (the evaluator's paired comparison, Hard's own play-out measure): the browser pass's extra
points lost a hand, with its standard error over the positions.

    PYTHONPATH=. .venv/bin/python benchmarks/hard_browser_pass.py [--positions 40] [--deep 8192]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

from engine import HandState, Rules
from engine.bots.hard import BROWSER_PASS, FULL_PASS, HardBot
from engine.search.budget import PassBudget
from engine.search.evaluator import evaluate_pass

OUT = Path(__file__).parent / "results" / "hard_browser_pass.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--deep", type=int, default=8192)
    args = parser.parse_args()
    rules = Rules()
    extra: list[float] = []
    same = 0
    seed = 300
    started = time.monotonic()
    while len(extra) < args.positions:
        direction = rules.pass_direction(seed)
        if direction.value != "hold":
            state = HandState.from_seed(seed, rules, direction)
            for seat in range(rules.players):
                if len(extra) == args.positions:
                    break
                view = state.view(seat)
                full = HardBot(seed + seat, passes=FULL_PASS).choose_pass(view)
                browser = HardBot(seed + seat, passes=BROWSER_PASS).choose_pass(view)
                if full == browser:
                    same += 1
                    extra.append(0.0)
                    continue
                deep = evaluate_pass(
                    view, PassBudget(samples=args.deep, measure="playout"), only=[full, browser], seed=seed
                )
                values = {value.option: value.difference for value in deep.options}
                extra.append(values[browser] - values[full])
        seed += 1
    mean = statistics.fmean(extra)
    error = statistics.stdev(extra) / math.sqrt(len(extra))
    report = {
        "command": "PYTHONPATH=. .venv/bin/python benchmarks/hard_browser_pass.py "
        f"--positions {args.positions} --deep {args.deep}",
        "positions": len(extra),
        "same_pass": same,
        "browser_extra_loss_per_hand": round(mean, 3),
        "standard_error": round(error, 3),
        "worst": round(max(extra), 2),
        "seconds": round(time.monotonic() - started, 1),
        "full": {"samples": FULL_PASS.samples, "stages": FULL_PASS.stages},
        "browser": {"samples": BROWSER_PASS.samples, "stages": BROWSER_PASS.stages},
    }
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
