"""Reading a moon runner's hand: the policy's own plays are explained exactly, the compiled
count agrees with the reference, and a runner's hand with losers weighs less, the more so the
longer it has come through with every point."""

from engine import CARDS, Phase, Rules
from engine.moon import moon_candidate, moon_cards
from engine.rules import QUEEN_OF_SPADES
from engine.search.inference import (
    BLOCKER_TREMBLE,
    TREMBLE,
    blocker_plays,
    blocker_weight,
    mismatches,
    runner_plays,
    weight_of,
)
from engine.search.outcomes import PlayWorlds
from engine.search.policy import choose_card
from tests.test_batch import moon_positions


def policy_card(state) -> int:
    """The play-out policy's card for the seat to move (what ``engine.search.playout`` plays)."""
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


def positions_read(count: int, read):
    """Hands played by the policy at every seat, stopped wherever ``read`` (of the view of the
    seat to move) finds plays to read: (state, view, what it read)."""
    found = []
    for state in moon_positions(Rules(), count, 0):
        while state.phase is Phase.PLAYING:
            view = state.view(state.to_move)
            plays = read(view)
            if plays:
                found.append((state.copy(), view, plays))
            state.play(CARDS[policy_card(state)])
    return found


def runner_positions(count: int = 24):
    """Stopped whenever someone else is a moon runner."""
    return positions_read(count, runner_plays)


def self_runner_positions(count: int = 24):
    """Stopped whenever the seat to move is itself the moon runner (and a blocker has played)."""
    return positions_read(count, blocker_plays)


def test_the_blockers_plays_read_are_those_onto_the_runners_winning_trick():
    positions = self_runner_positions()
    assert len(positions) > 30
    for state, view, blockers in positions:
        assert runner_plays(view) is None  # one read or the other, never both
        for plays in blockers:
            assert plays.runner != view.seat
            for k, card in enumerate(plays.cards):
                assert plays.runners[k] == view.seat and plays.runner_cards[k] >= 1
                trick = plays.tricks[k]
                led = trick[0] // 13
                winning = max(c for c in trick if c // 13 == led)
                winner = (plays.leaders[k] + trick.index(winning)) % view.players
                assert winner == view.seat  # the runner was winning the trick then
                assert plays.later[k] >> card & 1 and not state.hand(plays.runner).mask >> card & 1
            # the policy at every seat: its blocking plays are explained exactly
            assert mismatches(plays, state.hand(plays.runner).mask, view.rules) == 0


def test_the_blockers_read_counts_the_same_compiled_and_weighs_each_play_the_policy_would_not_make():
    spread = set()
    for number, (_state, view, _blockers) in enumerate(self_runner_positions(12)[::2]):
        compiled = PlayWorlds(view, number, "compiled")
        python = PlayWorlds(view, number, "python")
        worlds = compiled.next(40)
        counts = compiled.blocked(worlds)
        assert counts == python.blocked(worlds)
        assert compiled.weights(worlds) == python.weights(worlds)
        if BLOCKER_TREMBLE != 1.0:
            assert compiled.weights(worlds) == [BLOCKER_TREMBLE**count for count in counts]
        spread |= set(counts)
    assert 0 in spread and max(spread) >= 1  # some deals explain the blockers' plays, some do not
    assert blocker_weight(0) == 1.0 and blocker_weight(2) == BLOCKER_TREMBLE**2


def test_no_blockers_are_read_while_another_seat_runs():
    for _state, view, _plays in runner_positions(6):
        assert blocker_plays(view) == []
        assert PlayWorlds(view, 0, "compiled").blocked([[0] * view.players]) == [0]


def test_the_policys_own_plays_are_explained_without_a_mismatch():
    positions = runner_positions()
    assert len(positions) > 50
    for state, view, plays in positions:
        assert mismatches(plays, state.hand(plays.runner).mask, view.rules) == 0


def test_the_compiled_count_agrees_with_the_reference_and_weights_fall_with_losers():
    spread = set()
    for number, (_state, view, _plays) in enumerate(runner_positions(12)[::3]):
        compiled = PlayWorlds(view, number, "compiled")
        python = PlayWorlds(view, number, "python")
        worlds = compiled.next(40)
        assert worlds == python.next(40)
        assert compiled.evidence(worlds) == python.evidence(worlds)
        weights = compiled.weights(worlds)
        assert weights == python.weights(worlds)
        _counts, losers = compiled.evidence(worlds)
        for weight, left in zip(weights, losers, strict=True):
            assert weight == weight_of(0, left, len(view.tricks))
        spread |= set(weights)
    assert max(spread) == 1.0 and min(spread) < 1.0  # some runner hands have losers, some none


def test_a_loser_costs_more_weight_the_longer_the_runner_has_run():
    assert weight_of(0, 0, 8) == weight_of(0, 3, 0) == 1.0  # no losers, or nothing shown yet
    early, late = weight_of(0, 1, 2), weight_of(0, 1, 8)
    assert 1.0 > early > 0.7 > 0.2 > late  # one loser: a hint at trick 3, damning at trick 9
    assert weight_of(0, 2, 8) < late
    assert weight_of(2, 1, 8) == TREMBLE**2 * late


def test_no_reading_without_a_runner():
    state = moon_positions(Rules(), 1, 0)[0]
    view = state.view(state.to_move)
    assert runner_plays(view) is None
    assert PlayWorlds(view, 1, "compiled").weights(PlayWorlds(view, 1, "compiled").next(3)) is None


def test_thinned_worlds_weigh_alike_and_stand_for_the_weighted_ones():
    """An exact solve costs milliseconds a world, so worlds are kept with a chance of their
    weight over the ceiling instead of all being solved: the same kept worlds compiled or in
    pure Python, more effective deals among them than among as many plain draws, and the
    runner's losers averaged over the kept worlds match the weighted average over plain draws."""
    import math

    late = [(view, plays) for _state, view, plays in runner_positions(24) if len(view.tricks) >= 6]
    uneven = []
    for number, (view, _plays) in enumerate(late[:40]):
        plain = PlayWorlds(view, number, "compiled")
        worlds = plain.next(4096)
        weights = plain.weights(worlds)
        if sum(weights) ** 2 / sum(w * w for w in weights) < 0.5 * len(worlds):
            uneven.append((number, view, worlds, weights))
            if len(uneven) == 3:
                break
    assert len(uneven) == 3, "some late runner positions weigh their worlds very unevenly"
    for number, view, worlds, weights in uneven:
        compiled = PlayWorlds(view, number, "compiled")
        kept, kept_weights = compiled.thinned(512)
        assert (kept, kept_weights) == PlayWorlds(view, number, "python").thinned(512)
        assert len(kept) == 512
        # More effective deals per solve than solving the first 512 worlds drawn.
        effective = sum(kept_weights) ** 2 / sum(w * w for w in kept_weights)
        first = weights[:512]
        assert effective > 2 * sum(first) ** 2 / sum(w * w for w in first)
        plain = PlayWorlds(view, number, "compiled")
        _counts, losers = plain.evidence(worlds)
        weighted = sum(w * n for w, n in zip(weights, losers, strict=True)) / sum(weights)
        _counts, kept_losers = compiled.evidence(kept)
        mean = sum(w * n for w, n in zip(kept_weights, kept_losers, strict=True)) / sum(kept_weights)
        spread = math.sqrt(sum((n - mean) ** 2 for n in kept_losers) / len(kept_losers))
        assert abs(mean - weighted) <= 4 * spread / math.sqrt(len(kept_losers)) + 0.05
