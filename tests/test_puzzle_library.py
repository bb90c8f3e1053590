"""The puzzle library's index (``trainer.puzzles.library``): the page lists and filters puzzles
from ``index.json`` and reads only the puzzle it shows; a stale, missing or damaged index never
serves stale metadata, and a bad file is reported exactly as ``load_library`` reports it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

import trainer.puzzles.entry as entry_module
from engine import HandState, Rules
from trainer.puzzles import load_library, load_puzzle
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.check import check_files
from trainer.puzzles.commands import main as puzzles_command
from trainer.puzzles.entry import rules_label
from trainer.puzzles.format import OPTION_COLUMNS, PUZZLES_DIR, save_puzzle
from trainer.puzzles.library import (
    IDS_NAME,
    INDEX_NAME,
    build_index,
    index_status,
    library_ids,
    open_library,
    write_index,
)
from trainer.puzzles.schedule import record_attempt
from trainer.puzzles.trainer import PuzzleTrainer
from trainer.puzzles.verify import MIN_ERRORS, acceptance


def play_puzzle(puzzle_id: str, rules: dict, themes: list[str], difficulty: int, seed: int = 3) -> dict:
    """A play puzzle under these rules: a real position a few cards in, every legal card valued
    (made-up values: the loader checks the options, not the figures)."""
    state = HandState.from_seed(seed, Rules.from_dict(rules), "hold")
    for _ in range(5):
        state.play(state.legal_cards()[0])
    players, leader = state.rules.players, state.to_move
    done = [trick for trick in (*state.tricks, state.current_trick) if trick.cards]
    legal = [card.code for card in state.legal_cards()]
    rows = [
        [code, 5.0 + i, 6.0, -1.0 + i, 0.1, float(i), 0.1 * bool(i), 0.0, 0.0, 100]
        for i, code in enumerate(legal)
    ]
    return {
        "id": puzzle_id,
        "kind": "play",
        "title": f"Test puzzle {puzzle_id}",
        "themes": themes,
        "difficulty": difficulty,
        "explanation": "Written for the test.",
        "rules": rules,
        "position": {
            "seat": 0,
            "pass_direction": "hold",
            "hands": [" ".join(state.hand((seat + leader) % players).codes) for seat in range(players)],
            "tricks": [" ".join(card.code for card in trick.cards) for trick in done],
            "first_leader": (done[0].leader - leader) % players,
        },
        "answer": {
            "best": legal[0],
            "accepted": [legal[0]],
            "seed": 1,
            "samples": 100,
            "verified": "test",
            "option_columns": list(OPTION_COLUMNS),
            "options": rows,
        },
    }


def shipped(kind: str) -> str:
    """The first shipped puzzle of this kind at the standard table (a re-verification may drop
    any one puzzle, so none is named)."""
    for path in sorted(PUZZLES_DIR.glob(f"{kind}-*.toml")):
        if load_puzzle(path).rules == Rules():
            return path.stem
    raise AssertionError(f"no {kind} puzzle at the standard table in {PUZZLES_DIR}")


STANDARD_PASS, STANDARD_PLAY = shipped("pass"), shipped("play")


def copied(source: str, folder: Path, puzzle_id: str, name: str = "", **changes: object) -> Path:
    """A shipped puzzle file under a new id (and other top-level values), as the text it is."""
    text = (PUZZLES_DIR / f"{source}.toml").read_text("utf-8")
    for key, value in {"id": puzzle_id, **changes}.items():
        text = re.sub(rf"(?m)^{key} = (\[[^\]]*\]|.*)$", f"{key} = {json.dumps(value)}", text, count=1)
    path = folder / (name or f"{puzzle_id}.toml")
    path.write_text(text, "utf-8")
    return path


# id: (kind, themes, difficulty, players, rules label)
EXPECTED = {
    "pass-a": ("pass", ("high_hearts",), 1200, 4, "standard"),
    "play-a": ("play", ("leading",), 1450, 4, "standard"),
    "play-omnibus": ("play", ("ducking",), 1300, 4, "omnibus"),
    "play-three": ("play", ("counting",), 1600, 3, "standard"),
    "play-five-maria": ("play", ("leading", "endgame"), 1700, 5, "black_maria"),
    "play-shooter": ("play", ("moon_shooting",), 1500, 4, "shooters_choice"),
    "play-custom": ("play", ("dumping",), 1550, 4, "custom"),
}
MADE = {
    "play-omnibus": {"preset": "omnibus"},
    "play-three": {"preset": "three_players"},
    "play-five-maria": {"preset": "black_maria", "players": 5},
    "play-shooter": {"moon": "shooters_choice"},
    "play-custom": {"pass_count": 2},
}


def make_library(folder: Path) -> Path:
    _, themes, difficulty, _, _ = EXPECTED["pass-a"]
    copied(STANDARD_PASS, folder, "pass-a", difficulty=difficulty, themes=list(themes))
    _, themes, difficulty, _, _ = EXPECTED["play-a"]
    copied(STANDARD_PLAY, folder, "play-a", difficulty=difficulty, themes=list(themes))
    for puzzle_id, rules in MADE.items():
        _, themes, difficulty, _, _ = EXPECTED[puzzle_id]
        save_puzzle(play_puzzle(puzzle_id, rules, list(themes), difficulty), folder / f"{puzzle_id}.toml")
    return folder


@pytest.fixture
def folder(tmp_path) -> Path:
    return make_library(tmp_path)


@pytest.fixture
def reads(monkeypatch) -> list[Path]:
    """Every puzzle file the library reads in full."""
    seen: list[Path] = []

    def counted(path):
        seen.append(Path(path))
        return load_puzzle(path)

    monkeypatch.setattr(entry_module, "load_puzzle", counted)
    return seen


def listing(entries) -> dict:
    return {e.id: (e.kind, e.themes, e.difficulty, e.players, e.rules) for e in entries}


def test_the_index_lists_every_puzzle_with_its_metadata_and_fingerprint(folder):
    assert write_index(folder) == []
    index = json.loads((folder / INDEX_NAME).read_text("utf-8"))
    assert index["format"] == "hearts-trainer/puzzle-index" and index == build_index(folder)
    rows = index["puzzles"]
    assert [row["file"] for row in rows] == sorted(f"{puzzle_id}.toml" for puzzle_id in EXPECTED)
    for row in rows:
        raw = (folder / row["file"]).read_bytes()
        assert row["size"] == len(raw) and row["sha256"] == hashlib.sha256(raw).hexdigest()
        assert row["title"] == load_puzzle(folder / row["file"]).title
        kind, themes, difficulty, players, rules = EXPECTED[row["id"]]
        assert (row["kind"], tuple(row["themes"]), row["difficulty"]) == (kind, themes, difficulty)
        assert (row["players"], row["rules"]) == (players, rules), row["id"]
    library = open_library(folder)
    assert listing(library.entries) == EXPECTED
    assert library.problems == [] and library.notices == []
    assert not list(folder.glob(".index-*")), "the temporary file is left behind"


def test_the_index_gives_each_puzzles_provenance_from_its_file(tmp_path):
    """The miner's decision (from a mined id), the verification's seed and deals, and its margin
    as the acceptance rule measures it on the file's own figures."""
    mined = next(p.stem for p in sorted(PUZZLES_DIR.glob("pass-standard-*.toml")))
    copied(mined, tmp_path, mined)
    copied(STANDARD_PLAY, tmp_path, "play-by-hand")
    write_index(tmp_path)
    rows = {
        row["id"]: row["provenance"] for row in json.loads((tmp_path / INDEX_NAME).read_text())["puzzles"]
    }
    table, seed, hand, number = mined.split("-", 1)[1].rsplit("-", 3)
    assert rows[mined]["source"] == f"{table}/{seed}/{int(hand)}/{int(number)}"
    assert rows["play-by-hand"]["source"] == ""
    for puzzle_id, provenance in rows.items():
        puzzle = load_puzzle(tmp_path / f"{puzzle_id}.toml")
        assert (provenance["seed"], provenance["deals"]) == (puzzle.answer.seed, puzzle.answer.samples)
        rule = acceptance(puzzle.evaluation, puzzle.evaluation.options[-1].option)
        assert provenance["margin"] == round(rule.margin, 2) and rule.margin >= MIN_ERRORS, puzzle_id


