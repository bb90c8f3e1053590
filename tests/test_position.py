"""Setting up a hand part-way through with ``setup_position``, and dealing card by card with
``HandState.from_deal``.

Positions are taken from real hands: a seeded hand is played part of the way, written down the
way a lesson would (the cards each seat holds now, what each seat passed, the tricks so far)
and set up again; the rebuilt hand must be the same hand. Positions that could not have
happened are refused with a ``DealError`` that says what is wrong and where.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    PRESETS,
    Card,
    CardSet,
    DealError,
    HandState,
    PassDirection,
    Phase,
    Rules,
    Suit,
    removed_cards,
    setup_position,
)

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


# ----- helpers -----


def in_play(players: int) -> list[Card]:
    return [card for card in CARDS if card not in removed_cards(players)]


def lowest_club_in_play(players: int) -> Card:
    return min(card for card in in_play(players) if card.suit is Suit.CLUBS)


def directions_at(players: int) -> list[PassDirection]:
    directions = [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.HOLD]
    if players % 2 == 0:
        directions.append(PassDirection.ACROSS)
    return directions


def pass_all(state: HandState, rng: random.Random) -> HandState:
    for seat in state.seats_to_pass:
        state.pass_cards(seat, rng.sample(list(state.hand(seat)), state.rules.pass_count))
    return state


def play_cards(state: HandState, rng: random.Random, count: int) -> HandState:
    """Pass, then play ``count`` random legal cards."""
    pass_all(state, rng)
    for _ in range(count):
        state.play(rng.choice(list(state.legal_cards())))
    return state


def describe(state: HandState, *, as_text: bool = False) -> dict:
    """The position as a lesson writes it: hands now, passes, tricks in the order played, and
    the first leader only when the lowest club is no longer in anyone's hand."""

    def cards(value) -> object:
        return " ".join(card.code for card in value) if as_text else list(value)

    players = state.players
    tricks = [trick.cards for trick in state.tricks]
    if state.current_trick.cards:
        tricks.append(state.current_trick.cards)
    lowest = lowest_club_in_play(players)
    lowest_held = any(lowest in state.hand(seat) for seat in range(players))
    exchanged = state.pass_direction is not PassDirection.HOLD
    return {
        "hands": [cards(state.hand(seat)) for seat in range(players)],
        "rules": state.rules,
        "pass_direction": state.pass_direction.value if as_text else state.pass_direction,
        "passed": [cards(state.passed(seat)) for seat in range(players)] if exchanged else None,
        "tricks": [cards(trick) for trick in tricks],
        "first_leader": None if lowest_held else (*state.tricks, state.current_trick)[0].leader,
    }


def look(state: HandState) -> tuple:
    """Everything observable about a hand, how it got here included."""
    seats = range(state.players)
    return (
        state.rules,
        state.history,
        state.phase,
        state.pass_direction,
        tuple(state.dealt_hand(seat) for seat in seats),
        tuple(state.hand(seat) for seat in seats),
        tuple(state.passed(seat) for seat in seats),
        tuple(state.received(seat) for seat in seats),
        tuple(state.taken(seat) for seat in seats),
        state.to_move,
        state.legal_cards(),
        state.tricks,
        state.current_trick,
        state.trick_number,
        state.cards_played,
        state.hearts_broken,
        state.points_taken,
        state.tricks_won,
    )


def rebuilt(state: HandState, *, as_text: bool = False) -> HandState:
    position = describe(state, as_text=as_text)
    before = copy.deepcopy(position)
    again = setup_position(**position)
    assert position == before, "setup_position changed the description it was given"
    return again


def refused(position: dict, *fragments: str) -> str:
    """``setup_position`` refuses with a DealError naming every fragment, and leaves what it was
    given as it was."""
    before = copy.deepcopy(position)
    with pytest.raises(DealError) as error:
        setup_position(**position)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert position == before
    return message


def codes(cards) -> list[str]:
    return [card.code for card in cards]


# ----- rebuilding real positions -----


