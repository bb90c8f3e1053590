"""The rules of play, each test named after the rule it checks, disputed calls included."""

import pytest

from engine import CardSet, HandState, IllegalAction, Reason, Rules
from tests.conftest import hand_with

# Seat 0 leads the 2♣ in these hands; seats play 0, 1, 2, 3 in turn.
VOID_IN_CLUBS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    1: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QS 2H 3H",
}


def test_the_two_of_clubs_holder_must_lead_the_two_of_clubs_itself(snapshot):
    state = hand_with({0: "2C 3C AC 4D 5D 6D 7D 8D 9D 10D JD QD KD"})
    assert state.to_move == 0
    assert state.legal_cards() == CardSet("2C")
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.play("3C")
    assert error.value.reason is Reason.MUST_LEAD_LOWEST_CLUB
    assert "2♣" in str(error.value)
    assert snapshot(state) == before


def test_lead_any_club_option_allows_any_club_but_only_clubs():
    state = hand_with({0: "2C 3C AC 4D 5D 6D 7D 8D 9D 10D JD QD KD"}, Rules(lead_any_club=True))
    assert state.legal_cards() == CardSet("2C 3C AC")
    assert state.why_not_play("4D").reason is Reason.MUST_LEAD_A_CLUB


def test_players_must_follow_suit_when_they_can():
    state = hand_with({0: "2C 4D", 1: "3C 5D 6H"}, plays="2C")
    assert state.legal_cards() == CardSet("3C")
    refusal = state.why_not_play("5D")
    assert refusal.reason is Reason.MUST_FOLLOW_SUIT
    assert refusal.message == "You must follow suit: you hold ♣."


def test_no_points_on_the_first_trick_while_the_player_holds_something_else():
    state = hand_with(VOID_IN_CLUBS, plays="2C")
    assert state.to_move == 1
    legal = state.legal_cards()
    assert "QS" not in legal and "2H" not in legal and "2D" in legal
    refusal = state.why_not_play("QS")
    assert refusal.reason is Reason.NO_POINTS_ON_FIRST_TRICK
    assert "first trick" in refusal.message


def test_disputed_queen_of_spades_on_the_first_trick_is_legal_when_the_option_allows_points():
    state = hand_with(VOID_IN_CLUBS, Rules(no_points_on_first_trick=False), plays="2C")
    assert state.can_play("QS") and state.can_play("2H")
    state.play("QS")
    assert state.current_trick.cards[-1].code == "QS"


def test_points_on_the_first_trick_are_allowed_when_the_player_holds_nothing_else():
    only_points = {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"}
    state = hand_with(only_points, plays="2C")
    assert state.legal_cards() == state.hand(1)


def test_black_maria_spades_count_as_points_on_the_first_trick():
    state = hand_with(
        {0: VOID_IN_CLUBS[0], 1: "KS AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD"}, Rules(black_maria=True), "2C"
    )
    assert "KS" not in state.legal_cards() and "AS" not in state.legal_cards()


def test_disputed_a_void_player_may_discard_a_heart_before_hearts_are_broken():
    # Trick 1: clubs all round. Trick 2: seat 0 leads a diamond; seat 1 has none.
    seats = {
        0: "2C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        1: "3C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        2: "4C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        3: "5C 6C 7C 8C 9C 10C JC QC KC AC AS AH 2D",
    }
    state = hand_with(seats, plays="2C 3C 4C 5C")
    assert state.to_move == 3  # the 5♣ won
    state.play("2D")
    state.play("3D")
    assert not state.hearts_broken
    assert state.can_play("2H")
    state.play("2H")
    assert state.hearts_broken


def test_hearts_cannot_be_led_until_broken():
    seats = {
        0: "2C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2H",
        1: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 3H",
    }
    state = hand_with(seats, plays="2C 3C")
    state.play(state.legal_cards()[0])
    state.play(state.legal_cards()[0])
    leader = state.to_move
    assert state.trick_number == 1 and not state.hearts_broken
    hearts_held = state.hand(leader).of_suit(3)
    assert hearts_held, "the test needs the leader to hold a heart"
    refusal = state.why_not_play(hearts_held[0])
    assert refusal.reason is Reason.HEARTS_NOT_BROKEN
    assert refusal.message == "Hearts are not broken yet: lead another suit."


def lead_after_first_trick(leader_cards: str, rules: Rules | None = None) -> HandState:
    """Seat 1 wins trick 1 with the A♣ and must then lead from ``leader_cards``."""
    seats = {
        0: "2C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        1: "AC " + leader_cards,
        2: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2S",
    }
    state = hand_with(seats, rules or Rules(), plays="2C AC 3C")
    state.play(state.legal_cards()[0])
    assert state.to_move == 1 and not state.hearts_broken
    return state


def test_a_player_holding_only_hearts_may_lead_one():
    state = lead_after_first_trick("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert state.legal_cards() == state.hand(1)


def test_queen_of_spades_may_be_led_any_time():
    state = lead_after_first_trick("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH")
    assert state.legal_cards() == CardSet("QS")
    assert "you must lead her" in state.why_not_play("2H").message


def test_hearts_instead_of_queen_option_lets_that_player_lead_a_heart():
    state = lead_after_first_trick(
        "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", Rules(hearts_instead_of_queen=True)
    )
    assert state.legal_cards() == state.hand(1)


def test_hearts_may_be_led_any_time_when_they_need_not_be_broken():
    state = lead_after_first_trick("5S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", Rules(must_break_hearts=False))
    assert "2H" in state.legal_cards()


@pytest.mark.parametrize(("queen_breaks", "broken"), [(False, False), (True, True)])
def test_queen_of_spades_breaks_hearts_only_under_that_option(queen_breaks, broken):
    state = lead_after_first_trick(
        "QS 5S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH", Rules(queen_breaks_hearts=queen_breaks)
    )
    state.play("QS")
    assert state.hearts_broken is broken


def test_highest_card_of_the_led_suit_wins_and_discards_never_win():
    # Seat 0 holds every club, so the others discard, the A♠ among them; the 2♣ still wins.
    state = hand_with(VOID_IN_CLUBS, plays="2C 2D JS AS")
    assert [card.code for card in state.tricks[0].cards] == ["2C", "2D", "JS", "AS"]
    assert state.tricks[0].winner == 0
    assert state.to_move == 0


def test_playing_out_of_turn_is_refused_with_whose_turn_it_is(snapshot):
    state = hand_with({0: "2C", 2: "3C"})
    before = snapshot(state)
    refusal = state.why_not_play("3C", seat=2)
    assert refusal.reason is Reason.NOT_YOUR_TURN and "seat 0" in refusal.message
    with pytest.raises(IllegalAction):
        state.play("3C", seat=2)
    assert snapshot(state) == before


def test_a_card_not_in_hand_is_refused_by_name():
    state = hand_with({0: "2C"})
    refusal = state.why_not_play("QS", seat=0)
    assert refusal.reason is Reason.NOT_IN_HAND and refusal.message == "You do not hold the Q♠."


def test_every_held_card_has_an_answer_legal_or_a_reason():
    state = HandState.from_seed(31, Rules(pass_count=0))
    while not state.is_over:
        seat = state.to_move
        for card in state.hand(seat):
            legal = card in state.legal_cards()
            assert (state.why_not_play(card) is None) == legal
        state.play(state.legal_cards()[-1])
