"""The puzzles we ship: enough of them, covering the themes, and their answers still hold."""

from pathlib import Path

import pytest

from engine import CardSet
from engine.evaluator import evaluate_pass, evaluate_play
from trainer.coach.grading import tolerance_for
from trainer.puzzles import load_puzzles
from trainer.puzzles.mine import MIN_MARGIN

FOLDER = Path(__file__).resolve().parents[1] / "puzzles"
PUZZLES = load_puzzles(FOLDER)


def test_at_least_25_pass_and_25_play_puzzles_covering_the_lessons_themes():
    kinds = [puzzle.kind for puzzle in PUZZLES]
    assert kinds.count("pass") >= 25 and kinds.count("play") >= 25
    themes = {theme for puzzle in PUZZLES for theme in puzzle.themes}
    wanted = {"queen_of_spades", "spade_control", "voids", "high_hearts", "ducking", "dumping", "leading"}
    assert wanted <= themes
    assert len({puzzle.id for puzzle in PUZZLES}) == len(PUZZLES)


def fresh_evaluation(puzzle):
    answer = puzzle.answer
    if puzzle.kind == "pass":
        final = answer.samples - sum(deals for deals, _ in answer.stages)
        return evaluate_pass(
            puzzle.view, samples=final, seed=answer.seed, stages=answer.stages, include=answer.include
        )
    return evaluate_play(puzzle.view, samples=answer.samples, seed=answer.seed)


def text(option) -> str:
    return " ".join(option.codes) if isinstance(option, CardSet) else option.code


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[puzzle.id for puzzle in PUZZLES])
def test_stored_answer_agrees_with_a_fresh_evaluation_and_stands_clear(puzzle):
    evaluation = fresh_evaluation(puzzle)
    accepted = {text(v.option) for v in evaluation.options if v.loss <= tolerance_for(v)}
    assert accepted == set(puzzle.answer.accepted)
    assert text(evaluation.best.option) in accepted
    for value in evaluation.options:
        if text(value.option) not in accepted:
            assert value.loss >= MIN_MARGIN and value.loss >= 3 * value.loss_error, (puzzle.id, value)
    assert evaluation.samples == puzzle.answer.samples
