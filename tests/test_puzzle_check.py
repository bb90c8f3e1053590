"""A defect anywhere in a puzzle file is one PuzzleError naming the file and the field; the
library leaves such a file out and reports it; ``python -m trainer.puzzles check`` lists them."""

import copy
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import HandState, Rules
from trainer.puzzles import PuzzleError, load_library, load_puzzle
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.format import OPTION_COLUMNS, save_puzzle

ROOT = Path(__file__).resolve().parents[1]

# Seat 0 is to play to "2H 3H" holding 5D 8H JH QH: it must follow with a heart.
PLAY_POSITION = {
    "seat": 0,
    "pass_direction": "hold",
    "hands": ["5D 8H JH QH", "4H 5H 10H KH", "KC AD 9H", "7S 6H 7H"],
    "tricks": [
        "2C 3C 6C 4C",
        "2S 5S QS 4S",
        "2D 6D 9D 3D",
        "7C JC 10C 5C",
        "6S AS 3S KS",
        "4D 7D QD 10D",
        "8C 10S 9C AC",
        "8D KD 9S JD",
        "JS 8S AH QC",
        "2H 3H",
    ],
    "first_leader": 0,
}
PASS_STATE = HandState.from_seed(4, Rules(), "left")


def row(option: str, loss: float) -> list:
    """An option's stored values; only the option and the order matter to the checks."""
    return [option, 5.0 + loss, 7.0, loss - 2.0, 0.1, loss, 0.05, 0.0, 0.0, 64]


def answer(options: list[str]) -> dict:
    return {
        "best": options[0],
        "accepted": [options[0]],
        "seed": 1,
        "samples": 64,
        "stages": [],
        "include": [],
        "verified": "written for the test",
        "option_columns": list(OPTION_COLUMNS),
        "options": [row(option, 2.0 * rank) for rank, option in enumerate(options)],  # best first
    }


def puzzle(kind: str) -> dict:
    if kind == "play":
        position, options = copy.deepcopy(PLAY_POSITION), ["JH", "QH", "8H"]
    else:
        hands = [" ".join(PASS_STATE.hand(seat).codes) for seat in range(4)]
        position = {"seat": 0, "pass_direction": "left", "hands": hands}
        options = [" ".join(combo) for combo in itertools.combinations(PASS_STATE.hand(0).codes, 3)]
    return {
        "id": f"{kind}-test",
        "kind": kind,
        "title": "A test puzzle",
        "themes": ["counting"],
        "difficulty": 1400,
        "explanation": "Written for the test.",
        "rules": {},
        "position": position,
        "answer": answer(options),
    }


def written(tmp_path: Path, kind: str, mutate=lambda data: None, name: str = "bad.toml") -> Path:
    data = puzzle(kind)
    mutate(data)
    path = tmp_path / name
    save_puzzle(data, path)
    return path


def held_pass(count: int) -> str:
    return " ".join(PASS_STATE.hand(0).codes[:count])


NOT_HELD_PASS = " ".join(PASS_STATE.hand(1).codes[:3])


def set_answer(**fields):
    return lambda data: data["answer"].update(fields)


def set_options(*options: str):
    return set_answer(options=[row(option, 2.0 * rank) for rank, option in enumerate(options)])


def set_figure(row: int, column: str, value: float):
    return lambda data: data["answer"]["options"][row].__setitem__(OPTION_COLUMNS.index(column), value)


def set_position(**fields):
    return lambda data: data["position"].update(fields)


