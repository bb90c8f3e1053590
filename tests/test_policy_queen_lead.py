"""The master table's play-out option (``Blocking.queen_leaders``): a Q♠ holder on lead plays
the lowest card of its shortest suit other than spades (a void to throw her on), within the
suits the rules let it lead; off, the policy the coach and every other bot use leads as before;
the compiled twin chooses the same card."""

import random

import pytest

from engine import Rules, kernel
from engine.cards import CARDS, Suit, card_mask
from engine.moon import BLOCKERS, Blocking, moon_cards
from engine.rules import PRESETS, QUEEN_OF_SPADES
from engine.search.policy import choose_card, queen_lead

RULES = kernel.play_rules(Rules())
EVERY_SEAT = Blocking(queen_leaders=-1)


def mask(cards: str) -> int:
    return card_mask(cards.split())


def lead(
    hand: str, broken: bool = True, first: bool = False, blocking: Blocking = EVERY_SEAT, seat: int = 0
) -> str:
    """The policy's lead from ``hand`` for ``seat`` of a four-player hand, nobody running for the moon."""
    held = mask(hand)
    legal = kernel.legal_mask(held, -1, first, broken, RULES)
    outstanding = Rules().deck_mask & ~held
    card = choose_card(held, legal, [], 4, True, seat, seat, outstanding=outstanding, blocking=blocking)
    return CARDS[card].code


def test_the_queen_holder_leads_the_lowest_card_of_its_shortest_side_suit():
    # Diamonds (one card) are shorter than clubs (three), even though the 2♣ is lower.
    assert lead("2C 5C 9C 8D QS 3S 4H 6H 7H 10H") == "8D"


def test_off_by_default_and_for_seats_left_out_the_holder_leads_its_lowest_card():
    """The coach's forecast map is fitted on the policy without the option: it stays so."""
    hand = "2C 5C 9C 8D QS 3S 4H 6H 7H 10H"
    assert lead(hand, blocking=BLOCKERS) == "2C"
    assert lead(hand, blocking=Blocking(queen_leaders=0b0101), seat=1) == "2C"
    assert lead(hand, blocking=Blocking(queen_leaders=0b0101), seat=2) == "8D"


def test_equally_short_suits_go_clubs_then_diamonds_then_hearts():
    assert lead("9C KC 4D 6D QS 2S 3H 5H 7H") == "9C"
    assert lead("9D KD 4H 6H QS 2S 3C 5C 7C") == "9D"


def test_hearts_count_once_they_may_be_led_and_not_before():
    hand = "3H 4C 6C 8D 9D QS 2S"
    assert lead(hand, broken=True) == "3H"
    assert lead(hand, broken=False) == "4C"


def test_with_nothing_but_spades_to_lead_the_holder_leads_as_before():
    # Hearts unbroken: only spades may be led, and the ordinary lowest card is the lead.
    assert lead("3S QS KS 4H 9H", broken=False) == "3S"


def test_the_first_trick_is_still_led_with_the_two_of_clubs():
    assert lead("2C 5C 9C 8C JC 8D QS 3S 4H 6H 7H 10H AH", first=True) == "2C"


def test_a_moon_runner_holding_the_queen_still_leads_its_highest_card():
    held = mask("AH KH QH QS AS 5C 6C")
    legal = kernel.legal_mask(held, -1, False, True, RULES)
    rules = Rules()
    card = choose_card(
        held,
        legal,
        [],
        4,
        True,
        0,
        0,
        0,
        moon_cards(rules),
        BLOCKERS.run,
        rules.deck_mask & ~held,
        blocking=EVERY_SEAT,
    )
    assert CARDS[card].code == "AH"
    assert queen_lead(held, legal) != card


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_compiled_queen_lead_matches_the_reference(name):
    from engine.search.compiled import _queen_lead

    rules = PRESETS[name]
    play = kernel.play_rules(rules)
    generator = random.Random(name)
    deck = [card for card in range(52) if rules.deck_mask >> card & 1 and card != QUEEN_OF_SPADES]
    fired = 0
    for _ in range(2000):
        held = 1 << QUEEN_OF_SPADES
        for card in generator.sample(deck, generator.randint(0, rules.hand_size - 1)):
            held |= 1 << card
        legal = kernel.legal_mask(held, -1, generator.random() < 0.1, generator.random() < 0.5, play)
        expected = queen_lead(held, legal)
        assert _queen_lead(held, legal) == expected, (name, held, legal)
        fired += expected >= 0
        if expected >= 0:
            assert legal >> expected & 1 and expected // 13 != Suit.SPADES
    assert fired > 500
