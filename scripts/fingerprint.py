"""What a behaviour-preserving change must leave identical, written down so two commits can be compared.

The fingerprint holds, on positions from Normal-bot hands of a fixed seed: the coach's play and pass
verdicts (every option's figures, the grade, the sentences shown), Hard's and Normal's decisions, a
small tournament's points, and the figures of every stored puzzle as the loader reads them. The
coach and Hard run with their clocks off, so only the deals decide (a clock would make two runs of
the same code differ).

    PYTHONPATH=. .venv/bin/python scripts/fingerprint.py --out /tmp/before.json [--plays 300 --passes 150]
    PYTHONPATH=. .venv/bin/python scripts/fingerprint.py --compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from engine import Rules
from engine.bots import make_bot
from engine.bots.hard import FULL_PASS, HardBot
from engine.tournament import run_tournament
from trainer.coach import coach_pass, coach_play
from trainer.coach.depth import COACH, judge
from trainer.puzzles.library import open_library
from trainer.puzzles.mine import spread_decisions

SEED = 515_151
DEPTH = replace(COACH, play_seconds=None, pass_seconds=None)


def plain(value: object) -> object:
    """A value as JSON, without the seconds things took (they differ run to run)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in ("seconds", "path", "position")
        }
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def digest(value: object) -> str:
    """Every figure of ``value`` in one hash (floats as Python writes them: exact)."""
    return hashlib.sha256(json.dumps(plain(value), sort_keys=True).encode()).hexdigest()


def verdict(index: int, point: tuple) -> dict:
    kind, state, seat, choice = point
    view = state.view(seat)
    evaluation = judge(view, choice, seed=SEED + index, depth=DEPTH)
    said = (coach_play if kind == "play" else coach_pass)(view, choice, evaluation=evaluation)
    return {
        "kind": kind,
        "choice": str(choice),
        "text": said.text,
        "label": said.grade.label,
        "loss": said.grade.loss,
        "evaluation": digest(evaluation),
    }


def bot_decisions(points: list[tuple], level: str) -> list[str]:
    """Each bot's choice on every position, a fresh bot a position (its seed the index)."""
    chosen = []
    for index, (kind, state, seat, _) in enumerate(points):
        view = state.view(seat)
        if level == "hard":
            bot = HardBot(index, play_seconds=None, passes=replace(FULL_PASS, seconds=None))
        else:
            bot = make_bot(level, index)
        chosen.append(str(bot.choose_play(view) if kind == "play" else bot.choose_pass(view)))
    return chosen


def tournament(deals: int) -> dict:
    results = run_tournament(["normal", "easy", "normal", "easy"], Rules(), deals, seed=SEED)
    return {"seats": [[r.deal, r.rotation, r.seat, r.bot, r.score, r.shot_moon] for r in results]}


def puzzle_figures() -> dict:
    library = open_library()
    figures = {}
    for entry in library.entries:
        puzzle = library.load(entry)
        figures[puzzle.id] = digest([puzzle.evaluation, puzzle.answer])
    return figures


def fingerprint(args: argparse.Namespace) -> dict:
    points = spread_decisions(args.plays, args.passes, SEED)
    out: dict = {"plays": args.plays, "passes": args.passes, "seed": SEED}
    start = time.perf_counter()
    out["verdicts"] = [verdict(i, p) for i, p in enumerate(points)]
    print(f"verdicts {time.perf_counter() - start:.0f} s", file=sys.stderr)
    bots = points[: args.bot_positions]
    out["hard"] = bot_decisions(bots, "hard")
    out["normal"] = bot_decisions(bots, "normal")
    out["tournament"] = tournament(args.deals)
    out["puzzles"] = puzzle_figures()
    print(f"all {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


def compare(before: dict, after: dict) -> list[str]:
    """One line for each part that differs (and the first few differing items)."""
    lines = []
    for key in ("verdicts", "hard", "normal", "tournament", "puzzles"):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            diff = [i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
            sizes = f"lengths {len(a)}, {len(b)}"
            lines.append(f"{key}: {len(diff)} of {len(a)} differ ({sizes}); first {diff[:5]}")
        elif isinstance(a, dict) and isinstance(b, dict):
            diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            lines.append(f"{key}: {len(diff)} of {len(a)} differ; first {diff[:5]}")
        else:
            lines.append(f"{key}: differs")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=300)
    parser.add_argument("--passes", type=int, default=150)
    parser.add_argument("--bot-positions", type=int, default=120, help="positions Hard and Normal decide")
    parser.add_argument("--deals", type=int, default=20, help="the tournament's deals")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        lines = compare(before, after)
        print("\n".join(lines) or "identical: verdicts, bot decisions, tournament and puzzle figures")
        sys.exit(1 if lines else 0)
    if args.out is None:
        parser.error("--out or --compare")
    args.out.write_text(json.dumps(fingerprint(args), sort_keys=True))


if __name__ == "__main__":
    main()
