"""How long the game review takes: a 10-hand game, every decision judged at the coach's depth.

Normal bots play ``--hands`` hands of a game (seat 0 is the "learner"); the review then judges
every one of seat 0's passes and plays with choices (``trainer.review.game.review_hands``, the
coach's own depth), on as many processes as the review page uses (``--workers``). Reported:
the whole review's seconds, and per decision kind the count and the median, 95th percentile
and maximum seconds and deals.

    PYTHONPATH=. .venv/bin/python benchmarks/review_speed.py [--hands 10] [--seed 3] [--workers 2]
        [--json benchmarks/results/review_speed.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from engine import Phase, Rules, deal_game_hand
from engine.bots import make_bot
from trainer.review.game import WORKERS, ReviewDepth, review_hands


def play_hands(hands: int, seed: int) -> list:
    rules = Rules()
    bots = [make_bot("normal", seat) for seat in range(4)]
    played = []
    for index in range(hands):
        state = deal_game_hand(rules, seed, index)
        while not state.is_over:
            if state.phase is Phase.PASSING:
                seat = state.seats_to_pass[0]
                state.pass_cards(seat, bots[seat].choose_pass(state.view(seat)))
            elif state.phase is Phase.MOON_CHOICE:
                seat = state.to_move
                state.choose_moon(bots[seat].choose_moon(state.view(seat)), seat)
            else:
                seat = state.to_move
                state.play(bots[seat].choose_play(state.view(seat)), seat)
        played.append(state)
    return played


def spread(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--workers", type=int, default=WORKERS, help="processes (the review page uses WORKERS)"
    )
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    hands = play_hands(args.hands, args.seed)
    times: list[float] = []
    last = [time.perf_counter()]

    def tick(done: int, total: int, label: str) -> None:
        now = time.perf_counter()
        times.append(now - last[0])
        last[0] = now

    start = time.perf_counter()
    review = review_hands(hands, 0, ReviewDepth(), tick, workers=args.workers)
    seconds = time.perf_counter() - start
    report: dict = {
        "hands": args.hands,
        "seed": args.seed,
        "workers": args.workers,
        "seconds": seconds,
        "kinds": {},
    }
    moments = [m for hand in review.hands for m in hand.moments]
    for kind in ("pass", "play"):
        chosen = [m for m in moments if m.decision.kind == kind]
        if chosen:
            report["kinds"][kind] = {
                "deals": spread([float(m.evaluation.samples) for m in chosen]),
                "seconds": spread([m.evaluation.seconds for m in chosen]),
                "undecided": sum(1 for m in chosen if not m.evaluation.decided),
            }
    print(f"{args.hands}-hand game: {len(times)} evaluations reviewed in {seconds:.1f} s")
    for kind, row in report["kinds"].items():
        s, d = row["seconds"], row["deals"]
        print(
            f"  {kind}: {s['count']} decisions, seconds median {s['median']:.2f} p95 {s['p95']:.2f} "
            f"max {s['max']:.2f}; deals median {d['median']:.0f} max {d['max']:.0f}; "
            f"undecided {row['undecided']}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
