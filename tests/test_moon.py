"""One moon detector for the policy, the bots and the coach, and the policy's moon play on both
sides, on hand-built positions."""

import pytest

from engine import CardSet, HandState, Rules
from engine.bots import make_bot
from engine.bots.hard import HardBot, moon_block
from engine.moon import (
    BLOCKERS,
    IMPOSSIBLE,
    MOON_GUARD,
    MOON_RUN,
    NOBODY,
    STRONG_BLOCKERS,
    Blocking,
    has_loser,
    losers,
    moon_candidate,
    moon_cards,
    moon_threat,
    taken_masks,
)
from engine.search.policy import choose_card

DEALT = [
    "2C 5C 9C 2S 3S 4S 2H 3H 4H 6H 8H 9H 10H",
    "3C 6C 10C 3D 5D 7D 5S 6S 7S 8S 5H 7H JH",
    "AC KC QC JC KD AD QD AS KS 9S AH KH QH",
    "4C 7C 8C 2D 4D 6D 8D 9D 10D JD QS 10S JS",
]
OPENING = "2C 3C AC 4C KD 2D 2H 3D"
"""Across (seat 2) wins the 2♣ trick, then the K♦ trick on which seat 0, void, throws the 2♥."""

MOON = CardSet("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH QS").mask


def position(plays: str, rules: Rules | None = None) -> HandState:
    state = HandState.from_deal([CardSet(hand) for hand in DEALT], rules or Rules(), "hold")
    for card in plays.split():
        state.play(card)
    return state


def mask(cards: str) -> int:
    return CardSet(cards).mask


def cards(codes: str) -> list[int]:
    """Cards in the order written (a trick's order of play)."""
    return [int(CardSet(code)[0]) for code in codes.split()]


def test_a_seat_with_every_heart_so_far_and_the_queen_still_out_is_the_runner():
    state = position(OPENING)
    for seat in (0, 1, 3):
        threat = moon_threat(state.view(seat))
        assert (threat.seat, threat.cards, threat.points) == (2, 1, 1)
        assert not threat.guarded
    assert moon_threat(state.view(2)) is None  # nobody threatens the runner itself
    assert moon_threat(state.view(2), include_self=True).seat == 2


def test_no_runner_before_any_moon_card_is_taken():
    state = position("2C 3C AC 4C")
    assert moon_candidate(taken_masks(state.view(0)), moon_cards(state.rules)) == (NOBODY, 0)
    assert moon_threat(state.view(0)) is None


def test_two_seats_with_points_make_the_moon_impossible():
    state = position(OPENING + " QC 7C 9C 10C 9S QS 2S 8S")  # Right takes the Q♠, Across has a heart
    assert state.points_taken == (0, 0, 1, 13)
    assert moon_candidate(taken_masks(state.view(0)), moon_cards(state.rules)) == (IMPOSSIBLE, 0)
    assert all(moon_threat(state.view(seat)) is None for seat in range(4))


def test_no_runner_when_the_rules_score_no_moon():
    state = position(OPENING, Rules(moon="off"))
    assert moon_cards(state.rules) == 0
    assert moon_threat(state.view(0)) is None


def test_the_jack_counts_where_the_moon_needs_it():
    rules = Rules(jack_of_diamonds_points=-10, moon_needs_jack=True)
    assert moon_cards(rules) == MOON | mask("JD")


def test_losers_count_the_cards_below_the_highest_card_still_out():
    assert losers(mask("AH KH QH"), mask("JH 2H 3S"), 4) == 0
    assert losers(mask("AH 2H"), mask("KH 3H 4H"), 4) == 0  # the ace draws three: the two is high
    assert losers(mask("AH 2H"), mask("KH 3H 4H 5H"), 4) == 1
    assert losers(mask("AH 2C"), mask("KH 3C"), 4) == 1
    assert losers(mask("2C 3C"), mask("AS"), 4) == 0  # nobody else holds a club


