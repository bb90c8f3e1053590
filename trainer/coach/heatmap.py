"""A heat map of every pass: which cards belong together in a good pass.

Each cell pairs two cards of the hand; its colour is the expected points lost by the best
pass that contains both (from the evaluator's values for all C(13, 3) = 286 passes). The
diagonal shows each card alone. A dark row marks a card that belongs in every good pass.

The map is a Vega-Lite spec (``trainer.vega``): it needs neither pandas nor Altair, so the
static site (Pyodide, offline) shows it as the installed version does.
"""

from __future__ import annotations

from engine import CardSet
from engine.search.evaluator import Evaluation

from ..vega import VegaLite

__all__ = ["pass_heatmap", "pass_pairs"]


def pass_pairs(evaluation: Evaluation, hand: CardSet) -> list[dict[str, object]]:
    """One row per pair of cards in the hand (and per card alone): the smallest loss of any
    evaluated pass containing them, and how many passes contain them."""
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
    return rows


def pass_heatmap(evaluation: Evaluation, hand: CardSet, chosen: CardSet | None = None) -> VegaLite:
    """The map, the ``chosen`` pass's pairs outlined."""
    order = [str(card) for card in hand]
    x = {"field": "first", "type": "nominal", "sort": order, "title": None}
    y = {"field": "second", "type": "nominal", "sort": order, "title": None}
    heat = {
        "data": {"values": pass_pairs(evaluation, hand)},
        "mark": "rect",
        "encoding": {
            "x": x,
            "y": y,
            "color": {
                "field": "best_loss",
                "type": "quantitative",
                "scale": {"scheme": "redyellowgreen", "reverse": True},
                "title": "points lost",
                "legend": {"orient": "bottom"},  # beside the map it would not fit a phone
            },
            "tooltip": [
                {"field": "first", "type": "nominal"},
                {"field": "second", "type": "nominal"},
                {"field": "best_loss", "type": "quantitative", "format": ".1f"},
                {"field": "passes", "type": "quantitative"},
            ],
        },
    }
    layers = [heat]
    if chosen is not None:
        picked = [str(card) for card in chosen]
        marks = [{"first": a, "second": b} for i, a in enumerate(picked) for b in picked[i:]]
        layers.append(
            {
                "data": {"values": marks},
                "mark": {"type": "rect", "fill": None, "stroke": "black", "strokeWidth": 2},
                "encoding": {"x": x, "y": y},
            }
        )
    return VegaLite(
        {"title": "Best pass containing each pair of cards", "width": 280, "height": 280, "layer": layers}
    )
