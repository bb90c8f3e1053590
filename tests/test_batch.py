"""The batch play-out (numpy, and the policy compiled with numba) applies the engine's rules and
the policy's choices exactly."""

import numpy as np
import pytest

from engine import CARDS, CardSet, HandState, Phase, Rules
from engine.moon import STRONG_BLOCKERS, Blocking, moon_candidate, moon_cards
from engine.rules import PRESETS, QUEEN_OF_SPADES
from engine.search.batch import Batch
from engine.search.playout import heuristic_playout, playout_result
from engine.search.policy import choose_card


def play_by_policy(state: HandState) -> tuple[int, ...]:
    """HandState itself, each seat playing engine.search.policy's card."""
    while state.phase is Phase.PLAYING:
        hand = state.hand(state.to_move).mask
        queen_out = any(state.hand(seat).mask >> QUEEN_OF_SPADES & 1 for seat in range(state.players))
        trick = [int(card) for card in state.current_trick.cards]
        moon_mask = moon_cards(state.rules)
        taken = [state.taken(seat).mask for seat in range(state.players)]
        runner, runner_cards = moon_candidate(taken, moon_mask)
        unplayed = 0
        for seat in range(state.players):
            unplayed |= state.hand(seat).mask
        card = choose_card(
            hand,
            state.legal_mask,
            trick,
            state.players,
            queen_out,
            state.to_move,
            state.current_trick.leader,
            runner,
            moon_mask,
            runner_cards,
            unplayed ^ hand,
        )
        state.play(CARDS[card])
    if state.phase is Phase.MOON_CHOICE:
        state.choose_moon("add_to_others")
    return state.result.scores


def positions(rules: Rules, count: int, cards_played: int) -> list[HandState]:
    states = []
    for seed in range(count):
        state = HandState.from_seed(seed, rules, "hold")
        for _ in range(cards_played):
            state.play(state.legal_cards()[seed % len(state.legal_cards())])
        states.append(state)
    return states


VARIANTS = {
    **{name: PRESETS[name] for name in sorted(PRESETS)},
    "no_breaking": Rules(must_break_hearts=False),
    "any_club_hearts_for_queen": Rules(lead_any_club=True, hearts_instead_of_queen=True),
    "no_tricks_bonus": Rules(no_tricks_bonus=-5, jack_of_diamonds_points=-10, moon_needs_jack=True),
}


def moon_positions(rules: Rules, count: int, cards_played: int) -> list[HandState]:
    """Deals skewed towards moons: one seat gets the Q♠, the top spades and most hearts, so
    runners, blockers and shooters who give up all show up."""
    states = []
    deck = [card for card in CardSet(rules.deck_mask)]
    players, size = rules.players, rules.hand_size
    for seed in range(count):
        order = [
            "AH",
            "KH",
            "QH",
            "JH",
            "10H",
            "9H",
            "AS",
            "KS",
            "QS",
            "AC",
            "AD",
            "KC",
            "KD",
            "8H",
            "7H",
            "QC",
            "QD",
            "6H",
        ]
        strong = [card for code in order for card in deck if card.code == code]
        strong = strong[seed % 3 :][: size - seed % 4]
        rest = [card for card in deck if card not in strong]
        rest = rest[seed % len(rest) :] + rest[: seed % len(rest)]
        hands = [list(strong)] + [[] for _ in range(players - 1)]
        for card in rest:
            seat = min((s for s in range(players) if len(hands[s]) < size), key=lambda s: (len(hands[s]), s))
            hands[seat].append(card)
        shift = seed % players
        state = HandState.from_deal(
            [CardSet(hands[(s - shift) % players]) for s in range(players)], rules, "hold"
        )
        for _ in range(cards_played):
            state.play(state.legal_cards()[seed % len(state.legal_cards())])
        states.append(state)
    return states


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("cards_played", [0, 3, 9])
def test_batch_heuristic_playout_matches_the_engine_and_the_scalar_policy(name, cards_played):
    rules = VARIANTS[name]
    states = positions(rules, 40, cards_played) + moon_positions(rules, 24, cards_played)
    batch_scores = Batch.from_states(states).run("heuristic")
    for row, state in enumerate(states):
        expected = play_by_policy(state.copy())
        assert tuple(batch_scores[row]) == expected, (name, row)
        assert heuristic_playout(state) == expected, (name, row)


BLOCKINGS = [
    STRONG_BLOCKERS,
    Blocking(run=3, guard=2, cheap=1),
    Blocking(run=7, cheap=0),
    Blocking(shooter=0),
    Blocking(shooter=2, guard=1),
    Blocking(queen_leaders=-1),
    Blocking(queen_leaders=0b0101, shooter=1),
]