def test_an_index_with_a_wrong_provenance_is_out_of_date(folder, capsys):
    write_index(folder)
    data = json.loads((folder / INDEX_NAME).read_text("utf-8"))
    data["puzzles"][1]["provenance"]["seed"] += 1  # a seed the file was not verified on
    (folder / INDEX_NAME).write_text(json.dumps(data), "utf-8")
    assert check_files([folder]) == 1
    assert f"1 listed wrong ({data['puzzles'][1]['file']})" in capsys.readouterr().out


def test_rules_labels_name_the_preset_whatever_the_table_size_or_spelling():
    assert rules_label(Rules()) == "standard"
    assert rules_label(Rules.from_dict({"preset": "five_players"})) == "standard"
    assert rules_label(Rules.from_dict({"jack_of_diamonds_points": -10})) == "omnibus"
    assert rules_label(Rules.from_dict({"preset": "black_maria", "players": 3})) == "black_maria"
    assert rules_label(Rules.from_dict({"preset": "omnibus", "pass_count": 1})) == "custom"


def test_the_shipped_index_lists_every_shipped_puzzle_as_it_is():
    """Every file listed with its fingerprint; that each listing (themes, table, provenance...)
    is what the file says is checked by ``check`` on every shipped puzzle (test_puzzle_check)."""
    assert index_status(PUZZLES_DIR) is None, "run `python -m trainer.puzzles index`"
    library = open_library(PUZZLES_DIR)
    assert library.notices == [] and library.problems == []
    assert [entry.file for entry in library.entries] == sorted(p.name for p in PUZZLES_DIR.glob("*.toml"))
    assert len({entry.id for entry in library.entries}) == len(library.entries)


