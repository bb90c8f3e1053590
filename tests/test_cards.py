"""Card notation a person can type and read."""

import random

import pytest

from engine import CARDS, Card, CardParseError, CardSet, Suit, parse_card, parse_cards
from engine.cards import ALL_CARDS_MASK, SUIT_MASKS, CardTuple, card_tuple


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("QS", 12, Suit.SPADES),
        ("qs", 12, Suit.SPADES),
        ("10H", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("2C", 2, Suit.CLUBS),
        ("Q♠", 12, Suit.SPADES),
        ("10♥", 10, Suit.HEARTS),
        ("A♦", 14, Suit.DIAMONDS),
        (" jd ", 11, Suit.DIAMONDS),
    ],
)
def test_typed_and_symbol_notation_read_as_the_same_card(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert parse_card(card.code) == card
    assert parse_card(card.symbol) == card


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("1H", "'1' is not a rank"),
        ("QX", "'X' is not a suit"),
        ("Q", "write a rank then a suit"),
        ("", "write a rank then a suit"),
        ("11S", "'11' is not a rank"),
    ],
)
def test_bad_card_text_says_which_text_and_why(text, complaint):
    with pytest.raises(CardParseError) as error:
        parse_card(text)
    assert repr(text) in str(error.value)
    assert complaint in str(error.value)


def test_every_card_has_a_spoken_name_and_round_trips():
    names = {card.name for card in CARDS}
    assert len(names) == 52
    assert parse_card("QS").name == "queen of spades"
    assert parse_card("10H").name == "ten of hearts"
    for card in CARDS:
        assert parse_card(str(card)) == card


def test_within_a_suit_higher_cards_are_higher_numbers():
    for suit in Suit:
        ranks = [Card.of(rank, suit) for rank in range(2, 15)]
        assert ranks == sorted(ranks)


def test_card_set_supports_in_len_iteration_in_hand_order():
    hand = CardSet("QS 2C AH 10D 3C")
    assert "QS" in hand and parse_card("2C") in hand and "KS" not in hand
    assert "garbage" not in hand
    assert len(hand) == 5
    assert [card.code for card in hand] == ["2C", "3C", "10D", "QS", "AH"]
    assert hand[0].code == "2C" and hand[-1].code == "AH"
    assert hand.count(Suit.CLUBS) == 2
    assert CardSet("2C 3C") | CardSet("QS") == CardSet("2C QS 3C")
    assert str(hand) == "2♣ 3♣ 10♦ Q♠ A♥"


def test_any_card_set_lists_its_cards_lowest_first_the_first_time_and_after():
    """Iteration, indexing and ``in`` agree with the mask's bits for any set of cards, whether its
    suits' cards were listed before or not (CardSet keeps tables of them)."""
    rng = random.Random(51)
    masks = [0, ALL_CARDS_MASK, 1, 1 << 51, *SUIT_MASKS]
    masks += [rng.getrandbits(13) << 13 * rng.randrange(4) for _ in range(300)]  # one suit
    masks += [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(300)]
    for mask in masks * 2:
        cards = CardSet.from_mask(mask)
        expected = [CARDS[card] for card in range(52) if mask >> card & 1]
        assert list(cards) == expected
        assert all(type(card) is Card for card in cards)
        assert [cards[i] for i in range(len(cards))] == expected
        assert [cards[-i] for i in range(1, len(cards) + 1)] == expected[::-1]
        with pytest.raises(IndexError):
            cards[len(expected)]
        assert [card for card in CARDS if card in cards] == expected
        assert [card for card in range(52) if card in cards] == expected
        assert 52 not in cards and -1 not in cards and True not in cards


def test_a_card_tuple_is_a_tuple_of_the_cards_that_answers_as_their_card_set():
    """What ``legal_cards()`` returns: a tuple (chosen from, counted and indexed as one), in hand
    order, that answers every question the CardSet of the same cards answers, the same way."""
    rng = random.Random(33)
    masks = [0, ALL_CARDS_MASK, 1, 1 << 51, *SUIT_MASKS]
    masks += [rng.getrandbits(13) << 13 * rng.randrange(4) for _ in range(200)]  # one suit
    masks += [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(200)]
    for mask in masks * 2:
        cards, same = card_tuple(mask), CardSet.from_mask(mask)
        assert type(cards) is CardTuple and isinstance(cards, tuple)
        assert list(cards) == list(same) and len(cards) == len(same)
        assert cards.mask == mask and cards == same and same == cards and hash(cards) == hash(same)
        assert cards == set(same) and cards == card_tuple(mask) and cards != CardSet.from_mask(mask ^ 1)
        assert all(card in cards and card.code in cards and int(card) in cards for card in same)
        assert [card for card in CARDS if card in cards] == list(same)
        assert 52 not in cards and -1 not in cards and True not in cards and "garbage" not in cards
        assert [cards.count(suit) for suit in Suit] == [same.count(suit) for suit in Suit]
        assert [cards.of_suit(suit) for suit in Suit] == [same.of_suit(suit) for suit in Suit]
        assert cards.codes == same.codes and str(cards) == str(same)
        other = CardSet.from_mask(rng.getrandbits(52))
        assert (cards | other, cards & other, cards - other) == (same | other, same & other, same - other)
        if cards:
            assert rng.choice(cards) in same
    assert CardSet(card_tuple(0b101)) == CardSet("2C 4C") and card_tuple(0b101) != CardSet("2C")
    assert repr(card_tuple(0b101)) == "CardTuple('2C 4C')"


def test_parse_cards_accepts_commas_spaces_and_iterables():
    assert parse_cards("QS, 10H 2C") == parse_cards(["QS", "10H", "2C"]) == parse_cards([36, 47, 0])
