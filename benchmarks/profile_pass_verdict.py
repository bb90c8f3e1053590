"""Where one pass verdict's time goes: a pass of the stability benchmark's positions judged at the
coach's depth, with the same seed, under cProfile.

    python benchmarks/profile_pass_verdict.py --seed 774000 --index 20

``--index`` counts the passes of ``coach_stability.py --plays 0 --passes 50 --seed S`` from 0, as
its table does from 1. The verdict is judged once before it is profiled, so the compiled code's
first-call cost is left out.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import coach_stability

from trainer.coach.depth import COACH, judge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=774000)
    parser.add_argument("--passes", type=int, default=50)
    parser.add_argument("--index", type=int, default=0, help="which pass, from 0")
    parser.add_argument("--lines", type=int, default=18, help="functions listed, by their own time")
    args = parser.parse_args()
    points = coach_stability.positions(0, args.passes, args.seed)
    if not 0 <= args.index < len(points):
        parser.error(f"--index {args.index}: seed {args.seed} gives passes 0 to {len(points) - 1}")
    _, state, seat, choice = points[args.index]
    view = state.view(seat)
    seed = coach_stability.FIRST_SEED + args.index  # the stability benchmark's seed for it
    judge(view, choice, seed=seed, depth=COACH)
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    evaluation = judge(view, choice, seed=seed, depth=COACH)
    profile.disable()
    seconds = time.perf_counter() - start
    print(f"{choice}: {seconds:.2f} s, {evaluation.samples:,} fresh deals, decided {evaluation.decided}")
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.lines)


if __name__ == "__main__":
    main()