def test_an_up_to_date_index_opens_without_reading_a_puzzle_file(folder, reads):
    write_index(folder)
    reads.clear()
    library = open_library(folder)
    assert reads == [] and len(library.entries) == len(EXPECTED)


def test_a_changed_file_is_read_again_not_served_stale(folder, reads):
    write_index(folder)
    # The same number of characters: only the fingerprint tells the file changed.
    copied(STANDARD_PLAY, folder, "play-a", difficulty=1460, themes=["leading"])
    reads.clear()
    library = open_library(folder)
    assert reads == [folder / "play-a.toml"]
    assert listing(library.entries)["play-a"] == ("play", ("leading",), 1460, 4, "standard")
    (notice,) = library.notices
    assert str(folder / INDEX_NAME) in notice and "1 changed (play-a.toml)" in notice
    assert f"python -m trainer.puzzles index {folder}" in notice
    assert "index.json: out of date: 1 changed (play-a.toml)" in index_status(folder)


def test_a_new_file_without_an_entry_appears_and_a_removed_one_is_gone(folder, reads):
    write_index(folder)
    copied(STANDARD_PLAY, folder, "play-new")
    (folder / "play-three.toml").unlink()
    reads.clear()
    library = open_library(folder)
    assert reads == [folder / "play-new.toml"]
    ids = [entry.id for entry in library.entries]
    assert "play-new" in ids and "play-three" not in ids
    assert (
        "1 not listed (play-new.toml)" in library.notices[0]
        and "1 gone (play-three.toml)" in library.notices[0]
    )


def test_the_librarys_ids_come_from_the_index_without_a_file_read_and_follow_the_folder(folder, reads):
    write_index(folder)
    reads.clear()
    assert library_ids(folder) == set(EXPECTED) and reads == []  # the home page's due count
    copied(STANDARD_PLAY, folder, "play-new")  # a file the index does not list yet
    (folder / "play-three.toml").unlink()
    assert library_ids(folder) == (set(EXPECTED) - {"play-three"}) | {"play-new"}
    (folder / IDS_NAME).write_text("pass-a\nplay-elsewhere\n")  # the static site's list
    assert library_ids(folder) == {"pass-a", "play-elsewhere"}


