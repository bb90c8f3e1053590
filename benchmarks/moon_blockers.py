"""Who stops the moons the evaluator expects: the shooter's play or the blockers'?

Reads decisions and Hard x4 outcomes saved by ``coach_calibration.py --save``. For the
positions continued there where the deciding seat's predicted moon chance is at least
``--floor``, it plays the true deal on after the chosen option with the seats mixed:

- the play-out policy at every seat (what the evaluator's play-outs do, on the true deal);
- Hard at the deciding seat, the policy at the others;
- the policy at the deciding seat, Hard at the others;

and compares how often the deciding seat shoots with the prediction and with Hard x4. The mix
whose rate matches Hard x4 names the side the model gets wrong.

``--early`` asks the same of the *other* seats' moons early in the hand: play positions in
tricks 1-4 where nobody has taken a moon card yet (``--positions`` of them, at random), each
other seat in turn taken as the would-be shooter (Hard at that seat alone, or at every seat
but that one).

    PYTHONPATH=. .venv/bin/python benchmarks/moon_blockers.py --load rows.pickle [--floor 0.35]
        [--early --positions 150] [--runs 2] [--workers 2] [--json benchmarks/results/moon_blockers.json]
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
from multiprocessing import Pool
from pathlib import Path

from coach_calibration import apply

from engine import Card, HandState, Phase, PlayerView
from engine.bots import make_bot
from engine.moon import NOBODY, moon_candidate, moon_cards, taken_masks
from engine.search.playout import playout_result
from engine.search.policy import view_card


class PolicyBot:
    """The play-out policy as a bot: what an imagined player does at the table."""

    def choose_play(self, view: PlayerView) -> Card:
        return Card(view_card(view, *moon_candidate(taken_masks(view), moon_cards(view.rules))))


def mixed(state: HandState, hard_seats: set[int], seed: int) -> int:
    """Play ``state`` (changed in place) to its end, Hard at ``hard_seats``; the shooter or -1."""
    bots = {seat: make_bot("hard", seed + seat) if seat in hard_seats else PolicyBot() for seat in range(4)}
    while not state.is_over:
        seat = state.to_move
        if state.phase is Phase.MOON_CHOICE:
            state.choose_moon(make_bot("hard", seed).choose_moon(state.view(seat)), seat)
            continue
        state.play(bots[seat].choose_play(state.view(seat)), seat)
    shooter = state.result.shooter
    return -1 if shooter is None else shooter


def one(job: tuple[int, dict, int, tuple[int, ...]]) -> list[dict]:
    """For each seat of ``shooters``: its predicted moon chance, Hard x4's rate and the mixes'."""
    number, row, runs, shooters = job
    after = apply(row["state"], row["kind"], row["seat"], row["choice"])
    shooter = playout_result(after, None).shooter
    results = []
    for index, seat in enumerate(shooters):
        result = {
            "predicted": row["moon"][seat],
            "hard": sum(1 for _, s in row["outcomes"] if s == seat) / len(row["outcomes"]),
            "policy": float(shooter == seat),
        }
        for name, seats in (("own_hard", {seat}), ("own_policy", {0, 1, 2, 3} - {seat})):
            seeds = [7919 * number + 101 * k + 13 * index for k in range(runs)]
            hits = [mixed(after.copy(), seats, seed) == seat for seed in seeds]
            result[name] = sum(hits) / runs
        results.append(result)
    return results


def early(row: dict) -> bool:
    """A play in tricks 1-4 before anyone has taken a moon card."""
    if row["kind"] != "play" or row["state"].trick_number >= 4:
        return False
    view = row["state"].view(row["seat"])
    return moon_candidate(taken_masks(view), moon_cards(view.rules))[0] == NOBODY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", required=True, metavar="PATH", help="coach_calibration.py --save output")
    parser.add_argument("--floor", type=float, default=0.35)
    parser.add_argument("--early", action="store_true", help="the other seats' moons from early positions")
    parser.add_argument("--positions", type=int, default=150, help="with --early: positions, at random")
    parser.add_argument("--runs", type=int, default=2, help="mixed continuations a position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    saved = pickle.loads(Path(args.load).read_bytes())
    if args.early:
        rows = [row for row in saved["rows"] if early(row)]
        rows = random.Random(saved["seed"]).sample(rows, min(args.positions, len(rows)))
        jobs = [
            (n, row, args.runs, tuple(s for s in range(4) if s != row["seat"])) for n, row in enumerate(rows)
        ]
        title = f"{len(rows)} play positions in tricks 1-4 before any moon card is taken, each other seat:"
    else:
        rows = [
            row
            for row in saved["rows"]
            if len(row["outcomes"]) > 1 and row["kind"] == "play" and row["moon"][row["seat"]] >= args.floor
        ]
        jobs = [(n, row, args.runs, (row["seat"],)) for n, row in enumerate(rows)]
        title = f"{len(rows)} play positions, the deciding seat's predicted moon chance >= {args.floor:.0%}:"
    with Pool(args.workers) as pool:
        results = [result for part in pool.map(one, jobs, chunksize=1) for result in part]
    names = {
        "predicted": "predicted by the evaluator",
        "hard": "Hard at every seat",
        "policy": "the policy at every seat, true deal",
        "own_hard": "Hard shooting, the policy blocking",
        "own_policy": "the policy shooting, Hard blocking",
    }
    summary = {key: statistics.fmean(r[key] for r in results) for key in names}
    print(title)
    for key, name in names.items():
        print(f"  {name:<40} {summary[key]:6.1%}")
    if args.json:
        report = {
            "mode": "early, other seats" if args.early else "deciding seat",
            "positions": len(rows),
            "seats": len(results),
            "floor": None if args.early else args.floor,
            "runs": args.runs,
            "shoots": summary,
        }
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
