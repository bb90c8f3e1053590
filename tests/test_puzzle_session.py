"""Within a session no puzzle comes again before every matching one has been shown: not after
answers (right or wrong), not after Next without answering. Near the learner's rating first,
then farther; once all are shown, again, the one shown longest ago first."""

from __future__ import annotations

from dataclasses import dataclass

from trainer.progress.decisions import option_text
from trainer.puzzles.format import PUZZLES_DIR
from trainer.puzzles.library import open_library
from trainer.puzzles.schedule import NEAR, STRETCH, PuzzleProgress, choose_next
from trainer.puzzles.trainer import PuzzleTrainer


@dataclass(frozen=True)
class Listed:
    id: str
    difficulty: int
    kind: str = "play"
    themes: tuple[str, ...] = ("ducking",)


def test_fourteen_answers_right_and_wrong_show_fourteen_puzzles() -> None:
    trainer = PuzzleTrainer(open_library(PUZZLES_DIR))
    shown = []
    for number in range(14):
        puzzle = trainer.next()
        shown.append(puzzle.id)
        options = puzzle.evaluation.options
        wrong = next(
            (v.option for v in reversed(options) if not puzzle.is_accepted(option_text(v.option))), None
        )
        choice = puzzle.evaluation.best.option if number % 2 or wrong is None else wrong
        trainer.answer(choice)  # a miss is due again 3 attempts later: not in this session yet
    assert len(set(shown)) == 14, shown


def test_next_without_answering_goes_through_every_match_before_one_comes_again() -> None:
    trainer = PuzzleTrainer(open_library(PUZZLES_DIR))

    def matching(band: tuple[int, int]) -> list[str]:
        return [e.id for e in trainer.puzzles if band[0] <= e.difficulty <= band[1]]

    # a filtered pool small enough to go round, whatever the library's size
    band = next(b for b in ((low, low + 49) for low in range(0, 3000, 50)) if 5 < len(matching(b)) < 100)
    pool = matching(band)
    shown = [trainer.next(difficulty=band).id for _ in range(len(pool) + 5)]
    assert sorted(shown[: len(pool)]) == sorted(pool)  # each once
    assert shown[len(pool) :] == shown[:5]  # then again, the one shown longest ago first


def test_near_the_learners_rating_first_then_farther_and_never_twice() -> None:
    aim = PuzzleProgress().learner.rating + STRETCH
    puzzles = [
        Listed(f"p{n}", int(aim) + offset) for n, offset in enumerate((900, -40, 30, -NEAR - 100, 10, 400))
    ]
    progress, shown = PuzzleProgress(), []
    for _ in puzzles:
        shown.append(choose_next(puzzles, progress, shown=shown).id)
    by_id = {p.id: p for p in puzzles}
    distances = [abs(by_id[i].difficulty - aim) for i in shown]
    assert distances == sorted(distances) and len(set(shown)) == len(puzzles)
    assert choose_next(puzzles, progress, shown=shown).id == shown[0]
