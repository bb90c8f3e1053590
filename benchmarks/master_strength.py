"""The master table's bot against Hard, in duplicate (issue 53's targets).

Line-ups (``--lineups``), each played on the same deals (``--deals`` from ``--seed``, every seat
rotated, ``engine.tournament.run_tournament``):

- ``normal``: the subject ×1 against three Normal bots;
- ``open``: the subject ×1 against three Normal bots that never block a moon
  (``NormalBot(block_moons=False)``);
- ``hard``: the master ×1 against three Hard bots (one run; the difference is the master's points
  a hand less the Hard seats' average at the same tables).

In ``normal`` and ``open`` the subject is the master, then Hard, on the same deals with the same
seeds: the master's points a hand less Hard's, paired by deal, is the figure with its 95%
interval. Decision times are the master's (``play_ms_p95``, ``pass_ms_p95``).

A tournament seats fresh bots for every deal, so the master reads only the hand under way there.
``--game-hands N`` also plays ``--games`` games of N hands against each of ``--game-lineups``,
each game once with the subject in every seat and the same bot objects all game (as at a table,
where the master's reader keeps what it saw); the master, then Hard, in the same seats of the
same games: the master less Hard paired by game and seat. ``--before`` also seats, in the same
seats of the same games, the master reading blocking alone (``MasterBot(reads=("blocks",))``, the
master before it played its deals by the ducks and Q♠ read): the master less it, paired.

    PYTHONPATH=. nice -n 5 .venv/bin/python benchmarks/master_strength.py [--deals 40]
        [--seed 53053] [--lineups normal open hard] [--json benchmarks/results/master_strength.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import time
from collections.abc import Sequence

from engine.bots.hard import HardBot
from engine.bots.master import MasterBot
from engine.bots.normal import NormalBot
from engine.bots.table import bot_action
from engine.deal import deal_from_seed, hand_seed
from engine.hand import HandState
from engine.rules import PRESETS
from engine.tournament import SeatResult, interval, percentile, run_tournament

LINEUPS = ("normal", "open", "hard")


def make(name: str, seed: int):
    """The bots these line-ups seat, by name (a module function: a process pool pickles it)."""
    if name == "master":
        return MasterBot(seed)
    if name == "master_blocks":
        return MasterBot(seed, reads=("blocks",))
    if name == "hard":
        return HardBot(seed)
    if name == "normal":
        return NormalBot(seed)
    if name == "open":
        return NormalBot(seed, block_moons=False)
    raise ValueError(f"unknown bot {name!r}")


def per_deal(results: Sequence[SeatResult], bot: str) -> dict[int, float]:
    scores: dict[int, list[int]] = {}
    for entry in results:
        if entry.bot == bot:
            scores.setdefault(entry.deal, []).append(entry.score)
    return {deal: statistics.fmean(values) for deal, values in scores.items()}


def subject_row(results: Sequence[SeatResult], subject: str, others: str) -> dict:
    mine = per_deal(results, subject)
    theirs = per_deal(results, others)
    entries = [entry for entry in results if entry.bot == subject]
    plays = [t for entry in entries for t in entry.play_times]
    passes = [t for entry in entries for t in entry.pass_times]
    mean, half = interval(list(mine.values()))
    margin, margin_half = interval([mine[d] - theirs[d] for d in mine])
    return {
        "points_per_hand": round(mean, 3),
        "interval_95": round(half, 3),
        "margin_over_others": round(margin, 3),
        "margin_interval_95": round(margin_half, 3),
        "moons": sum(entry.shot_moon for entry in entries),
        "hands": len(entries),
        "play_ms_median": round(1000 * statistics.median(plays), 1) if plays else None,
        "play_ms_p95": round(1000 * percentile(plays, 0.95), 1) if plays else None,
        "pass_ms_median": round(1000 * statistics.median(passes), 1) if passes else None,
        "pass_ms_p95": round(1000 * percentile(passes, 0.95), 1) if passes else None,
        "_per_deal": mine,
    }


def paired(first: dict[int, float], second: dict[int, float]) -> dict:
    diffs = [first[d] - second[d] for d in sorted(set(first) & set(second))]
    mean, half = interval(diffs)
    return {"points_per_hand": round(mean, 3), "interval_95": round(half, 3), "deals": len(diffs)}


def run_lineup(lineup: str, deals: int, seed: int, workers: int) -> dict:
    rules = PRESETS["standard"]
    if lineup == "hard":
        results = run_tournament(["master", "hard", "hard", "hard"], rules, deals, seed, workers, make)
        row = subject_row(results, "master", "hard")
        row.pop("_per_deal")
        return {"master": row, "master_less_hard": {"points_per_hand": row["margin_over_others"],
                                                     "interval_95": row["margin_interval_95"]}}  # fmt: skip
    rows = {}
    for subject in ("master", "hard"):
        results = run_tournament([subject, lineup, lineup, lineup], rules, deals, seed, workers, make)
        rows[subject] = subject_row(results, subject, lineup)
    difference = paired(rows["master"].pop("_per_deal"), rows["hard"].pop("_per_deal"))
    return {**rows, "master_less_hard": difference}


def play_games(
    subject: str, opponents: str, games: int, hands: int, seed: int, moons: list[int] | None = None
) -> list[list[float]]:
    """Games of ``hands`` hands, each played once with the subject in every seat (the same bot
    objects all game, as at a table: the master's reader keeps what it saw); per game and seat,
    the subject's score less the others' average, a hand at a time; ``moons`` gets one entry
    a moon the subject shot."""
    rules = PRESETS["standard"]
    out = []
    for game in range(games):
        for me in range(rules.players):
            bots = [
                make(subject if seat == me else opponents, (seed * 1_009 + game) * 8 + seat)
                for seat in range(rules.players)
            ]
            margins = []
            for index in range(hands):
                deal_seed = hand_seed(seed * 1_009 + game, index)
                dealt = deal_from_seed(deal_seed, rules.players)
                state = HandState(rules, dealt, rules.pass_direction(index), seed=deal_seed)
                while (seat := state.seat_to_act) is not None:
                    state.apply(bot_action(bots[seat], state.view(seat, hand_index=index)))
                scores = state.result.scores
                if moons is not None and state.result.shooter == me:
                    moons.append(index)
                margins.append(scores[me] - statistics.fmean(s for i, s in enumerate(scores) if i != me))
            out.append(margins)
    return out


def game_pairs(first: list[list[float]], second: list[list[float]]) -> dict:
    """``first`` less ``second`` paired by game and seat (a game's hands averaged), over all hands
    and over the hands after the first (the master has read one)."""
    every = [statistics.fmean(m) - statistics.fmean(h) for m, h in zip(first, second, strict=True)]
    later = [statistics.fmean(m[1:]) - statistics.fmean(h[1:]) for m, h in zip(first, second, strict=True)]
    mean, half = interval(every)
    late, late_half = interval(later)
    return {
        "all_hands": {"points_per_hand": round(mean, 3), "interval_95": round(half, 3)},
        "after_first_hand": {"points_per_hand": round(late, 3), "interval_95": round(late_half, 3)},
    }


def game_row(opponents: str, games: int, hands: int, seed: int, before: bool = False) -> dict:
    """The master less Hard in the same seat of the same games, paired by game (a game's hands
    averaged), over all hands and over the hands after the first (the master has read one);
    with ``before``, the master reading blocking alone too."""
    started = time.perf_counter()
    master_moons: list[int] = []
    hard_moons: list[int] = []
    master = play_games("master", opponents, games, hands, seed, master_moons)
    hard = play_games("hard", opponents, games, hands, seed, hard_moons)
    pairs = game_pairs(master, hard)
    extra: dict = {}
    if before:
        before_moons: list[int] = []
        blocks = play_games("master_blocks", opponents, games, hands, seed, before_moons)
        extra = {
            "master_blocks_less_hard": game_pairs(blocks, hard),
            "master_less_master_blocks": game_pairs(master, blocks),
            "master_blocks_margin_over_others": round(statistics.fmean(x for g in blocks for x in g), 3),
            "master_blocks_moons": len(before_moons),
        }
    return {
        "games": games,
        "seats_per_game": PRESETS["standard"].players,
        "hands_per_game": hands,
        "seed": seed,
        "master_less_hard": pairs["all_hands"],
        "after_first_hand": pairs["after_first_hand"],
        **extra,
        "master_margin_over_others": round(statistics.fmean(x for g in master for x in g), 3),
        "hard_margin_over_others": round(statistics.fmean(x for g in hard for x in g), 3),
        "master_moons": len(master_moons),
        "hard_moons": len(hard_moons),
        "seconds": round(time.perf_counter() - started, 1),
        "loadavg": _load(),
        "date": datetime.date.today().isoformat(),
    }


def _load() -> list[str] | None:
    return open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="deals a line-up (each played 4 times)")
    parser.add_argument("--seed", type=int, default=53053, help="a seed no test uses")
    parser.add_argument("--lineups", nargs="*", choices=LINEUPS, default=list(LINEUPS))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game-hands", type=int, default=0, help="also play games of N hands a table")
    parser.add_argument("--games", type=int, default=4, help="games for --game-hands (each once a seat)")
    parser.add_argument("--game-lineups", nargs="+", choices=LINEUPS, default=["open"])
    parser.add_argument(
        "--before", action="store_true", help="games: also the master reading blocking alone, paired"
    )
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON (merged by line-up)")
    args = parser.parse_args(argv)
    figures: dict = {}
    if args.json and os.path.exists(args.json):
        with open(args.json) as file:
            figures = json.load(file)
    for lineup in args.lineups:
        started = time.perf_counter()
        row = run_lineup(lineup, args.deals, args.seed, args.workers)
        row.update(
            deals=args.deals,
            seed=args.seed,
            seconds=round(time.perf_counter() - started, 1),
            loadavg=_load(),
            date=datetime.date.today().isoformat(),
        )
        figures[lineup] = row
        print(lineup, json.dumps(row), flush=True)
        write(args.json, figures)
    for opponents in args.game_lineups if args.game_hands else ():
        row = game_row(opponents, args.games, args.game_hands, args.seed, args.before)
        figures[f"{opponents}_games"] = row
        print(f"{opponents}_games", json.dumps(row), flush=True)
        write(args.json, figures)


def write(path: str | None, figures: dict) -> None:
    """After each line-up, so a long run stopped keeps what it measured."""
    if path:
        with open(path, "w") as file:
            json.dump(figures, file, indent=2)
            file.write("\n")


if __name__ == "__main__":
    main()
