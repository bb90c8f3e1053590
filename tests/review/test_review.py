"""Game review on games whose answers are known: a learner who always makes the evaluator's best
choice loses nothing; one who makes a single known blunder has exactly that loss, and it is the
key moment. Plus luck against skill, keeping a review, replaying a moment as a puzzle, and the
score sheet."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from engine import Phase, Rules, deal_game_hand
from engine.bots import bot_acts, make_bot
from tests.review.history import play_bot_game
from trainer.coach.grading import grade
from trainer.progress.decisions import load_decisions
from trainer.progress.games import game_record, load_game, save_game
from trainer.puzzles.format import load_puzzle
from trainer.puzzles.trainer import PuzzleTrainer
from trainer.review.game import (
    ReviewDepth,
    decision_points,
    decision_seed_at,
    evaluate_decision,
    review_game,
    review_hands,
    save_review,
)
from trainer.review.page import review_markdown, scoresheet_for
from trainer.review.replay import replay_board, save_moment_puzzle
from trainer.store import Store

BUDGET = ReviewDepth(play_samples=32, pass_samples=32, pass_seconds=None, pass_stages=((16, 12),))
SEED = 11


def learner_hand(blunder: bool):
    """Hand 0 of game SEED, the learner (seat 0) making the review's own best choice every time
    (or, once, its worst option when that is a blunder); Normal bots elsewhere. Returns the hand
    and the blunder: (action index, the option, its loss) or None."""
    state = deal_game_hand(Rules(), SEED, 0)
    bots = {seat: make_bot("normal", seat) for seat in (1, 2, 3)}
    made = None
    while not state.is_over:
        seat = state.seats_to_pass[0] if state.phase is Phase.PASSING else state.to_move
        if seat != 0 or state.phase is Phase.MOON_CHOICE:
            bot_acts(state, seat, bots.get(seat) or make_bot("normal"))
            continue
        if state.phase is Phase.PLAYING and len(state.legal_cards(0)) == 1:
            state.play(state.legal_cards(0)[0], 0)
            continue
        seed = decision_seed_at(BUDGET, 0, state)
        evaluation = evaluate_decision(state, 0, None, (0, 0, 0, 0), BUDGET, seed)
        choice = evaluation.best.option
        worst = evaluation.options[-1]
        if blunder and made is None and state.phase is Phase.PLAYING and worst.loss > 6:
            choice = worst.option
            # its loss as the coach grades that choice (against strong blockers where the best
            # line is a moon: ``grading.grade``), judged on its own
            judged = evaluate_decision(state, 0, choice, (0, 0, 0, 0), BUDGET, seed)
            made = (state.actions_made, worst.option, grade(judged, choice).loss)
        if state.phase is Phase.PASSING:
            state.pass_cards(0, choice)
        else:
            state.play(choice, 0)
    return state, made


@pytest.fixture(scope="module")
def perfect():
    hand, _ = learner_hand(blunder=False)
    return hand, review_hands([hand], 0, BUDGET)


@pytest.fixture(scope="module")
def blundered():
    hand, made = learner_hand(blunder=True)
    assert made is not None, "the deal offers no blunder: choose another SEED"
    return hand, made, review_hands([hand], 0, BUDGET)


def test_best_play_throughout_loses_nothing(perfect) -> None:
    hand, review = perfect
    real = [point for point in decision_points(hand, 0) if point[3]]
    assert review.decisions == len(real) >= 8
    assert review.total_loss == 0.0 and review.loss_per_hand == 0.0
    assert review.accuracy == 100.0
    assert review.bands()["best"] == review.decisions
    assert review.key_moments() == []
    assert review.moments[0].decision.phase == "pass"


def test_a_review_spread_over_two_processes_is_the_same_review(perfect, blundered) -> None:
    hands = [perfect[0], blundered[0]]
    calls = []
    serial = review_hands(hands, 0, BUDGET)
    parallel = review_hands(hands, 0, BUDGET, lambda *args: calls.append(args), workers=2)
    assert parallel.summary() == serial.summary()
    assert [replace(m.decision, at="") for m in parallel.moments] == [
        replace(m.decision, at="") for m in serial.moments
    ]
    assert [m.evaluation.options for m in parallel.moments] == [m.evaluation.options for m in serial.moments]
    assert [done for done, _, _ in calls] == list(range(1, calls[-1][1] + 1))  # progress, in order


def test_one_known_blunder_is_the_whole_loss_and_the_key_moment(blundered) -> None:
    _hand, (action, option, loss), review = blundered
    wrong = [m for m in review.moments if m.decision.band != "best"]
    assert len(wrong) == 1
    (moment,) = wrong
    assert moment.decision.band == "blunder" and moment.decision.choice == option.code
    assert moment.loss == pytest.approx(loss) and loss > 6
    assert moment.decision.best != option.code
    assert moment.state.actions_made == action
    assert review.total_loss == pytest.approx(loss) and review.loss_per_hand == pytest.approx(loss)
    assert review.accuracy == pytest.approx(100 * (review.decisions - 1) / review.decisions)
    assert review.key_moments() == [moment]
    assert ", 1 blunder." in review_markdown(review)


def test_luck_and_skill_add_up_to_the_result(blundered) -> None:
    hand, (_action, _option, loss), review = blundered
    (reviewed,) = review.hands
    scores = hand.result.scores
    assert reviewed.points == scores[0]
    assert reviewed.result == pytest.approx(scores[0] - sum(scores[1:]) / 3)
    first_state = decision_points(hand, 0)[0][1]
    first = evaluate_decision(
        first_state, 0, hand.passed(0), (0, 0, 0, 0), BUDGET, decision_seed_at(BUDGET, 0, first_state)
    )
    # the hand's outlook is the best option's forecast against strong players (standard rules)
    assert first.best.forecast is not None
    assert reviewed.cards == pytest.approx(first.best.forecast.difference)
    assert reviewed.expected_points == pytest.approx(first.best.forecast.points)
    assert reviewed.decisions_loss == pytest.approx(loss)
    assert reviewed.cards + reviewed.decisions_loss + reviewed.luck == pytest.approx(reviewed.result)


def test_a_review_is_kept_once_with_its_decisions_and_reports_progress(tmp_path, blundered) -> None:
    hand, (_action, option, _loss), _review = blundered
    store = Store(tmp_path / "p.sqlite3")
    game_id = save_game(store, game_record([hand], 0, {1: "normal"}), "g1")
    calls = []
    review = review_game(
        load_game(store, game_id), BUDGET, lambda done, total, label: calls.append((done, total))
    )
    total = len(decision_points(hand, 0))
    assert calls == [(n, total) for n in range(1, total + 1)]
    save_review(store, review)
    save_review(store, review)  # again: replaced, not doubled
    kept = load_decisions(store, source="game", game_id=game_id)
    assert len(kept) == review.decisions
    assert [d.choice for d in kept if d.band == "blunder"] == [option.code]
    assert all(d.hand_index == 0 and d.game_id == game_id for d in kept)
    summary = load_game(store, game_id).review
    assert summary["decisions"] == review.decisions and summary["bands"]["blunder"] == 1
    assert summary["accuracy"] == pytest.approx(review.accuracy, abs=0.01)


def test_a_key_moment_replays_as_a_puzzle(tmp_path, blundered) -> None:
    _hand, (_action, option, _loss), review = blundered
    (moment,) = review.key_moments()
    path = save_moment_puzzle(moment, tmp_path / "p", game_id=7)
    puzzle = load_puzzle(path)
    assert puzzle.id == f"review-g7-h1-t{moment.decision.trick}" and puzzle.kind == "play"
    assert puzzle.seat == 0 and puzzle.view.hand == moment.state.hand(0)
    assert puzzle.answer.best == moment.decision.best
    assert not puzzle.is_accepted(option.code) and puzzle.is_accepted(moment.decision.best)
    # the explanation names the card the learner chose as the table shows it, not as its code
    assert puzzle.explanation.startswith(f"In the game you chose {option}.")
    assert not re.search(r"\b(10|[2-9JQKA])[CDHS]\b", puzzle.explanation)
    trainer = PuzzleTrainer([puzzle])
    trainer.next()
    assert trainer.answer(moment.decision.best).solved
    board = replay_board(moment, tmp_path / "board")
    assert board.trainer.current.id.startswith("review-") and "From your game" in board.prompt_markdown()
    board.widget.close()


def test_the_score_sheet_has_a_row_per_hand_and_prints_cleanly(tmp_path) -> None:
    session = play_bot_game(Rules(target=40), 5)
    store = Store(tmp_path / "p.sqlite3")
    game = load_game(store, save_game(store, game_record(session.game_hands, 0, {}), "k"))
    html = scoresheet_for(game)
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body)
    assert len(rows) == len(session.score_rows) >= 2
    for index, (row, scores) in enumerate(zip(rows, session.score_rows, strict=True)):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert cells[0] == str(index + 1)
        assert cells[1] == session.game_hands[index].pass_direction.value
        assert [int(c.split()[0]) for c in cells[2:]] == list(scores)
    foot = re.findall(r"<td[^>]*>(\d+)</td>", html.split("<tfoot>")[1])
    assert [int(t) for t in foot] == list(session.totals)
    assert "@media print" in html and "break-inside: avoid" in html and html.startswith("<!DOCTYPE html>")
