"""Imagined deals fit everything the seat knows, and nothing more."""

import random
from collections import Counter

from engine import HandState, Rules
from engine.bots import EasyBot, bot_acts
from engine.cards import SUIT_MASKS
from engine.search.sampling import sample_world


def hand_in_play(seed: int, cards_played: int, rules: Rules | None = None) -> HandState:
    state = HandState.from_seed(seed, rules or Rules(), "left")
    bots = [EasyBot(seat + seed) for seat in range(state.players)]
    for seat in range(state.players):
        bot_acts(state, seat, bots[seat])
    for _ in range(cards_played):
        bot_acts(state, state.to_move, bots[state.to_move])
    return state


def test_worlds_give_every_seat_its_card_count_and_only_unseen_cards():
    rng = random.Random(1)
    for seed in range(30):
        state = hand_in_play(seed, seed % 40)
        view = state.view(seed % 4)
        for _ in range(10):
            world = sample_world(view, rng)
            assert world[view.seat] == view.hand.mask
            assert [mask.bit_count() for mask in world] == list(view.hand_sizes)
            union = 0
            for mask in world:
                assert not union & mask
                union |= mask
            assert union == view.unseen_cards.mask | view.hand.mask


def test_worlds_respect_shown_voids():
    rng = random.Random(2)
    checked = 0
    for seed in range(60):
        state = hand_in_play(seed, 30)
        view = state.view(0)
        for seat in range(1, 4):
            for suit in view.shown_void(seat):
                checked += 1
                for _ in range(5):
                    assert not sample_world(view, rng)[seat] & SUIT_MASKS[suit]
    assert checked > 20


def test_cards_passed_to_a_seat_stay_with_it_until_played():
    rng = random.Random(3)
    state = hand_in_play(7, 5)
    view = state.view(0)
    kept = view.known_cards(1)
    assert kept, "the seat's passed cards should still be out"
    for _ in range(20):
        assert sample_world(view, rng)[1] & kept.mask == kept.mask


def test_unconstrained_cards_are_spread_evenly():
    state = HandState.from_seed(4, Rules(), "hold")
    view = state.view(0)
    card = next(iter(view.unseen_cards))
    rng = random.Random(4)
    holders = Counter(
        next(seat for seat, mask in enumerate(sample_world(view, rng)) if mask >> card & 1)
        for _ in range(3000)
    )
    assert set(holders) == {1, 2, 3}
    assert all(900 < count < 1100 for count in holders.values())


def test_tight_late_hand_constraints_always_find_a_deal():
    # Play many hands deep with the bots; every view at every point must be dealable.
    from engine.bots import make_bot

    rng = random.Random(9)
    checked = 0
    for seed in range(40):
        state = HandState.from_seed(seed, Rules(), Rules().pass_direction(seed))
        bots = [make_bot("normal", s) for s in range(4)]
        for seat in state.seats_to_pass:
            bot_acts(state, seat, bots[seat])
        while not state.is_over:
            view = state.view(state.to_move)
            world = sample_world(view, rng)
            for seat in range(4):
                for suit in view.shown_void(seat):
                    assert not world[seat] & SUIT_MASKS[suit]
            checked += 1
            bot_acts(state, state.to_move, bots[state.to_move])
    assert checked > 1500


def test_the_careful_deal_respects_every_constraint():
    from engine.rng import SplitMix64
    from engine.search.sampling import _careful_deal

    # Seat 1 may hold only hearts, seat 2 anything; two hearts and one spade to deal.
    options = {39: [1, 2], 40: [1, 2], 26: [2]}
    for seed in range(50):
        dealt = _careful_deal([39, 40, 26], options, [0, 2, 1], SplitMix64(seed))
        assert dealt[1] == (1 << 39) | (1 << 40) and dealt[2] == 1 << 26


def views_through_a_hand(count: int) -> list:
    """Views of the seat to move at every point of Normal-bot hands, passes included."""
    from engine.bots import make_bot

    views = []
    for seed in range(count):
        state = HandState.from_seed(seed, Rules(), ("left", "right", "across", "hold")[seed % 4])
        bots = [make_bot("normal", seat) for seat in range(4)]
        while not state.is_over:
            if state.phase.value == "passing":
                seat = state.seats_to_pass[0]
                state.pass_cards(seat, bots[seat].choose_pass(state.view(seat)))
            elif state.phase.value == "moon_choice":
                state.choose_moon("add_to_others")
            else:
                views.append(state.view(state.to_move))
                state.play(bots[state.to_move].choose_play(views[-1]))
    return views


