"""benchmarks/pass_read.py's candidate imagined pass: a hand that can run for the moon keeps it."""

import random
import sys
from pathlib import Path

from engine import CardSet
from engine.moon import losers
from engine.passing import rule_of_thumb_pass

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from pass_read import DECK, KEEP_MOON, best_discards, keeping_pass


def test_a_hand_that_can_run_keeps_its_high_hearts_where_the_rule_of_thumb_gives_them_away():
    hand = CardSet("AH KH QH JH 10H 9H AC KC QC AD KD 2S 3D").mask
    left, discarded = best_discards(hand, 3)
    assert left == 0 <= KEEP_MOON
    # The 2♠ and the 3♦ are its losers; the third is its lowest card whose loss leaves none.
    assert keeping_pass(hand, 3) == discarded == CardSet("3D 2S 9H").mask
    assert rule_of_thumb_pass(hand, 3) == CardSet("QH KH AH").mask


def test_an_ordinary_hand_passes_by_the_rule_of_thumb():
    hand = CardSet("2C 5C 9C KC 3D 7D QD 4S 8S QS 5H 9H AH").mask
    assert best_discards(hand, 3)[0] > KEEP_MOON
    assert keeping_pass(hand, 3) == rule_of_thumb_pass(hand, 3)


def test_the_best_discards_leave_no_more_losers_than_the_rule_of_thumbs_cards():
    rng = random.Random(11)
    for _ in range(60):
        hand = sum(1 << card for card in rng.sample(range(52), 13))
        left, discarded = best_discards(hand, 3)
        assert discarded.bit_count() == 3 and discarded & hand == discarded
        rest = hand & ~discarded
        assert left == losers(rest, DECK & ~rest, 4)
        kept = hand & ~rule_of_thumb_pass(hand, 3)
        assert left <= losers(kept, DECK & ~kept, 4)