@settings(max_examples=80, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.sampled_from([3, 4, 5, 6, 7]),
    seed=SEEDS,
    choices=SEEDS,
    fraction=st.integers(0, 100),
    direction=st.integers(0, 3),
    as_text=st.booleans(),
)
def test_a_position_written_down_from_a_real_hand_sets_up_the_same_hand(
    preset, players, seed, choices, fraction, direction, as_text
):
    rules = PRESETS[preset].replace(players=players)
    directions = directions_at(players)
    state = HandState.from_seed(seed, rules, directions[direction % len(directions)])
    rng = random.Random(choices)
    total = len(in_play(players))
    play_cards(state, rng, (total - 1) * fraction // 100)
    again = rebuilt(state, as_text=as_text)
    assert look(again) == look(state)
    # And it goes on exactly as the real hand does.
    for current in (state, again):
        rng = random.Random(choices)
        while current.phase is Phase.PLAYING:
            current.play(rng.choice(list(current.legal_cards())))
    assert look(again) == look(state)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_a_position_right_after_the_pass_needs_no_first_leader(players):
    state = play_cards(HandState.from_seed(31, Rules(players=players), "left"), random.Random(1), 0)
    position = describe(state)
    assert position["tricks"] == [] and position["first_leader"] is None
    again = setup_position(**position)
    assert look(again) == look(state)
    assert again.to_move == next(s for s in range(players) if lowest_club_in_play(players) in state.hand(s))
    assert again.legal_cards() == CardSet([lowest_club_in_play(players)])


@pytest.mark.parametrize("tricks", [1, 2, 5, 12])
def test_a_position_after_whole_tricks_sets_up_the_same_hand(tricks):
    state = play_cards(HandState.from_seed(40 + tricks, Rules(), "right"), random.Random(tricks), 4 * tricks)
    assert not state.current_trick.cards and len(state.tricks) == tricks
    again = rebuilt(state)
    assert look(again) == look(state)
    assert again.to_move == state.tricks[-1].winner


@pytest.mark.parametrize("cards", [1, 2, 3, 6, 27, 50])
def test_a_position_in_the_middle_of_a_trick_sets_up_the_same_hand(cards):
    state = play_cards(HandState.from_seed(50 + cards, Rules(), "across"), random.Random(cards), cards)
    assert state.current_trick.cards
    again = rebuilt(state, as_text=True)
    assert look(again) == look(state)
    assert again.current_trick == state.current_trick


def test_a_hold_hand_position_needs_no_passes():
    state = play_cards(HandState.from_seed(60, Rules(), "hold"), random.Random(60), 13)
    position = describe(state)
    assert position["passed"] is None
    again = setup_position(**position)
    assert look(again) == look(state)
    assert again.pass_direction is PassDirection.HOLD and again.received(0) is None


def test_a_position_where_hearts_have_been_broken_is_set_up_broken():
    rng = random.Random(70)
    state = pass_all(HandState.from_seed(70, Rules(), "left"), rng)
    while not state.hearts_broken:
        state.play(rng.choice(list(state.legal_cards())))
    again = rebuilt(state)
    assert again.hearts_broken
    assert again.legal_cards() == state.legal_cards()
    state.take_back()
    assert not rebuilt(state).hearts_broken


def test_a_position_where_the_queen_broke_hearts_is_set_up_broken_only_when_the_rules_say_so():
    queen = Card.of(12, Suit.SPADES)
    for rules in (Rules(queen_breaks_hearts=True), Rules()):
        rng = random.Random(3)
        state = pass_all(HandState.from_seed(75, rules, "left"), rng)
        while not any(queen in trick.cards for trick in state.tricks):
            legal = list(state.legal_cards())
            state.play(queen if queen in legal else rng.choice(legal))
        heart_played = any(card.suit is Suit.HEARTS for trick in state.tricks for card in trick.cards)
        again = rebuilt(state)
        assert again.hearts_broken == (heart_played or rules.queen_breaks_hearts)
        assert look(again) == look(state)


# ----- the first leader -----


def test_first_leader_is_needed_once_the_lowest_club_has_been_played():
    for players in (4, 5):
        state = play_cards(HandState.from_seed(80, Rules(players=players), "left"), random.Random(8), 1)
        position = describe(state)
        assert position["first_leader"] == state.current_trick.leader
        position["first_leader"] = None
        refused(position, "first_leader:", str(lowest_club_in_play(players)), "has been played")


def test_first_leader_is_needed_after_whole_tricks_too_and_then_sets_up_the_hand():
    state = play_cards(HandState.from_seed(81, Rules(), "hold"), random.Random(81), 8)
    position = describe(state)
    leader = position["first_leader"]
    assert leader is not None
    assert look(setup_position(**position)) == look(state)
    position["first_leader"] = None
    refused(position, "first_leader:", "2♣")


def test_first_leader_is_not_needed_when_any_club_may_lead_and_the_lowest_is_still_held():
    rules = Rules(lead_any_club=True)
    for seed in range(40):
        state = HandState.from_seed(seed, rules, "hold")
        others = [card for card in state.legal_cards() if card != lowest_club_in_play(4)]
        if others:
            break
    else:
        raise AssertionError("no first leader with a club besides the 2♣ in 40 deals")
    leader = state.to_move
    state.play(others[-1])
    position = describe(state)
    assert position["first_leader"] is None
    again = setup_position(**position)
    assert look(again) == look(state) and again.current_trick.leader == leader


def test_first_leader_must_be_a_seat_at_the_table():
    state = play_cards(HandState.from_seed(82, Rules(), "hold"), random.Random(82), 5)
    position = describe(state)
    position["first_leader"] = 4
    refused(position, "first_leader:", "no seat 4", "table of 4")


# ----- positions that could not happen -----


def mid_hand(
    seed: int = 90, cards: int = 10, rules: Rules | None = None, direction: str = "left"
) -> HandState:
    return play_cards(HandState.from_seed(seed, rules or Rules(), direction), random.Random(seed), cards)


def test_a_card_held_by_two_seats_is_refused_naming_the_card_and_both_seats():
    position = describe(mid_hand())
    card = position["hands"][1][0]
    position["hands"][3] = [*position["hands"][3][1:], card]
    refused(position, str(card), "held twice", "seat 1", "seat 3")


def test_a_card_both_in_a_hand_and_in_a_trick_is_refused_naming_the_trick():
    position = describe(mid_hand())
    played = position["tricks"][1][2]
    position["hands"][0] = [*position["hands"][0][1:], played]
    refused(position, "tricks[1]:", str(played), "appears twice", "seat 0")


def test_a_card_played_in_two_tricks_is_refused_naming_the_later_trick():
    position = describe(mid_hand())
    position["tricks"][2] = [position["tricks"][0][1], *position["tricks"][2][1:]]
    refused(position, "tricks[2]:", str(position["tricks"][0][1]), "appears twice")


def test_hands_of_the_wrong_size_are_refused_naming_the_seat():
    position = describe(mid_hand())
    moved = position["hands"][2][-1]
    position["hands"][2] = position["hands"][2][:-1]
    position["hands"][0] = [*position["hands"][0], moved]
    refused(position, "seat 0", "14 cards")


def test_the_wrong_number_of_hands_is_refused():
    position = describe(mid_hand())
    position["hands"] = position["hands"][:3]
    refused(position, "hands:", "3 hands", "4 players")


def test_an_unfinished_trick_before_the_last_is_refused_naming_it():
    position = describe(mid_hand(cards=12))
    position["tricks"][1] = position["tricks"][1][:3]
    refused(position, "tricks[1]:", "3 cards", "only the last may be unfinished")


def test_a_card_out_of_play_is_refused_naming_it():
    rules = Rules(players=3)
    position = describe(mid_hand(rules=rules))
    two_of_diamonds = Card.of(2, Suit.DIAMONDS)
    position["hands"][1] = [*position["hands"][1][:-1], two_of_diamonds]
    refused(position, "2♦", "not in play with 3 players")


def illegal_moment(rules: Rules, wanted):
    """A real hand stopped where the seat to move holds a card ``wanted`` says it may not play."""
    for seed in range(200):
        rng = random.Random(seed)
        state = pass_all(HandState.from_seed(seed, rules, "left"), rng)
        while state.phase is Phase.PLAYING:
            card = wanted(state)
            if card is not None:
                return state, card
            state.play(rng.choice(list(state.legal_cards())))
    raise AssertionError("no such moment in 200 hands")


def test_a_trick_that_does_not_follow_suit_is_refused_with_the_engines_reason():
    def off_suit(state: HandState) -> Card | None:
        trick = state.current_trick.cards
        if not trick or state.is_first_trick:
            return None
        hand = state.hand(state.to_move)
        if not hand.count(trick[0].suit):
            return None
        return next((card for card in hand if card.suit is not trick[0].suit), None)

    state, card = illegal_moment(Rules(), off_suit)
    seat, number = state.to_move, state.trick_number
    reason = state.why_not_play(card)
    position = describe(state)
    position["hands"][seat] = [held for held in position["hands"][seat] if held != card]
    position["tricks"][-1] = [*position["tricks"][-1], card]
    message = refused(position, f"tricks[{number}]:", f"seat {seat}", str(card), reason.message)
    assert "must follow suit" in message


def test_a_heart_led_before_hearts_are_broken_is_refused_with_the_engines_reason():
    def early_heart(state: HandState) -> Card | None:
        if state.current_trick.cards or state.is_first_trick or state.hearts_broken:
            return None
        hand = state.hand(state.to_move)
        if not hand.count(Suit.HEARTS) or len(hand.of_suit(Suit.HEARTS)) == len(hand):
            return None
        return hand.of_suit(Suit.HEARTS)[0]

    state, card = illegal_moment(Rules(), early_heart)
    reason = state.why_not_play(card)
    position = describe(state)
    position["hands"][state.to_move] = [held for held in position["hands"][state.to_move] if held != card]
    position["tricks"].append([card])
    refused(position, f"tricks[{state.trick_number}]:", f"seat {state.to_move}", reason.message)


def test_points_on_the_first_trick_are_refused_with_the_engines_reason():
    def early_points(state: HandState) -> Card | None:
        trick = state.current_trick.cards
        if not trick or not state.is_first_trick:
            return None
        hand = state.hand(state.to_move)
        if hand.count(Suit.CLUBS):
            return None
        hearts = hand.of_suit(Suit.HEARTS)
        harmless = hand.mask & ~state.rules.point_mask
        return hearts[0] if hearts and harmless else None

    state, card = illegal_moment(Rules(), early_points)
    reason = state.why_not_play(card)
    position = describe(state)
    position["hands"][state.to_move] = [held for held in position["hands"][state.to_move] if held != card]
    position["tricks"][-1] = [*position["tricks"][-1], card]
    refused(position, "tricks[0]:", f"seat {state.to_move}", reason.message)


def test_a_passing_hand_without_passes_is_refused():
    position = describe(mid_hand())
    position["passed"] = None
    refused(position, "passed:", "left hand needs the cards each seat passed")
    position["passed"] = [[], [], []]
    refused(position, "passed:", "3 passes given for 4 players")


def test_a_pass_the_receiver_does_not_have_is_refused_naming_the_pass():
    state = mid_hand()
    position = describe(state)
    kept = position["hands"][0][0]
    position["passed"][0] = [kept, *position["passed"][0][1:]]
    refused(position, "passed[0]:", "seat 1 received", str(kept))


def test_passes_of_the_wrong_size_at_every_seat_are_refused_with_the_engines_reason():
    position = describe(mid_hand())
    position["passed"] = [cards[:2] for cards in position["passed"]]
    refused(position, "passed[0]:", "Pass exactly 3 cards: you chose 2.")


def test_a_pass_of_the_wrong_size_at_one_seat_is_refused_naming_that_pass():
    # Only seat 2 is wrong: the message must point at its pass, not at a hand size that the
    # missing card throws out.
    position = describe(mid_hand())
    position["passed"][2] = position["passed"][2][:2]
    refused(position, "passed[2]")


# ----- HandState.from_deal -----


def deck_split(players: int = 4, seed: int = 1) -> list[list[str]]:
    cards = in_play(players)
    random.Random(seed).shuffle(cards)
    size = len(cards) // players
    return [codes(cards[i * size : (i + 1) * size]) for i in range(players)]


def test_from_deal_accepts_a_full_deal_as_text_and_deals_exactly_it():
    hands = deck_split()
    state = HandState.from_deal([" ".join(hand) for hand in hands], Rules(), "left")
    assert [state.hand(seat) for seat in range(4)] == [CardSet(hand) for hand in hands]
    assert state.phase is Phase.PASSING and state.pass_direction is PassDirection.LEFT


def from_deal_refused(hands, rules: Rules, *fragments: str) -> None:
    before = copy.deepcopy(hands)
    with pytest.raises(DealError) as error:
        HandState.from_deal(hands, rules)
    for fragment in fragments:
        assert fragment in str(error.value), f"{fragment!r} not in {str(error.value)!r}"
    assert hands == before


def test_from_deal_refuses_a_card_dealt_to_two_seats():
    hands = deck_split()
    card = hands[1][3]
    hands[2][5] = card
    from_deal_refused(hands, Rules(), "dealt twice", str(CardSet([card])), "seat 1", "seat 2")


def test_from_deal_refuses_a_card_listed_twice_in_one_hand_naming_the_card():
    hands = deck_split()
    card = hands[0][0]
    hands[0][1] = card
    from_deal_refused(hands, Rules(), str(CardSet([card])), "seat 0")


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_from_deal_refuses_hands_of_the_wrong_size(players):
    hands = deck_split(players)
    hands[-1].append(hands[0].pop())
    size = len(in_play(players)) // players
    from_deal_refused(hands, Rules(players=players), "seat 0", f"{size - 1} cards", f"holds {size}")


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_from_deal_refuses_a_card_removed_at_that_table_size(players):
    for removed in removed_cards(players):
        hands = deck_split(players)
        hands[1][0] = removed.code
        from_deal_refused(
            hands, Rules(players=players), str(removed), f"not in play with {players} players", "seat 1"
        )


def test_from_deal_refuses_the_wrong_number_of_hands():
    from_deal_refused(deck_split(4)[:3], Rules(), "3 hands", "4 players")
    from_deal_refused(deck_split(5), Rules(), "5 hands", "4 players")


def test_from_deal_refuses_a_mask_that_is_not_a_set_of_cards():
    hands = [CardSet(hand).mask for hand in deck_split()]
    hands[2] = hands[2] | 1 << 52
    from_deal_refused(hands, Rules(), "seat 2")