def test_has_loser_is_losers_above_zero():
    """The play-out's quick question against the count, on hands through a deal's life."""
    import random

    rng = random.Random(3)
    for _ in range(4000):
        players = rng.randint(3, 7)
        cards = rng.sample(range(52), rng.randint(2, 40))
        size = rng.randint(1, len(cards) - 1)
        hand = sum(1 << card for card in cards[:size])
        outstanding = sum(1 << card for card in cards[size:])
        assert has_loser(hand, outstanding, players) == (losers(hand, outstanding, players) > 0)


def policy(
    hand,
    legal,
    trick,
    seat,
    leader,
    runner=NOBODY,
    runner_cards=0,
    queen_out=True,
    outstanding=None,
    blocking=BLOCKERS,
):
    if outstanding is None:  # everything not in this hand or on the table is still out
        outstanding = ((1 << 52) - 1) & ~mask(hand) & ~(mask(trick) if trick else 0)
    return choose_card(
        mask(hand),
        mask(legal),
        cards(trick) if trick else [],
        4,
        queen_out,
        seat,
        leader,
        runner,
        MOON,
        runner_cards,
        outstanding,
        blocking,
    )


def code(card: int) -> str:
    return CardSet(1 << card)[0].code


def test_a_cheap_point_trick_is_taken_from_the_runner():
    # Across (2) led the 9♦ and is winning it; Right threw the 2♥; seat 0 can win with the 10♦.
    trick = "9D 2H"
    assert code(policy("10D 3D 5C", "10D 3D", trick, 0, 2, runner=2, runner_cards=1)) == "10D"
    assert code(policy("10D 3D 5C", "10D 3D", trick, 0, 2)) == "3D"  # no runner: duck


def test_an_expensive_trick_is_left_until_the_runner_is_far_in():
    trick = "9D QS"  # the queen is in it: 13 points to take
    assert code(policy("10D 3D 5C", "10D 3D", trick, 0, 2, runner=2, runner_cards=1)) == "3D"
    assert code(policy("10D 3D 5C", "10D 3D", trick, 0, 2, runner=2, runner_cards=MOON_GUARD)) == "10D"


def test_strong_blockers_block_at_any_price_from_the_runners_first_moon_card():
    strong = dict(runner=2, runner_cards=1, blocking=STRONG_BLOCKERS)
    assert code(policy("10D 3D 5C", "10D 3D", "9D QS", 0, 2, **strong)) == "10D"  # the queen and all
    assert code(policy("10D 3D 5C", "10D 3D", "9D 4D", 0, 2, **strong)) == "10D"
    assert code(policy("5C 7H 2H", "5C 7H 2H", "", 0, 0, **strong)) == "7H"  # a high heart led
    # The runner itself is unchanged: with one moon card it does not run yet.
    assert (
        code(policy("AH 5C 2D", "AH 5C 2D", "", 0, 0, runner=0, runner_cards=1, blocking=STRONG_BLOCKERS))
        == "2D"
    )


def test_once_guarding_any_trick_the_runner_wins_is_taken_and_high_hearts_are_led():
    assert code(policy("10D 3D 5C", "10D 3D", "9D 4D", 0, 2, runner=2, runner_cards=MOON_GUARD)) == "10D"
    assert code(policy("10D 3D 5C", "10D 3D", "9D 4D", 0, 2, runner=2, runner_cards=1)) == "3D"
    assert code(policy("5C 7H 2H", "5C 7H 2H", "", 0, 0, runner=2, runner_cards=MOON_GUARD)) == "7H"
    assert code(policy("5C 7H 2H", "5C 7H 2H", "", 0, 0, runner=2, runner_cards=1)) == "2H"  # lowest


