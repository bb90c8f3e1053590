"""Hostile progress files, made from a valid download by changing one thing: every column of every
table, the JSON kept inside text columns, and the file's own frame. Each is either refused with
one short line naming the file and the field, leaving the learner's progress file exactly as it
was, or imported and then read by every page that reads that progress (the review, lesson 9's
game in play, the home page, the puzzles) without an error."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine import Rules
from tests.review.history import record_history
from trainer.lessons.catalog import LESSONS
from trainer.lessons.home import home_markdown, next_to_do
from trainer.lessons.progress import LessonProgressStore
from trainer.lessons.runner import LessonRunner
from trainer.progress.decisions import readable_decisions
from trainer.progress.export import table_csv
from trainer.progress.games import readable_games
from trainer.progress.puzzles import load_progress, save_attempt
from trainer.progress.tables import save_table
from trainer.progress.transfer import ProgressFileError, export_bytes, import_progress
from trainer.puzzles.trainer import PuzzleTrainer
from trainer.review.page import (
    game_markdown,
    moments_markdown,
    open_review,
    review_markdown,
    scoresheet_for,
    stored_review_markdown,
)
from trainer.review.stored import stored_review
from trainer.store import Store
from trainer.table import TableSession

SHORT = 400
HUGE_TEXT = "Q" * 1_000_000


class Raw:
    """JSON text written as it is where the value goes: what ``json.dumps`` will not write."""

    def __init__(self, text: str, label: str) -> None:
        self.text, self.label = text, label


DEEP = Raw("[" * 5000 + "]" * 5000, "nested 5,000 deep")
# A hostile value for any field: wrong types, non-finite and huge numbers, huge and invalid text.
HOSTILE: list[object] = [
    None,
    True,
    -1,
    1.5,
    2**63,
    -(2**63) - 1,
    10**30,
    Raw("9" * 5000, "5000 digits"),
    Raw("NaN", "NaN"),
    Raw("Infinity", "Infinity"),
    Raw("-Infinity", "-Infinity"),
    Raw("1e400", "1e400"),
    "",
    "x",
    "\ud800",
    "QS\udfff",
    HUGE_TEXT,
    "1S",
    "QS QS",
    "ZZ 10H",
    "maybe",
    "2026-13-45T99:00:00",
    [],
    ["QS"],
    {},
    {"format": "hearts-trainer/hand"},
    Raw("[" * 100_000 + "]" * 100_000, "nested 100,000 deep"),
]
# JSON held in a text column, broken as text: what a page's json.loads would meet.
BAD_JSON_TEXT = ["{", "[1,", "null", "[]", "{}", '"QS"', "[" * 50_000, "9" * 5000, "NaN", "\ud800", HUGE_TEXT]
JSON_COLUMNS = {
    "games": ("record", "opponents", "totals", "review"),
    "decisions": ("position", "themes"),
    "table_games": ("record",),
}


def _store_with_progress(path: Path, puzzles) -> Store:
    """A store as the site keeps one: a lesson begun, a puzzle answered, a reviewed game with its
    decisions, and a game in play at lesson 9's table part-way through a hand."""
    store = Store(path)
    progress = LessonProgressStore(store)
    progress.reach("l01_game", 1, 5)
    progress.answer("l01_game", "cards", True)
    trainer = PuzzleTrainer(puzzles, load_progress(store), lambda a, p: save_attempt(store, a, p))
    trainer.answer(trainer.next(kind="play").answer.best)
    game_id = record_history(store)
    summary = {"hands": 2, "decisions": 12, "accuracy": 75.0, "loss_per_hand": 1.5, "bands": {}}
    store.query("UPDATE games SET reviewed_at = ?, review = ? WHERE id = ?",
                ("2026-01-04T10:00:00", json.dumps(summary), game_id))  # fmt: skip
    session = TableSession(Rules(), 9, 0, dict.fromkeys((1, 2, 3), "easy"))
    hand = session.hand
    session.pass_selected([card.code for card in list(hand.hand(0))[:3]])
    while session.bot_to_act is not None:
        session.bot_step()
    save_table(store, "l09_play/game", "", session.to_record())
    return store


@pytest.fixture(scope="module")
def valid(tmp_path_factory, some_puzzles) -> dict:
    folder = tmp_path_factory.mktemp("fuzz")
    document = json.loads(export_bytes(_store_with_progress(folder / "site.sqlite3", some_puzzles)))
    assert all(document["tables"][table] for table in ("games", "decisions", "table_games", "puzzle_records"))
    return document


