"""Every chart's data on the recorded history of ``history.py``, worked out by hand, its reading,
and its chart: a valid Vega-Lite spec (checked against the schema Altair carries) that names
only fields its data has."""

from __future__ import annotations

import json
import pathlib

import altair
import jsonschema
import pytest

from engine import Rules
from tests.review.history import history_decisions, play_bot_game
from trainer.progress.decisions import load_decisions, record_decisions
from trainer.progress.games import game_record, load_games, save_game
from trainer.review.charts import (
    accuracy_over_time,
    all_charts,
    areas,
    decision_rows,
    game_rows,
    loss_by_direction,
    loss_by_phase,
    loss_by_theme,
    points_over_time,
)
from trainer.store import Store
from trainer.vega import MIME

MEAN = 17.5 / 12  # the twelve losses: 4 0 2 0 7 0.5 3 0 0 0 0 1


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("charts") / "p.sqlite3")
    session = play_bot_game(Rules(target=26), 5)
    game_id = save_game(store, game_record(session.game_hands, 0, session.opponents), "g")
    record_decisions(store, history_decisions(game_id))
    return store, game_id, session


@pytest.fixture(scope="module")
def frame(recorded):
    return decision_rows(load_decisions(recorded[0]))


def rows(table, key: str, *columns: str) -> dict:
    return {row[key]: tuple(row[c] for c in columns) for row in table}


def column(table, name: str) -> list:
    return [row[name] for row in table]


SCHEMA = pathlib.Path(altair.__file__).parent / "vegalite" / "v6" / "schema" / "vega-lite-schema.json"


@pytest.fixture(scope="module")
def vega_lite():
    """Vega-Lite's own JSON schema (Altair carries it), to check a spec as the browser's Vega reads it."""
    schema = json.loads(SCHEMA.read_text())
    return jsonschema.validators.validator_for(schema)(schema)


def fields(spec: dict) -> set[str]:
    """Every field a spec's encodings name."""
    named = set()
    for layer in spec.get("layer", [spec]):
        for channel in layer["encoding"].values():
            for entry in channel if isinstance(channel, list) else [channel]:
                named.add(entry["field"])
    return named


def test_the_frame_has_a_row_per_decision(frame) -> None:
    assert len(frame) == 12
    assert sum(column(frame, "loss")) == pytest.approx(17.5)
    assert sorted(set(column(frame, "day"))) == ["2026-01-01", "2026-01-02", "2026-01-03"]


def test_loss_by_theme(frame) -> None:
    table = loss_by_theme(frame)
    assert column(table, "theme") == ["queen_of_spades", "voids", "counting", "ducking", "endgame"]
    got = rows(table, "theme", "decisions", "mean_loss", "total_loss", "accuracy")
    assert got["queen_of_spades"] == pytest.approx((3, 14 / 3, 14.0, 0.0))
    assert got["voids"] == pytest.approx((2, 4.0, 8.0, 50.0))
    assert got["counting"] == pytest.approx((2, 1.0, 2.0, 50.0))
    assert got["ducking"] == pytest.approx((4, 0.625, 2.5, 75.0))
    assert got["endgame"] == pytest.approx((3, 0.0, 0.0, 100.0))


def test_loss_by_phase(frame) -> None:
    table = loss_by_phase(frame)
    assert column(table, "phase") == ["pass", "early", "middle", "late"]
    got = rows(table, "phase", "decisions", "mean_loss", "accuracy")
    assert got["pass"] == pytest.approx((3, 4.0, 100 / 3))
    assert got["early"] == pytest.approx((3, 0.5 / 3, 100.0))
    assert got["middle"] == pytest.approx((3, 5 / 3, 100 / 3))
    assert got["late"] == pytest.approx((3, 0.0, 100.0))


def test_loss_by_pass_direction(frame) -> None:
    table = loss_by_direction(frame)
    assert column(table, "pass_direction") == ["left", "right", "across", "hold"]
    got = rows(table, "pass_direction", "decisions", "mean_loss")
    assert got == {
        "left": pytest.approx((4, 1.0)),
        "right": pytest.approx((3, 3.0)),
        "across": pytest.approx((3, 1.5)),
        "hold": pytest.approx((2, 0.0)),
    }


