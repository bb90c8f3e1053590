"""The puzzle miner: decisions of Normal-bot hands, verified on a Dask cluster.

    python -m trainer.puzzles.mine --out puzzles --table standard --seed 11 --hands 40 \\
        --passes 100 --plays 100 [--workers 2 | --scheduler tcp://HOST:8786]

Every decision with a real choice in ``--hands`` hands of Normal bots under the table's rules
(``trainer.puzzles.tasks.TABLES``: standard, three_players, five_players, omnibus, black_maria,
shooters_choice) is a candidate: a self-contained task that screens it, verifies it on fresh
deals by the acceptance rule (``trainer.puzzles.verify``) and rates it by how the bots answer
(``trainer.puzzles.evidence``). By default the tasks run on a ``LocalCluster`` of ``--workers``
processes on this machine; ``--scheduler`` sends the same job to an existing cluster (one that
does not answer within ``--connect-timeout`` seconds, or that no worker joins within
``--worker-wait``, ends the run with one line saying so). The job is resumable: its journal
(``OUT/.journal.jsonl``) names every decided candidate, and a second run skips them.
``--passes`` and ``--plays`` are the job's totals: a resumed run mines only what is missing.
A job is its table and seed: the journal keeps what it was given (hands, quota), and a run of
the same job that leaves any of them out carries on with what the job was given, not a default.
Afterwards the library's index is rewritten.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from engine import HandState, Rules, deal_game_hand
from engine.bots import bot_action, make_bot
from engine.cluster import ClusterUnavailable, DaskMissing, add_cluster_options

from .tasks import TABLES, candidates

__all__ = ["SETTINGS", "decisions", "job_settings", "main", "spread_decisions"]


def decisions(rules: Rules, seed: int, hands: int) -> Iterator[tuple[str, HandState, int, object]]:
    """Every decision of ``hands`` hands played by Normal bots: (kind, state before it, seat,
    the Normal bot's choice)."""
    bots = [make_bot("normal", seat) for seat in range(rules.players)]
    for index in range(hands):
        state = deal_game_hand(rules, seed, index)
        while (seat := state.seat_to_act) is not None:
            view = state.view(seat)
            action = bot_action(bots[seat], view)
            if action.kind == "pass" or (action.kind == "play" and len(view.legal_cards) > 1):
                yield action.kind, state.copy(), seat, action.choice
            state.apply(action)


def spread_decisions(plays: int, passes: int, seed: int, last_trick: bool = True) -> list[tuple]:
    """``decisions`` of Normal-bot hands from ``seed`` on, spread over many hands: at most two
    plays (over every trick, or all but the last) and one pass a hand, chosen at random, until
    ``plays`` plays and ``passes`` passes are found. The benchmarks' and the fingerprint's
    positions."""
    rng = random.Random(seed)
    chosen: list[tuple] = []
    wanted = {"play": plays, "pass": passes}
    rules = Rules()
    hand = 0
    last = rules.hand_size if last_trick else rules.hand_size - 1
    while wanted["play"] > 0 or wanted["pass"] > 0:
        found = list(decisions(rules, seed + hand, 1))
        hand += 1
        play_points = [d for d in found if d[0] == "play" and d[1].trick_number < last]
        pass_points = [d for d in found if d[0] == "pass"]
        for point in rng.sample(play_points, min(2, len(play_points), wanted["play"])):
            chosen.append(point)
            wanted["play"] -= 1
        if pass_points and wanted["pass"] > 0:
            chosen.append(rng.choice(pass_points))
            wanted["pass"] -= 1
    return chosen


SETTINGS = {"hands": 20, "first_hand": 0, "passes": 10, "plays": 10}
"""What a job is given, with the default for a new job."""


def job_settings(given: dict, recorded: dict | None) -> tuple[dict, list[str]]:
    """The job's settings: each as given on the command line, else as the journal recorded it
    for this job, else the default; and the names taken from the journal."""
    settings, resumed = {}, []
    for name, default in SETTINGS.items():
        if given.get(name) is not None:
            settings[name] = given[name]
        elif recorded and isinstance(recorded.get(name), int) and not isinstance(recorded[name], bool):
            settings[name] = recorded[name]
            resumed.append(name)
        else:
            settings[name] = default
    return settings, resumed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("puzzles"))
    parser.add_argument("--table", choices=sorted(TABLES), default="standard")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bot games mined")

    def given(name: str) -> str:
        return f" (default: what the journal says this job was given, else {SETTINGS[name]})"

    parser.add_argument("--hands", type=int, help="hands of bot games to mine" + given("hands"))
    parser.add_argument("--first-hand", type=int, help="the first of them" + given("first_hand"))
    parser.add_argument("--passes", type=int, help="pass puzzles the job wants in all" + given("passes"))
    parser.add_argument("--plays", type=int, help="play puzzles the job wants in all" + given("plays"))
    parser.set_defaults(**{name: None for name in SETTINGS})
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the local cluster")
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler (tcp://HOST:8786)")
    parser.add_argument("--journal", type=Path, help="the job's journal (default OUT/.journal.jsonl)")
    add_cluster_options(parser)
    args = parser.parse_args(argv)
    from .job import Journal, progress_line, run_job  # Dask only for a job, not for ``decisions``

    journal = args.journal or args.out / ".journal.jsonl"
    book = Journal(journal)
    job = f"{args.table}/{args.seed}"
    settings, resumed = job_settings(vars(args), book.jobs.get(job))
    if resumed:
        print(
            f"resuming the job {job} of {journal} with what it was given: "
            + ", ".join(f"{name.replace('_', '-')} {settings[name]}" for name in resumed),
            file=sys.stderr,
        )
    found = candidates(args.table, args.seed, settings["hands"], settings["first_hand"])
    on_line = False  # the progress line is on screen, not yet ended

    def progress(report) -> None:
        nonlocal on_line
        progress_line(report)
        on_line = True

    def say(message: str) -> None:
        """A line of its own, below the progress line (which starts again under it)."""
        nonlocal on_line
        print(("\n" if on_line else "") + message, file=sys.stderr, flush=True)
        on_line = False

    try:
        report = run_job(
            found,
            args.out,
            journal=journal,
            workers=args.workers,
            scheduler=args.scheduler,
            wanted={"pass": settings["passes"], "play": settings["plays"]},
            job=(job, settings),
            progress=progress,
            connect_timeout=args.connect_timeout,
            worker_wait=args.worker_wait,
            notice=say,
        )
    except (ClusterUnavailable, DaskMissing) as error:
        if on_line:
            print(file=sys.stderr)
        sys.exit(str(error))  # one line, not a traceback
    print(file=sys.stderr)
    for path in report.written:
        print(path)
    from .library import write_index

    args.out.mkdir(parents=True, exist_ok=True)  # a job that wrote nothing still gets its index
    for problem in write_index(args.out):
        print(f"not in the index: {problem}", file=sys.stderr)
    from .seeds import record_seeds

    record_seeds(args.out)  # the new puzzles' verification seeds and this job's: never a fresh seed again
    print(report.summary(), file=sys.stderr)


if __name__ == "__main__":
    main()
