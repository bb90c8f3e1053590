"""A reported re-verification figure comes from a seed that took part in no selection of the
puzzles it counts (``trainer.puzzles.seeds``): a used seed is refused unless the run is said to
be a reproduction, and a run that keeps and drops puzzles adds its seed to the record."""

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from trainer.puzzles import load_puzzles, verify
from trainer.puzzles.seeds import load_seeds, record_seeds, seeds_file
from trainer.puzzles.verify_command import main as verify_main

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """Two late play puzzles of the library (solved exactly on the few deals their view allows),
    and tiny budgets for any other."""
    monkeypatch.setitem(verify.DEALS, "play", 64)
    monkeypatch.setitem(verify.DEALS, "pass", 64)
    out = tmp_path / "puzzles"
    out.mkdir()
    for path in sorted(LIBRARY.glob("play-*.toml"), key=cards_left)[:2]:
        shutil.copy(path, out)
    return out


def cards_left(path: Path) -> tuple[int, str]:
    position = tomllib.loads(path.read_text(encoding="utf-8"))["position"]
    return len(position["hands"][position["seat"]].split()), path.name


def shipped() -> dict[str, int]:
    """Each shipped puzzle's id and verification seed, read from its file."""
    data = (tomllib.loads(p.read_text(encoding="utf-8")) for p in LIBRARY.glob("*.toml"))
    return {puzzle["id"]: puzzle["answer"]["seed"] for puzzle in data}


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def refused(argv: list[str]) -> str:
    with pytest.raises(SystemExit) as raised:
        verify_main(argv)
    message = str(raised.value.code)
    assert "\n" not in message and len(message) < 500
    return message


def test_the_shipped_library_records_the_seeds_that_selected_it():
    used = load_seeds(LIBRARY)
    assert 20261205 in used.verification  # the seed of the circular "432 of 432"
    assert {101, 102, 105, 107} <= used.mining
    for puzzle, seed in shipped().items():
        assert seed in used.puzzles[puzzle], puzzle


def test_a_seed_used_in_selection_is_refused_for_a_report_and_nothing_changes(folder, tmp_path):
    report = tmp_path / "README.md"
    record_seeds(folder, 777, "a re-verification that dropped puzzles")
    before = files(folder)
    message = refused([str(folder), "--seed", "777", "--report", str(report), "--write"])
    assert message.startswith("--seed 777: a re-verification of these puzzles used it")
    assert "--reproduce" in message
    names = (re.search(r"-(\d+)-\d{3}-\d{2}$", p.stem) for p in folder.glob("*.toml"))
    mined = next(name.group(1) for name in names if name)
    assert refused([str(folder), "--seed", mined, "--report", str(report)]).startswith(
        f"--seed {mined}: the miner's games of these puzzles used it"
    )
    assert files(folder) == before and not report.exists()


def test_a_seed_a_puzzle_was_verified_on_is_refused_even_when_no_record_lists_it(folder, tmp_path):
    verify_main([str(folder), "--seed", "41", "--write"])  # rewrites the files on seed 41's deals
    seeds_file(folder).unlink()  # the files alone still say which deals they were verified on
    message = refused([str(folder), "--seed", "41", "--report", str(tmp_path / "README.md")])
    assert re.match(r"--seed 41: \S+ was verified on the deals it gives that puzzle", message)


def test_a_fresh_seed_is_accepted_and_its_figure_reported_as_the_librarys(folder, tmp_path):
    report = tmp_path / "README.md"
    verify_main([str(folder), "--seed", "43", "--report", str(report)])
    text = report.read_text(encoding="utf-8")
    found = re.search(r"\*\*(\d+) of 2 hold\*\* on seed 43, one never used on these puzzles before", text)
    assert found, text[:600]
    assert "reproduction" not in text
    assert load_seeds(folder).verification == {}  # a look that writes nothing selects nothing


def test_the_used_seeds_grow_when_a_report_is_written(folder, tmp_path):
    report = tmp_path / "README.md"
    verify_main([str(folder), "--seed", "43", "--write", "--report", str(report)])
    used = load_seeds(folder)
    assert list(used.verification) == [43] and "re-verified (seed 43)" in used.verification[43]
    for puzzle in load_puzzles(folder):  # the rewritten files' seeds are on record too
        assert puzzle.answer.seed in used.puzzles[puzzle.id]
    assert refused([str(folder), "--seed", "43", "--report", str(report)]).startswith("--seed 43: ")
    verify_main([str(folder), "--seed", "43", "--write", "--report", str(report), "--reproduce"])
    text = report.read_text(encoding="utf-8")
    assert "on seed 43, a reproduction: a re-verification of these puzzles used it" in text
    assert "never used" not in text
    entries = json.loads(seeds_file(folder).read_text(encoding="utf-8"))["verification"]
    assert [entry["seed"] for entry in entries] == [43]  # recorded once, its first outcome kept


def test_a_reverification_done_in_parts_keeps_each_parts_outcome_in_the_seeds_note(folder):
    first, _ = sorted(path.stem for path in folder.glob("*.toml"))
    verify_main([str(folder), "--seed", "45", "--write", "--only", first, "--resume"])
    verify_main([str(folder), "--seed", "45", "--write", "--resume"])  # the rest: the second
    note = load_seeds(folder).verification[45]
    assert note.count("1 puzzles re-verified (seed 45)") == 2 and "; then " in note
    for puzzle in load_puzzles(folder):  # each re-verified once, on its own deals of seed 45
        assert puzzle.answer.seed in load_seeds(folder).puzzles[puzzle.id]


def test_a_damaged_seeds_file_is_named_in_one_line_and_nothing_runs(folder, tmp_path):
    seeds_file(folder).write_text('{"format": "hearts-trainer/puzzle-seeds", "mining": ["x"]}')
    before = files(folder)
    message = refused([str(folder), "--seed", "43", "--write", "--report", str(tmp_path / "README.md")])
    assert message == f"{seeds_file(folder)}: mining[0]: a seed is a whole number from 0, not 'x'"
    assert files(folder) == before
