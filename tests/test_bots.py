"""Bots decide from a player view only, always legally, and in the order of their levels."""

import gc
import random

import pytest

from engine import HandState, Phase, PlayerView, Rules
from engine.bots import LEVELS, Bot, bot_action, bot_acts, make_bot, play_hand_with_bots
from engine.bots.hard import HardBot
from engine.bots.normal import choose_moon_by_totals
from engine.rules import PRESETS
from engine.search.budget import PlayBudget
from engine.search.evaluator import evaluate_play
from engine.tournament import run_tournament, summarize
from trainer.coach.grading import TOLERANCE


def reachable(root: object, limit: int = 20_000) -> list[object]:
    """Every object reachable from ``root`` through references."""
    seen, stack, found = set(), [root], []
    while stack and len(found) < limit:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        found.append(item)
        stack.extend(gc.get_referents(item))
    return found


def test_a_view_holds_no_reference_to_the_hidden_hands():
    state = HandState.from_seed(3, Rules(), "left")
    for seat in range(4):
        state.pass_cards(seat, list(state.hand(seat))[:3])
    state.play(state.legal_cards()[0])
    view = state.view(1)
    objects = reachable(view)
    assert not any(isinstance(item, HandState) for item in objects)
    hidden = {state.hand(seat).mask for seat in (0, 2, 3)}
    assert not any(type(item) is int and item in hidden for item in objects)


def _bot(level: str, seed: int) -> Bot:
    """A bot of ``level``; the master table's on a small budget."""
    if level == "master":
        from engine.bots.master import MasterBot

        return MasterBot(seed, play_samples=64)
    return make_bot(level, seed)


@pytest.mark.parametrize("level", [*LEVELS, "master"])
def test_a_bot_decides_the_same_whatever_the_hidden_hands_hold(level):
    # Two deals that look identical from seat 0 (same hand, same pass, same plays) but hide
    # different cards elsewhere: a bot that decides from the view cannot tell them apart.
    first = HandState.from_deal(
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ],
    )
    second = HandState.from_deal(
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ],
    )
    assert first.view(0) == second.view(0)
    choices = {_bot(level, 9).choose_play(state.view(0)) for state in (first, second)}
    assert len(choices) == 1


def bot_of(level: str, seed: int) -> Bot:
    """The level's bot; Hard on a small budget in deals (the same search of passes and plays, on
    fewer deals: its full budget makes a hand a table take a minute)."""
    if level == "hard":
        return HardBot(seed, play_samples=64, pass_samples=64, exact_samples=16)
    return make_bot(level, seed)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "preset", ["standard", "three_players", "five_players", "shooters_choice", "black_maria"]
)
def test_every_bot_passes_and_plays_legally_to_the_end(level, preset):
    rules = PRESETS[preset]
    for seed in range(1 if level == "hard" else 6):  # Hard thinks: one hand a table is seconds
        state = HandState.from_seed(seed, rules, rules.pass_direction(seed))
        bots = {seat: bot_of(level, seed * 10 + seat) for seat in range(rules.players)}
        assert all(isinstance(bot, Bot) for bot in bots.values())
        play_hand_with_bots(state, bots)
        assert state.phase is Phase.DONE


def test_make_bot_refuses_an_unknown_level():
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        make_bot("expert")


def test_normal_beats_easy_over_duplicate_deals():
    summary = summarize(run_tournament(["normal", "easy", "easy", "easy"], Rules(), deals=40, seed=3))
    bots = summary["bots"]
    assert bots["normal"]["points_per_hand"] + bots["normal"]["interval_95"] < bots["easy"]["points_per_hand"]


def test_tournament_is_deterministic_and_rotates_every_bot_through_every_seat():
    results = run_tournament(["normal", "easy", "easy", "easy"], Rules(), deals=3, seed=11)
    again = run_tournament(["normal", "easy", "easy", "easy"], Rules(), deals=3, seed=11)
    assert [(r.deal, r.seat, r.bot, r.score) for r in results] == [
        (r.deal, r.seat, r.bot, r.score) for r in again
    ]
    for deal in range(3):
        assert {r.seat for r in results if r.deal == deal and r.bot == "normal"} == {0, 1, 2, 3}


def test_hard_does_not_throw_the_queen_to_a_runner():
    # Seat 3 holds the Q♠ and hearts only. Seat 1 took the 3♥ on the first trick (it has taken
    # every point so far: a moon runner, however early) and leads a diamond; seat 3 is void, so
    # whatever it throws feeds seat 1. The queen would be 13 points and a step towards the moon:
    # Hard throws a heart, the option the evaluator rates best. After one trick the runner has
    # shown little (``engine.search.inference``), so the queen costs little, but clearly something.
    seats = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D",
        "JC QC KC AC 6D 7D 8D 9D 10D JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS 2H",
        "QS 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    ]
    state = HandState.from_deal(seats, Rules(no_points_on_first_trick=False))
    for card in ("2C", "JC", "2S", "3H", "6D", "AS"):
        state.play(card)
    assert state.to_move == 3
    view = state.view(3)
    choice = make_bot("hard", 1).choose_play(view)
    evaluation = evaluate_play(view, PlayBudget(samples=1024), seed=9)
    assert choice.code != "QS" and evaluation.value_of(choice).loss <= TOLERANCE
    queen = evaluation.value_of("QS")
    assert queen.loss > TOLERANCE / 4 and queen.loss > 2 * queen.loss_error


