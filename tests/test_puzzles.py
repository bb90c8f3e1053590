"""Puzzle files, the schedule and the puzzle trainer."""

import copy
import random

import pytest

from engine import CardSet, HandState, Rules
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import evaluate_pass, evaluate_play
from trainer.puzzles import PuzzleError, load_library, load_puzzle
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.format import answer_from_evaluation, save_puzzle
from trainer.puzzles.schedule import GAPS, PuzzleProgress, choose_next, record_attempt
from trainer.puzzles.trainer import PuzzleTrainer


def play_position(seed: int = 3, cards: int = 6) -> tuple[HandState, dict]:
    state = HandState.from_seed(seed, Rules(), "hold")
    for _ in range(cards):
        state.play(state.legal_cards()[0])
    tricks = [" ".join(c.code for c in t.cards) for t in (*state.tricks, state.current_trick) if t.cards]
    leader = state.to_move
    turned = [" ".join(state.hand((s + leader) % 4).codes) for s in range(4)]
    first = (state.tricks[0].leader - leader) % 4
    return state, {
        "seat": 0,
        "pass_direction": "hold",
        "hands": turned,
        "tricks": tricks,
        "first_leader": first,
    }


def puzzle_data(kind: str = "play") -> dict:
    if kind == "play":
        state, position = play_position()
        view = state.view(state.to_move)
        evaluation = evaluate_play(view, PlayBudget(samples=64), seed=1)
    else:
        state = HandState.from_seed(4, Rules(), "left")
        position = {
            "seat": 0,
            "pass_direction": "left",
            "hands": [" ".join(state.hand(s).codes) for s in range(4)],
        }
        evaluation = evaluate_pass(state.view(0), PassBudget(samples=64, stages=((8, 12),)), seed=1)
    best = evaluation.best.option
    best_text = " ".join(best.codes) if isinstance(best, CardSet) else best.code
    return {
        "id": f"{kind}-test",
        "kind": kind,
        "title": "A test puzzle",
        "themes": ["leading"] if kind == "play" else ["voids"],
        "difficulty": 1300,
        "explanation": "Written for the test.",
        "rules": {},
        "position": position,
        "answer": answer_from_evaluation(
            evaluation, [best_text], "test", ((8, 12),) if kind == "pass" else ()
        ),
    }


@pytest.mark.parametrize("kind", ["play", "pass"])
def test_a_puzzle_file_round_trips_and_shows_the_seats_view(tmp_path, kind):
    path = tmp_path / f"{kind}.toml"
    data = puzzle_data(kind)
    save_puzzle(data, path)
    puzzle = load_puzzle(path)
    assert puzzle.kind == kind and puzzle.seat == 0
    assert puzzle.is_accepted(data["answer"]["best"])
    assert len(puzzle.answer.options) == len(data["answer"]["options"])
    assert puzzle.evaluation.best.option == puzzle.answer.options[0].option
    if kind == "play":
        assert puzzle.state.to_move == 0
        assert " ".join(puzzle.view.hand.codes) == data["position"]["hands"][0]