def test_no_points_are_thrown_onto_the_runners_trick_but_they_are_onto_anyone_elses():
    # Void in diamonds. Right (1), the runner, is winning with the 9♦ and seat 3 plays last.
    assert code(policy("5C KC 7H QS", "5C KC 7H QS", "2D 9D 3D", 3, 0, runner=1, runner_cards=1)) == "KC"
    assert code(policy("5C KC 7H QS", "5C KC 7H QS", "2D 9D 3D", 3, 0)) == "QS"
    # Left (1) leads the 10♦, the runner follows under it: whoever wins, it is not the runner.
    assert code(policy("5C KC 7H QS", "5C KC 7H QS", "10D 9D", 3, 1, runner=2, runner_cards=1)) == "QS"
    # The runner is still to play: early on the queen goes, once guarding she is kept.
    assert code(policy("5C KC 7H QS", "5C KC 7H QS", "10D", 2, 1, runner=3, runner_cards=1)) == "QS"
    guarded = policy("5C KC 7H QS", "5C KC 7H QS", "10D", 2, 1, runner=3, runner_cards=MOON_GUARD)
    assert code(guarded) == "KC"


def test_the_runner_wins_what_it_can_and_gives_up_once_a_point_trick_is_lost():
    running = dict(runner=0, runner_cards=MOON_RUN)
    assert code(policy("AH 5C 2D", "AH 5C 2D", "", 0, 0, **running)) == "AH"  # leads its highest
    assert code(policy("AD 3D 5C", "AD 3D", "9D 2H", 0, 2, **running)) == "AD"  # wins the point trick
    # It cannot beat the K♦ and the trick holds a heart: the moon is gone, so it plays as usual
    # (highest card under the winner) rather than its lowest card.
    assert code(policy("QD 3D 5C", "QD 3D", "KD 2H", 0, 2, **running)) == "QD"
    # A trick with no points it cannot win: it keeps its moon alive with its lowest card.
    assert code(policy("QD 3D 5C", "QD 3D", "KD 4D", 0, 2, **running)) == "3D"


def test_a_hand_without_losers_shoots_before_it_has_taken_anything():
    hand = "AS KS AH KH QH"
    outstanding = mask("2S 3S 4S JH 10H 2C 3C 4C")
    leading = policy(hand, hand, "", 0, 0, outstanding=outstanding)
    assert code(leading) == "AH"  # cashes a top card, where the usual lead is the lowest
    with_losers = policy(hand, hand, "", 0, 0, outstanding=outstanding | mask("AC"))  # still no loser
    assert code(with_losers) == "AH"
    weak = "AS KS 2H KH QH"
    assert code(policy(weak, weak, "", 0, 0, outstanding=outstanding | mask("AH"))) != "AH"


def test_a_planned_shooter_runs_from_the_start_while_it_can_still_make_it():
    """``Blocking.shooter``: the seat Hard imagines going for the moon (its moon plan) plays as a
    runner with losers in its hand, before any moon card is taken and while it holds them all;
    once another seat has taken one it plays as usual, and the other seats are unchanged."""
    hand = "AS 2S KH 5C 2D"  # the 2♠, 5♣ and 2♦ are losers: no moon by reflex
    plan = Blocking(shooter=0)
    assert code(policy(hand, hand, "", 0, 0)) == "2D"  # the usual lead: its lowest
    assert code(policy(hand, hand, "", 0, 0, blocking=plan)) == "AS"  # the runner's: its highest
    assert code(policy(hand, hand, "", 0, 0, runner=0, runner_cards=1, blocking=plan)) == "AS"
    assert code(policy("AD 3D 5C", "AD 3D", "9D 4D", 0, 2, blocking=plan)) == "AD"  # wins it
    assert code(policy("AD 3D 5C", "AD 3D", "9D 4D", 0, 2)) == "3D"  # ducks
    assert code(policy(hand, hand, "", 0, 0, runner=IMPOSSIBLE, blocking=plan)) == "2D"
    assert code(policy(hand, hand, "", 0, 0, runner=2, runner_cards=1, blocking=plan)) == "2D"
    assert code(policy(hand, hand, "", 1, 1, blocking=plan)) == "2D"  # another seat's plan


