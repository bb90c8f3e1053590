"""The fast play-out applies exactly the rules of HandState."""

import random

import pytest

from engine import CARDS, HandState, Phase, Rules
from engine.rules import PRESETS
from engine.search.playout import random_playout


def play_like_playout(state: HandState, rng: random.Random) -> tuple[int, ...]:
    """HandState driven with the same random draws as random_playout: the k-th legal card."""
    while state.phase is Phase.PLAYING:
        legal = state.legal_mask
        for _ in range(int(rng.random() * legal.bit_count())):
            legal &= legal - 1
        state.play(CARDS[(legal & -legal).bit_length() - 1])
    if state.phase is Phase.MOON_CHOICE:
        state.choose_moon("add_to_others")
    return state.result.scores


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_playout_matches_the_engine_card_for_card(preset):
    rules: Rules = PRESETS[preset]
    variants = [rules, rules.replace(must_break_hearts=False), rules.replace(lead_any_club=True)]
    for seed in range(60):
        rules = variants[seed % 3]
        state = HandState.from_seed(seed, rules, "hold")
        for _ in range(seed % 20):  # start from a position part-way through
            state.play(state.legal_cards()[0])
        expected = play_like_playout(state.copy(), random.Random(seed))
        before = state.history
        assert random_playout(state, random.Random(seed)) == expected, (preset, seed)
        assert state.history == before


def test_random_playout_refuses_to_start_before_the_pass():
    with pytest.raises(ValueError, match="after the pass"):
        random_playout(HandState.from_seed(1, Rules(), "left"), random.Random(1))
