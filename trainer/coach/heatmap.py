"""A heat map of every pass: which cards belong together in a good pass.

Each cell pairs two cards of the hand; its colour is the expected points lost by the best
pass that contains both (from the evaluator's values for all C(13, 3) = 286 passes). The
diagonal shows each card alone. A dark row marks a card that belongs in every good pass.

pandas and Altair are imported when a map is drawn: the static site (Pyodide, offline) has
neither, and there ``pass_heatmap`` gives None (no map; the ranking of passes is shown as text).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import CardSet
from engine.evaluator import Evaluation

if TYPE_CHECKING:
    import altair as alt
    import pandas as pd

__all__ = ["pass_heatmap", "pass_pairs"]


def pass_pairs(evaluation: Evaluation, hand: CardSet) -> pd.DataFrame:
    """One row per pair of cards in the hand (and per card alone): the smallest loss of any
    evaluated pass containing them, and how many passes contain them."""
    import pandas as pd

    if evaluation.kind != "pass":
        raise ValueError("a heat map of passes needs a pass evaluation")
    cards = list(hand)
    rows = []
    for i, first in enumerate(cards):
        for second in cards[i:]:
            containing = [v.loss for v in evaluation.options if first in v.option and second in v.option]
            rows.append(
                {
                    "first": str(first),
                    "second": str(second),
                    "first_order": i,
                    "second_order": cards.index(second),
                    "best_loss": min(containing),
                    "passes": len(containing),
                }
            )
    return pd.DataFrame(rows)


def pass_heatmap(evaluation: Evaluation, hand: CardSet, chosen: CardSet | None = None) -> alt.Chart | None:
    try:
        import altair as alt
        import pandas as pd
    except ImportError:  # the static site: no Altair (nor pandas) in the browser
        return None
    data = pass_pairs(evaluation, hand)
    order = [str(card) for card in hand]
    chart = (
        alt.Chart(data)
        .mark_rect()
        .encode(
            x=alt.X("first:N", sort=order, title=None),
            y=alt.Y("second:N", sort=order, title=None),
            color=alt.Color(
                "best_loss:Q",
                scale=alt.Scale(scheme="redyellowgreen", reverse=True),
                title="points lost",
                legend=alt.Legend(orient="bottom"),  # beside the map it would not fit a phone
            ),
            tooltip=["first", "second", alt.Tooltip("best_loss:Q", format=".1f"), "passes"],
        )
        .properties(width=280, height=280, title="Best pass containing each pair of cards")
    )
    if chosen is None:
        return chart
    picked = [str(card) for card in chosen]
    marks = pd.DataFrame([{"first": a, "second": b} for i, a in enumerate(picked) for b in picked[i:]])
    outline = (
        alt.Chart(marks)
        .mark_rect(fill=None, stroke="black", strokeWidth=2)
        .encode(x=alt.X("first:N", sort=order), y=alt.Y("second:N", sort=order))
    )
    return chart + outline
