"""A puzzle's starting rating from evidence: how the Easy, Normal and Hard bots answer it.

The bots are the rating scale's fixed points (``BOT_RATINGS``): a puzzle rated 1800 is one that
Hard solves about half the time, 1400 one that Normal solves about half the time. Each bot's
answer is a game between the bot and the puzzle, scored by the puzzle's verified answers, and
the puzzle's rating is the Glicko-2 estimate after those games (``trainer.puzzles.rating``),
starting from 1500 with the full uncertainty. Learners' attempts move it from there.

    python -m trainer.puzzles.evidence puzzles   # rates every file that has no evidence yet
"""

from __future__ import annotations

import argparse
import os
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from engine import CardSet, PlayerView
from engine.bots import make_bot

from .format import load_puzzle, save_puzzle
from .rating import Rating, update
from .source import read_toml
from .verify import text_of

__all__ = ["BOT_RATINGS", "BotAnswer", "bot_evidence", "rate_file", "rating_from"]

BOT_RATINGS = {
    "easy": Rating(1000.0, 50.0),
    "normal": Rating(1400.0, 50.0),
    "hard": Rating(1800.0, 50.0),
}
"""Where the bots sit on the puzzle rating scale (a convention: the scale is defined by them)."""


@dataclass(frozen=True)
class BotAnswer:
    bot: str
    seed: int
    answer: str
    solved: bool


def bot_evidence(
    kind: str, view: PlayerView, accepted: Sequence[str], tries: int, seed: int
) -> list[BotAnswer]:
    """Easy and Hard answer ``tries`` times each (their seeds differ), Normal once (it does not
    use its seed for these choices)."""
    wanted = {CardSet(text) for text in accepted} if kind == "pass" else set(accepted)
    answers = []
    for bot, count in (("easy", tries), ("normal", 1), ("hard", tries)):
        for attempt in range(count):
            player = make_bot(bot, seed + attempt)
            choice = player.choose_pass(view) if kind == "pass" else player.choose_play(view)
            text = text_of(choice)
            solved = (CardSet(text) if kind == "pass" else text) in wanted
            answers.append(BotAnswer(bot, seed + attempt, text, solved))
    return answers


def rating_from(evidence: Sequence[BotAnswer]) -> Rating:
    """The puzzle's Glicko-2 rating after the bots' answers (it wins when a bot fails)."""
    return update(Rating(), [(BOT_RATINGS[a.bot], 0.0 if a.solved else 1.0) for a in evidence])


def rate_file(path: Path, tries: int = 3) -> tuple[int, int]:
    """Give a puzzle file that has no bot evidence yet its rating from the bots' answers (its
    seeds from its id); the old and the new difficulty."""
    data = read_toml(path)
    puzzle = load_puzzle(path)
    evidence = bot_evidence(
        puzzle.kind, puzzle.view, puzzle.answer.accepted, tries, zlib.crc32(puzzle.id.encode())
    )
    rating = rating_from(evidence)
    old = data["difficulty"]
    data["difficulty"] = round(rating.rating)
    data["evidence"] = {
        "rating_deviation": round(rating.deviation, 1),
        "answers": [asdict(answer) for answer in evidence],
    }
    temporary = path.with_name(f".{path.name}.tmp")
    save_puzzle(data, temporary)
    os.replace(temporary, path)
    return old, data["difficulty"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Rate the puzzle files that have no bot evidence yet.")
    parser.add_argument("folder", type=Path, nargs="?", default=Path("puzzles"))
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args(argv)
    for path in sorted(args.folder.glob("*.toml")):
        if "evidence" not in read_toml(path):
            old, new = rate_file(path, args.tries)
            print(f"{path}: difficulty {old} -> {new}", flush=True)


if __name__ == "__main__":
    main()
