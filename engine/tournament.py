"""Bot tournaments with duplicate rotation: ``python -m engine.tournament hard normal normal normal``.

Every deal is played once per rotation of the line-up, so every bot holds every seat's cards:
luck of the deal cancels out and what remains is skill. Results are per bot: points per hand
with a 95% interval over deals, moons shot, and decision times. Deals are spread over a
process pool (``--workers``); the same seed gives the same results.

Dask takes over when one machine's pool is not enough (it needs ``pip install
"dask[distributed]"``; ``engine.cluster`` runs it):

- ``--dask`` starts a local Dask cluster of ``--workers`` processes for the run, and stops it.
- ``--scheduler tcp://HOST:8786`` sends the deals to a running cluster (``dask scheduler`` on
  one machine, ``dask worker tcp://HOST:8786`` on each machine with this package installed);
  one that does not answer within ``--connect-timeout`` seconds, or that no worker joins within
  ``--worker-wait``, ends the run with one line saying so.

Either way each deal is one small task (the line-up, the rules and the seeds in; that deal's
scores out), and the figures are the same as in one process for the same seed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .bots import bot_action, make_bot
from .bots.base import Bot
from .cluster import (
    CONNECT_TIMEOUT,
    WORKER_WAIT,
    ClusterUnavailable,
    DaskMissing,
    add_cluster_options,
    run_on_dask,
)
from .deal import deal_from_seed, hand_seed
from .hand import HandState, Phase
from .rules import PRESETS, Rules
from .search.threads import one_thread

__all__ = ["SeatResult", "interval", "percentile", "play_deal", "run_tournament", "summarize"]

BotFactory = Callable[[str, int], Bot]


@dataclass
class SeatResult:
    deal: int
    rotation: int
    seat: int
    bot: str
    score: int
    shot_moon: bool
    play_times: list[float] = field(default_factory=list)
    pass_times: list[float] = field(default_factory=list)


def _act(state: HandState, seat: int, bot: Bot, times: SeatResult) -> None:
    phase = state.phase
    start = time.perf_counter()
    if getattr(bot, "needs_state", False):
        # A sparring partner from another engine that resamples the hidden cards itself.
        bot.act(state, seat)
    else:
        state.apply(bot_action(bot, state.view(seat)))
    elapsed = time.perf_counter() - start
    if phase is Phase.PASSING:
        times.pass_times.append(elapsed)
    elif phase is Phase.PLAYING:
        times.play_times.append(elapsed)


def play_deal(
    lineup: Sequence[str], rules: Rules, seed: int, deal: int, factory: BotFactory = make_bot
) -> list[SeatResult]:
    """Play deal number ``deal`` once per rotation of ``lineup``."""
    players = rules.players
    deal_seed = hand_seed(seed, deal)
    dealt = deal_from_seed(deal_seed, players)
    direction = rules.pass_direction(deal)
    results = []
    for rotation in range(players):
        names = [lineup[(seat - rotation) % players] for seat in range(players)]
        bots = [
            factory(name, (seed * 1_000_003 + deal) * 64 + rotation * 8 + seat)
            for seat, name in enumerate(names)
        ]
        seats = [SeatResult(deal, rotation, seat, names[seat], 0, False) for seat in range(players)]
        state = HandState(rules, dealt, direction, seed=deal_seed)
        while (seat := state.seat_to_act) is not None:
            _act(state, seat, bots[seat], seats[seat])
        for seat, entry in enumerate(seats):
            entry.score = state.result.scores[seat]
            entry.shot_moon = state.result.shooter == seat
        results.extend(seats)
    return results


def _play_deal_task(args: tuple) -> list[SeatResult]:
    return play_deal(*args)


def run_tournament(
    lineup: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    factory: BotFactory = make_bot,
    progress: Callable[[int, int], None] | None = None,
    *,
    dask: bool = False,
    scheduler: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_wait: float = WORKER_WAIT,
) -> list[SeatResult]:
    """Play ``deals`` deals, each once per rotation of ``lineup``; the results in deal order.

    In this process when ``workers`` is 1, else over a process pool of ``workers``; with
    ``dask`` on a local Dask cluster of ``workers`` processes, with ``scheduler`` (an address
    such as ``tcp://HOST:8786``) on that running Dask cluster (``connect_timeout`` and
    ``worker_wait`` as ``engine.cluster.run_on_dask`` takes them). The results are the same every
    way but for the decision times. ``progress(done, deals)`` follows the deals played."""
    if len(lineup) != rules.players:
        raise ValueError(f"{len(lineup)} bots for a table of {rules.players}")
    tasks = [(list(lineup), rules, seed, deal, factory) for deal in range(deals)]
    results: list[SeatResult] = []
    if dask or scheduler:
        # Under ``python -m engine.tournament`` this module is ``__main__``, whose functions
        # would travel by value; engine.tournament's own is found by name on every worker.
        from . import tournament

        by_deal: list[list[SeatResult]] = [[] for _ in tasks]
        jobs = run_on_dask(
            tournament._play_deal_task,
            tasks,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            connect_timeout=connect_timeout,
            worker_wait=worker_wait,
        )
        with contextlib.closing(jobs):
            for deal, deal_results in jobs:
                by_deal[deal] = deal_results
        return [entry for deal_results in by_deal for entry in deal_results]
    if workers <= 1:
        for done, task in enumerate(tasks, start=1):
            results.extend(_play_deal_task(task))
            if progress:
                progress(done, deals)
        return results
    with ProcessPoolExecutor(max_workers=workers, initializer=one_thread) as pool:
        for done, deal_results in enumerate(pool.map(_play_deal_task, tasks, chunksize=1), start=1):
            results.extend(deal_results)
            if progress:
                progress(done, deals)
    return results


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-interval (infinite for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else math.nan


def summarize(results: Sequence[SeatResult]) -> dict:
    """Per bot: mean points per hand, its 95% interval over deals, moons, decision times; and
    for every pair of bots the mean difference per deal with its interval."""
    names = sorted({entry.bot for entry in results})
    per_deal: dict[str, dict[int, list[int]]] = {name: {} for name in names}
    for entry in results:
        per_deal[entry.bot].setdefault(entry.deal, []).append(entry.score)
    deal_means = {
        name: {deal: statistics.fmean(s) for deal, s in deals.items()} for name, deals in per_deal.items()
    }
    bots = {}
    for name in names:
        entries = [entry for entry in results if entry.bot == name]
        mean, half = interval(list(deal_means[name].values()))
        plays = [t for entry in entries for t in entry.play_times]
        passes = [t for entry in entries for t in entry.pass_times]
        bots[name] = {
            "hands": len(entries),
            "points_per_hand": mean,
            "interval_95": half,
            "moons": sum(entry.shot_moon for entry in entries),
            "play_ms_median": 1000 * statistics.median(plays) if plays else None,
            "play_ms_p95": 1000 * percentile(plays, 0.95) if plays else None,
            "pass_ms_median": 1000 * statistics.median(passes) if passes else None,
        }
    pairs = {}
    for first in names:
        for second in names:
            if first < second:
                common = sorted(set(deal_means[first]) & set(deal_means[second]))
                diffs = [deal_means[first][d] - deal_means[second][d] for d in common]
                if diffs:
                    mean, half = interval(diffs)
                    pairs[f"{first} - {second}"] = {"points_per_hand": mean, "interval_95": half}
    return {"bots": bots, "differences": pairs, "deals": len({entry.deal for entry in results})}


def format_table(summary: dict) -> str:
    lines = [
        f"{'bot':10}{'hands':>7}{'points/hand':>14}{'±95%':>8}{'moons':>7}{'play ms med':>13}"
        f"{'p95':>8}{'pass ms':>9}"
    ]
    for name, row in summary["bots"].items():

        def ms(value: float | None) -> str:
            return "-" if value is None else f"{value:.0f}"

        lines.append(
            f"{name:10}{row['hands']:>7}{row['points_per_hand']:>14.2f}{row['interval_95']:>8.2f}{row['moons']:>7}"
            f"{ms(row['play_ms_median']):>13}{ms(row['play_ms_p95']):>8}{ms(row['pass_ms_median']):>9}"
        )
    for pair, row in summary["differences"].items():
        lines.append(f"{pair}: {row['points_per_hand']:+.2f} ± {row['interval_95']:.2f} points per hand")
    return "\n".join(lines)


def _progress_bar(done: int, total: int, started: float) -> None:
    """``started``: the run's ``time.perf_counter()`` (a default would be the module's import time)."""
    width = 30
    filled = int(width * done / total)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals, ETA {eta:.0f}s ")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs="+", help="one bot level per seat: easy, normal, hard")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes (also with --dask)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--dask", action="store_true", help="play on a local Dask cluster of --workers processes"
    )
    where.add_argument(
        "--scheduler", metavar="tcp://HOST:8786", help="play on the running Dask cluster at this address"
    )
    add_cluster_options(parser)
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    parser.add_argument("--json", metavar="PATH", help="write the summary as JSON")
    args = parser.parse_args(argv)
    rules = PRESETS[args.rules].replace(players=len(args.bots))
    started = time.perf_counter()
    try:
        results = run_tournament(
            args.bots,
            rules,
            args.deals,
            args.seed,
            args.workers,
            progress=lambda done, total: _progress_bar(done, total, started),
            dask=args.dask,
            scheduler=args.scheduler,
            connect_timeout=args.connect_timeout,
            worker_wait=args.worker_wait,
        )
    except DaskMissing as error:
        parser.error(str(error))
    except ClusterUnavailable as error:
        sys.exit(str(error))  # one line, not a traceback
    summary = summarize(results)
    summary.update(
        {
            "lineup": args.bots,
            "seed": args.seed,
            "rules": args.rules,
            "seconds": time.perf_counter() - started,
        }
    )
    print(format_table(summary))
    if args.json:
        with open(args.json, "w") as file:
            json.dump(summary, file, indent=2)


if __name__ == "__main__":
    main()
