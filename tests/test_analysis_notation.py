"""The analysis board reads cards as people type or paste them, and refuses anything else in one line."""

import pytest

from engine import CARDS, parse_card
from trainer.analysis import PositionError, format_cards, parse_cards
from trainer.analysis.notation import LONGEST_TEXT


def codes(text: str) -> list[str]:
    return [card.code for card in parse_cards(text, "hand")]


@pytest.mark.parametrize(
    "text",
    [
        "AS KS 10H",
        "A♠ K♠ 10♥",
        "as,ks,th",
        "AS;KS;TH",
        "A♤ K♤ 10♡",
        "A♠️ K♠️ 10♥️",  # emoji presentation, as phones paste them
        "SA SK H10",  # suit first
        "♠ A K ♥ 10",  # a hand written by suits
        "S: AK; H: T",
        "♠AK ♥10",
        "  AS\tKS\n10H  ",
    ],
)
def test_every_form_reads_the_same_cards(text):
    assert codes(text) == ["AS", "KS", "10H"]


def test_every_card_round_trips_through_the_table_notation():
    cards = tuple(CARDS)
    assert parse_cards(format_cards(cards), "hand") == cards
    assert parse_cards(" ".join(card.code for card in cards), "hand") == cards
    assert format_cards(parse_cards("10♥ 2♣ Q♠", "hand")) == "10♥ 2♣ Q♠"  # the order given is kept


def test_nothing_is_no_cards():
    assert parse_cards("", "passed") == ()
    assert parse_cards(" , ;", "passed") == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("AS KS AS", ["the A♠ is listed twice"]),
        ("♠ A K ♠ A", ["the A♠ is listed twice"]),
        ("AS XS", ["'XS'", "'X'"]),
        ("AS KS 10H 5", ["'5'", "rank and a suit"]),
        ("1H", ["'1H'", "'1'"]),
        ("♠ ♥ 3", ["♠ is followed by no rank"]),
        ("AS ♥", ["'♥' is not one card"]),
        ("♥ 3 AS", ["♠ is followed by no rank"]),
        ("AS 🂡", ["'🂡'"]),
    ],
)
def test_a_bad_word_is_refused_naming_the_field_and_the_word(text, words):
    with pytest.raises(PositionError) as caught:
        parse_cards(text, "trick 3")
    message = str(caught.value)
    assert caught.value.field == "trick 3"
    assert message.startswith("trick 3: ")
    assert "\n" not in message
    for word in words:
        assert word in message


def test_hostile_text_gets_a_short_line():
    for text in ("AS " * 10_000, "X" * 1_000_000, "♠" + "Q" * (LONGEST_TEXT - 1), None, 5, ["AS"]):
        with pytest.raises(PositionError) as caught:
            parse_cards(text, "hand")
        assert len(str(caught.value)) <= 300


def test_ranks_run_together_in_a_suit():
    assert codes("♥1098 ♣AKQJT") == ["10H", "9H", "8H", "AC", "KC", "QC", "JC", "10C"]
    assert parse_cards("10♥", "hand") == (parse_card("TH"),)
