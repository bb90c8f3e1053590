"""The mistake charts: where the learner's points go, from every graded decision kept.

Each chart is a ``ChartView``: its table (rows of plain values: what the chart draws, tested
directly), the chart itself as a Vega-Lite spec (``trainer.vega``: shown by marimo in the
installed version and in the static site alike, with neither pandas nor Altair), and a one-line
reading computed from the same numbers. Losses are expected points lost per decision (the
evaluator's score difference against the best option).

Improvement areas and strengths are themes with at least ``MIN_ATTEMPTS`` decisions whose mean
loss is worse (improvement) or better (strength) than the learner's own mean over all decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..progress.decisions import PHASES, Decision
from ..progress.games import SavedGame
from ..vega import VegaLite, plain

__all__ = [
    "DIRECTIONS",
    "MIN_ATTEMPTS",
    "ChartRows",
    "ChartView",
    "accuracy_over_time",
    "all_charts",
    "areas",
    "decision_rows",
    "game_rows",
    "loss_by_direction",
    "loss_by_phase",
    "loss_by_theme",
    "points_over_time",
]

ChartRows = list[dict[str, object]]
"""A table: one dict a row, every row the same keys."""

MIN_ATTEMPTS = 3
DIRECTIONS = ("left", "right", "across", "hold")
EMPTY = "No graded decisions yet: answer a lesson step, solve a puzzle or review a game."
WIDTH = "container"  # as wide as the page allows: a phone shows the whole chart
BELOW = {"orient": "bottom"}  # a legend at the side would take a phone chart's width
MEASURES = {"points_per_hand": "points a hand", "lost_per_hand": "points lost by decisions a hand"}


@dataclass(frozen=True)
class ChartView:
    key: str
    title: str
    rows: ChartRows
    chart: VegaLite
    reading: str


LABELS = {"breaking_hearts": "leading hearts"}
"""Themes whose name, kept in saved progress, says less than what they are: "breaking_hearts" is
whether to lead a heart, which the rules allow once hearts are broken (or the hand holds nothing
else), so the lead breaks nothing."""


def theme_label(theme: str) -> str:
    return LABELS.get(theme, theme.replace("_", " "))


def decision_rows(decisions: Sequence[Decision]) -> ChartRows:
    """One row per graded decision."""
    return [
        {
            "id": d.id,
            "source": d.source,
            "ref": d.ref,
            "kind": d.kind,
            "phase": d.phase,
            "pass_direction": d.pass_direction,
            "trick": d.trick,
            "loss": float(d.loss),
            "loss_error": float(d.loss_error),
            "band": d.band,
            "good": d.good,
            "themes": tuple(d.themes),
            "at": d.at,
            "day": d.at[:10],
            "game_id": d.game_id,
            "hand_index": d.hand_index,
        }
        for d in decisions
    ]


def game_rows(games: Sequence[SavedGame]) -> ChartRows:
    """One row per finished game: the learner's points and points per hand."""
    rows = []
    for number, game in enumerate(games, start=1):
        points = sum(hand.result.scores[game.seat] for hand in game.hands)
        rows.append(
            {
                "game": number,
                "game_id": game.id,
                "day": game.finished_at[:10],
                "hands": len(game.hands),
                "points": points,
                "points_per_hand": points / len(game.hands),
            }
        )
    return rows


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _summary(rows: ChartRows, by: str) -> ChartRows:
    """Per value of ``by``, in order of first appearance: decisions, mean and total loss, and the
    percentage of best or good decisions."""
    groups: dict[object, ChartRows] = {}
    for row in rows:
        groups.setdefault(row[by], []).append(row)
    return [
        {
            by: key,
            "decisions": len(group),
            "mean_loss": _mean([row["loss"] for row in group]),
            "total_loss": sum(row["loss"] for row in group),
            "accuracy": 100.0 * _mean([1.0 if row["good"] else 0.0 for row in group]),
        }
        for key, group in groups.items()
    ]


def loss_by_theme(rows: ChartRows) -> ChartRows:
    """Per theme (a decision counts for each of its themes): decisions, mean and total loss,
    accuracy; costliest first."""
    exploded = [{**row, "theme": theme} for row in rows for theme in row["themes"]]
    out = [{"theme": r["theme"], "label": theme_label(r["theme"]), **r} for r in _summary(exploded, "theme")]
    return sorted(out, key=lambda r: (-r["mean_loss"], r["theme"]))


def _ordered(rows: ChartRows, by: str, order: Sequence[str]) -> ChartRows:
    place = {name: i for i, name in enumerate(order)}
    return sorted(_summary(rows, by), key=lambda r: (place.get(r[by], len(order)), str(r[by])))


def loss_by_phase(rows: ChartRows) -> ChartRows:
    """Per phase of the hand: the pass, early, middle and late tricks."""
    return _ordered(rows, "phase", PHASES)