def broken(mutate) -> dict:
    data = copy.deepcopy(puzzle_data("play"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [
        (lambda d: d.pop("kind"), "kind", "missing"),
        (lambda d: d.update(kind="guess"), "kind", "'guess' is not 'pass' or 'play'"),
        (lambda d: d.update(themes=["luck"]), "themes[0]", "unknown theme 'luck'"),
        (lambda d: d.update(difficulty="hard"), "difficulty", "expected int"),
        (lambda d: d["position"]["hands"].__setitem__(1, "QX 2C"), "position.hands[1]", "'X' is not a suit"),
        (lambda d: d["position"].update(seat=2), "position.seat", "not the one to play"),
        (lambda d: d["position"]["tricks"].__setitem__(0, "2C 2C 3C 4C"), "position.", "twice"),
        (lambda d: d["answer"].update(best=d["answer"]["options"][1][0]), "answer.accepted", "the best"),
        (lambda d: d["answer"]["options"][0].__setitem__(1, "many"), "answer.options[0].points", "number"),
        (lambda d: d["rules"].update(players=9), "rules.players", "3 to 7"),
    ],
)
def test_a_malformed_puzzle_names_the_file_and_the_field(tmp_path, mutate, field, words):
    path = tmp_path / "bad.toml"
    save_puzzle(broken(mutate), path)
    with pytest.raises(PuzzleError) as error:
        load_puzzle(path)
    message = str(error.value)
    assert str(path) in message and field in message and words in message, message


def test_a_bad_file_is_reported_and_the_others_still_load(tmp_path):
    save_puzzle(puzzle_data("play"), tmp_path / "a.toml")
    (tmp_path / "b.toml").write_text("format = 'hearts-trainer/puzzle'\nversion = [", encoding="utf-8")
    puzzles, problems = load_library(tmp_path)
    assert [p.id for p in puzzles] == ["play-test"]
    assert len(problems) == 1 and "b.toml" in problems[0] and "not valid TOML" in problems[0]


def library(tmp_path, count: int = 6) -> list:
    puzzles = []
    base = puzzle_data("play")
    for number in range(count):
        data = copy.deepcopy(base)
        data["id"] = f"play-{number}"
        data["difficulty"] = 1000 + 100 * number
        data["themes"] = ["leading"] if number % 2 else ["ducking"]
        save_puzzle(data, tmp_path / f"{number}.toml")
        puzzles.append(load_puzzle(tmp_path / f"{number}.toml"))
    return puzzles


def test_the_next_puzzle_is_near_the_learners_level_and_filters_apply(tmp_path):
    puzzles = library(tmp_path)
    progress = PuzzleProgress()
    assert choose_next(puzzles, progress, rng=random.Random(1)).difficulty == 1500
    assert choose_next(puzzles, progress, themes=["ducking"]).themes == ("ducking",)
    chosen = choose_next(puzzles, progress, difficulty=(1000, 1150))
    assert chosen.difficulty in (1000, 1100)
    assert choose_next(puzzles, progress, themes=["moon_shooting"]) is None


def test_a_failed_puzzle_comes_back_after_a_few_others(tmp_path):
    puzzles = library(tmp_path)
    progress = PuzzleProgress()
    failed = puzzles[2]
    record_attempt(progress, failed, solved=False)
    seen = []
    for _ in range(GAPS[0]):
        puzzle = choose_next(puzzles, progress, exclude=None)
        seen.append(puzzle.id)
        record_attempt(progress, puzzle, solved=True)
    assert failed.id not in seen[: GAPS[0] - 1]
    assert choose_next(puzzles, progress).id == failed.id


def test_ratings_move_with_results(tmp_path):
    puzzle = library(tmp_path, 1)[0]
    progress = PuzzleProgress()
    record_attempt(progress, puzzle, solved=True)
    assert progress.learner.rating > 1500
    assert progress.records[puzzle.id].rating.rating < puzzle.difficulty


def test_the_trainer_grades_at_once_and_counts_only_the_first_try(tmp_path):
    puzzles = library(tmp_path, 2)
    seen = []
    trainer = PuzzleTrainer(puzzles, on_attempt=lambda attempt, progress: seen.append(attempt))
    puzzle = trainer.next()
    wrong = next(o.option for o in puzzle.answer.options if not puzzle.is_accepted(o.option.code))
    first = trainer.answer(wrong.code)
    assert not first.solved and first.counted
    assert first.verdict.reasons or first.verdict.numbers
    again = trainer.answer(puzzle.answer.best)
    assert again.solved and not again.counted
    assert trainer.progress.attempts == 1 and len(seen) == 2


def test_the_trainer_refuses_an_illegal_answer_with_the_engines_reason(tmp_path):
    trainer = PuzzleTrainer(library(tmp_path, 1))
    puzzle = trainer.next()
    illegal = next(card for card in puzzle.view.hand if card not in puzzle.view.legal_cards)
    with pytest.raises(ValueError, match=r"must follow suit|not broken|You do not hold"):
        trainer.answer(illegal.code)
    assert trainer.progress.attempts == 0


@pytest.mark.parametrize("kind", ["pass", "play"])
def test_the_next_puzzle_clears_the_last_verdict_and_hint_at_once(kind):
    board = PuzzleBoard(seed=1)
    changes = []
    board.on_change(lambda: changes.append(board.verdict_markdown()))
    board.show_next(kind=kind)
    board.widget.act({"type": "hint"})
    hinted = board.widget.table["hint"]
    assert hinted and board.widget.table["hint_text"]
    board.widget.act({"type": kind, "cards": hinted} if kind == "pass" else {"type": kind, "card": hinted[0]})
    assert changes[-1] == board.verdict_markdown()
    assert "Right, with a hint" in changes[-1]
    assert (board.pass_chart() is not None) == (kind == "pass")

    board.show_next(kind=kind)
    assert board.verdict_markdown() == ""
    assert board.pass_chart() is None
    assert board.widget.table["hint"] == [] and board.widget.table["hint_text"] == ""
    assert not board.trainer.hinted
    board.widget.close()


def test_a_puzzle_valued_on_every_deal_keeps_saying_so_once_saved(tmp_path):
    """A late play valued on every deal the view allows (a review's moment can be one) is
    stored as such, and its verdict read back still says its figures are exact."""
    from trainer.coach import coach_play

    for seed in range(20):
        state, position = play_position(seed, cards=40)
        view = state.view(state.to_move)
        if len(view.legal_cards) > 1:
            break
    evaluation = evaluate_play(view, PlayBudget(samples=512, every_deal=True), seed=1)
    assert evaluation.every_deal
    best = evaluation.best.option.code
    data = {**puzzle_data("play"), "position": position}
    data["answer"] = answer_from_evaluation(evaluation, [best], "test")
    save_puzzle(data, tmp_path / "late.toml")
    puzzle = load_puzzle(tmp_path / "late.toml")
    assert puzzle.answer.every_deal and puzzle.evaluation.every_deal
    words = f"all {evaluation.samples} deals the unseen cards allow, each solved exactly"
    assert words in coach_play(puzzle.view, best, puzzle.evaluation).numbers
    # A sampled evaluation's file does not carry the field at all.
    assert "every_deal" not in puzzle_data("play")["answer"]


@pytest.mark.parametrize("players", [4, 3])
def test_a_library_puzzles_seats_name_no_bot_level(players):
    # No bot plays a puzzle's other seats (the table stays still): a level there would be untrue.
    board = PuzzleBoard(seed=2)
    assert board.show_next(players=players), f"the library has no {players}-player puzzle"
    assert board.widget.session.rules.players == players
    seats = board.widget.table["seats"]
    assert [seat["bot"] for seat in seats] == [None] * len(seats)
    board.widget.close()


@pytest.mark.parametrize("kind", ["pass", "play"])
def test_a_puzzle_table_deals_no_new_hand_under_the_puzzles_prompt(kind):
    # A fresh deal would sit under "Puzzle <id>: play a card" as if it were the puzzle.
    board = PuzzleBoard(seed=3)
    assert board.show_next(kind=kind)
    hand = board.widget.session.hand
    assert board.widget.table["deals"] is False  # table.js draws no New hand button, N does nothing
    for message in ({"type": "new_hand"}, {"type": "new_hand", "discard": True}):
        assert not board.widget.handle(message)
        said = board.widget.error["message"]
        assert said == "A puzzle is one position, not a game: Next puzzle shows another."
        assert board.widget.session.hand is hand
    board.widget.close()
