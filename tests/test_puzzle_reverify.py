"""Re-verifying the library side by side in processes gives what one at a time gives."""

import shutil
from pathlib import Path

from trainer.puzzles import load_puzzles
from trainer.puzzles.format import load_puzzle
from trainer.puzzles.reverify import reverify_folder

LIBRARY = Path(__file__).resolve().parent.parent / "puzzles"


def late_play_puzzles(count: int) -> list[Path]:
    """The play puzzles with the fewest cards left (solved exactly: the quickest to verify)."""
    plays = [p for p in load_puzzles(LIBRARY) if p.kind == "play"]
    plays.sort(key=lambda p: (len(p.view.hand), p.id))
    return [LIBRARY / f"{p.id}.toml" for p in plays[:count]]


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
