"""Version 2 of the puzzle format (packed options), version 1 still read, and the migration.

A learner's verdict comes from the stored evaluation: the two versions of one puzzle must give
the same verdict, word for word, for every option a learner can choose.
"""

import base64
import copy
import functools
import os
import random
import re
import tomllib
import zlib
from pathlib import Path

import pytest
import tomli_w
from test_puzzles import puzzle_data as evaluated_data

from engine import CardSet
from trainer.coach import coach_pass, coach_play
from trainer.coach.heatmap import pass_heatmap
from trainer.puzzles import PuzzleError, load_puzzle
from trainer.puzzles.commands import main
from trainer.puzzles.format import PUZZLES_DIR, puzzle_text, save_puzzle
from trainer.puzzles.library import index_status
from trainer.puzzles.packed import pack_rows, unpack_rows
from trainer.puzzles.source import read_toml


def puzzle_data(kind: str) -> dict:
    """``test_puzzles.puzzle_data``, valued once a kind (a copy each call, free to change)."""
    return copy.deepcopy(_evaluated(kind))


@functools.cache
def _evaluated(kind: str) -> dict:
    return evaluated_data(kind)


RUN_SEED = int(os.environ.get("PUZZLE_SEED", random.SystemRandom().randrange(1 << 30)))
LIBRARY = sorted(PUZZLES_DIR.glob("*.toml"))


def both_versions(tmp_path: Path, source: Path) -> tuple:
    """The puzzle in ``source`` written in version 1 and in version 2, each loaded."""
    data = read_toml(source)
    old, new = tmp_path / f"v1-{source.name}", tmp_path / f"v2-{source.name}"
    old.write_text(puzzle_text(data, version=1), encoding="utf-8")
    new.write_text(puzzle_text(data), encoding="utf-8")
    assert read_toml(old)["version"] == 1 and read_toml(new)["version"] == 2
    return load_puzzle(old), load_puzzle(new)


def verdict(puzzle, option):
    return (coach_pass if puzzle.kind == "pass" else coach_play)(puzzle.view, option, puzzle.evaluation)


def shown(puzzle, option) -> tuple:
    """What a learner reads after choosing ``option``: the verdict's words, grade and rank."""
    said = verdict(puzzle, option)
    return said.text, said.grade.label, said.grade.rank, said.grade.options


def chart(puzzle, option) -> dict:
    """A pass's heat map of every pass, ``option`` outlined (0.1 s each: drawn for a few)."""
    return pass_heatmap(verdict(puzzle, option).evaluation, puzzle.view.hand, CardSet(option)).spec


def test_every_option_of_a_sample_of_puzzles_gets_the_same_verdict_from_either_version(tmp_path):
    """Two pass puzzles (all 286 passes each) and four play puzzles a run, rotating
    (``PUZZLE_SEED=...`` repeats a run)."""
    rng = random.Random(RUN_SEED)
    passes = [p for p in LIBRARY if p.name.startswith("pass-")]
    plays = [p for p in LIBRARY if p.name.startswith("play-")]
    for source in [*rng.sample(passes, 2), *rng.sample(plays, 4)]:
        old, new = both_versions(tmp_path, source)
        assert repr(old.answer) == repr(new.answer), source  # every figure to the last bit
        assert len(new.answer.options) >= (286 if old.kind == "pass" else 2)
        for value in old.evaluation.options:
            assert shown(old, value.option) == shown(new, value.option), (source, value.option, RUN_SEED)
        if old.kind == "pass":
            for value in (old.evaluation.options[0], old.evaluation.options[-1]):
                assert chart(old, value.option) == chart(new, value.option), (source, value.option)


def test_the_library_is_in_version_2_and_a_pass_puzzle_takes_at_most_8_kb():
    assert LIBRARY
    for path in LIBRARY:
        assert read_toml(path)["version"] == 2, path
        if path.name.startswith("pass-"):
            assert path.stat().st_size <= 8 * 1024, path


@pytest.mark.parametrize("kind", ["play", "pass"])
def test_a_new_puzzle_is_written_in_version_2_and_reads_back_every_figure(tmp_path, kind):
    data = puzzle_data(kind)
    save_puzzle(data, tmp_path / "new.toml")
    stored = read_toml(tmp_path / "new.toml")
    assert stored["version"] == 2 and isinstance(stored["answer"]["options"], str)
    assert "option_columns" not in stored["answer"]
    assert unpack_rows(stored["answer"]["options"]) == data["answer"]["options"]
    (tmp_path / "old.toml").write_text(puzzle_text(data, version=1), encoding="utf-8")
    assert repr(load_puzzle(tmp_path / "new.toml").answer) == repr(load_puzzle(tmp_path / "old.toml").answer)


def test_figures_that_do_not_pack_exactly_are_written_as_rows_and_kept(tmp_path):
    data = puzzle_data("play")
    data["answer"]["options"][1][2] = 7.123456789  # not a whole number of ten-thousandths
    save_puzzle(data, tmp_path / "exact.toml")
    assert read_toml(tmp_path / "exact.toml")["version"] == 1
    assert load_puzzle(tmp_path / "exact.toml").answer.options[1].others == 7.123456789