@pytest.mark.parametrize("blocking", BLOCKINGS)
def test_batch_playout_plays_the_moon_by_the_blocking_it_is_given_as_the_policy_does(blocking):
    """Every threshold of ``Blocking`` reaches the compiled policy: the calibration benchmark
    tries other values of them, and they must play the same cards as the reference; so does a
    seat going for the moon from the start (``Blocking.shooter``, the plan Hard weighs), and the
    Q♠ holders' lead the master's deals use (``Blocking.queen_leaders``)."""
    rules = Rules()
    for played in (0, 3, 9):
        states = positions(rules, 24, played) + moon_positions(rules, 24, played)
        scores = Batch.from_states(states).run("heuristic", blocking=blocking)
        for row, state in enumerate(states):
            assert tuple(scores[row]) == playout_result(state, None, blocking=blocking).scores, (played, row)


def test_the_skewed_deals_reach_the_moon_rules_both_ways():
    """Runners that make it and runners that are stopped both occur, so the comparison above
    covers the shooter's and the blockers' branches."""
    batch = Batch.from_states(moon_positions(Rules(), 24, 0))
    batch.run("heuristic")
    shooters = batch.shooters()
    assert 0 < (shooters >= 0).sum() < len(shooters)


@pytest.mark.parametrize("name", ["standard", "black_maria", "no_breaking", "any_club_hearts_for_queen"])
def test_batch_random_playout_only_plays_legal_cards_and_scores_like_the_engine(name):
    rules = VARIANTS[name]
    states = positions(rules, 60, 2)
    batch = Batch.from_states(states)
    rng = np.random.default_rng(5)
    replays = [state.copy() for state in states]
    while not batch.is_over:
        legal = batch.legal()
        for row, replay in enumerate(replays):
            assert int(legal[row]) == replay.legal_mask
        cards = batch.random_cards(legal, rng)
        for row, replay in enumerate(replays):
            replay.play(CARDS[int(cards[row])])
        batch.play(cards)
    scores = batch.scores()
    for row, replay in enumerate(replays):
        if replay.phase is Phase.MOON_CHOICE:
            replay.choose_moon("add_to_others")
        assert tuple(scores[row]) == replay.result.scores


def test_batch_refuses_games_at_different_points():
    states = positions(Rules(), 2, 0)
    states[1].play(states[1].legal_cards()[0])
    with pytest.raises(ValueError, match="same point"):
        Batch.from_states(states)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_points_are_the_card_values_of_the_cards_taken(name):
    """The compiled count (cards grouped by value) against the rules' value card by card."""
    rules = PRESETS[name]
    rng = np.random.default_rng(7)
    batch = Batch.__new__(Batch)
    batch.rules = rules
    batch.taken = rng.integers(0, 2**52, size=(300, rules.players), dtype=np.int64)
    batch.taken[0] = 0
    batch.taken[1] = 2**52 - 1  # every card at every seat
    expected = [
        [sum(value for card, value in enumerate(rules.card_values) if mask >> card & 1) for mask in row]
        for row in batch.taken.tolist()
    ]
    assert batch.points().tolist() == expected


def test_the_compiled_bit_helpers_count_and_find_bits_as_python_does():
    """The play-outs' popcount and highest/lowest bit are LLVM's ctpop/ctlz/cttz. A count is
    also compared inside compiled code: an overflowing bit trick once made ``count >= 5`` true
    for a count of 4 there, and a rule-of-thumb pass differed from the reference's."""
    from numba import njit

    from engine.search.compiled import _bottom, _popcount, _top

    @njit
    def helpers(masks):
        out = np.empty((len(masks), 4), dtype=np.int64)
        for row in range(len(masks)):
            mask = masks[row]
            count = _popcount(mask)
            out[row, 0] = count
            out[row, 1] = _top(mask)
            out[row, 2] = _bottom(mask)
            out[row, 3] = 1 if count >= 5 else 0
        return out

    rng = np.random.default_rng(7)
    masks = [1, 2, 1 << 51, (1 << 52) - 1, 563363076636674]
    pairs = zip(rng.integers(1, 1 << 52, 400), rng.integers(1, 1 << 52, 400), strict=True)
    masks += [int(a) & int(b) or 1 for a, b in pairs]  # sparse masks as well as dense ones
    masks += [
        sum(1 << int(c) for c in rng.choice(52, size=k, replace=False))
        for k in range(1, 9)
        for _ in range(20)
    ]
    got = helpers(np.array(masks, dtype=np.int64)).tolist()
    for mask, (count, top, bottom, five) in zip(masks, got, strict=True):
        expected = bin(mask).count("1")
        assert (count, top, bottom, five) == (
            expected,
            mask.bit_length() - 1,
            (mask & -mask).bit_length() - 1,
            int(expected >= 5),
        ), mask
