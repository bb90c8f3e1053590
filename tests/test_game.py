"""Games to 100 (or 50): running totals, the pass cycle, the end and ties."""

import random

import pytest

from engine import Game, GameOverError, Phase, Rules, TieRule
from engine.game import winners_if_over


def finish_hand(game: Game, rng: random.Random) -> None:
    hand = game.hand
    for seat in hand.seats_to_pass:
        hand.pass_cards(seat, rng.sample(list(hand.hand(seat)), game.rules.pass_count))
    while not hand.is_over:
        if hand.phase is Phase.MOON_CHOICE:
            hand.choose_moon(rng.choice(["add_to_others", "subtract_from_shooter"]))
        else:
            legal = hand.legal_cards()
            hand.play(legal[rng.randrange(len(legal))])


def play_game(rules: Rules, seed: int) -> Game:
    game = Game(rules, seed)
    rng = random.Random(seed)
    while True:
        finish_hand(game, rng)
        if game.is_over:
            return game
        game.next_hand()


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(target=50),
        Rules(ties="play_off"),
        Rules(players=3),
        Rules(players=6),
        Rules(moon="shooters_choice"),
    ],
    ids=["standard", "short", "play_off", "three", "six", "shooters_choice"],
)
def test_game_runs_to_the_target_and_the_lowest_total_wins(rules):
    for seed in range(4):
        game = play_game(rules, seed)
        totals = game.totals
        assert max(totals) >= rules.target
        before_last = [sum(row[s] for row in game.score_table[:-1]) for s in range(rules.players)]
        assert max(before_last) < rules.target or rules.ties is TieRule.PLAY_OFF
        assert game.winners == tuple(s for s, t in enumerate(totals) if t == min(totals))
        assert totals == tuple(sum(row[s] for row in game.score_table) for s in range(rules.players))
        assert [hand.pass_direction for hand in game.hands] == [
            rules.pass_direction(i) for i in range(len(game.hands))
        ]
        with pytest.raises(GameOverError):
            game.next_hand()


def test_next_hand_waits_for_the_current_hand_to_end():
    game = Game(Rules(), 1)
    with pytest.raises(GameOverError, match="still being played"):
        game.next_hand()
    assert len(game.hands) == 1


def test_a_game_does_not_end_below_the_target():
    assert winners_if_over(Rules(), (99, 0, 40, 12)) == ()
    assert winners_if_over(Rules(target=50), (51, 0, 40, 12)) == (1,)


def test_tied_lowest_scores_share_the_win():
    assert winners_if_over(Rules(), (100, 30, 30, 80)) == (1, 2)


def test_tied_lowest_scores_play_further_hands_under_play_off():
    rules = Rules(ties="play_off")
    assert winners_if_over(rules, (100, 30, 30, 80)) == ()
    assert winners_if_over(rules, (110, 33, 30, 85)) == (2,)


def test_view_carries_the_game_totals_before_the_hand():
    game = Game(Rules(), 9)
    finish_hand(game, random.Random(0))
    first = game.totals
    game.next_hand()
    view = game.view(0)
    assert view.scores == first and view.hand_index == 1
    assert view.pass_direction.value == "right"
