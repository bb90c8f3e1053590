"""Re-verifying the library side by side in processes gives what one at a time gives."""

import functools
import shutil
import socket
from pathlib import Path

import pytest

from trainer.puzzles.format import load_puzzle
from trainer.puzzles.reverify import reverify_folder, reverify_seed
from trainer.puzzles.source import read_toml
from trainer.puzzles.verify_command import main as verify_main

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles"


@functools.cache
def late_plays() -> tuple[Path, ...]:
    """The play puzzles, fewest cards left first (solved exactly: the quickest to verify), read
    from each file's position alone (the files load in the tests that re-verify them)."""

    def cards_left(path: Path) -> tuple[int, str]:
        position = read_toml(path)["position"]
        return len(position["hands"][position["seat"]].split()), path.name

    return tuple(sorted(LIBRARY.glob("play-*.toml"), key=cards_left))


def late_play_puzzles(count: int) -> list[Path]:
    return list(late_plays()[:count])


def test_only_the_puzzles_named_by_the_pattern_are_reverified(tmp_path):
    chosen = late_play_puzzles(3)
    for path in chosen:
        shutil.copy(path, tmp_path / path.name)
    before = {path.name: path.read_bytes() for path in tmp_path.glob("*.toml")}
    report = reverify_folder(tmp_path, 41, write=True, only=chosen[1].stem)
    assert [o.puzzle for o in report.outcomes] == [chosen[1].stem]
    for name, raw in before.items():
        if name != chosen[1].name:
            assert (tmp_path / name).read_bytes() == raw  # the others as they were
    kept = tmp_path / chosen[1].name
    assert kept.exists(), report.outcomes  # a late play solved exactly: it holds on any deals
    assert load_puzzle(kept).answer.seed == reverify_seed(41, chosen[1].stem)
    # resumed: the rest, not the one this seed already rewrote; then nothing is left to do
    rest = reverify_folder(tmp_path, 41, write=True, resume=True)
    assert [o.puzzle for o in rest.outcomes] == [chosen[0].stem, chosen[2].stem]
    assert reverify_folder(tmp_path, 41, write=True, resume=True).outcomes == []


def test_reverifying_in_two_processes_gives_the_same_outcomes_and_files(tmp_path):
    chosen = late_play_puzzles(3)
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        for path in chosen:
            shutil.copy(path, folder / path.name)
    alone = reverify_folder(one, 41, write=True)
    side_by_side = reverify_folder(two, 41, write=True, workers=2)
    assert [o.puzzle for o in alone.outcomes] == sorted(p.stem for p in chosen)
    assert side_by_side.outcomes == alone.outcomes
    assert sorted(p.name for p in two.glob("*.toml")) == sorted(p.name for p in one.glob("*.toml"))
    for path in one.glob("*.toml"):
        assert (two / path.name).read_bytes() == path.read_bytes()
        load_puzzle(two / path.name)
    assert (two / "index.json").read_bytes() == (one / "index.json").read_bytes()


def test_verify_on_a_local_dask_cluster_gives_the_same_outcomes_and_files(tmp_path, capsys):
    """``python -m trainer.puzzles.verify --dask``: the same seed gives what this process gives."""
    chosen = late_play_puzzles(2)
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        for path in chosen:
            shutil.copy(path, folder / path.name)
    alone = reverify_folder(one, 41, write=True)
    report = tmp_path / "README.md"
    verify_main([str(two), "--seed", "41", "--write", "--report", str(report), "--dask", "--workers", "1"])
    assert alone.summary() in capsys.readouterr().err
    assert report.read_text(encoding="utf-8").lstrip("\n") == alone.markdown()  # outcomes in file order
    assert sorted(p.name for p in two.glob("*.toml")) == sorted(p.name for p in one.glob("*.toml"))
    for path in one.glob("*.toml"):
        assert (two / path.name).read_bytes() == path.read_bytes()
    assert (two / "index.json").read_bytes() == (one / "index.json").read_bytes()


def test_verify_names_a_scheduler_it_cannot_reach_in_one_line(tmp_path):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    shutil.copy(sorted(LIBRARY.glob("play-*.toml"))[0], tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(SystemExit) as raised:
        verify_main([str(tmp_path), "--write", "--scheduler", address])
    assert str(raised.value.code).startswith(f"No Dask scheduler at {address}: Connection refused")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing changed
