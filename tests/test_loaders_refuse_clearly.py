"""Every loader refuses malformed input with the project's own error, naming the field in a short
message, and changes nothing: wrong types, huge strings and numbers, deep nesting, None."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import HandState, Rules, game_to_record, hand_to_record
from engine.cards import CardParseError, parse_card, parse_cards
from engine.game import Game
from engine.records import RecordError, game_from_record, hand_from_record, loads
from engine.rules import PRESETS, RANGES, RulesError
from trainer.table import TableWidget

SHORT = 300


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _deep_dict(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


HOSTILE: list[object] = [
    None,
    True,
    -1,
    0,
    10**100,
    -(10**100),
    10**5000,  # past Python's 4,300-digit int-to-text limit
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "QS" * 10,
    "Q" * 5_000_000,  # a 5 MB string: must never be echoed whole
    "♠" * 100_000,
    [],
    [None],
    ["QS"] * 1000,
    list(range(10_000)),
    {},
    {"preset": "omnibus"},
    {"x" * 100_000: 1},
    _deep(100_000),  # deeper than Python's recursion limit
    _deep_dict(50_000),
    b"QS",
]

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# Hostile values are drawn by their index: hypothesis cannot print a list 100,000 deep.
_any_value = st.sampled_from(range(len(HOSTILE))) | st.tuples(st.just("json"), _json_values)


def _value(drawn: int | tuple[str, object]) -> object:
    return HOSTILE[drawn] if isinstance(drawn, int) else drawn[1]


def _assert_short(error: Exception) -> str:
    message = str(error)
    assert len(message) < SHORT, message[:400]
    return message


# ----- rules -----

RULE_FIELDS = list(Rules().to_dict())


@given(field=st.sampled_from([*RULE_FIELDS, "preset"]), drawn=_any_value)
@settings(max_examples=400, deadline=None)
def test_a_bad_rule_value_is_a_rules_error_naming_the_option(field, drawn) -> None:
    value = _value(drawn)
    try:
        rules = Rules.from_dict({field: value}, where="table.rules")
    except RulesError as error:
        assert _assert_short(error).startswith(f"table.rules.{field}:")
        return
    if field != "preset":  # what was accepted is what was given, and within sense
        assert getattr(rules, field) == value
        if field in RANGES:
            low, high = RANGES[field]
            assert low <= value <= high


@pytest.mark.parametrize("data", HOSTILE, ids=lambda v: type(v).__name__)
def test_rules_that_are_not_options_are_refused_with_a_short_message(data) -> None:
    if isinstance(data, dict) and set(data) <= {"preset"}:
        assert isinstance(Rules.from_dict(data), Rules)
        return
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(data)
    assert _assert_short(caught.value).startswith("rules")


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("target", 10**100, "1 to 1000"),
        ("target", 0, "1 to 1000"),
        ("jack_of_diamonds_points", 10, "-26 to 0"),
        ("jack_of_diamonds_points", -27, "-26 to 0"),
        ("queen_of_spades_points", 51, "0 to 50"),
        ("no_tricks_bonus", 5, "-26 to 0"),
    ],
)
def test_rule_values_outside_sense_are_refused_with_the_allowed_range(field, value, allowed) -> None:
    with pytest.raises(RulesError, match=f"^rules.{field}: must be {allowed}, not "):
        Rules.from_dict({field: value})


def test_every_preset_is_within_the_allowed_ranges() -> None:
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


# ----- records -----


@pytest.mark.parametrize(
    "text",
    [None, 5, [], "", "[" * 100_000, "1" * 5000, '{"a": ' + "9" * 5000 + "}", "x" * 5_000_000, "{" * 10],
    ids=lambda v: f"{type(v).__name__}-{len(v) if isinstance(v, str) else ''}",
)
def test_loads_refuses_what_is_not_json_it_reads(text) -> None:
    with pytest.raises(RecordError) as caught:
        loads(text)
    assert _assert_short(caught.value).startswith("record")


def _hand_record() -> dict:
    state = HandState.from_seed(11, Rules())
    for seat in range(4):
        state.pass_cards(seat, list(state.hand(seat))[:3])
    for _ in range(2):
        state.play(next(iter(state.legal_cards())))
    return hand_to_record(state)


def _paths(value: object, prefix: str = "") -> list[str]:
    """Every field path in a record, as the loaders name them (``actions[0].pass``)."""
    paths = []
    if isinstance(value, dict):
        for key, inner in value.items():
            path = f"{prefix}.{key}" if prefix else key
            paths += [path, *_paths(inner, path)]
    elif isinstance(value, list):
        for index, inner in enumerate(value[:2]):
            path = f"{prefix}[{index}]"
            paths += [path, *_paths(inner, path)]
    return paths


def _set(record: dict, path: str, value: object) -> None:
    parts = path.replace("[", ".[").split(".")
    target: object = record
    for part in parts[:-1]:
        target = target[int(part[1:-1])] if part.startswith("[") else target[part]  # type: ignore[index]
    last = parts[-1]
    if last.startswith("["):
        target[int(last[1:-1])] = value  # type: ignore[index]
    else:
        target[last] = value  # type: ignore[index]


HAND_RECORD = _hand_record()
GAME_RECORD = game_to_record(Game(Rules(target=26), 5))
HAND_PATHS = _paths(HAND_RECORD)


def _get(record: dict, path: str) -> object:
    value: object = record
    for part in path.replace("[", ".[").split("."):
        value = value[int(part[1:-1])] if part.startswith("[") else value[part]  # type: ignore[index]
    return value


def _names_the_field(message: str, path: str, record: dict, value: object) -> bool:
    """The message starts with the field's path or the part of the record it belongs to; or, for
    a value of the right kind that other fields then contradict (another seed: the passes no
    longer fit), with the path of the field that does."""
    head = message.split(": ", 1)[0]
    if path.startswith(head) or head.startswith(path):
        return True
    return type(value) is type(_get(record, path)) and head in _paths(record)


@given(path=st.sampled_from(HAND_PATHS), drawn=_any_value)
@settings(max_examples=400, deadline=None)
def test_a_bad_field_in_a_hand_record_is_a_record_error_naming_it(path, drawn) -> None:
    value = _value(drawn)
    record = copy.deepcopy(HAND_RECORD)
    _set(record, path, value)
    try:
        hand_from_record(record)
    except RecordError as error:
        message = _assert_short(error)
        assert _names_the_field(message, path, HAND_RECORD, value), (path, message)


@given(path=st.sampled_from(["format", "version", "rules", "seed", "hands", "hands[0]", "hands[0].deal"]),
       drawn=_any_value)  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_a_bad_field_in_a_game_record_is_a_record_error_naming_it(path, drawn) -> None:
    value = _value(drawn)
    record = copy.deepcopy(GAME_RECORD)
    _set(record, path, value)
    try:
        game_from_record(record)
    except RecordError as error:
        message = _assert_short(error)
        assert _names_the_field(message, path, GAME_RECORD, value), (path, message)


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: type(v).__name__)
def test_a_record_that_is_not_an_object_is_refused(value) -> None:
    for load in (hand_from_record, game_from_record):
        with pytest.raises(RecordError) as caught:
            load(value)
        _assert_short(caught.value)


# ----- cards -----


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: type(v).__name__)
def test_a_card_that_is_not_one_is_a_short_card_parse_error(value) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card(value)  # type: ignore[arg-type]
    assert "is not a card" in _assert_short(caught.value)


def test_a_huge_card_text_is_quoted_once_and_briefly() -> None:
    with pytest.raises(CardParseError) as caught:
        parse_cards(["QS", "A" * 5_000_000 + "Z"])
    message = str(caught.value)
    assert len(message) < SHORT and message.count("'AAAAAAAA") == 1  # quoted once, cut short


# ----- the table widget -----

WIDGET_FIELDS = [("select", "cards", "card"), ("toggle", "card", "card"), ("pass", "cards", "card"),
                 ("play", "card", "card"), ("moon", "choice", "moon")]  # fmt: skip


def _widget() -> TableWidget:
    widget = TableWidget(seed=7, bot_delay=0)
    mine = [card.code for card in widget.session.hand.hand(0)][:3]
    assert widget.handle({"type": "pass", "cards": mine})  # a hand part-way: more to lose
    return widget


def _state(widget: TableWidget) -> str:
    return json.dumps([widget.session.to_record(), widget.table, widget.session.selected])


@given(field=st.sampled_from(WIDGET_FIELDS), drawn=_any_value)
@settings(max_examples=300, deadline=None)
def test_a_bad_widget_message_is_a_short_table_error_and_changes_nothing(field, drawn) -> None:
    value = _value(drawn)
    kind, key, word = field
    widget = WIDGET
    before = _state(widget)
    if widget.handle({"type": kind, key: value}):  # a valid choice by chance: nothing to check
        widget.session.selected = ()
        return
    assert len(widget.error["message"]) < SHORT
    message = widget.error["message"]
    # it says what was wrong: the kind of thing, or the very card ("You do not hold the 2♣.")
    assert word in message.lower() or re.search(r"(10|[2-9JQKA])[♣♦♠♥]", message), widget.error
    assert _state(widget) == before


@pytest.mark.parametrize(
    "message", [*HOSTILE, *({"type": v} for v in HOSTILE)], ids=lambda v: type(v).__name__
)
def test_a_widget_message_without_a_known_type_is_refused_briefly(message) -> None:
    before = _state(WIDGET)
    assert WIDGET.handle(message) is False
    assert len(WIDGET.error["message"]) < SHORT and "type" in WIDGET.error["message"]
    assert _state(WIDGET) == before


def test_a_5_mb_card_in_a_widget_message_gives_a_short_error() -> None:
    widget = _widget()
    widget.handle({"type": "play", "card": "Q" * 5_000_000 + "S"})
    assert widget.error["reason"] == "bad_card" and len(widget.error["message"]) < SHORT


WIDGET = _widget()


# ----- records read back from the progress file -----


@pytest.mark.parametrize(
    ("column", "text"),
    [("record", "[" * 100_000), ("record", "null"), ("record", '{"hands": [7]}'), ("totals", "1" * 5000),
     ("opponents", "{")],
)  # fmt: skip
def test_a_kept_game_that_does_not_read_back_is_named_and_left_as_it_is(tmp_path, column, text) -> None:
    from trainer.progress.games import load_games
    from trainer.store import Store

    store = Store(tmp_path / "progress.sqlite3")
    row = {"record": "{}", "opponents": "{}", "totals": "[]"} | {column: text}
    with store.transaction() as db:
        db.execute(
            "INSERT INTO games (key, seat, opponents, record, totals, finished_at) "
            "VALUES ('k', 0, ?, ?, ?, 'now')",
            (row["opponents"], row["record"], row["totals"]),
        )
    if column != "record":  # the record itself must read back for the later columns to be reached
        store.query("UPDATE games SET record = ?", (json.dumps(GAME_RECORD | {"hands": []}),))
    with pytest.raises(RecordError) as caught:
        load_games(store)
    message = _assert_short(caught.value)
    assert message.startswith(f"games row 1, {column}: ")
    assert store.query(f"SELECT {column} FROM games") == [(text,)]  # left as it was


def test_a_game_in_play_that_does_not_read_back_is_a_record_error(tmp_path) -> None:
    from trainer.progress.tables import load_table
    from trainer.store import Store

    store = Store(tmp_path / "progress.sqlite3")
    with store.transaction() as db:
        db.execute("INSERT INTO table_games VALUES ('l09_play/game', '', ?, 'now')", ("[" * 100_000,))
    with pytest.raises(RecordError, match="nested too deeply"):
        load_table(store, "l09_play/game")


def test_a_game_in_play_with_a_number_that_is_not_finite_is_a_notice_and_a_new_game(
    tmp_path, monkeypatch
) -> None:
    """Lesson 9 with a kept game whose redeals is Infinity (as an import before issue 49 could
    keep): the page says the game cannot be resumed and deals a new one, which opens next time."""
    from trainer.lessons.catalog import LESSONS
    from trainer.lessons.runner import LessonRunner
    from trainer.store import Store
    from trainer.table import TableSession

    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    record = TableSession(Rules(), 9, 0).to_record() | {"redeals": float("inf")}
    store = Store(tmp_path / "progress.sqlite3")
    with store.transaction() as db:
        db.execute("INSERT INTO table_games VALUES ('l09_play/game', '', ?, 'now')", (json.dumps(record),))
    first = LessonRunner(LESSONS["l09_play"], store)
    first.close()
    assert (
        first.notice == "The saved game cannot be resumed: a number in it is not finite. A new game is dealt."
    )
    again = LessonRunner(LESSONS["l09_play"], store)
    again.close()
    assert again.notice == ""


@pytest.mark.parametrize(
    ("column", "text"), [("position", "{oops"), ("position", "[1]"), ("themes", "[" * 100_000)]
)
def test_a_kept_decision_that_does_not_read_back_is_named_and_the_review_opens(
    tmp_path, column, text
) -> None:
    """As an import before issue 49 could keep: the review shows the other decisions."""
    from tests.review.history import history_decisions
    from trainer.progress.decisions import load_decisions, readable_decisions, record_decisions
    from trainer.review.page import open_review
    from trainer.store import Store

    store = Store(tmp_path / "progress.sqlite3")
    record_decisions(store, history_decisions())
    store.query(f"UPDATE decisions SET {column} = ? WHERE id = 3", (text,))
    decisions, problems = readable_decisions(store)
    assert len(decisions) == 11 and 3 not in [d.id for d in decisions]
    (problem,) = problems
    assert problem.startswith(f"decisions row 3, {column}: ") and len(problem) < SHORT
    assert load_decisions(store) == decisions
    review = open_review(store)
    assert len(review.decisions) == 11
    assert review.notice == f"1 kept decision could not be read and is left out: {problem}"
    assert store.query(f"SELECT {column} FROM decisions WHERE id = 3") == [(text,)]  # left as it was