@pytest.mark.parametrize("damage", ["missing", "not json", "bad entry", "nested too deeply", "huge value"])
def test_a_missing_or_damaged_index_still_gives_the_right_library(folder, damage):
    write_index(folder)
    index = folder / INDEX_NAME
    if damage == "missing":
        index.unlink()
    elif damage == "not json":
        index.write_text("{", "utf-8")
    elif damage == "nested too deeply":
        index.write_text("[" * 100_000, "utf-8")
    else:
        data = json.loads(index.read_text("utf-8"))
        data["puzzles"][1]["difficulty"] = "hard" if damage == "bad entry" else "9" * 5_000_000
        index.write_text(json.dumps(data), "utf-8")
    library = open_library(folder)
    assert listing(library.entries) == EXPECTED and library.problems == []
    (notice,) = library.notices
    assert notice.startswith(f"{index}: ") and len(notice) < 500, notice[:600]
    if damage == "bad entry":
        assert "puzzles[1].difficulty: expected int, got 'hard'" in notice
    assert index_status(folder).startswith(f"{index}: ")


@pytest.mark.parametrize("indexed", [False, True])
def test_a_bad_file_is_reported_as_load_library_reports_it_and_left_out(folder, reads, indexed):
    (folder / "bad-bytes.toml").write_bytes(b'title = "\xff"\n')
    copied(STANDARD_PLAY, folder, "play-a", name="play-dup.toml")  # a second file with the id play-a
    bad = play_puzzle("play-bad", {}, ["leading"], 1400)
    bad["position"]["first_leader"] = "2"
    save_puzzle(bad, folder / "play-bad.toml")
    if indexed:
        assert write_index(folder) == load_library(folder)[1]
    reads.clear()
    library = open_library(folder)
    if indexed:
        assert reads == [], "a listed bad file is reported from the index"
    _, problems = load_library(folder)
    assert len(problems) == 3 and library.problems == problems
    assert listing(library.entries) == EXPECTED


def test_each_filter_returns_exactly_the_matching_puzzles(folder):
    write_index(folder)
    filters = [
        ({"themes": ["leading"]}, {"play-a", "play-five-maria"}),
        ({"themes": ["counting", "ducking"]}, {"play-three", "play-omnibus"}),
        ({"kind": "pass"}, {"pass-a"}),
        ({"kind": "play"}, set(EXPECTED) - {"pass-a"}),
        ({"difficulty": (1300, 1500)}, {"play-a", "play-omnibus", "play-shooter"}),
        ({"players": 3}, {"play-three"}),
        ({"players": 4}, set(EXPECTED) - {"play-three", "play-five-maria"}),
        ({"rules": "standard"}, {"pass-a", "play-a", "play-three"}),
        ({"rules": "omnibus"}, {"play-omnibus"}),
        ({"rules": "black_maria", "players": 5}, {"play-five-maria"}),
        ({"rules": "custom"}, {"play-custom"}),
        ({"players": 5, "kind": "pass"}, set()),
    ]
    for chosen, expected in filters:
        trainer = PuzzleTrainer(open_library(folder))
        shown = []
        for _ in range(len(expected)):  # unseen puzzles come first: each matching one once
            puzzle = trainer.next(**chosen)
            shown.append(puzzle.id)
            record_attempt(trainer.progress, puzzle, solved=True)
        assert sorted(shown) == sorted(expected), chosen
        following = trainer.next(**chosen)
        assert (following.id in expected) if expected else following is None, chosen


def test_the_page_offers_the_table_sizes_and_rules_present_and_filters_by_them(folder):
    write_index(folder)
    board = PuzzleBoard(folder)
    assert board.table_sizes == {"Any table": None, "3 players": 3, "4 players": 4, "5 players": 5}
    assert list(board.rules_choices.values()) == [
        None,
        "standard",
        "omnibus",
        "black_maria",
        "shooters_choice",
        "custom",
    ]
    assert board.show_next(players="5 players", rules="Black Maria")
    assert board.trainer.current.id == "play-five-maria"
    assert "5 players, Black Maria rules." in board.prompt_markdown()
    assert board.widget.table["players"] == 5  # the table seats five for it
    assert board.show_next(kind="What would you pass?", players="Any table", rules="Any rules")
    assert board.trainer.current.id == "pass-a" and board.widget.table["players"] == 4
    assert not board.show_next(kind="pass", players=3)
    assert board.notices_markdown() == ""
    board.widget.close()