def test_moon_choice_picks_what_leaves_the_shooter_best_placed():
    state = HandState.from_seed(1, Rules(moon="shooters_choice"), "hold")
    base = state.view(0)
    ahead = PlayerView(**{**base.__dict__, "scores": (10, 60, 70, 80)})
    assert choose_moon_by_totals(ahead).value == "add_to_others"  # +26 ends the game, shooter wins
    # +26 would end the game with seat 2 ahead of the shooter: take 26 off instead.
    behind = PlayerView(**{**base.__dict__, "scores": (50, 80, 10, 20)})
    assert choose_moon_by_totals(behind).value == "subtract_from_shooter"


def test_bots_can_act_at_any_point_of_a_hand():
    rng = random.Random(5)
    state = HandState.from_seed(8, Rules(), "across")
    while not state.is_over:
        seat = state.seats_to_pass[0] if state.phase is Phase.PASSING else state.to_move
        bot_acts(state, seat, make_bot(rng.choice(["easy", "normal"]), seat))
    assert state.result is not None


def test_hard_plays_the_last_tricks_out_by_the_policy_not_with_every_hand_open(monkeypatch):
    # Late in a hand the coach solves each imagined deal exactly (every seat seeing every card);
    # Hard plays people who do not see them, and did better against Normal playing them out.
    import engine.bots.hard as hard

    state = HandState.from_seed(4, Rules(), "hold")
    normal = make_bot("normal")
    while max(state.view(0).hand_sizes) > 4 or len(state.view(state.to_move).legal_cards) < 2:
        state.play(normal.choose_play(state.view(state.to_move)))
    looked = []
    monkeypatch.setattr(hard, "evaluate_play_steps", spy(hard.evaluate_play_steps, looked.append))
    view = state.view(state.to_move)
    choice = HardBot(3, play_samples=64).choose_play(view)
    assert [evaluation.method for evaluation in looked] == ["policy"]
    assert choice == looked[0].best.option
    assert evaluate_play(view, PlayBudget(samples=64), seed=1).method == "exact"  # what the coach does here


def spy(steps, note, what=lambda kw, evaluation: evaluation):
    """``steps`` (an ``evaluate_*_steps`` generator function) that also notes ``what`` each look
    found: Hard's looks, seen from outside."""

    def looking(view, *args, **kw):
        evaluation = yield from steps(view, *args, **kw)
        note(what(kw, evaluation))
        return evaluation

    return looking


def moon_run_position() -> HandState:
    """Seeded hand 401 (hold), the policy at every seat for seven tricks: nobody has taken a
    point; seat 0 leads, holding K♣ A♣ (the last clubs) 9♦ 9♠ 10♠ 7♥. Across holds only hearts,
    and the Q♠ is with Right: cashing the clubs draws the points onto them."""
    from engine import CARDS
    from tests.test_inference import policy_card

    state = HandState.from_seed(401, Rules(), "hold")
    for _ in range(28):
        state.play(CARDS[policy_card(state)])
    return state


def test_hard_weighs_a_moon_run_from_here_and_plays_it_where_it_pays(monkeypatch):
    """Hard values each card twice on the same imagined deals (``HardBot.moon_plan``): played
    out as the policy plays, and with itself running for the moon from now on. Here the run's
    play-outs make the moon in most deals, so it cashes a club; valuing one plan, it exits with
    a spade. An option is worth its better plan: Hard's card is the best of both looks."""
    import engine.bots.hard as hard
    from engine.moon import BLOCKERS, NOBODY, Blocking, moon_candidate, moon_cards, taken_masks

    view = moon_run_position().view(0)
    assert view.is_my_turn and moon_candidate(taken_masks(view), moon_cards(view.rules)) == (NOBODY, 0)
    looked = []
    monkeypatch.setattr(
        hard,
        "evaluate_play_steps",
        spy(hard.evaluate_play_steps, looked.append, lambda kw, evaluation: (kw["blocking"], evaluation)),
    )
    choice = HardBot(3, play_samples=256).choose_play(view)
    (usual, one), (plan, run) = looked
    assert usual == BLOCKERS and plan == Blocking(shooter=0) and one.seed == run.seed  # same deals
    assert one.samples == run.samples == 128  # the plans share the budget: one look's cost
    assert str(choice)[-1] == "♣" and run.value_of(choice).moon_for > 0.5
    assert choice == min((one.best, run.best), key=lambda value: value.difference).option
    assert str(HardBot(3, play_samples=256, moon_plan=False).choose_play(view)).endswith("♠")


def test_normal_without_moon_defence_lets_a_runner_through_where_normal_blocks():
    # Find a position where Normal's moon defence decides the card: with it off, the bot plays
    # as if nobody were running.
    from engine.bots.normal import NormalBot
    from engine.moon import moon_threat

    blocker, open_door = NormalBot(0), NormalBot(0, block_moons=False)
    differ = 0
    for seed in range(400):
        state = HandState.from_seed(seed, Rules())
        bots = [make_bot("normal", seat) for seat in range(4)]
        while (seat := state.seat_to_act) is not None:
            view = state.view(seat)
            if state.phase is Phase.PLAYING:
                other = blocker.choose_play(view) != open_door.choose_play(view)
                assert not other or moon_threat(view) is not None  # no runner: the same card
                differ += other
            state.apply(bot_action(bots[seat], view))
        if differ >= 3:
            break
    assert differ >= 3


def test_a_career_level_is_seated_by_its_key_and_named_by_it():
    from engine.bots.ladder import level_keys

    for key in level_keys():
        bot = make_bot(key, 5)
        assert isinstance(bot, Bot) and bot.name == key
    with pytest.raises(ValueError, match="level-1"):
        make_bot("level-99", 0)