def loss_by_direction(rows: ChartRows) -> ChartRows:
    """Per pass direction of the hand the decision was in (every decision of that hand)."""
    return _ordered(rows, "pass_direction", DIRECTIONS)


def accuracy_over_time(rows: ChartRows) -> ChartRows:
    """Per day: decisions, accuracy (percent best or good) and mean loss."""
    return sorted(_summary(rows, "day"), key=lambda r: r["day"])


def points_over_time(games: ChartRows, rows: ChartRows) -> ChartRows:
    """Per finished game: points per hand, and expected points lost per hand by decisions
    (once the game has been reviewed; None before)."""
    lost: dict[object, float] = {}
    for row in rows:
        if row["source"] == "game":
            lost[row["game_id"]] = lost.get(row["game_id"], 0.0) + row["loss"]
    return [
        {
            "game": game["game"],
            "day": game["day"],
            "hands": game["hands"],
            "points_per_hand": game["points_per_hand"],
            "lost_per_hand": lost[game["game_id"]] / game["hands"] if game["game_id"] in lost else None,
        }
        for game in games
    ]


def areas(rows: ChartRows, min_attempts: int = MIN_ATTEMPTS) -> ChartRows:
    """Themes with at least ``min_attempts`` decisions, against the learner's own mean loss:
    ``vs_average`` > 0 is an improvement area, < 0 a strength; worst first."""
    if not rows:
        return []
    average = _mean([row["loss"] for row in rows])
    out = []
    for theme in loss_by_theme(rows):
        versus = theme["mean_loss"] - average
        if theme["decisions"] >= min_attempts and versus != 0:
            out.append({
                "theme": theme["theme"],
                "label": theme["label"],
                "decisions": theme["decisions"],
                "mean_loss": theme["mean_loss"],
                "vs_average": versus,
                "area": "improve" if versus > 0 else "strength",
            })  # fmt: skip
    return sorted(out, key=lambda r: -r["vs_average"])


# ----- readings -----


def _theme_reading(themes: ChartRows) -> str:
    if not themes:
        return EMPTY
    worst = themes[0]
    text = (
        f"Most points go in {worst['label']}: {worst['mean_loss']:.2f} a decision over {worst['decisions']}."
    )
    if len(themes) > 1:
        best = themes[-1]
        text = text[:-1] + f"; least in {best['label']} ({best['mean_loss']:.2f} over {best['decisions']})."
    return text


DIRECTION_WORDS = {
    "left": "passing left",
    "right": "passing right",
    "across": "passing across",
    "hold": "with no pass",
}


def _extremes_reading(table: ChartRows, by: str, noun: str, words: dict[str, str] | None = None) -> str:
    if not table:
        return EMPTY
    ranked = sorted(table, key=lambda r: -r["mean_loss"])  # stable: ties keep the table's order
    worst, best = ranked[0], ranked[-1]

    def name(row: dict) -> str:
        return noun.format((words or {}).get(row[by], row[by]))

    text = f"{name(worst)} cost you most: {worst['mean_loss']:.2f} a decision over {worst['decisions']}"
    if len(ranked) > 1:
        text += f"; {name(best).lower()} least ({best['mean_loss']:.2f})"
    return text + "."


def _time_reading(days: ChartRows) -> str:
    if not days:
        return EMPTY
    first, last = days[0], days[-1]
    if len(days) == 1:
        return (
            f"{first['accuracy']:.0f}% of your {first['decisions']} decisions on {first['day']} "
            "were best or good."
        )
    trend = (
        "up"
        if last["accuracy"] > first["accuracy"]
        else "down"
        if last["accuracy"] < first["accuracy"]
        else "level"
    )
    return (
        f"Accuracy is {trend}: {first['accuracy']:.0f}% on {first['day']}, {last['accuracy']:.0f}% on "
        f"{last['day']}; points lost a decision {first['mean_loss']:.2f} then {last['mean_loss']:.2f}."
    )


def _points_reading(points: ChartRows) -> str:
    if not points:
        return "No finished games yet: play one in lesson 9 and it is kept here for review."
    first, last = points[0], points[-1]
    if len(points) == 1:
        return f"One game so far: {first['points_per_hand']:.1f} points a hand over {first['hands']} hands."
    return (
        f"Points a hand: {first['points_per_hand']:.1f} in your first game, {last['points_per_hand']:.1f} "
        f"in your latest ({len(points)} games)."
    )