def test_the_themes_filter_shows_titles_and_filters_by_them(folder):
    """The page's multiselect shows each theme by its title and hands back its name
    (``mo.ui.multiselect`` takes label -> value): choosing one shows a puzzle of that theme."""
    write_index(folder)
    board = PuzzleBoard(folder)
    assert board.themes["Counting cards and voids"] == "counting"
    assert set(board.themes.values()) == {theme for expected in EXPECTED.values() for theme in expected[1]}
    for chosen in (["Counting cards and voids"], ["counting"]):  # as the page gives it, or by name
        assert board.show_next(themes=chosen)
        assert "counting" in board.trainer.current.themes
    board.widget.close()


def test_filters_that_match_nothing_leave_the_puzzle_on_the_table_answerable(folder):
    """Text and table agree: the prompt says nothing matches and that the puzzle below is still
    the one shown, and an answer to it is graded as before."""
    write_index(folder)
    board = PuzzleBoard(folder)
    assert board.show_next(kind="pass")
    shown = board.trainer.current
    assert not board.show_next(kind="pass", players=3)
    assert board.trainer.current is shown
    prompt = board.prompt_markdown()
    assert prompt.startswith("**No puzzle matches these filters.**") and f"Puzzle {shown.id}" in prompt
    attempt = board.trainer.answer(shown.answer.best)
    assert attempt.solved
    assert board.show_next(kind="play") and "No puzzle matches" not in board.prompt_markdown()
    board.widget.close()


def test_the_next_puzzle_reads_one_file_only(folder, reads):
    write_index(folder)
    reads.clear()
    trainer = PuzzleTrainer(open_library(folder))
    first = trainer.next()
    assert reads == [first.path]
    second = trainer.next()
    assert second.id != first.id and reads == [first.path, second.path]
    trainer.next(kind="pass")
    assert len(reads) <= 3


def test_a_file_changed_after_opening_is_read_again_before_it_is_shown(folder, reads):
    write_index(folder)
    library = open_library(folder)
    copied(STANDARD_PASS, folder, "pass-a", difficulty=1900)
    (entry,) = [entry for entry in library.entries if entry.id == "pass-a"]
    assert library.load(entry) is None
    assert listing(library.entries)["pass-a"][2] == 1900
    assert "pass-a.toml: changed since the library was opened" in library.notices[-1]
    puzzle = PuzzleTrainer(library).next(kind="pass", difficulty=(1800, 2000))
    assert puzzle.id == "pass-a" and puzzle.difficulty == 1900
    assert PuzzleTrainer(library).next(kind="pass", difficulty=(1100, 1300)) is None


def test_a_failed_write_keeps_the_old_index_and_leaves_no_temporary_file(folder, monkeypatch):
    write_index(folder)
    before = (folder / INDEX_NAME).read_bytes()
    copied(STANDARD_PLAY, folder, "play-new")

    def refuse(*_args):
        raise OSError("disk full")

    monkeypatch.setattr("trainer.puzzles.library.os.replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_index(folder)
    assert (folder / INDEX_NAME).read_bytes() == before
    assert sorted(path.name for path in folder.iterdir() if not path.name.endswith(".toml")) == [INDEX_NAME]


def test_the_check_command_reports_a_missing_or_stale_index_and_the_index_command_fixes_it(folder, capsys):
    index = folder / INDEX_NAME
    assert check_files([folder]) == 1
    output = capsys.readouterr()
    assert output.out.splitlines() == [f"{index}: missing; run `python -m trainer.puzzles index {folder}`"]
    assert puzzles_command(["index", str(folder)]) == 0
    assert f"{index}: {len(EXPECTED)} puzzles listed." in capsys.readouterr().out
    assert check_files([folder]) == 0
    assert capsys.readouterr().out.startswith(f"{len(EXPECTED)} puzzle files checked: no problems")
    copied(STANDARD_PLAY, folder, "play-copy")
    assert check_files([folder]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    command = f"python -m trainer.puzzles index {folder}"
    assert line == f"{index}: out of date: 1 not listed (play-copy.toml); run `{command}`"


def test_an_index_listing_wrong_metadata_for_a_file_is_out_of_date(folder, capsys):
    write_index(folder)
    data = json.loads((folder / INDEX_NAME).read_text("utf-8"))
    data["puzzles"][0]["difficulty"] += 100  # the fingerprint still matches the file
    (folder / INDEX_NAME).write_text(json.dumps(data), "utf-8")
    assert check_files([folder]) == 1
    assert "1 listed wrong (pass-a.toml)" in capsys.readouterr().out
