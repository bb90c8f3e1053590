"""The new Hard against the Hard this project started issue 10 with, head to head in duplicate.

The engine of the starting commit (``--commit``, by default d39f821) is unpacked from git into
a temporary folder as a package of its own (``engine_start``), and its Hard bot plays from its
own engine's view of the same hand: before each of its decisions the adapter replays the hand
so far (deal, passes, cards) into the old engine. Line-up: new, new, old, old, rotated through
every seat of every deal (``engine.tournament``), so each bot holds every seat's cards.
``--lineup old normal normal normal`` plays the starting Hard against today's Normal on the
deals of ``python -m engine.tournament hard normal normal normal`` (same seed, same deals): how
much of Hard's margin over Normal is Normal's own change; ``--lineup new new single single`` plays
today's Hard against itself without its moon plan.

    PYTHONPATH=. .venv/bin/python benchmarks/hard_vs_start.py --deals 100 --workers 2
        [--lineup new new old old] [--json benchmarks/results/hard_vs_start.json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from engine import HandState, MoonAction, PassAction, Phase, PlayAction, Rules
from engine.bots import make_bot
from engine.bots.hard import HardBot
from engine.tournament import format_table, run_tournament, summarize

START = "d39f821"
ROOT = Path(__file__).resolve().parents[1]
_OLD: dict = {}


def unpack(commit: str, into: Path) -> None:
    """``git archive`` the commit's engine into ``into/engine_start``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "engine"],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryFile() as file:
        file.write(archive)
        file.seek(0)
        with tarfile.open(fileobj=file) as tar:
            tar.extractall(into, filter="data")
    (into / "engine").rename(into / "engine_start")


def old_engine(folder: str) -> tuple:
    if folder not in _OLD:
        sys.path.insert(0, folder)
        package = importlib.import_module("engine_start")
        hard = importlib.import_module("engine_start.bots.hard")
        _OLD[folder] = (package, hard)
    return _OLD[folder]


class StartingHard:
    """The starting commit's Hard, deciding on its own engine's replay of the hand."""

    needs_state = True
    name = "hard-start"

    def __init__(self, seed: int, folder: str) -> None:
        package, hard = old_engine(folder)
        self.package = package
        self.bot = hard.HardBot(seed)

    def _replay(self, state: HandState):
        package = self.package
        rules = package.Rules.from_dict(state.rules.to_dict())
        dealt = [package.CardSet(state.dealt_hand(seat).mask) for seat in range(state.players)]
        old = package.HandState.from_deal(dealt, rules, state.pass_direction.value)
        for action in state.history:
            if isinstance(action, PassAction):
                old.pass_cards(action.seat, package.CardSet(action.cards.mask))
            elif isinstance(action, PlayAction):
                old.play(int(action.card), action.seat)
            elif isinstance(action, MoonAction):
                old.choose_moon(action.choice.value, action.seat)
        return old

    def act(self, state: HandState, seat: int) -> None:
        view = self._replay(state).view(seat)
        if state.phase is Phase.PASSING:
            state.pass_cards(seat, [int(card) for card in self.bot.choose_pass(view)])
        elif state.phase is Phase.MOON_CHOICE:
            state.choose_moon(self.bot.choose_moon(view).value, seat)
        else:
            state.play(int(self.bot.choose_play(view)), seat)


class Factory:
    """Picklable bot factory for the process pool: "new" is today's Hard, "old" the start's,
    "single" today's Hard weighing no moon plan of its own (``HardBot.moon_plan``), any other
    name today's bot of that name."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def __call__(self, name: str, seed: int):
        if name == "old":
            return StartingHard(seed, self.folder)
        if name == "single":
            return HardBot(seed, moon_plan=False)
        return make_bot("hard" if name == "new" else name, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--commit", default=START)
    parser.add_argument(
        "--lineup",
        nargs=4,
        default=["new", "new", "old", "old"],
        metavar="BOT",
        help="new, old, single or a bot's name",
    )
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        unpack(args.commit, Path(folder))
        started = time.perf_counter()
        results = run_tournament(
            args.lineup, Rules(), args.deals, args.seed, args.workers, factory=Factory(folder)
        )
    summary = summarize(results)
    summary.update({"lineup": args.lineup, "commit": args.commit, "seed": args.seed})
    summary["seconds"] = time.perf_counter() - started
    print(format_table(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
