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
interval (``margin_difference``: the same for their margins over the others at their tables).
Decision times are the master's (``play_ms_p95``, ``pass_ms_p95``). ``--pair A B`` seats A and
B in their place (``master_queen_lead`` and ``master_no_queen_lead``: the master
with and without its deals' Q♠ lead, ``MasterBot(queen_lead=...)``): A less B, paired; in
``hard`` A alone.

A tournament seats fresh bots for every deal, so the master reads only the hand under way there.
``--game-hands N`` also plays ``--games`` games of N hands against each of ``--game-lineups``,
each game once with the subject in every seat and the same bot objects all game (as at a table,
where the master's reader keeps what it saw); the master, then Hard, in the same seats of the
same games: the master less Hard paired by game and seat. ``--all-reads`` also seats, in the
same seats of the same games, the master that plays its deals by the ducks and Q♠ read as well
as blocking (``MasterBot(reads=MasterBot.READS)``, off by default): it less the master, paired.

    PYTHONPATH=. nice -n 5 .venv/bin/python benchmarks/master_strength.py [--deals 40]
        [--seed 53053] [--lineups normal open hard] [--pair master hard]
        [--json benchmarks/results/master_strength.json]
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
from engine.hand import HandState, Phase
from engine.rules import PRESETS
from engine.tournament import SeatResult, interval, percentile, run_tournament

LINEUPS = ("normal", "open", "hard")


def make(name: str, seed: int):
    """The bots these line-ups seat, by name (a module function: a process pool pickles it)."""
    if name == "master":
        return MasterBot(seed)
    if name == "master_all":
        return MasterBot(seed, reads=MasterBot.READS)
    if name in ("master_queen_lead", "master_no_queen_lead"):
        return MasterBot(seed, queen_lead=name == "master_queen_lead")
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
        "_margins": {d: mine[d] - theirs[d] for d in mine},
    }


def paired(first: dict[int, float], second: dict[int, float]) -> dict:
    diffs = [first[d] - second[d] for d in sorted(set(first) & set(second))]
    mean, half = interval(diffs)
    return {"points_per_hand": round(mean, 3), "interval_95": round(half, 3), "deals": len(diffs)}


def run_lineup(
    lineup: str, deals: int, seed: int, workers: int, pair: Sequence[str] = ("master", "hard")
) -> dict:
    """``pair``: the subject and what it is paired with on the same deals (``--pair``)."""
    rules = PRESETS["standard"]
    subject, baseline = pair
    if lineup == "hard":
        results = run_tournament([subject, "hard", "hard", "hard"], rules, deals, seed, workers, make)
        row = subject_row(results, subject, "hard")
        row.pop("_per_deal"), row.pop("_margins")
        margin = {"points_per_hand": row["margin_over_others"], "interval_95": row["margin_interval_95"]}
        return {subject: row, f"{subject}_less_hard": margin}
    rows = {}
    for bot in (subject, baseline):
        results = run_tournament([bot, lineup, lineup, lineup], rules, deals, seed, workers, make)
        rows[bot] = subject_row(results, bot, lineup)
    difference = paired(rows[subject].pop("_per_deal"), rows[baseline].pop("_per_deal"))
    margins = paired(rows[subject].pop("_margins"), rows[baseline].pop("_margins"))
    return {**rows, f"{subject}_less_{baseline}": difference, "margin_difference": margins}


def play_games(
    subject: str,
    opponents: str,
    games: int,
    hands: int,
    seed: int,
    only: set[tuple[int, int]] | None = None,
    record: dict | None = None,
) -> dict[tuple[int, int], list[float]]:
    """Games of ``hands`` hands, each played once with the subject in every seat (the same bot
    objects all game, as at a table: the master's reader keeps what it saw); per (game, seat),
    the subject's score less the others' average, a hand at a time. ``only``: the (game, seat)
    pairs to play (all by default); ``record`` gets, per pair, the moons the subject shot
    (``moons``) and the habits whose read changed the master's plans (``used``), and the
    subject's decision times (``play``, ``pass``; ``play_cpu``, ``pass_cpu``: the process's
    processor time, what a decision costs one core on a machine shared with others)."""
    rules = PRESETS["standard"]
    record = {} if record is None else record
    out = {}
    for game in range(games):
        for me in range(rules.players):
            if only is not None and (game, me) not in only:
                continue
            bots = [
                make(subject if seat == me else opponents, (seed * 1_009 + game) * 8 + seat)
                for seat in range(rules.players)
            ]
            margins = []
            moons = 0
            for index in range(hands):
                deal_seed = hand_seed(seed * 1_009 + game, index)
                dealt = deal_from_seed(deal_seed, rules.players)
                state = HandState(rules, dealt, rules.pass_direction(index), seed=deal_seed)
                while (seat := state.seat_to_act) is not None:
                    passing = state.phase is Phase.PASSING
                    started, cpu = time.perf_counter(), time.process_time()
                    state.apply(bot_action(bots[seat], state.view(seat, hand_index=index)))
                    if seat == me:
                        kind = "pass" if passing else "play"
                        record.setdefault(kind, []).append(time.perf_counter() - started)
                        record.setdefault(f"{kind}_cpu", []).append(time.process_time() - cpu)
                scores = state.result.scores
                moons += state.result.shooter == me
                margins.append(scores[me] - statistics.fmean(s for i, s in enumerate(scores) if i != me))
            out[game, me] = margins
            record.setdefault("moons", {})[game, me] = moons
            used = set(getattr(bots[me], "used", ()))
            if getattr(bots[me], "queen_lead", False):
                used.add("queen_lead")  # its deals' Q♠ leads differ from Hard's from the start
            record.setdefault("used", {})[game, me] = used
    return out


def game_pairs(first: dict, second: dict) -> dict:
    """``first`` less ``second`` paired by game and seat (a game's hands averaged), over all hands
    and over the hands after the first (the master has read one)."""
    pairs = sorted(first)
    every = [statistics.fmean(first[p]) - statistics.fmean(second[p]) for p in pairs]
    later = [statistics.fmean(first[p][1:]) - statistics.fmean(second[p][1:]) for p in pairs]
    mean, half = interval(every)
    late, late_half = interval(later)
    return {
        "all_hands": {"points_per_hand": round(mean, 3), "interval_95": round(half, 3)},
        "after_first_hand": {"points_per_hand": round(late, 3), "interval_95": round(late_half, 3)},
    }


def replay(
    subject: str, like: tuple[dict, dict], pairs: set, opponents: str, games: int, hands: int, seed: int
) -> tuple[dict, dict]:
    """``subject``'s games: those of ``like`` (margins, record), played again where ``pairs``."""
    margins, record = dict(like[0]), {key: dict(like[1][key]) for key in ("moons", "used")}
    if pairs:
        played: dict = {}
        margins.update(play_games(subject, opponents, games, hands, seed, pairs, played))
        for key in ("moons", "used"):
            record[key].update(played[key])
    return margins, record


def game_row(opponents: str, games: int, hands: int, seed: int, all_reads: bool = False) -> dict:
    """The master less Hard in the same seat of the same games, paired by game and seat (a game's
    hands averaged), over all hands and over the hands after the first (the master has read one);
    with ``all_reads``, the master reading the ducks and the Q♠ too.

    A master whose reads never changed its plans in a game (and without ``queen_lead``) decided
    every card as Hard does with the same seed (``tests/test_master.py``): that game is Hard's
    too, and is not played again;
    likewise the master where the one reading every habit changed its plans by blocking alone.
    Decision times are the first subject's (with ``all_reads``, the master reading every habit)."""
    started = time.perf_counter()
    record: dict = {}
    if all_reads:
        every = play_games("master_all", opponents, games, hands, seed, record=record)
        again = {pair for pair, habits in record["used"].items() if habits - {"blocks", "queen_lead"}}
        master, master_record = replay("master", (every, record), again, opponents, games, hands, seed)
    else:
        master = play_games("master", opponents, games, hands, seed, record=record)
        master_record = record
    differ = {pair for pair, habits in master_record["used"].items() if habits}
    hard, hard_record = replay("hard", (master, master_record), differ, opponents, games, hands, seed)
    pairs = game_pairs(master, hard)
    extra: dict = {}
    if all_reads:
        extra = {
            "master_all_less_master": game_pairs(every, master),
            "master_all_less_hard": game_pairs(every, hard),
            "master_all_margin": round(statistics.fmean(x for g in every.values() for x in g), 3),
            "master_all_moons": sum(record["moons"].values()),
            "game_seats_where_ducks_or_queen_changed_plans": len(again),
        }
    times = {}
    for kind in ("play", "pass", "play_cpu", "pass_cpu"):
        spent = record.get(kind)
        if spent:
            times[f"master_{kind}_ms_median"] = round(1000 * statistics.median(spent), 1)
            times[f"master_{kind}_ms_p95"] = round(1000 * percentile(spent, 0.95), 1)
    return {
        "games": games,
        "seats_per_game": PRESETS["standard"].players,
        "hands_per_game": hands,
        "seed": seed,
        "master_less_hard": pairs["all_hands"],
        "after_first_hand": pairs["after_first_hand"],
        **extra,
        "master_margin_over_others": round(statistics.fmean(x for g in master.values() for x in g), 3),
        "hard_margin_over_others": round(statistics.fmean(x for g in hard.values() for x in g), 3),
        "master_moons": sum(master_record["moons"].values()),
        "hard_moons": sum(hard_record["moons"].values()),
        "hard_games_replayed": len(differ),
        **times,
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
        "--all-reads", action="store_true", help="games: also the master reading ducks and the Q♠, paired"
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        default=["master", "hard"],
        choices=["master", "hard", "master_queen_lead", "master_no_queen_lead"],
        help="line-ups: the subject and the bot paired with it on the same deals ('hard': the subject)",
    )
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON (merged by line-up)")
    args = parser.parse_args(argv)
    figures: dict = {}
    if args.json and os.path.exists(args.json):
        with open(args.json) as file:
            figures = json.load(file)
    for lineup in args.lineups:
        started = time.perf_counter()
        row = run_lineup(lineup, args.deals, args.seed, args.workers, args.pair)
        row.update(
            deals=args.deals,
            seed=args.seed,
            seconds=round(time.perf_counter() - started, 1),
            loadavg=_load(),
            date=datetime.date.today().isoformat(),
        )
        figures[lineup if tuple(args.pair) == ("master", "hard") else f"{lineup}_{'_'.join(args.pair)}"] = row
        print(lineup, json.dumps(row), flush=True)
        write(args.json, figures)
    for opponents in args.game_lineups if args.game_hands else ():
        row = game_row(opponents, args.games, args.game_hands, args.seed, args.all_reads)
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
