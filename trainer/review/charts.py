"""The mistake charts: where the learner's points go, from every graded decision kept.

Each chart is a ``ChartView``: a pandas DataFrame (what the chart draws, tested directly), an
altair chart of it, and a one-line reading computed from the same numbers. Losses are expected
points lost per decision (the evaluator's score difference against the best option).

Improvement areas and strengths are themes with at least ``MIN_ATTEMPTS`` decisions whose mean
loss is worse (improvement) or better (strength) than the learner's own mean over all decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import altair as alt
import pandas as pd

from ..progress.decisions import PHASES, Decision
from ..progress.games import SavedGame

__all__ = [
    "DIRECTIONS",
    "MIN_ATTEMPTS",
    "ChartView",
    "accuracy_over_time",
    "all_charts",
    "areas",
    "decisions_frame",
    "games_frame",
    "loss_by_direction",
    "loss_by_phase",
    "loss_by_theme",
    "points_over_time",
]

MIN_ATTEMPTS = 3
DIRECTIONS = ("left", "right", "across", "hold")
EMPTY = "No graded decisions yet: answer a lesson step, solve a puzzle or review a game."
WIDTH = "container"  # as wide as the page allows: a phone shows the whole chart
BELOW = alt.Legend(orient="bottom")  # a legend at the side would take a phone chart's width
MEASURES = {"points_per_hand": "points a hand", "lost_per_hand": "points lost by decisions a hand"}


@dataclass(frozen=True)
class ChartView:
    key: str
    title: str
    frame: pd.DataFrame
    chart: alt.TopLevelMixin
    reading: str


LABELS = {"breaking_hearts": "leading hearts"}
"""Themes whose name, kept in saved progress, says less than what they are: "breaking_hearts" is
whether to lead a heart, which the rules allow once hearts are broken (or the hand holds nothing
else), so the lead breaks nothing."""


def theme_label(theme: str) -> str:
    return LABELS.get(theme, theme.replace("_", " "))


def decisions_frame(decisions: Sequence[Decision]) -> pd.DataFrame:
    """One row per graded decision."""
    columns = [
        "id",
        "source",
        "ref",
        "kind",
        "phase",
        "pass_direction",
        "trick",
        "loss",
        "loss_error",
        "band",
        "good",
        "themes",
        "at",
        "day",
        "game_id",
        "hand_index",
    ]
    rows = [
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
            "at": pd.Timestamp(d.at),
            "day": d.at[:10],
            "game_id": d.game_id,
            "hand_index": d.hand_index,
        }
        for d in decisions
    ]
    return pd.DataFrame(rows, columns=columns)


def games_frame(games: Sequence[SavedGame]) -> pd.DataFrame:
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
    return pd.DataFrame(rows, columns=["game", "game_id", "day", "hands", "points", "points_per_hand"])


def _summary(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    grouped = frame.groupby(by, sort=False)
    out = pd.DataFrame(
        {
            "decisions": grouped["loss"].size(),
            "mean_loss": grouped["loss"].mean(),
            "total_loss": grouped["loss"].sum(),
            "accuracy": 100.0 * grouped["good"].mean(),
        }
    ).reset_index()
    return out


def _exploded(frame: pd.DataFrame) -> pd.DataFrame:
    exploded = frame.explode("themes").rename(columns={"themes": "theme"})
    return exploded[exploded["theme"].notna()]


def loss_by_theme(frame: pd.DataFrame) -> pd.DataFrame:
    """Per theme (a decision counts for each of its themes): decisions, mean and total loss,
    accuracy; costliest first."""
    if frame.empty:
        return pd.DataFrame(columns=["theme", "label", "decisions", "mean_loss", "total_loss", "accuracy"])
    out = _summary(_exploded(frame), "theme")
    out.insert(1, "label", out["theme"].map(theme_label))
    return out.sort_values(["mean_loss", "theme"], ascending=[False, True]).reset_index(drop=True)


def _ordered(frame: pd.DataFrame, by: str, order: Sequence[str]) -> pd.DataFrame:
    if frame.empty:
        return pd.DataFrame(columns=[by, "decisions", "mean_loss", "total_loss", "accuracy"])
    out = _summary(frame, by)
    out["_order"] = out[by].map({name: i for i, name in enumerate(order)}).fillna(len(order))
    return out.sort_values(["_order", by]).drop(columns="_order").reset_index(drop=True)


def loss_by_phase(frame: pd.DataFrame) -> pd.DataFrame:
    """Per phase of the hand: the pass, early, middle and late tricks."""
    return _ordered(frame, "phase", PHASES)


def loss_by_direction(frame: pd.DataFrame) -> pd.DataFrame:
    """Per pass direction of the hand the decision was in (every decision of that hand)."""
    return _ordered(frame, "pass_direction", DIRECTIONS)


def accuracy_over_time(frame: pd.DataFrame) -> pd.DataFrame:
    """Per day: decisions, accuracy (percent best or good) and mean loss."""
    if frame.empty:
        return pd.DataFrame(columns=["day", "decisions", "mean_loss", "total_loss", "accuracy"])
    return _summary(frame, "day").sort_values("day").reset_index(drop=True)


def points_over_time(games: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
    """Per finished game: points per hand, and expected points lost per hand by decisions
    (once the game has been reviewed; NaN before)."""
    if games.empty:
        return pd.DataFrame(columns=["game", "day", "hands", "points_per_hand", "lost_per_hand"])
    out = games[["game", "game_id", "day", "hands", "points_per_hand"]].copy()
    lost = (
        frame[frame["source"] == "game"].groupby("game_id")["loss"].sum() if not frame.empty else pd.Series()
    )
    out["lost_per_hand"] = [
        lost.get(game_id) / hands if game_id in lost.index else float("nan")
        for game_id, hands in zip(out["game_id"], out["hands"], strict=True)
    ]
    return out.drop(columns="game_id").reset_index(drop=True)


def areas(frame: pd.DataFrame, min_attempts: int = MIN_ATTEMPTS) -> pd.DataFrame:
    """Themes with at least ``min_attempts`` decisions, against the learner's own mean loss:
    ``vs_average`` > 0 is an improvement area, < 0 a strength; worst first."""
    columns = ["theme", "label", "decisions", "mean_loss", "vs_average", "area"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    average = frame["loss"].mean()
    themes = loss_by_theme(frame)
    themes = themes[themes["decisions"] >= min_attempts].copy()
    themes["vs_average"] = themes["mean_loss"] - average
    themes = themes[themes["vs_average"] != 0]
    themes["area"] = ["improve" if v > 0 else "strength" for v in themes["vs_average"]]
    return themes.sort_values("vs_average", ascending=False)[columns].reset_index(drop=True)


# ----- readings -----


def _theme_reading(themes: pd.DataFrame) -> str:
    if themes.empty:
        return EMPTY
    worst = themes.iloc[0]
    text = (
        f"Most points go in {worst['label']}: {worst['mean_loss']:.2f} a decision over {worst['decisions']}."
    )
    if len(themes) > 1:
        best = themes.iloc[-1]
        text = text[:-1] + f"; least in {best['label']} ({best['mean_loss']:.2f} over {best['decisions']})."
    return text


DIRECTION_WORDS = {
    "left": "passing left",
    "right": "passing right",
    "across": "passing across",
    "hold": "with no pass",
}


def _extremes_reading(table: pd.DataFrame, by: str, noun: str, words: dict[str, str] | None = None) -> str:
    if table.empty:
        return EMPTY
    table = table.assign(**{by: table[by].map(lambda v: (words or {}).get(v, v))})
    ranked = table.sort_values("mean_loss", ascending=False, kind="stable")
    worst = ranked.iloc[0]
    text = (
        f"{noun.format(worst[by])} cost you most: {worst['mean_loss']:.2f} a decision "
        f"over {worst['decisions']}"
    )
    if len(ranked) > 1:
        best = ranked.iloc[-1]
        text += f"; {noun.format(best[by]).lower()} least ({best['mean_loss']:.2f})"
    return text + "."


def _time_reading(days: pd.DataFrame) -> str:
    if days.empty:
        return EMPTY
    first, last = days.iloc[0], days.iloc[-1]
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


def _points_reading(points: pd.DataFrame) -> str:
    if points.empty:
        return "No finished games yet: play one in lesson 9 and it is kept here for review."
    first, last = points.iloc[0], points.iloc[-1]
    if len(points) == 1:
        return f"One game so far: {first['points_per_hand']:.1f} points a hand over {first['hands']} hands."
    return (
        f"Points a hand: {first['points_per_hand']:.1f} in your first game, {last['points_per_hand']:.1f} "
        f"in your latest ({len(points)} games)."
    )


def _areas_reading(table: pd.DataFrame, average: float | None) -> str:
    if table.empty:
        return f"No theme has {MIN_ATTEMPTS} decisions yet (or every theme is at your average)."
    improve = table[table["area"] == "improve"]["label"].tolist()
    strong = table[table["area"] == "strength"]["label"].tolist()[::-1]
    parts = []
    if improve:
        parts.append(f"Work on {', '.join(improve[:3])}")
    if strong:
        parts.append(f"your strengths: {', '.join(strong[:3])}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + f" (against your average of {average:.2f} points lost a decision)."


# ----- charts -----


def _bar(table: pd.DataFrame, x: str, y: str, title: str, sort: list[str] | str = "-x") -> alt.Chart:
    return (
        alt.Chart(table, title=title, width=WIDTH)
        .mark_bar(color="#b3261e")
        .encode(
            x=alt.X("mean_loss:Q", title="expected points lost a decision"),
            y=alt.Y(f"{y}:N", sort=sort, title=None),
            tooltip=[
                f"{y}:N",
                "decisions:Q",
                alt.Tooltip("mean_loss:Q", format=".2f"),
                alt.Tooltip("accuracy:Q", format=".0f"),
            ],
        )
    )


def all_charts(decisions: Sequence[Decision], games: Sequence[SavedGame] = ()) -> list[ChartView]:
    """Every chart, in the order the review page shows them."""
    frame = decisions_frame(decisions)
    themes = loss_by_theme(frame)
    phases = loss_by_phase(frame)
    directions = loss_by_direction(frame)
    days = accuracy_over_time(frame)
    points = points_over_time(games_frame(games), frame)
    area = areas(frame)
    average = frame["loss"].mean() if not frame.empty else None

    over_time = alt.Chart(days, title="Accuracy by day", width=WIDTH).encode(
        x=alt.X("day:O", title=None),
        tooltip=["day:O", "decisions:Q", alt.Tooltip("mean_loss:Q", format=".2f")],
    )
    accuracy_chart = over_time.mark_line(point=True, color="#1f5f99").encode(
        y=alt.Y("accuracy:Q", title="% best or good", scale=alt.Scale(domain=[0, 100]))
    )
    points_chart = (
        alt.Chart(
            points.rename(columns=MEASURES).melt(
                id_vars=["game", "day", "hands"], var_name="measure", value_name="points"
            ),
            title="Points a hand, game by game",
            width=WIDTH,
        )
        .mark_line(point=True)
        .encode(
            x=alt.X("game:O", title="game"),
            y=alt.Y("points:Q", title="points a hand"),
            color=alt.Color("measure:N", title=None, legend=BELOW),
            tooltip=["game:O", "day:O", "measure:N", alt.Tooltip("points:Q", format=".2f")],
        )
    )
    area_chart = (
        alt.Chart(area, title="Improvement areas and strengths", width=WIDTH)
        .mark_bar()
        .encode(
            x=alt.X("vs_average:Q", title="points lost a decision, against your average"),
            y=alt.Y("label:N", sort="-x", title=None),
            color=alt.Color(
                "area:N",
                scale=alt.Scale(domain=["improve", "strength"], range=["#b3261e", "#2e7d32"]),
                legend=BELOW,
            ),
            tooltip=["label:N", "decisions:Q", alt.Tooltip("mean_loss:Q", format=".2f")],
        )
    )
    return [
        ChartView(
            "theme",
            "By theme",
            themes,
            _bar(themes, "mean_loss", "label", "Points lost by theme"),
            _theme_reading(themes),
        ),
        ChartView(
            "phase",
            "By phase of the hand",
            phases,
            _bar(phases, "mean_loss", "phase", "Points lost by phase of the hand", list(PHASES)),
            _extremes_reading(phases, "phase", "The {} phase"),
        ),
        ChartView(
            "direction",
            "By pass direction",
            directions,
            _bar(
                directions, "mean_loss", "pass_direction", "Points lost by pass direction", list(DIRECTIONS)
            ),
            _extremes_reading(directions, "pass_direction", "Hands {}", DIRECTION_WORDS),
        ),
        ChartView("accuracy", "Accuracy over time", days, accuracy_chart, _time_reading(days)),
        ChartView("points", "Points a hand over time", points, points_chart, _points_reading(points)),
        ChartView(
            "areas", "Improvement areas and strengths", area, area_chart, _areas_reading(area, average)
        ),
    ]
