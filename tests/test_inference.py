"""Reading a moon runner's hand: the policy's own plays are explained exactly, the compiled
count agrees with the reference, and worlds that explain the plays weigh more."""

from engine import CARDS, Phase, Rules
from engine.inference import TREMBLE, mismatches, runner_plays, weight_of
from engine.moon import moon_candidate, moon_cards
from engine.outcomes import PlayWorlds
from engine.policy import choose_card
from engine.rules import QUEEN_OF_SPADES
from tests.test_batch import moon_positions


def policy_card(state) -> int:
    """The play-out policy's card for the seat to move (what ``engine.playout`` plays)."""
    seat = state.to_move
    hand = state.hand(seat).mask
    unplayed = 0
    for other in range(state.players):
        unplayed |= state.hand(other).mask
    moon_mask = moon_cards(state.rules)
    runner, runner_cards = moon_candidate([state.taken(s).mask for s in range(state.players)], moon_mask)
    return choose_card(
        hand,
        state.legal_mask,
        [int(card) for card in state.current_trick.cards],
        state.players,
        bool(unplayed >> QUEEN_OF_SPADES & 1),
        seat,
        state.current_trick.leader,
        runner,
        moon_mask,
        runner_cards,
        unplayed ^ hand,
    )


def runner_positions(count: int = 24):
    """Hands played by the policy at every seat, stopped whenever someone is a moon runner."""
    found = []
    for state in moon_positions(Rules(), count, 0):
        while state.phase is Phase.PLAYING:
            view = state.view(state.to_move)
            plays = runner_plays(view)
            if plays is not None:
                found.append((state.copy(), view, plays))
            state.play(CARDS[policy_card(state)])
    return found


def test_the_policys_own_plays_are_explained_without_a_mismatch():
    positions = runner_positions()
    assert len(positions) > 50
    for state, view, plays in positions:
        assert mismatches(plays, state.hand(plays.runner).mask, view.rules) == 0


def test_the_compiled_count_agrees_with_the_reference_and_weights_fall_with_mismatches():
    spread = set()
    for number, (_state, view, _plays) in enumerate(runner_positions(12)[::3]):
        compiled = PlayWorlds(view, number, "compiled")
        python = PlayWorlds(view, number, "python")
        worlds = compiled.next(40)
        assert worlds == python.next(40)
        weights = compiled.weights(worlds)
        assert weights == python.weights(worlds)
        spread |= set(weights)
    assert max(spread) == 1.0 and min(spread) < 1.0  # some worlds explain the plays, some do not
    assert weight_of(2) == TREMBLE**2 < weight_of(1) < weight_of(0) == 1.0


def test_no_reading_without_a_runner():
    state = moon_positions(Rules(), 1, 0)[0]
    view = state.view(state.to_move)
    assert runner_plays(view) is None
    assert PlayWorlds(view, 1, "compiled").weights(PlayWorlds(view, 1, "compiled").next(3)) is None
