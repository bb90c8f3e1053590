"""The hand's action API: ``legal_actions()`` lists what ``apply`` accepts in every phase, each
``apply`` returns a frozen record (the trick it completed, its winner, the points it moved), and
the records are the hand's history."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import (
    ActionRecord,
    CardSet,
    HandState,
    IllegalAction,
    MoonAction,
    MoonChoice,
    PassAction,
    Phase,
    PlayAction,
    Rules,
)
from engine.rules import PRESETS


def random_hand(seed: int, rules: Rules) -> tuple[HandState, list[ActionRecord]]:
    """A hand played to its end by choosing uniformly among ``legal_actions()``."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, rules, rules.pass_direction(seed))
    records = []
    while not state.is_over:
        actions = state.legal_actions()
        assert actions, state
        records.append(state.apply(rng.choice(actions)))
    return state, records


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_points_records_move_add_up_to_the_hands_score(name):
    rules = PRESETS[name]
    for seed in range(25):
        state, records = random_hand(seed, rules)
        totals = [0] * rules.players
        for record in records:
            for seat, points in enumerate(record.points):
                totals[seat] += points
        assert tuple(totals) == state.result.scores, (name, seed)
        assert state.records == tuple(records)
        assert state.history == tuple(record.action for record in records)


def test_every_completed_trick_is_in_the_record_of_its_last_card():
    state, records = random_hand(3, Rules())
    completed = [record for record in records if record.trick is not None]
    assert [record.trick for record in completed] == list(state.tricks)
    for record in completed:
        assert record.winner == record.trick.winner
        assert record.action.card == record.trick.cards[-1]
    for record in completed[:-1]:  # the last one also moves the moon, if there is one
        points = Rules().points_in(CardSet(record.trick.cards).mask)
        assert record.points == tuple(points if seat == record.winner else 0 for seat in range(4))
    assert all(record.points == (0, 0, 0, 0) for record in records if record.trick is None)
    assert sum(record.broke_hearts for record in records) == 1


def test_a_record_is_frozen():
    state = HandState.from_seed(1, Rules(), "hold")
    record = state.apply(state.legal_actions()[0])
    with pytest.raises(AttributeError):
        record.seat = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.action.seat = 2  # type: ignore[misc]


def test_legal_actions_are_exactly_the_actions_apply_accepts():
    state = HandState.from_seed(11, Rules(), "left")
    passes = state.legal_actions(seat=2)
    assert len(passes) == 286 and {action.seat for action in passes} == {2}
    assert len(state.legal_actions()) == 4 * 286
    state.apply(passes[0])
    assert state.legal_actions(seat=2) == ()
    assert not state.can(passes[1])
    for seat in (0, 1, 3):
        state.apply(state.legal_actions(seat=seat)[-1])
    assert state.phase is Phase.PLAYING
    seat = state.to_move
    plays = state.legal_actions()
    assert [action.card for action in plays] == list(state.legal_cards())
    for card in state.hand(seat):
        assert state.can(PlayAction(seat, card)) == (PlayAction(seat, card) in plays)
    assert state.legal_actions(seat=(seat + 1) % 4) == ()


def test_an_illegal_action_is_refused_and_changes_nothing():
    state = HandState.from_seed(5, Rules(), "hold")
    seat = state.to_move
    wrong = next(card for card in state.hand(seat) if card not in state.legal_cards())
    before = (state.hand_masks, state.actions_made, state.records)
    with pytest.raises(IllegalAction) as refused:
        state.apply(PlayAction(seat, wrong))
    assert refused.value.reason.value == "must_lead_lowest_club"
    assert (state.hand_masks, state.actions_made, state.records) == before
    with pytest.raises(TypeError, match="is not an action"):
        state.apply("2C")  # type: ignore[arg-type]


def test_the_moon_choice_is_an_action_with_the_points_it_moves():
    rules = Rules(moon="shooters_choice")
    moons = []
    for seed in range(400):
        state = HandState.from_seed(seed, rules, "hold")
        while state.phase is Phase.PLAYING:  # the lowest card: now and then a moon for someone
            state.apply(state.legal_actions()[0])
        if state.phase is Phase.MOON_CHOICE:
            moons.append(state)
    assert moons
    state = moons[0]
    shooter = state.seat_to_act
    actions = state.legal_actions()
    assert actions == tuple(MoonAction(shooter, choice) for choice in MoonChoice)
    taken = state.points_taken
    record = state.apply(MoonAction(shooter, MoonChoice.SUBTRACT_FROM_SHOOTER))
    assert record.phase is Phase.MOON_CHOICE
    assert record.points[shooter] == -26 - taken[shooter]
    assert state.seat_to_act is None and state.legal_actions() == ()


def test_taking_back_restores_the_records_and_hearts():
    state, records = random_hand(8, Rules())
    for count in range(len(records), -1, -1):
        state.take_back_to(count)
        assert state.records == tuple(records[:count])
        broken = any(record.broke_hearts for record in records[:count])
        assert state.hearts_broken == broken


def test_the_public_position_matches_the_card_sets():
    state = HandState.from_seed(4, Rules(), "across")
    for seat in range(4):
        state.apply(PassAction(seat, CardSet(list(state.hand(seat))[:3])))
    for _ in range(6):
        state.apply(state.legal_actions()[-1])
    assert state.hand_masks == tuple(state.hand(seat).mask for seat in range(4))
    assert state.taken_masks == tuple(state.taken(seat).mask for seat in range(4))
    assert state.trick_cards == tuple(int(card) for card in state.current_trick.cards)
    assert state.leader == state.current_trick.leader
    assert state.seat_to_act == state.to_move


@pytest.mark.parametrize("cut", [0, 1, 9, 23, 40, 51])
def test_an_imagined_hand_keeps_only_the_plays_made_on_it(cut):
    # A search imagines a hand from the middle of play: its history starts there, taking back
    # stops there, and each later play has the record the same play has in the real hand.
    rules = Rules()
    real = HandState.from_seed(21, rules, "hold")
    rng = random.Random(21)
    for _ in range(cut):
        real.apply(rng.choice(real.legal_actions()))
    tricks = [(t.leader, tuple(int(c) for c in t.cards), t.winner) for t in real.tricks]
    parts = (real.hand_masks, tricks, real.trick_cards, real.leader, real.hearts_broken)
    imagined = HandState.imagined(rules, *parts)
    assert imagined.history == () and imagined.actions_made == 0
    start = (imagined.hand_masks, imagined.trick_cards, imagined.hearts_broken, imagined.legal_mask)
    assert start == (real.hand_masks, real.trick_cards, real.hearts_broken, real.legal_mask)
    done = real.actions_made
    while not real.is_over:
        record = real.apply(rng.choice(real.legal_actions()))
        assert imagined.apply(record.action) == record
    assert imagined.records == real.records[done:]
    assert imagined.history == real.history[done:]
    assert imagined.result == real.result
    imagined.take_back(imagined.actions_made)
    assert (imagined.hand_masks, imagined.trick_cards, imagined.hearts_broken, imagined.legal_mask) == start
    with pytest.raises(IllegalAction):
        imagined.take_back(1)