def test_accuracy_over_time(frame) -> None:
    table = accuracy_over_time(frame)
    got = rows(table, "day", "decisions", "accuracy", "mean_loss")
    assert list(got) == ["2026-01-01", "2026-01-02", "2026-01-03"]
    assert got["2026-01-01"] == pytest.approx((4, 50.0, 1.5))
    assert got["2026-01-02"] == pytest.approx((4, 50.0, 2.625))
    assert got["2026-01-03"] == pytest.approx((4, 100.0, 0.25))


def test_points_per_hand_over_time(recorded, frame) -> None:
    store, _game_id, session = recorded
    games = load_games(store)
    table = points_over_time(game_rows(games), frame)
    hands = len(session.score_rows)
    assert len(table) == 1
    row = table[0]
    assert row["hands"] == hands
    assert row["points_per_hand"] == pytest.approx(session.totals[0] / hands)
    assert row["lost_per_hand"] == pytest.approx(10.5 / hands)  # the game's decisions: 7+.5+3
    assert points_over_time(game_rows(games), [])[0]["lost_per_hand"] is None  # not reviewed yet


def test_improvement_areas_and_strengths(frame) -> None:
    table = areas(frame)
    # voids and counting have two decisions each: too few to count
    assert column(table, "theme") == ["queen_of_spades", "ducking", "endgame"]
    assert column(table, "area") == ["improve", "strength", "strength"]
    assert column(table, "vs_average") == pytest.approx([14 / 3 - MEAN, 0.625 - MEAN, -MEAN])


def test_every_chart_has_its_data_a_chart_and_a_reading(recorded, vega_lite) -> None:
    store, _game_id, _session = recorded
    views = all_charts(load_decisions(store), load_games(store))
    assert [v.key for v in views] == ["theme", "phase", "direction", "accuracy", "points", "areas"]
    for view in views:
        spec = view.chart.to_dict()
        vega_lite.validate(spec)
        mime, text = view.chart._mime_()  # what marimo shows, in the installed version and the site
        assert mime == MIME and json.loads(text) == spec
        assert len(view.rows) > 0 and len(spec["data"]["values"]) >= len(view.rows)
        assert fields(spec) <= set(spec["data"]["values"][0])
        assert view.reading and "\n" not in view.reading
    readings = {v.key: v.reading for v in views}
    assert readings["theme"] == (
        "Most points go in queen of spades: 4.67 a decision over 3; least in endgame (0.00 over 3)."
    )
    assert (
        readings["phase"]
        == "The pass phase cost you most: 4.00 a decision over 3; the late phase least (0.00)."
    )
    assert readings["direction"] == (
        "Hands passing right cost you most: 3.00 a decision over 3; hands with no pass least (0.00)."
    )
    assert readings["accuracy"].startswith("Accuracy is up: 50% on 2026-01-01, 100% on 2026-01-03")
    assert readings["areas"] == (
        "Work on queen of spades; your strengths: endgame, ducking (against your average of 1.46 points "
        "lost a decision)."
    )
    assert readings["points"].startswith("One game so far:")


def test_with_no_history_every_chart_says_so(vega_lite) -> None:
    views = all_charts([], [])
    assert all(len(v.rows) == 0 for v in views)
    assert all(v.reading for v in views)
    for view in views:
        vega_lite.validate(view.chart.to_dict())  # an empty chart is still a chart


def test_the_minimum_attempts_decides_which_themes_count(frame) -> None:
    assert column(areas(frame, min_attempts=2), "theme") == [
        "queen_of_spades",
        "voids",
        "counting",
        "ducking",
        "endgame",
    ]
    assert column(areas(frame, min_attempts=4), "theme") == ["ducking"]


def test_a_theme_is_labelled_by_what_it_is_not_only_by_its_saved_name() -> None:
    from trainer.review.charts import theme_label

    assert theme_label("breaking_hearts") == "leading hearts"  # a heart lead breaks nothing
    assert theme_label("queen_of_spades") == "queen of spades"
