"""Passing, taking back, and what each seat's view holds."""

import pytest

from engine import CardSet, HandState, IllegalAction, PassDirection, Phase, Reason, Rules


def fresh(direction="left", seed=12, rules=None) -> HandState:
    return HandState.from_seed(seed, rules or Rules(), direction)


def first_three(state: HandState, seat: int) -> list:
    return list(state.hand(seat))[:3]


def test_every_seat_chooses_before_anyone_receives():
    state = fresh()
    state.pass_cards(0, first_three(state, 0))
    assert state.phase is Phase.PASSING
    assert state.received(1) is None
    assert state.hand(1) == state.dealt_hand(1)
    for seat in (1, 2, 3):
        state.pass_cards(seat, first_three(state, seat))
    assert state.phase is Phase.PLAYING


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 3), ("across", 2)])
def test_passed_cards_travel_in_the_hands_direction(direction, offset):
    state = fresh(direction)
    chosen = {seat: CardSet(first_three(state, seat)) for seat in range(4)}
    for seat, cards in chosen.items():
        state.pass_cards(seat, cards)
    for seat, cards in chosen.items():
        receiver = (seat + offset) % 4
        assert state.received(receiver) == cards
        assert all(card in state.hand(receiver) for card in cards)
        assert not any(card in state.hand(seat) for card in cards)


def test_hold_hand_has_no_passing():
    state = fresh("hold")
    assert state.phase is Phase.PLAYING
    refusal = state.why_not_pass(0, first_three(state, 0))
    assert refusal.reason is Reason.NO_PASS_THIS_HAND


def test_pass_cycle_is_left_right_across_hold_with_four_and_left_right_hold_otherwise():
    assert [d.value for d in Rules().pass_cycle] == ["left", "right", "across", "hold"]
    assert [d.value for d in Rules(players=5).pass_cycle] == ["left", "right", "hold"]
    assert [d.value for d in Rules(hold_hand=False).pass_cycle] == ["left", "right", "across"]
    assert Rules().pass_direction(5) is PassDirection.RIGHT


@pytest.mark.parametrize(
    ("cards", "reason", "words"),
    [
        ("two", Reason.WRONG_PASS_COUNT, "Pass exactly 3 cards: you chose 2."),
        ("four", Reason.WRONG_PASS_COUNT, "Pass exactly 3 cards: you chose 4."),
        ("repeat", Reason.CARD_REPEATED, "twice"),
        ("foreign", Reason.NOT_IN_HAND, "You do not hold"),
    ],
)
def test_an_illegal_pass_raises_with_its_reason_and_changes_nothing(cards, reason, words, snapshot):
    state = fresh()
    mine = list(state.hand(0))
    other = list(state.hand(1))
    choice = {
        "two": mine[:2],
        "four": mine[:4],
        "repeat": [mine[0], mine[0], mine[1]],
        "foreign": [mine[0], mine[1], other[0]],
    }[cards]
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.pass_cards(0, choice)
    assert error.value.reason is reason and words in str(error.value)
    assert snapshot(state) == before


def test_a_seat_cannot_pass_twice():
    state = fresh()
    state.pass_cards(0, first_three(state, 0))
    assert state.why_not_pass(0, list(state.hand(0))[3:6]).reason is Reason.ALREADY_PASSED


def play_out(state: HandState) -> None:
    for seat in state.seats_to_pass:
        state.pass_cards(seat, first_three(state, seat))
    while state.phase is Phase.PLAYING:
        state.play(state.legal_cards()[0])


def test_take_back_to_any_earlier_point_restores_that_point_exactly(snapshot):
    state = fresh()
    points = []
    for seat in range(4):
        points.append(snapshot(state))
        state.pass_cards(seat, first_three(state, seat))
    while state.phase is Phase.PLAYING:
        points.append(snapshot(state))
        state.play(state.legal_cards()[-1])
    points.append(snapshot(state))
    assert state.actions_made == len(points) - 1
    for actions in (len(points) - 2, 30, 17, 4, 3, 0):
        state.take_back_to(actions)
        assert snapshot(state) == points[actions]


def test_after_taking_back_a_different_card_can_be_tried():
    state = fresh("hold", seed=3)
    play_out(state)
    state.take_back_to(5)
    alternatives = list(state.legal_cards())
    state.play(alternatives[-1])
    assert state.history[-1].card == alternatives[-1]


def test_cannot_take_back_more_than_was_done(snapshot):
    state = fresh()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.take_back()
    assert error.value.reason is Reason.NOTHING_TO_TAKE_BACK
    assert snapshot(state) == before


def test_view_holds_own_hand_pass_and_receipt_and_the_public_play_only():
    state = fresh()
    for seat in range(4):
        state.pass_cards(seat, first_three(state, seat))
    for _ in range(6):
        state.play(state.legal_cards()[0])
    view = state.view(2)
    assert view.hand == state.hand(2)
    assert view.passed == state.passed(2) and view.passed_to == 3
    assert view.received == state.received(2) and view.received_from == 1
    assert len(view.played_cards) == 6
    assert view.hand_sizes == tuple(len(state.hand(s)) for s in range(4))
    others = CardSet(0)
    for seat in (0, 1, 3):
        others |= state.hand(seat)
    assert view.unseen_cards == others
    held_elsewhere = {card.code for card in others}
    for name, value in vars(view).items():
        if isinstance(value, CardSet) and name not in ("hand", "dealt", "passed", "received", "legal_cards"):
            raise AssertionError(f"unexpected card field {name}")
    assert not {c.code for c in view.hand} & held_elsewhere
    assert view.known_cards(3) == CardSet(state.passed(2).mask & ~view.played_cards.mask)


def test_view_records_voids_shown_by_not_following_suit():
    state = HandState.from_deal(
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ]
    )
    state.play("2C")
    state.play("2D")
    view = state.view(0)
    assert {suit.noun for suit in view.shown_void(1)} == {"clubs"}
    assert view.shown_void(2) == frozenset()