@pytest.fixture(scope="module")
def installed(tmp_path_factory, valid) -> tuple[Path, bytes]:
    """The learner's own progress file before the import: other progress of theirs, as bytes."""
    path = tmp_path_factory.mktemp("installed") / "progress.sqlite3"
    store = Store(path)
    LessonProgressStore(store).reach("l03_following", 2, 6)
    store.close()
    return path, path.read_bytes()


# ----- the variants -----

Variant = tuple[str, Callable[[dict], None]]


def _set_path(data: object, path: list, value: object) -> None:
    for step in path[:-1]:
        data = data[step]  # type: ignore[index]
    data[path[-1]] = value  # type: ignore[index]


def _inner_paths(value: object, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place inside a JSON value (the first two items of a list)."""
    if isinstance(value, dict):
        items = list(value.items())
    else:
        items = list(enumerate(value[:2])) if isinstance(value, list) else []
    for key, inner in items:
        yield (*prefix, key)
        yield from _inner_paths(inner, (*prefix, key))


def _column_variants(valid: dict, rng: random.Random) -> Iterator[Variant]:
    """Each column of each table (one row, first or last): a hostile value, or left out; and one
    column too many."""
    for table, rows in valid["tables"].items():
        if not rows:
            continue
        for column in rows[0]:
            row = rng.choice((0, len(rows) - 1))
            for value in rng.sample(HOSTILE, 2):
                label = value.label if isinstance(value, Raw) else repr(value)[:30]
                yield f"{table}[{row}].{column}={label}", _setter(["tables", table, row, column], value)
            yield f"{table}[{row}].{column} missing", _remover(table, row, column)
        yield f"{table}[0] extra column", lambda d, t=table: d["tables"][t][0].update(colour="red")
        yield f"{table}[0] not an object", _setter(["tables", table, 0], rng.choice(HOSTILE))


def _json_text_variants(valid: dict, rng: random.Random) -> Iterator[Variant]:
    """The JSON inside text columns: broken as text, or one place inside given a hostile value."""
    for table, columns in JSON_COLUMNS.items():
        for column in columns:
            text = valid["tables"][table][0][column]
            for bad in rng.sample(BAD_JSON_TEXT, 3):
                yield f"{table}[0].{column} text {bad[:12]!r}", _setter(["tables", table, 0, column], bad)
            inner = json.loads(text)
            places = list(_inner_paths(inner))
            for place in rng.sample(places, min(6, len(places))):
                value = rng.choice(HOSTILE)
                label = value.label if isinstance(value, Raw) else repr(value)[:30]
                yield (
                    f"{table}[0].{column} at {'.'.join(map(str, place))}={label}",
                    _inner_setter(table, column, list(place), value),
                )


def _frame_variants() -> Iterator[Variant]:
    yield "format", _setter(["format"], "hearts-trainer-progres")
    yield "version huge", _setter(["version"], Raw("9" * 5000, "digits"))
    yield "schema NaN", _setter(["schema"], Raw("NaN", "NaN"))
    yield "schema huge text", _setter(["schema"], HUGE_TEXT)
    yield "tables a list", _setter(["tables"], [])
    yield "tables.decisions an object", _setter(["tables", "decisions"], {})
    yield "unknown table", _setter(["tables", "x" * 1000], [])
    yield "deep nesting", _setter(["tables", "games"], Raw("[" * 100_000 + "]" * 100_000, "deep"))
    yield "decision of no game", lambda d: d["tables"]["decisions"][-1].update(game_id=999)
    yield "game ids twice", lambda d: d["tables"]["games"].append(copy.deepcopy(d["tables"]["games"][0]))


def _remover(table: str, row: int, column: str) -> Callable[[dict], None]:
    return lambda document: document["tables"][table][row].pop(column)


def _setter(path: list, value: object) -> Callable[[dict], None]:
    return lambda document: _set_path(document, path, value)


def _inner_setter(table: str, column: str, place: list, value: object) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        row = document["tables"][table][0]
        inner = json.loads(row[column])
        _set_path(inner, place, value)
        row[column] = _text(inner)

    return change


def _text(document: object) -> str:
    """JSON text with every ``Raw`` value written as it is."""
    raws: dict[str, str] = {}

    def placeholder(value: object) -> object:
        if isinstance(value, Raw):
            token = f"@@raw{len(raws)}@@"
            raws[token] = value.text
            return token
        raise TypeError(type(value).__name__)

    text = json.dumps(document, default=placeholder)
    for token, raw in raws.items():
        text = text.replace(f'"{token}"', raw)
    return text


def variants(valid: dict) -> list[Variant]:
    rng = random.Random(49)
    return [*_column_variants(valid, rng), *_json_text_variants(valid, rng), *_frame_variants()]


# ----- what the pages read -----


def _pages_read(store: Store, puzzles) -> None:
    """What each page that shows progress reads from the store, as it reads it; and every kept
    decision, game and game in play reads back whole (none left out with a notice)."""
    assert readable_decisions(store)[1] == [] and readable_games(store)[1] == []
    review = open_review(store)  # the review page
    assert review.notice == ""
    review.charts()
    game = review.last_game
    game_markdown(game)
    stored_review_markdown(game)
    kept = stored_review(game)  # a review kept whole reopens (or is offered again), never raises
    if kept is not None:
        review_markdown(kept)
        moments_markdown(kept.key_moments())
    if game is not None:
        scoresheet_for(game)
    table_csv(store, "decisions")
    progress = LessonProgressStore(store)  # the home page
    home_markdown(progress)
    next_to_do(progress)
    trainer = PuzzleTrainer(puzzles, load_progress(store), lambda attempt, progress: None)  # puzzles
    trainer.answer(trainer.next().answer.best)  # a rating moves from the imported one
    runner = LessonRunner(LESSONS["l09_play"], store)  # lesson 9, its game step: the game in play
    try:
        runner.go(next(i for i, step in enumerate(runner.lesson.steps) if step.kind == "game"))
        assert runner.notice == "", runner.notice  # the game in play resumed, or none was kept
    finally:
        runner.close()


FIELD = re.compile(r"(format|version|schema|tables(\.\S+)?): |is not a Hearts Trainer")


def test_every_hostile_file_is_refused_in_one_line_or_every_page_reads_it(
    valid, installed, tmp_path, some_puzzles, monkeypatch
) -> None:
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    path, before = installed
    made = variants(valid)
    assert len(made) > 150
    accepted = []
    store = Store(path)
    for name, change in made:
        document = copy.deepcopy(valid)
        change(document)
        saved = tmp_path / "hearts-trainer-progress.json"
        saved.write_text(_text(document), encoding="utf-8")
        try:
            import_progress(store, saved)
        except ProgressFileError as error:
            message = str(error)
            assert len(message) <= SHORT and "\n" not in message, (name, message[:500])
            head = f"{saved}: "
            assert message.startswith(head) and FIELD.match(message, len(head)), (name, message)
            assert path.read_bytes() == before, name  # refused: the learner's file as it was
            continue
        accepted.append(name)
        try:
            _pages_read(store, some_puzzles)
        except Exception as error:  # the test's point: name the file that broke a page
            raise AssertionError(f"{name}: accepted, then a page raised {error!r:.300}") from error
        finally:
            store.close()
        path.write_bytes(before)  # the next file meets the learner's progress as it was
        store = Store(path)
    store.close()
    assert len(accepted) < len(made) / 2, accepted  # most hostile changes are refused


def test_the_valid_download_imports_and_every_page_reads_it(
    valid, tmp_path, some_puzzles, monkeypatch
) -> None:
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    saved = tmp_path / "p.json"
    saved.write_text(_text(valid), encoding="utf-8")
    store = Store(tmp_path / "installed.sqlite3")
    changed = import_progress(store, saved)
    assert all(changed[table] == len(rows) for table, rows in valid["tables"].items()), changed
    _pages_read(store, some_puzzles)
    runner = LessonRunner(LESSONS["l09_play"], store)
    runner.go(next(i for i, step in enumerate(runner.lesson.steps) if step.kind == "game"))
    record = json.loads(valid["tables"]["table_games"][0]["record"])
    assert runner.widget.session.to_record()["hands"] == record["hands"]  # resumed, not dealt again
    runner.close()


def _record_with(column_text: str, **changes: object) -> str:
    record = json.loads(column_text)
    record.update(changes)
    return _text(record)


# (what the issue's 79 hostile files found, the change, the field and reason the refusal names)
FOUND: list[tuple[str, Callable[[dict], None], str]] = [
    ("a missing key column", lambda d: d["tables"]["lesson_progress"][0].pop("lesson"),
     "tables.lesson_progress[0].lesson: missing"),
    ("a value the store's CHECK refuses", _setter(["tables", "decisions", 0, "source"], "chat"),
     "tables.decisions[0].source: 'chat' is not one of lesson, puzzle, game"),
    ("NaN", _setter(["tables", "puzzle_learner", 0, "rating"], Raw("NaN", "NaN")),
     "tables.puzzle_learner[0].rating: must be a finite number, not nan"),
    ("past 64 bits", _setter(["tables", "decisions", 0, "trick"], 2**64),
     "tables.decisions[0].trick: must be 0 to 17, not 18446744073709551616"),
    ("past 64 bits in a count", _setter(["tables", "puzzle_records", 0, "due"], 2**64),
     "tables.puzzle_records[0].due: must be 0 to 1,000,000,000"),
    ("4,300 digits", _setter(["tables", "lesson_steps", 0, "attempts"], Raw("9" * 4300, "digits")),
     "tables.lesson_steps[0].attempts: expected a whole number, not <a number of 4,300 digits>"),
    ("nested too deeply", _setter(["tables", "games", 0], Raw("[" * 100_000 + "]" * 100_000, "deep")),
     "tables.games: nested more than 500 deep."),
    ("nested too deeply in a row", _setter(["tables", "decisions", 1, "themes"], DEEP),
     "tables.decisions[1].themes: nested more than 500 deep."),
    ("a lone surrogate", _setter(["tables", "lesson_steps", 0, "step"], "cards\ud800"),
     "tables.lesson_steps[0].step: not valid text: a lone surrogate '\\ud800' at character 5"),
    ("a position that is not JSON", _setter(["tables", "decisions", 0, "position"], "{not json"),
     "tables.decisions[0].position: not JSON: Expecting property name"),
    ("a position that is JSON of another shape", _setter(["tables", "decisions", 0, "position"], "[1, 2]"),
     "tables.decisions[0].position: expected an object, not [1, 2]"),
    ("a card that is not one", _setter(["tables", "decisions", 0, "choice"], "1S"),
     "tables.decisions[0].choice: '1S' is not a card"),
    ("a game in play with redeals Infinity",
     lambda d: d["tables"]["table_games"][0].update(
         record=_record_with(d["tables"]["table_games"][0]["record"], redeals=Raw("Infinity", "inf"))),
     "tables.table_games[0].record.redeals: expected a whole number, not inf"),
    ("a game in play that does not resume",
     lambda d: d["tables"]["table_games"][0].update(
         record=_record_with(d["tables"]["table_games"][0]["record"], hands=[])),
     "tables.table_games[0].record.hands: expected a list of hands, not []"),
    ("a step past the lesson's end", _setter(["tables", "lesson_progress", 0, "step"], 5),
     "tables.lesson_progress[0].step: step 5 is past the lesson's 5 steps"),
    ("more puzzles solved than tried", _setter(["tables", "puzzle_records", 0, "solved"], 2),
     "tables.puzzle_records[0].solved: more solved (2) than attempted (1)"),
    ("a kept game whose seat is not at the table", _setter(["tables", "games", 0, "seat"], 5),
     "tables.games[0].seat: there is no seat 5 at a table of 4"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), [case[1:] for case in FOUND], ids=[case[0] for case in FOUND])
def test_each_kind_of_hostile_file_the_issue_found_is_refused_naming_its_field(
    valid, tmp_path, change, message
) -> None:
    document = copy.deepcopy(valid)
    change(document)
    saved = tmp_path / "bad.json"
    saved.write_text(_text(document), encoding="utf-8")
    store = Store(tmp_path / "installed.sqlite3")
    with pytest.raises(ProgressFileError) as refused:
        import_progress(store, saved)
    assert str(refused.value).startswith(f"{saved}: {message}"), str(refused.value)[:500]
    assert store.query("SELECT COUNT(*) FROM decisions") == [(0,)]


def test_a_50_mb_value_is_not_quoted_whole(valid, tmp_path, capsys, monkeypatch) -> None:
    from trainer import cli

    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "home"))
    document = copy.deepcopy(valid)
    document["tables"]["decisions"][0]["band"] = "B" * 50_000_000
    saved = tmp_path / "big.json"
    saved.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        cli.main(["import-progress", str(saved)])
    assert done.value.code == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and len(error) < SHORT, error[:500]
    assert error.startswith(f"Nothing was imported. {saved}: tables.decisions[0].band: 'BBBB")


def test_every_column_of_the_progress_tables_has_its_own_check() -> None:
    """A column added by a later migration needs its entry in SCHEMA (else only its type is checked)."""
    from trainer.progress.schema import SCHEMA
    from trainer.progress.transfer import TABLES
    from trainer.store import MEMORY

    store = Store(MEMORY)
    for table in TABLES:
        columns = [row[1] for row in store.query(f"PRAGMA table_info({table})")]
        assert list(SCHEMA[table]) == columns, table


def test_the_field_nested_too_deeply_is_found_past_brackets_in_strings_and_escaped_quotes() -> None:
    from trainer.progress.nesting import too_deep

    text = '{"a": "[[[[\\"[[[[", "b": [1, {"c": ' + "[" * 600 + "]" * 600 + "}]}"
    assert too_deep(text, 500) == "b[1].c"
    assert too_deep(text, 700) is None