def test_the_compiled_sampler_draws_the_very_worlds_of_the_reference():
    """A verdict must not depend on whether numba is installed: world k of a seed is the same."""
    from engine.search.outcomes import PlayWorlds

    for number, view in enumerate(views_through_a_hand(6)):
        compiled = PlayWorlds(view, number, "compiled").next(40)
        assert compiled == PlayWorlds(view, number, "python").next(40)


def test_the_compiled_pass_deals_and_the_others_passes_match_the_reference():
    """Dealt in blocks on every thread or on one, the compiled deals are the reference's."""
    from engine.rules import PRESETS
    from engine.search import threads
    from engine.search.outcomes import pass_deals
    from engine.search.pass_worlds import PASS_DEAL_BLOCK

    before = threads.playout_threads()
    try:
        for name, rules in PRESETS.items():
            if not rules.pass_count:
                continue
            view = HandState.from_seed(4, rules, "left").view(1)
            for deals in (60, 2 * PASS_DEAL_BLOCK + 7):
                expected = pass_deals(view, 2**64 - 5, deals, "python")
                for count in (1, 2, 3):
                    threads.set_playout_threads(count)
                    hands, passes = pass_deals(view, 2**64 - 5, deals, "compiled")
                    assert (hands.tolist(), passes.tolist()) == expected, (name, deals, count)
    finally:
        threads.set_playout_threads(before)


def test_each_block_of_pass_deals_is_a_stream_of_its_own():
    """A call's first block is the seed's stream, so a call of one block is the first block of a
    longer one; later blocks are other deals, not the first block again."""
    from engine.search.outcomes import pass_deals
    from engine.search.pass_worlds import PASS_DEAL_BLOCK

    view = HandState.from_seed(4, Rules(), "left").view(1)
    hands, _ = pass_deals(view, 11, 3 * PASS_DEAL_BLOCK, "python")
    first, _ = pass_deals(view, 11, PASS_DEAL_BLOCK, "python")
    assert hands[:PASS_DEAL_BLOCK] == first
    blocks = [hands[k * PASS_DEAL_BLOCK : (k + 1) * PASS_DEAL_BLOCK] for k in range(3)]
    assert blocks[0] != blocks[1] != blocks[2] != blocks[0]
    assert len({tuple(row) for row in hands}) > 0.99 * len(hands)


def test_the_compiled_rule_of_thumb_pass_matches_the_reference_on_many_hands():
    """Ties in danger (the same rank in clubs and diamonds) go to the higher card in both."""
    import random

    from engine.passing import rule_of_thumb_pass
    from engine.search.compiled import _rule_of_thumb_pass

    rng = random.Random(11)
    for _ in range(3000):
        size = rng.randint(4, 17)
        hand = sum(1 << card for card in rng.sample(range(52), size))
        count = rng.randint(1, min(4, size))
        assert _rule_of_thumb_pass(hand, count) == rule_of_thumb_pass(hand, count), (hand, count)


def every_fitting_world(view) -> set[tuple[int, ...]]:
    """Brute force, from the view alone: every way to give the unseen cards to the other seats
    that fits their card counts, their shown voids and the cards known to be with them."""
    import itertools

    others = [seat for seat in range(view.players) if seat != view.seat]
    known = {seat: view.known_cards(seat).mask for seat in others}
    loose = view.unseen_cards.mask
    for mask in known.values():
        loose &= ~mask
    cards = [card for card in range(64) if loose >> card & 1]
    found = set()
    for owners in itertools.product(others, repeat=len(cards)):
        hands = {seat: known[seat] for seat in others}
        for card, seat in zip(cards, owners, strict=True):
            hands[seat] |= 1 << card
        if any(hands[seat].bit_count() != view.hand_sizes[seat] for seat in others):
            continue
        if any(hands[seat] & SUIT_MASKS[suit] for seat in others for suit in view.shown_void(seat)):
            continue
        found.add(tuple(view.hand.mask if seat == view.seat else hands[seat] for seat in range(view.players)))
    return found


def test_every_world_is_each_fitting_deal_once_and_none_else():
    from engine.search.sampling import WorldSampler

    checked = 0
    for seed in range(40):
        state = hand_in_play(seed, 40 + seed % 8)
        if state.is_over:
            continue
        view = state.view(seed % 4)
        every = WorldSampler(view).every_world(10**6)
        expected = every_fitting_world(view)
        assert every is not None and len(every) == len(expected)
        assert {tuple(world) for world in every} == expected
        checked += len(expected) > 1
    assert checked > 20


def test_every_world_declines_when_there_are_more_deals_than_the_limit():
    from engine.search.sampling import WorldSampler

    view = hand_in_play(5, 40).view(0)
    count = len(every_fitting_world(view))
    assert count > 2
    sampler = WorldSampler(view)
    assert sampler.every_world(count - 1) is None
    assert len(sampler.every_world(count)) == count