def _areas_reading(table: ChartRows, average: float | None) -> str:
    if not table:
        return f"No theme has {MIN_ATTEMPTS} decisions yet (or every theme is at your average)."
    improve = [row["label"] for row in table if row["area"] == "improve"]
    strong = [row["label"] for row in table if row["area"] == "strength"][::-1]
    parts = []
    if improve:
        parts.append(f"Work on {', '.join(improve[:3])}")
    if strong:
        parts.append(f"your strengths: {', '.join(strong[:3])}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + f" (against your average of {average:.2f} points lost a decision)."


# ----- charts -----


def _values(table: ChartRows, fields: Sequence[str]) -> dict:
    """The chart's inline data: the fields it draws, as JSON has them."""
    return {"values": [{field: plain(row[field]) for field in fields} for row in table]}


def _field(name: str, kind: str = "quantitative", **more: object) -> dict:
    return {"field": name, "type": kind, **more}


def _bar(table: ChartRows, y: str, title: str, sort: list[str] | str = "-x") -> VegaLite:
    return VegaLite({
        "title": title,
        "width": WIDTH,
        "data": _values(table, [y, "decisions", "mean_loss", "accuracy"]),
        "mark": {"type": "bar", "color": "#b3261e"},
        "encoding": {
            # At least 0 to 1 point wide: with every loss 0 the axis would have no length.
            "x": _field(
                "mean_loss", title="expected points lost a decision", scale={"domain": {"unionWith": [0, 1]}}
            ),
            "y": _field(y, "nominal", sort=sort, title=None),
            "tooltip": [
                _field(y, "nominal"),
                _field("decisions"),
                _field("mean_loss", format=".2f"),
                _field("accuracy", format=".0f"),
            ],
        },
    })  # fmt: skip


def _accuracy_chart(days: ChartRows) -> VegaLite:
    return VegaLite({
        "title": "Accuracy by day",
        "width": WIDTH,
        "data": _values(days, ["day", "decisions", "mean_loss", "accuracy"]),
        "mark": {"type": "line", "point": True, "color": "#1f5f99"},
        "encoding": {
            "x": _field("day", "ordinal", title=None),
            "y": _field("accuracy", title="% best or good", scale={"domain": [0, 100]}),
            "tooltip": [_field("day", "ordinal"), _field("decisions"), _field("mean_loss", format=".2f")],
        },
    })  # fmt: skip


def _points_chart(points: ChartRows) -> VegaLite:
    long = [
        {"game": row["game"], "day": row["day"], "hands": row["hands"], "measure": label, "points": row[key]}
        for row in points
        for key, label in MEASURES.items()
    ]
    return VegaLite({
        "title": "Points a hand, game by game",
        "width": WIDTH,
        "data": _values(long, ["game", "day", "hands", "measure", "points"]),
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": _field("game", "ordinal", title="game"),
            "y": _field("points", title="points a hand"),
            "color": _field("measure", "nominal", title=None, legend=BELOW),
            "tooltip": [
                _field("game", "ordinal"),
                _field("day", "ordinal"),
                _field("measure", "nominal"),
                _field("points", format=".2f"),
            ],
        },
    })  # fmt: skip


def _areas_chart(area: ChartRows) -> VegaLite:
    colours = {"domain": ["improve", "strength"], "range": ["#b3261e", "#2e7d32"]}
    return VegaLite({
        "title": "Improvement areas and strengths",
        "width": WIDTH,
        "data": _values(area, ["label", "decisions", "mean_loss", "vs_average", "area"]),
        "mark": "bar",
        "encoding": {
            "x": _field("vs_average", title="points lost a decision, against your average"),
            "y": _field("label", "nominal", sort="-x", title=None),
            "color": _field("area", "nominal", scale=colours, legend=BELOW),
            "tooltip": [_field("label", "nominal"), _field("decisions"), _field("mean_loss", format=".2f")],
        },
    })  # fmt: skip


def all_charts(decisions: Sequence[Decision], games: Sequence[SavedGame] = ()) -> list[ChartView]:
    """Every chart, in the order the review page shows them."""
    rows = decision_rows(decisions)
    themes = loss_by_theme(rows)
    phases = loss_by_phase(rows)
    directions = loss_by_direction(rows)
    days = accuracy_over_time(rows)
    points = points_over_time(game_rows(games), rows)
    area = areas(rows)
    average = _mean([row["loss"] for row in rows]) if rows else None
    views: list[tuple[str, str, ChartRows, Callable[[ChartRows], VegaLite], str]] = [
        (
            "theme",
            "By theme",
            themes,
            lambda t: _bar(t, "label", "Points lost by theme"),
            _theme_reading(themes),
        ),
        (
            "phase",
            "By phase of the hand",
            phases,
            lambda t: _bar(t, "phase", "Points lost by phase of the hand", list(PHASES)),
            _extremes_reading(phases, "phase", "The {} phase"),
        ),
        (
            "direction",
            "By pass direction",
            directions,
            lambda t: _bar(t, "pass_direction", "Points lost by pass direction", list(DIRECTIONS)),
            _extremes_reading(directions, "pass_direction", "Hands {}", DIRECTION_WORDS),
        ),
        ("accuracy", "Accuracy over time", days, _accuracy_chart, _time_reading(days)),
        ("points", "Points a hand over time", points, _points_chart, _points_reading(points)),
        ("areas", "Improvement areas and strengths", area, _areas_chart, _areas_reading(area, average)),
    ]
    return [ChartView(key, title, table, draw(table), reading) for key, title, table, draw, reading in views]