DEFECTS = [
    ("play", set_position(first_leader="2"), "position.first_leader", "expected int, got '2'"),
    ("play", set_position(passed="QS AH KH"), "position.passed", "expected list"),
    ("play", set_position(tricks=["2C 3C 6C 4C", "2C 5S QS 4S"]), "position.tricks[1]", "2♣ appears twice"),
    ("play", set_answer(accepted=["JH", "AS"]), "answer.accepted[1]", "You do not hold the A♠"),
    ("play", set_answer(accepted=["JH", "5D"]), "answer.accepted[1]", "5♦ cannot be played here by seat 0"),
    ("play", set_answer(accepted=["JH", "5D"]), "answer.accepted[1]", "You must follow suit"),
    ("play", set_answer(accepted=["JH QH"]), "answer.accepted[0]", "names 2 cards: a play is one card"),
    ("play", set_answer(best=""), "answer.best", "empty: a play answer is one card"),
    ("play", set_answer(accepted=[]), "answer.accepted", "empty"),
    ("play", set_answer(accepted=["JH JH"]), "answer.accepted[0]", "J♥ is named twice"),
    ("play", set_answer(accepted=["JH", "QH", "JH"]), "answer.accepted[2]", "J♥ is listed twice"),
    ("play", set_answer(include=["JH QH"]), "answer.include[0]", "a play is one card"),
    ("play", set_answer(options=[]), "answer.options", "empty"),
    ("play", set_options("JH", "QH"), "answer.options", "not valued"),
    ("play", set_options("JH", "5D", "QH"), "answer.options[1].option", "5♦"),
    ("play", set_options("JH", "QH", "8H", "QH"), "answer.options[3]", "twice"),
    ("play", set_options("JH", "QH QH"), "answer.options[1].option", "named twice"),
    ("play", set_answer(best="QH", accepted=["QH", "JH"]), "answer.best", "not the first option"),
    ("play", lambda data: data["rules"].update(preset=["omnibus"]), "rules.preset", "unknown preset"),
    ("pass", set_answer(accepted=[held_pass(2)]), "answer.accepted[0]", "names 2 cards: these rules pass 3"),
    ("pass", set_answer(best=held_pass(4)), "answer.best", "names 4 cards: these rules pass 3"),
    ("pass", set_answer(accepted=[NOT_HELD_PASS]), "answer.accepted[0]", "You do not hold"),
    ("pass", set_answer(accepted=[f"{held_pass(1)} {held_pass(2)}"]), "answer.accepted[0]", "named twice"),
    ("pass", set_answer(accepted=[""]), "answer.accepted[0]", "empty: a pass answer is 3 cards"),
    ("pass", set_answer(options=[]), "answer.options", "empty"),
    ("pass", lambda data: data["answer"]["options"].pop(), "answer.options", "not valued"),
    ("play", set_answer(measure="odds"), "answer.measure", "'odds' is not one of playout, forecast"),
    ("play", set_answer(measure=1), "answer.measure", "expected str, got 1"),
    ("play", set_answer(method="guessed"), "answer.method", "'guessed' is not one of policy, exact"),
    ("play", set_answer(method=0), "answer.method", "expected str, got 0"),
    ("play", set_answer(every_deal="yes"), "answer.every_deal", "expected bool, got 'yes'"),
    ("play", set_answer(every_deal=True), "answer.every_deal", "not method 'policy'"),
    ("play", set_figure(1, "points", float("nan")), "answer.options[1].points", "expected a number, got nan"),
    ("play", set_figure(0, "loss", float("inf")), "answer.options[0].loss", "expected a number, got inf"),
    ("play", set_figure(0, "others", 10**18), "answer.options[0].others", "is beyond any hand's points"),
    ("play", set_figure(0, "samples", 0), "answer.options[0].samples", "not a count of deals"),
    ("play", set_figure(0, "samples", 64.5), "answer.options[0].samples", "not a count of deals"),
    ("play", set_answer(seed=-1), "answer.seed", "must be 0 to"),
    ("play", lambda data: data.update(difficulty=2**62), "difficulty", "must be 0 to 5,000"),
    ("play", lambda data: data.update(id="../x y"), "id", "'../x y' is not a name"),
    ("play", set_position(scores=[0, 0, 0, 2**62]), "position.scores", "whole numbers from -1,000,000"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "mutate", "field", "words"), DEFECTS)
def test_each_defect_is_one_puzzle_error_naming_the_file_and_the_field(tmp_path, kind, mutate, field, words):
    path = written(tmp_path, kind, mutate)
    before = path.read_bytes()
    with pytest.raises(PuzzleError) as error:
        load_puzzle(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {field}: ") and words in message, message
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ["play", "pass"])
def test_the_puzzles_these_defects_start_from_load(tmp_path, kind):
    assert load_puzzle(written(tmp_path, kind)).id == f"{kind}-test"


def test_figures_on_the_coachs_deepest_look_load(tmp_path):
    """An option's deals are counted in hundreds of thousands (a pass verdict reads up to 524,288;
    a review's replay puzzle keeps the coach's own count), not bounded as points are."""
    puzzle = load_puzzle(written(tmp_path, "pass", set_figure(0, "samples", 524_288)))
    assert puzzle.answer.options[0].samples == 524_288


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda data: data.update(title="T" * 5_000_000), "title"),
        (lambda data: data.update(kind="K" * 5_000_000), "kind"),
        (lambda data: data.update(themes=["t" * 5_000_000]), "themes[0]"),
        (set_answer(accepted=["JH", "A" * 5_000_000 + "S"]), "answer.accepted[1]"),
        (set_answer(measure="m" * 5_000_000), "answer.measure"),
        (
            set_position(hands=["5D 8H JH QH", "4H 5H 10H KH", "KC AD 9H", "Q" * 5_000_000]),
            "position.hands[3]",
        ),
    ],
    ids=["title", "kind", "theme", "card", "measure", "hand"],
)
def test_a_huge_bad_value_is_quoted_briefly(tmp_path, mutate, field):
    with pytest.raises(PuzzleError) as error:
        load_puzzle(written(tmp_path, "play", mutate))
    message = str(error.value)
    assert message.startswith(f"{tmp_path / 'bad.toml'}: {field}: ") and len(message) < 400, message[:500]


