"""Worked scores: what each hand is worth under each rule."""

import pytest

from engine import HandState, MoonChoice, Phase, Rules, score_hand
from engine.cards import card_mask

HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def taken(*piles: str) -> list[int]:
    return [card_mask(pile) for pile in piles]


def test_four_hearts_and_the_queen_of_spades_score_17():
    result = score_hand(
        Rules(), taken("2H 3H 4H 5H QS 2C 3C 4C", "6H 7H", "8H 9H 10H JH QH KH AH", ""), [3, 1, 2, 0]
    )
    assert result.points_taken[0] == 17
    assert result.scores == (17, 2, 7, 0)
    assert sum(result.scores) == 26


def test_shooting_the_moon_gives_everyone_else_26():
    result = score_hand(Rules(), taken(HEARTS + " QS", "2C", "3C", "4C"), [10, 1, 1, 1])
    assert result.shooter == 0
    assert result.scores == (0, 26, 26, 26)


def test_a_failed_moon_scores_25_and_1():
    result = score_hand(Rules(), taken(HEARTS.replace("2H ", "") + " QS", "2H", "", ""), [11, 1, 1, 0])
    assert result.shooter is None
    assert result.scores == (25, 1, 0, 0)


def test_new_moon_takes_26_off_the_shooter():
    result = score_hand(Rules(moon="subtract_from_shooter"), taken(HEARTS + " QS", "", "", ""), [13, 0, 0, 0])
    assert result.scores == (-26, 0, 0, 0)


def test_moons_can_be_switched_off():
    result = score_hand(Rules(moon="off"), taken(HEARTS + " QS", "", "", ""), [13, 0, 0, 0])
    assert result.shooter is None and result.scores == (26, 0, 0, 0)


@pytest.mark.parametrize(
    ("choice", "scores"),
    [(MoonChoice.ADD_TO_OTHERS, (0, 26, 26, 26)), (MoonChoice.SUBTRACT_FROM_SHOOTER, (-26, 0, 0, 0))],
)
def test_shooters_choice_scores_what_the_shooter_chose(choice, scores):
    result = score_hand(
        Rules(moon="shooters_choice"), taken(HEARTS + " QS", "", "", ""), [13, 0, 0, 0], choice
    )
    assert result.moon_choice is choice and result.scores == scores


def test_omnibus_jack_of_diamonds_is_minus_ten():
    result = score_hand(
        Rules(jack_of_diamonds_points=-10), taken("JD 2H", "QS", HEARTS[3:], ""), [1, 1, 1, 1]
    )
    assert result.scores == (-9, 13, 12, 0)


def test_omnibus_moon_keeps_the_jack_bonus_and_may_require_the_jack():
    omnibus = Rules(jack_of_diamonds_points=-10)
    with_jack = score_hand(omnibus, taken(HEARTS + " QS JD", "", "", ""), [13, 0, 0, 0])
    assert with_jack.scores == (-10, 26, 26, 26)
    strict = Rules(jack_of_diamonds_points=-10, moon_needs_jack=True)
    without_jack = score_hand(strict, taken(HEARTS + " QS", "JD", "", ""), [12, 1, 0, 0])
    assert without_jack.shooter is None and without_jack.scores == (26, -10, 0, 0)


def test_spot_hearts_score_by_pip():
    result = score_hand(Rules(heart_values="spot"), taken("2H 10H", "JH QH KH AH", "QS", ""), [1, 1, 1, 1])
    assert result.scores == (12, 11 + 12 + 13 + 14, 13, 0)
    assert Rules(heart_values="spot").moon_value == sum(range(2, 15)) + 13


def test_black_maria_king_10_and_ace_7_of_spades():
    result = score_hand(Rules(black_maria=True), taken("KS", "AS 2H", "QS", ""), [1, 1, 1, 1])
    assert result.scores == (10, 8, 13, 0)
    assert Rules(black_maria=True).moon_value == 43


def test_taking_no_tricks_earns_the_bonus_except_when_someone_shoots():
    rules = Rules(no_tricks_bonus=-5)
    plain = score_hand(rules, taken("QS", HEARTS, "", ""), [5, 8, 0, 0])
    assert plain.scores == (13, 13, -5, -5)
    moon = score_hand(rules, taken(HEARTS + " QS", "", "", ""), [13, 0, 0, 0])
    assert moon.scores == (0, 26, 26, 26)


def play_greedy_moon(rules: Rules) -> HandState:
    """Find a hold hand where seat 0, always playing its highest legal card while the others
    play their lowest, takes every point card."""
    for seed in range(2000):
        state = HandState.from_seed(seed, rules.replace(pass_count=0))
        while state.phase is Phase.PLAYING:
            legal = state.legal_cards()
            state.play(legal[-1] if state.to_move == 0 else legal[0])
        if state.moon_shooter == 0:
            return state
    raise AssertionError("no moon found in 2000 deals")


def test_a_moon_shot_in_play_is_scored_for_the_shooter():
    state = play_greedy_moon(Rules())
    assert state.points_taken[0] == 26
    assert state.result.scores == (0, 26, 26, 26)


def test_shooters_choice_waits_for_the_shooter_to_decide():
    state = play_greedy_moon(Rules(moon="shooters_choice"))
    assert state.phase is Phase.MOON_CHOICE and state.to_move == 0 and state.result is None
    assert not state.can_choose_moon("add_to_others", seat=1)
    state.choose_moon("subtract_from_shooter", seat=0)
    assert state.result.scores == (-26, 0, 0, 0)
    state.take_back()
    assert state.phase is Phase.MOON_CHOICE
