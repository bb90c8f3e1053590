"""A puzzle's starting rating comes from how the bots answer it, not from a guess."""

from __future__ import annotations

import shutil
from pathlib import Path

from trainer.puzzles.evidence import BOT_RATINGS, BotAnswer, rate_file, rating_from
from trainer.puzzles.format import load_puzzle
from trainer.puzzles.source import read_toml
from trainer.puzzles.verify import natural_choice, text_of

FOLDER = Path(__file__).resolve().parents[1] / "puzzles"


def answers(easy: int, normal: int, hard: int, tries: int = 3) -> list[BotAnswer]:
    """``easy`` of Easy's ``tries`` answers solve it, and so on."""
    return (
        [BotAnswer("easy", k, "", k < easy) for k in range(tries)]
        + [BotAnswer("normal", 0, "", normal > 0)]
        + [BotAnswer("hard", k, "", k < hard) for k in range(tries)]
    )


def test_the_more_bots_solve_a_puzzle_the_lower_its_rating():
    order = [answers(0, 0, 0), answers(0, 0, 1), answers(0, 0, 3), answers(3, 0, 3), answers(3, 1, 3)]
    ratings = [rating_from(a).rating for a in order]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == len(ratings)
    # Easy and Normal fail, Hard solves it two times in three: above Normal's level, below a
    # puzzle that beats every bot
    between = rating_from(answers(0, 0, 2)).rating
    assert BOT_RATINGS["normal"].rating < between < rating_from(answers(0, 0, 0)).rating


def test_every_shipped_puzzle_is_rated_by_its_bot_evidence():
    for path in sorted(FOLDER.glob("*.toml")):
        data = read_toml(path)
        assert "evidence" in data, path.name
        evidence = [BotAnswer(**answer) for answer in data["evidence"]["answers"]]
        assert {a.bot for a in evidence} == {"easy", "normal", "hard"}, path.name
        assert data["difficulty"] == round(rating_from(evidence).rating), path.name
        normal = next(a for a in evidence if a.bot == "normal")
        assert not normal.solved, path.name  # the natural-looking choice is wrong by construction


def test_rating_a_file_asks_the_bots_and_keeps_their_answers(tmp_path):
    source = next(p for p in sorted(FOLDER.glob("play-*.toml")))
    path = tmp_path / source.name
    shutil.copy(source, path)
    data = read_toml(path)
    del data["evidence"]
    from trainer.puzzles.format import save_puzzle

    save_puzzle(data, path)
    _, new = rate_file(path, tries=2)
    rated = read_toml(path)
    puzzle = load_puzzle(path)
    evidence = [BotAnswer(**a) for a in rated["evidence"]["answers"]]
    assert len(evidence) == 5 and rated["difficulty"] == new == round(rating_from(evidence).rating)
    normal = next(a for a in evidence if a.bot == "normal")
    assert normal.answer == text_of(natural_choice(puzzle.kind, puzzle.view))
    for answer in evidence:
        assert answer.solved == (answer.answer in puzzle.answer.accepted)