def test_the_normal_bot_keeps_its_points_off_an_early_runners_trick():
    # Across (2) has taken the 2♥ and leads the A♦; seat 0, void in diamonds, must not feed it.
    state = position(OPENING + " AD 4D")
    view = state.view(0)
    assert moon_threat(view).seat == 2 and not moon_threat(view).guarded
    assert make_bot("normal").choose_play(view).suit.noun != "hearts"
    assert moon_block(view) is None  # early on, Hard's search decides


def test_hard_blocks_a_guarded_runner_by_the_policys_reflex():
    from engine import CARDS, Phase
    from tests.test_inference import policy_card

    blocks = 0
    for seed in range(120):  # seeded hands played out by the policy at every seat
        state = HandState.from_seed(seed, Rules(), "hold")
        while state.phase is Phase.PLAYING:
            view = state.view(state.to_move)
            block = moon_block(view)
            if block is not None:
                blocks += 1
                assert moon_threat(view).guarded
                assert int(block) == policy_card(state)  # the policy's own blocking card
                assert make_bot("hard", 3).choose_play(view) == block
            state.play(CARDS[policy_card(state)])
    assert blocks >= 5


@pytest.mark.parametrize("seat", [1, 3])
def test_no_reflex_without_a_runner(seat):
    state = position("2C 3C AC 4C")
    assert moon_block(state.view(state.to_move)) is None


def test_a_low_heart_goes_onto_an_early_runners_trick_a_later_seat_may_still_take():
    # Across (2), with one heart taken, leads the 9♦; seat 3 is void and two seats play after it.
    assert code(policy("5C KC 7H 3H QS", "5C KC 7H 3H QS", "9D", 3, 2, runner=2, runner_cards=1)) == "3H"
    # Nobody can beat the A♦: the runner would collect it, so a card that is no point goes.
    assert code(policy("5C KC 7H 3H QS", "5C KC 7H 3H QS", "AD", 3, 2, runner=2, runner_cards=1)) == "KC"
    # Far in (guarding) nothing is risked on the runner's trick.
    guarded = policy("5C KC 7H 3H QS", "5C KC 7H 3H QS", "9D", 3, 2, runner=2, runner_cards=MOON_GUARD)
    assert code(guarded) == "KC"


def test_high_hearts_are_kept_under_the_runners_heart():
    # Across (2) leads the K♥ with one heart taken; seat 3 ducks with its lowest heart, keeping the Q♥.
    assert code(policy("2H QH 5C", "2H QH", "KH", 3, 2, runner=2, runner_cards=1)) == "2H"
    assert code(policy("2H QH 5C", "2H QH", "KH", 3, 2)) == "QH"  # no runner: the highest that ducks


@pytest.mark.parametrize(("plays", "plans"), [("", 2), ("AD", 1)])
def test_hard_weighs_a_moon_plan_only_while_it_can_still_shoot(monkeypatch, plays, plans):
    """Across (2) has taken the 2♥ and leads: it may still run, so Hard values its cards with
    and without running (``HardBot.moon_plan``); Right (3), to play next, can shoot no more."""
    import engine.bots.hard as hard
    from tests.test_bots import spy

    state = position(f"{OPENING} {plays}")
    view = state.view(state.to_move)
    assert (state.to_move, moon_threat(view, include_self=True).seat) == (2 if not plays else 3, 2)
    looked = []
    blocking = spy(hard.evaluate_play_steps, looked.append, lambda kw, _: kw["blocking"])
    monkeypatch.setattr(hard, "evaluate_play_steps", blocking)
    HardBot(3, play_samples=64).choose_play(view)
    assert looked[0] == BLOCKERS and len(looked) == plans
    if plans == 2:
        assert looked[1] == Blocking(shooter=2)
    looked.clear()
    HardBot(3, play_samples=64, moon_plan=False).choose_play(view)
    assert looked == [BLOCKERS]
