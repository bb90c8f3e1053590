"""The passes the evaluator imagines for the other seats: a hand that can run for the moon keeps it."""

import random

from engine import CardSet, Rules
from engine.moon import losers, moon_cards
from engine.passing import KEEP_MOON, best_discards, imagined_pass, rule_of_thumb_pass
from engine.rules import MoonRule

MOON_HAND = CardSet("AH KH QH JH 10H 9H AC KC QC AD KD 2S 3D").mask
ORDINARY = CardSet("2C 5C 9C KC 3D 7D QD 4S 8S QS 5H 9H AH").mask


def test_a_hand_that_can_run_keeps_its_high_cards_and_passes_its_losers():
    left, discarded = best_discards(MOON_HAND, 3)
    assert left <= KEEP_MOON
    passed = imagined_pass(MOON_HAND, 3)
    assert passed == discarded
    # Its only losers are the 2♠ and the 3♦; the third card is its lowest whose loss leaves
    # none (the 9♥: the hearts above it still draw every heart out).
    assert left == 0
    assert passed == CardSet("3D 2S 9H").mask
    # The rule of thumb (what Normal passes, and the lessons teach) gives the hearts away.
    assert rule_of_thumb_pass(MOON_HAND, 3) & CardSet("AH KH QH").mask


def test_the_discards_leave_no_more_losers_than_any_other_three_cards():
    deck = (1 << 52) - 1
    rng = random.Random(11)
    for _ in range(40):
        hand = sum(1 << card for card in rng.sample(range(52), 13))
        left, discarded = best_discards(hand, 3)
        assert discarded.bit_count() == 3 and discarded & hand == discarded
        rest = hand & ~discarded
        assert left == losers(rest, deck & ~rest, 4)
        # Greedy, not exhaustive: never worse than passing the rule of thumb's cards.
        rule = hand & ~rule_of_thumb_pass(hand, 3)
        assert left <= losers(rule, deck & ~rule, 4)


def test_an_ordinary_hand_passes_by_the_rule_of_thumb():
    assert best_discards(ORDINARY, 3)[0] > KEEP_MOON
    assert imagined_pass(ORDINARY, 3) == rule_of_thumb_pass(ORDINARY, 3)


def test_without_a_moon_every_hand_passes_by_the_rule_of_thumb():
    rules = Rules(moon=MoonRule.OFF)
    assert not moon_cards(rules)
    assert imagined_pass(MOON_HAND, 3, rules.deck_mask, 4, moon=False) == rule_of_thumb_pass(MOON_HAND, 3)


def test_the_compiled_imagined_pass_matches_the_reference_for_every_table_size():
    from engine.compiled import _imagined_pass

    rng = random.Random(5)
    kept = 0
    for players in range(3, 8):
        deck = Rules(players=players).deck_mask
        cards = [card for card in range(52) if deck >> card & 1]
        size = len(cards) // players
        for _ in range(300):
            hand = sum(1 << card for card in rng.sample(cards, size))
            for count in (2, 3, 4):
                reference = imagined_pass(hand, count, deck, players, True)
                kept += reference != rule_of_thumb_pass(hand, count)
                assert _imagined_pass(hand, count, deck, players, True) == reference
                assert _imagined_pass(hand, count, deck, players, False) == rule_of_thumb_pass(hand, count)
    assert kept > 50  # the moon branch was exercised, not only the rule of thumb
