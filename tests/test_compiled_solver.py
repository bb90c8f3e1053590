"""The compiled solver (``engine.search.compiled_solver``) gives the pure-Python solver's outcome for
every legal card, on thousands of positions and every rule variant it takes."""

from __future__ import annotations

import random

import pytest
from test_solver import VARIANTS, endgame, imagined, moon_deal, played_to

from engine import Rules
from engine.search.solver import solve_options

compiled_solver = pytest.importorskip("engine.search.compiled_solver", reason="numba is not installed")

TAKEN = sorted(name for name, rules in VARIANTS.items() if compiled_solver.supports(rules))


def reference(state) -> list:
    return [(int(card), scores, shooter) for card, scores, shooter in solve_options(state)]


def test_every_variant_of_four_or_fewer_seats_is_taken():
    assert set(TAKEN) == {name for name, rules in VARIANTS.items() if rules.players <= 4}
    assert not compiled_solver.supports(Rules(players=5))


@pytest.mark.parametrize("name", TAKEN)
def test_played_positions_match_the_reference(name):
    rules = VARIANTS[name]
    for seed in range(40):
        for cards in (1, 2, 3, 4, 5):
            state = played_to(900_000 + seed, rules, cards, seed % rules.players)
            assert compiled_solver.solve_options_compiled(state) == reference(state), (name, seed, cards)


@pytest.mark.parametrize("name", TAKEN)
def test_moon_positions_match_the_reference(name):
    rules = VARIANTS[name]
    for seed in range(30):
        state = moon_deal(910_000 + seed, rules, 4 + seed % 2, seed % rules.players)
        assert compiled_solver.solve_options_compiled(state) == reference(state), (name, seed)


def test_imagined_deals_of_five_and_six_cards_match_the_reference():
    rng = random.Random(920_000)
    rules = Rules()
    for index in range(300):
        cards = 5 if index % 6 else 6
        state = imagined(rng, rules, cards, rng.randrange(4), broken=rng.random() < 0.7)
        assert compiled_solver.solve_options_compiled(state) == reference(state), index


def test_a_hand_before_hearts_are_broken_with_the_queen_left_matches_the_reference():
    state = endgame(["2S 3H 4H", "AS 5H 6H", "QS 7H 8H", "KS 9H TH"], leader=0, broken=False)
    solved = compiled_solver.solve_options_compiled(state)
    assert solved == reference(state)
    assert [card for card, _, _ in solved] == [int(card) for card in state.legal_cards()]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(no_points_on_first_trick=False), Rules(lead_any_club=True), VARIANTS["black maria"]],
    ids=["standard", "points allowed", "any club", "black maria"],
)
def test_made_up_first_tricks_match_the_reference(rules):
    """The first trick's rules (the lowest club or any club leads; no points while a seat can
    avoid them) on made-up short hands."""
    rng = random.Random(f"first {rules}")
    for index in range(60):
        state = imagined(rng, rules, 2 + index % 3, index % rules.players, broken=False, first=True)
        assert compiled_solver.solve_options_compiled(state) == reference(state), index