def test_the_checker_prints_a_huge_bad_value_in_one_short_line(tmp_path):
    path = written(tmp_path, "play", lambda data: data.update(explanation="E" * 5_000_000))
    done = subprocess.run(
        [sys.executable, "-m", "trainer.puzzles", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()
    assert line.startswith(f"{path}: explanation: 5,000,000 characters") and len(line) < 400, line[:500]


def test_bytes_that_are_not_utf8_are_named_by_field_and_line(tmp_path):
    path = written(tmp_path, "play")
    path.write_bytes(path.read_bytes().replace(b"A test puzzle", b"A test \xff puzzle"))
    with pytest.raises(PuzzleError) as error:
        load_puzzle(path)
    assert str(error.value) == f"{path}: title: not UTF-8 text: byte 0xff on line 5"


def test_a_toml_syntax_error_is_named_by_line_and_column(tmp_path):
    path = written(tmp_path, "play")
    path.write_text(path.read_text("utf-8").replace('kind = "play"', 'kind = play"'), "utf-8")
    with pytest.raises(PuzzleError) as error:
        load_puzzle(path)
    assert str(error.value) == f"{path}: line 4, column 8: not valid TOML: Invalid value"


def test_the_library_loads_the_good_files_and_reports_each_bad_one(tmp_path):
    written(tmp_path, "play", name="a-good.toml")
    written(tmp_path, "pass", name="b-good.toml")
    written(tmp_path, "play", set_position(first_leader="2"), name="c-leader.toml")
    written(tmp_path, "play", set_answer(options=[]), name="d-options.toml")
    (tmp_path / "e-bytes.toml").write_bytes(b'title = "\xff"\n')
    written(tmp_path, "play", name="f-same-id.toml")
    puzzles, problems = load_library(tmp_path)
    assert [p.id for p in puzzles] == ["play-test", "pass-test"]
    assert problems == [
        f"{tmp_path / 'c-leader.toml'}: position.first_leader: expected int, got '2'",
        f"{tmp_path / 'd-options.toml'}: answer.options: empty: the stored evaluation must value "
        "every option the learner could choose",
        f"{tmp_path / 'e-bytes.toml'}: title: not UTF-8 text: byte 0xff on line 1",
        f"{tmp_path / 'f-same-id.toml'}: id: 'play-test' is also the id of {tmp_path / 'a-good.toml'}",
    ]


def test_the_puzzles_page_says_which_files_were_skipped_and_why(tmp_path):
    written(tmp_path, "play", name="good.toml")
    bad = written(tmp_path, "play", set_position(first_leader="2"))
    board = PuzzleBoard(tmp_path)
    assert board.skipped_markdown() == (
        f"**1 puzzle file was skipped:**\n\n- `{bad}: position.first_leader: expected int, got '2'`"
    )
    assert board.show_next() and board.trainer.current.id == "play-test"
    board.widget.close()


def test_the_puzzles_page_opens_when_every_file_is_skipped(tmp_path):
    written(tmp_path, "play", set_answer(options=[]), name="a.toml")
    written(tmp_path, "pass", set_answer(options=[]), name="b.toml")
    board = PuzzleBoard(tmp_path)
    assert board.skipped_markdown().startswith("**2 puzzle files were skipped:**")
    assert not board.show_next()
    assert board.prompt_markdown() == "**No puzzles to show:** every puzzle file was skipped."
    assert board.themes == {} and board.difficulty_range == (1500, 1500)
    assert board.status_markdown().startswith("Your puzzle rating: **1500**")
    board.widget.close()


def check(*args: object) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "trainer.puzzles", "check", *map(str, args)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_check_command_prints_every_problem_one_a_line_and_fails(tmp_path):
    good = written(tmp_path, "pass", name="good.toml")
    leader = written(tmp_path, "play", set_position(first_leader="2"), name="leader.toml")
    illegal = written(tmp_path, "play", set_answer(accepted=["JH", "5D"]), name="illegal.toml")
    syntax = tmp_path / "syntax.toml"
    syntax.write_text('format = "hearts-trainer/puzzle"\nkind = play"\n', "utf-8")
    result = check(good, leader, illegal, syntax)
    assert result.returncode == 1, result
    assert result.stdout.splitlines() == [
        f"{leader}: position.first_leader: expected int, got '2'",
        f"{illegal}: answer.accepted[1]: 5♦ cannot be played here by seat 0: "
        "You must follow suit: you hold ♥.",
        f"{syntax}: line 2, column 8: not valid TOML: Invalid value",
    ]
    assert "3 of 4 puzzle files have problems" in result.stderr


def test_the_check_command_refuses_a_folder_without_puzzle_files(tmp_path):
    result = check(tmp_path)
    assert result.returncode == 1 and f"no puzzle files in {tmp_path}" in result.stderr


def test_the_check_command_passes_every_puzzle_we_ship_with_a_summary():
    result = check()
    count = len(list((ROOT / "puzzles").glob("*.toml")))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{count} puzzle files checked: no problems (")
    assert len(result.stdout.splitlines()) == 1 and result.stderr == ""