def repacked(change) -> str:
    """A valid pass puzzle's packed options with ``change`` made to their unpacked bytes."""
    body = bytearray(zlib.decompress(base64.b64decode(pack_rows(puzzle_data("pass")["answer"]["options"]))))
    change(body)
    return base64.b64encode(zlib.compress(bytes(body))).decode()


def figure(row: int, column: int, value: float):
    def change(data: dict) -> None:
        rows = puzzle_data("pass")["answer"]["options"]
        rows[row][column] = value
        data["answer"]["options"] = pack_rows(rows)

    return change


def set_answer(**fields):
    return lambda data: data["answer"].update(fields)


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [
        (set_answer(options="not base64!"), "answer.options", "not base64"),
        (set_answer(options=base64.b64encode(b"plain bytes").decode()), "answer.options", "not zlib"),
        (set_answer(options=repacked(lambda b: b.pop())), "answer.options", "not a whole number of rows"),
        (set_answer(options=repacked(lambda b: b.__setitem__(1, 60))), "answer.options", "card number 60"),
        (set_answer(options=repacked(lambda b: b.__delitem__(slice(None)))), "answer.options", "empty"),
        (set_answer(options=[["2C", 1.0]]), "answer.options", "expected str"),
        (set_answer(option_columns=["option"]), "answer.option_columns", "not in version 2"),
        (figure(3, 1, 20_000.0), "answer.options[3].points", "beyond any hand's points"),
        (lambda d: d.update(version=3), "version", "reads version 1 or 2"),
    ],
)
def test_bad_packed_options_get_one_line_naming_the_file_and_the_field(tmp_path, mutate, field, words):
    path = tmp_path / "bad.toml"  # written as is: puzzle_text would mend its version and options
    data = tomllib.loads(puzzle_text(puzzle_data("pass")))
    mutate(data)
    path.write_text(tomli_w.dumps(data, multiline_strings=True), encoding="utf-8")
    with pytest.raises(PuzzleError) as error:
        load_puzzle(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {field}: ") and words in message, message
    assert "\n" not in message and len(message) < 400


def test_a_packed_option_missing_or_valued_twice_is_named_as_in_version_1(tmp_path):
    rows = puzzle_data("pass")["answer"]["options"]
    for changed, field, words in [
        (rows[:-1], "answer.options", "not valued"),
        ([[rows[1][0], *rows[0][1:]], *rows[1:]], "answer.options[1]", "valued twice"),
    ]:
        data = tomllib.loads(puzzle_text(puzzle_data("pass")))
        data["answer"]["options"] = pack_rows(changed)
        (tmp_path / "bad.toml").write_text(tomli_w.dumps(data, multiline_strings=True), encoding="utf-8")
        with pytest.raises(PuzzleError, match=re.escape(f"bad.toml: {field}: ") + f".*{words}"):
            load_puzzle(tmp_path / "bad.toml")


def test_migrate_rewrites_version_1_files_keeping_every_figure_and_the_index_idempotently(tmp_path, capsys):
    for kind in ("play", "pass"):
        data = {**puzzle_data(kind), "id": f"{kind}-1"}
        (tmp_path / f"{kind}-1.toml").write_text(puzzle_text(data, version=1), encoding="utf-8")
    assert main(["index", str(tmp_path)]) == 0
    before = {p.name: load_puzzle(p) for p in tmp_path.glob("*.toml")}
    sizes = {p.name: p.stat().st_size for p in tmp_path.glob("*.toml")}
    assert main(["migrate", str(tmp_path), "--check"]) == 1
    assert all(p.stat().st_size == sizes[p.name] for p in tmp_path.glob("*.toml"))  # --check writes nothing
    assert main(["migrate", str(tmp_path)]) == 0
    for path in tmp_path.glob("*.toml"):
        assert read_toml(path)["version"] == 2
        assert repr(load_puzzle(path).answer) == repr(before[path.name].answer)
        assert load_puzzle(path).title == before[path.name].title
    assert index_status(tmp_path) is None  # the index lists the files as they now are
    assert sizes["pass-1.toml"] > 2 * (tmp_path / "pass-1.toml").stat().st_size
    migrated = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    capsys.readouterr()
    assert main(["migrate", str(tmp_path)]) == 0
    assert "0 files rewritten in version 2" in capsys.readouterr().out
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == migrated
    assert main(["migrate", str(tmp_path), "--check"]) == 0


def test_migrate_refuses_a_file_it_could_not_keep_whole_and_one_that_does_not_load(tmp_path, capsys):
    data = puzzle_data("play")
    data["answer"]["options"][0][3] = data["answer"]["options"][0][3] + 1e-7  # a figure packing would round
    inexact = tmp_path / "inexact.toml"
    inexact.write_text(puzzle_text(data, version=1), encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(puzzle_text({**puzzle_data("play"), "kind": "guess"}, version=1), encoding="utf-8")
    kept = {p: p.read_bytes() for p in (inexact, broken)}
    assert main(["migrate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{inexact}: answer.options: a figure would not be kept exactly" in out
    assert f"{broken}: kind: 'guess' is not 'pass' or 'play'" in out
    assert {p: p.read_bytes() for p in kept} == kept
