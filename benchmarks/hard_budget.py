"""Does Hard lose points to its own sampling? Its choices at several budgets, valued deeply.

Hard (seat 0) plays hands against three Normal bots; at each of its passes and plays with a real
choice (not a reflex block), the option Hard would choose at each budget in ``--budgets`` (a
fresh seed each) is valued by one deep evaluation of the same position with ``--deep`` deals:
its loss there against the deep look's best option, in the evaluator's own measure (Hard's
points minus the others' average, the play-outs'). What a bigger budget would win is the drop
in that loss; the rest of Hard's gap to a stronger player is the play-out model's, not noise.

    PYTHONPATH=. .venv/bin/python benchmarks/hard_budget.py [--hands 40] [--deep 32768] \\
        [--budgets 1024 2048 4096 8192] [--seed 5151] [--workers 2] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

from engine import HandState, Rules
from engine.bots.hard import HardBot, moon_block
from engine.bots.normal import NormalBot
from engine.bots.table import play_hand_with_bots
from engine.deal import deal_from_seed, hand_seed
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import evaluate_pass, evaluate_play
from engine.search.threads import one_thread

DEEP_PASS_STAGES = ((512, 64), (2048, 16), (8192, 8))
"""The deep pass look's screening: eight finalists valued on ``--deep`` fresh deals."""


class RecordingHard(HardBot):
    """Hard, noting the views of the decisions it searched for."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.searched: list[tuple[str, object]] = []

    def choose_pass(self, view):
        self.searched.append(("pass", view))
        return super().choose_pass(view)

    def choose_play(self, view):
        if len(view.legal_cards) > 1 and moon_block(view) is None:
            self.searched.append(("play", view))
        return super().choose_play(view)


def judge_hand(job: tuple) -> list[dict]:
    """One hand played; for each of Hard's searched decisions, each budget's choice and its loss."""
    hand, seed, deep_deals, budgets = job
    rules = Rules()
    deal_seed = hand_seed(seed, hand)
    state = HandState(
        rules, deal_from_seed(deal_seed, rules.players), rules.pass_direction(hand), seed=deal_seed
    )
    hard = RecordingHard(hand)
    play_hand_with_bots(state, {0: hard, **{seat: NormalBot() for seat in range(1, rules.players)}})
    rows = []
    for kind, view in hard.searched:
        if kind == "pass":
            deep = evaluate_pass(view, PassBudget(samples=deep_deals, stages=DEEP_PASS_STAGES), seed=7 + hand)
        else:
            deep = evaluate_play(
                view, PlayBudget(samples=deep_deals, exact_samples=deep_deals // 4), seed=7 + hand
            )
        losses = {str(value.option): value.loss for value in deep.options}
        finalists = {str(value.option) for value in deep.options[: DEEP_PASS_STAGES[-1][1]]}
        choices = {}
        for budget in budgets:
            budget_seed = 1000 + hand * 7 + budget
            if kind == "pass":
                choice = evaluate_pass(view, PassBudget(samples=budget), seed=budget_seed).best.option
            else:
                choice = evaluate_play(
                    view, PlayBudget(samples=budget, exact_samples=budget // 4), seed=budget_seed
                ).best.option
            # a pass the deep look screened out has no loss on its fresh deals
            known = kind == "play" or str(choice) in finalists
            choices[budget] = {"choice": str(choice), "loss": losses[str(choice)] if known else None}
        rows.append({"hand": hand, "kind": kind, "trick": len(view.tricks) + 1, "budgets": choices})
    return rows


def summary(rows: list[dict], budgets: list[int], hands: int) -> dict:
    report = {}
    for kind in ("pass", "play"):
        part = [row for row in rows if row["kind"] == kind]
        if not part:
            continue
        by_budget = {}
        for budget in budgets:
            losses = [
                row["budgets"][budget]["loss"] for row in part if row["budgets"][budget]["loss"] is not None
            ]
            by_budget[budget] = {
                "decisions": len(losses),
                "loss_mean": statistics.mean(losses),
                "loss_se": statistics.stdev(losses) / len(losses) ** 0.5,
                "per_hand": sum(losses) / hands,
                "not_best": sum(1 for loss in losses if loss > 0) / len(losses),
            }
        report[kind] = {"decisions": len(part), "by_budget": by_budget}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--deep", type=int, default=32768)
    parser.add_argument("--budgets", type=int, nargs="+", default=[1024, 2048, 4096, 8192])
    parser.add_argument("--seed", type=int, default=5151)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = [(hand, args.seed, args.deep, args.budgets) for hand in range(args.hands)]
    with Pool(args.workers, initializer=one_thread if args.workers > 1 else None) as pool:
        rows = [row for hand_rows in pool.imap(judge_hand, jobs) for row in hand_rows]
    report = summary(rows, args.budgets, args.hands)
    for kind, part in report.items():
        print(f"{kind}: {part['decisions']} decisions")
        for budget, figures in part["by_budget"].items():
            print(
                f"  {budget:>6} deals: loss {figures['loss_mean']:.3f} +- {figures['loss_se']:.3f} "
                f"a decision, "
                f"{figures['per_hand']:.3f} a hand, not the deep look's best {figures['not_best']:.0%}"
            )
    seconds = time.perf_counter() - start
    print(f"{seconds:.0f} s")
    if args.json:
        payload = {"command": vars(args), "seconds": seconds, **report, "rows": rows}
        Path(args.json).write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
