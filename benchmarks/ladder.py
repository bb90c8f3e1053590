"""The career's ladder measured in duplicate: each level against the one below, and against Normal.

For each level k above the first, one bot of level k against three of level k-1, every deal played
once per rotation (``engine.tournament.run_tournament``): its margin is the level-(k-1) bots' mean
points a hand minus level k's, paired by deal, with a 95% interval over deals. And each level alone
against three Normal bots: its points a hand. Levels whose bots search (Hard's play-outs) cost a
second or more a hand, so they get ``--search-deals``; the others ``--deals``.

    .venv/bin/python -m benchmarks.ladder --levels 2 3 4 --deals 2000 --merge
    .venv/bin/python -m benchmarks.ladder --levels 10 --search-deals 150 --merge

Writes ``benchmarks/results/ladder.json`` (``--json``); with ``--merge`` the levels run replace
theirs in the file and the others are kept, so the ladder can be measured a few levels a run.
``engine.bots.ladder``'s ``Level.margin`` and ``margin_ci`` are this file's figures (a test
checks). ``--site``: the bots as the static site makes them (``site_bot``: Hard's pass on Pyodide's
budget, ``BROWSER_PASS``), into ``benchmarks/results/ladder_site.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.bots import Bot, make_bot
from engine.bots.hard import BROWSER_PASS, FULL_PASS, HardBot
from engine.bots.ladder import LADDER, Level
from engine.rules import PRESETS
from engine.search.threads import set_playout_threads
from engine.tournament import SeatResult, interval, run_tournament

RESULTS = Path(__file__).parent / "results" / "ladder.json"
SITE_RESULTS = RESULTS.with_name("ladder_site.json")
SEED = 5300


def site_bot(key: str, seed: int) -> Bot:
    """The bot of ``key`` as the static site makes it: where it passes on the installed budget
    (``FULL_PASS``, ``engine.bots.hard.pass_budget``), on Pyodide's (``BROWSER_PASS``) instead.
    Nothing else differs there but the seconds a decision takes."""
    bot = make_bot(key, seed)
    if isinstance(bot, HardBot) and bot.passes == replace(FULL_PASS, measure=bot.measure):
        bot.passes = replace(BROWSER_PASS, measure=bot.measure)
    return bot


def searches(rung: Level) -> bool:
    """Whether the level's bots play imagined deals out (Hard's search, whole or in a blend)."""
    player = rung.make(0)
    return isinstance(player, HardBot) or any(
        isinstance(getattr(player, part, None), HardBot) for part in ("strong", "weak")
    )


def paired(results: Sequence[SeatResult], low: str, high: str) -> tuple[float, float, int]:
    """Mean over deals of (``low``'s mean points a hand minus ``high``'s), its 95% half-interval,
    and the deals."""
    by_deal: dict[int, dict[str, list[int]]] = {}
    for entry in results:
        by_deal.setdefault(entry.deal, {}).setdefault(entry.bot, []).append(entry.score)
    diffs = [statistics.fmean(seats[low]) - statistics.fmean(seats[high]) for seats in by_deal.values()]
    return (*interval(diffs), len(diffs))


def points(results: Sequence[SeatResult], bot: str) -> tuple[float, float]:
    """``bot``'s mean points a hand over deals and its 95% half-interval."""
    by_deal: dict[int, list[int]] = {}
    for entry in results:
        if entry.bot == bot:
            by_deal.setdefault(entry.deal, []).append(entry.score)
    means = [statistics.fmean(scores) for scores in by_deal.values()]
    return interval(means)


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def match(high: str, low: str, deals: int, seed: int, factory=make_bot) -> dict:
    """One ``high`` against three ``low``, duplicate: ``low``'s points a hand minus ``high``'s."""
    rules = PRESETS["standard"]
    started, load_before = time.perf_counter(), load()
    results = run_tournament([high, low, low, low], rules, deals, seed, factory=factory)
    margin, half, count = paired(results, low, high)
    high_points, high_half = points(results, high)
    return {
        "lineup": [high, low, low, low],
        "margin": round(margin, 2),
        "margin_ci": round(half, 2),
        "points_per_hand": round(high_points, 2),
        "points_ci": round(high_half, 2),
        "moons": sum(entry.shot_moon for entry in results if entry.bot == high),
        "deals": count,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
        "load": f"{load_before} -> {load()}",
    }


def measure(
    numbers: Sequence[int],
    deals: int,
    search_deals: int,
    seed: int,
    normal_deals: int | None = None,
    log=print,
    factory=make_bot,
) -> dict:
    """Each chosen level's margin over the level below and its play against Normal."""
    levels = {}
    for number in numbers:
        rung = LADDER[number - 1]
        count = search_deals if searches(rung) else deals
        entry: dict = {"title": rung.title}
        if number > 1:
            below = LADDER[number - 2]
            entry["over_below"] = match(rung.key, below.key, count, seed, factory)
            log(f"{rung.key} over {below.key}: {entry['over_below']}")
        against = count if normal_deals is None else normal_deals
        entry["vs_normal"] = match(rung.key, "normal", against, seed, factory)
        log(f"{rung.key} against normal: {entry['vs_normal']}")
        levels[rung.key] = entry
    return levels


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--levels", type=int, nargs="+", default=None, help="level numbers to run (default all, 1-10)"
    )
    parser.add_argument("--deals", type=int, default=200, help="deals a match between levels without search")
    parser.add_argument("--search-deals", type=int, default=20, help="deals a match with a searching level")
    parser.add_argument(
        "--vs-normal-deals",
        type=int,
        default=None,
        help="deals against Normal (default: as the level's match)",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--threads", type=int, default=1, help="play-out threads (one core by default)")
    parser.add_argument("--merge", action="store_true", help="keep the other levels already in --json")
    parser.add_argument("--site", action="store_true", help="the bots on the static site's budgets")
    parser.add_argument(
        "--json", type=Path, help=f"the results (default {RESULTS.name}, with --site {SITE_RESULTS.name})"
    )
    args = parser.parse_args(argv)
    args.json = args.json or (SITE_RESULTS if args.site else RESULTS)
    numbers = args.levels or [rung.number for rung in LADDER]
    wrong = [n for n in numbers if not 1 <= n <= len(LADDER)]
    if wrong:
        parser.error(f"--levels {wrong[0]}: the levels are 1 to {len(LADDER)}")
    set_playout_threads(args.threads)
    levels = measure(
        numbers,
        args.deals,
        args.search_deals,
        args.seed,
        args.vs_normal_deals,
        log=lambda line: print(line, file=sys.stderr),
        factory=site_bot if args.site else make_bot,
    )
    kept: dict = {}
    if args.merge and args.json.exists():
        try:
            kept = json.loads(args.json.read_text())["levels"]
        except (ValueError, KeyError) as error:
            sys.exit(f"{args.json}: not a ladder results file ({error}); run without --merge")
    kept.update(levels)
    ordered = {rung.key: kept[rung.key] for rung in LADDER if rung.key in kept}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"levels": ordered}, indent=2, ensure_ascii=False) + "\n")
    for key, entry in ordered.items():
        below = entry.get("over_below")
        step = f"{below['margin']:+.2f} ± {below['margin_ci']:.2f} over the level below" if below else "-"
        normal = entry["vs_normal"]
        against = f"{normal['points_per_hand']:.2f} ± {normal['points_ci']:.2f}"
        print(f"{key:9} {step:40} {against} a hand against Normal")


if __name__ == "__main__":
    main()
