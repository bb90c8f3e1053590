"""The pass heat map is a Vega-Lite spec (no pandas, no Altair: the static site shows it too): valid
by Vega-Lite's own schema, a cell for every pair of cards in the hand, the learner's pass outlined."""

from __future__ import annotations

import json
import pathlib

import altair
import jsonschema

from engine import CardSet, HandState, Rules
from engine.search.budget import PassBudget
from engine.search.evaluator import evaluate_pass
from trainer.coach.heatmap import pass_heatmap
from trainer.vega import MIME

SCHEMA = pathlib.Path(altair.__file__).parent / "vegalite" / "v6" / "schema" / "vega-lite-schema.json"


def test_the_heat_map_is_a_valid_spec_with_every_pair_and_the_pass_outlined() -> None:
    view = HandState.from_seed(3, Rules(), "left").view(0)
    evaluation = evaluate_pass(view, PassBudget(samples=64, stages=((32, 8),)), seed=1)
    chosen = CardSet(list(view.hand)[:3])
    chart = pass_heatmap(evaluation, view.hand, chosen)
    spec = chart.to_dict()
    schema = json.loads(SCHEMA.read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(spec)
    mime, text = chart._mime_()
    assert mime == MIME and json.loads(text) == spec  # strict JSON: the browser parses it
    heat, outline = spec["layer"]
    assert len(heat["data"]["values"]) == 13 + 13 * 12 // 2
    assert heat["encoding"]["x"]["sort"] == [str(card) for card in view.hand]
    picked = {str(card) for card in chosen}
    assert {(row["first"], row["second"]) for row in outline["data"]["values"]} == {
        (a, b)
        for a in picked
        for b in picked
        if [str(c) for c in view.hand].index(a) <= [str(c) for c in view.hand].index(b)
    }
