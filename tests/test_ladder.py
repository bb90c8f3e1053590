"""The career's ladder: ten levels then the master, each a bot that plays legally from its view
alone, the same game for the same seed, with the margins benchmarks/ladder.py measured."""

import json
from pathlib import Path

import pytest

from engine import HandState, Rules
from engine.bots import make_bot
from engine.bots.blend import BlendBot
from engine.bots.ladder import LADDER, MASTER, level, level_keys
from engine.bots.table import bot_action
from engine.rules import PRESETS
from engine.tournament import run_tournament

RESULTS = Path(__file__).parent.parent / "benchmarks" / "results" / "ladder.json"


def test_ten_levels_in_order_then_the_master():
    assert [rung.number for rung in LADDER] == list(range(1, 11))
    assert [rung.key for rung in LADDER] == [f"level-{n}" for n in range(1, 11)]
    assert [rung.title for rung in LADDER] == [f"Level {n}" for n in range(1, 11)]
    assert level_keys() == (*(f"level-{n}" for n in range(1, 11)), "master")
    assert (MASTER.number, MASTER.key) == (11, "master") and level("master") is MASTER
    assert all(rung.words.strip() for rung in LADDER)


def hand_played(key: str, seed: int, state: HandState) -> list:
    """Every action of one hand with a bot of level ``key`` in every seat, each decided on the
    seat's view (``apply`` refuses an illegal card or pass)."""
    bots = [make_bot(key, seed * 10 + seat) for seat in range(4)]
    actions = []
    while (seat := state.seat_to_act) is not None:
        action = bot_action(bots[seat], state.view(seat))
        state.apply(action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("key", [rung.key for rung in LADDER])
def test_every_level_plays_a_legal_hand_and_the_same_one_for_the_same_seed(key):
    rules = PRESETS["standard"]
    first = hand_played(key, 4, HandState.from_seed(21, rules, "left"))
    again = hand_played(key, 4, HandState.from_seed(21, rules, "left"))
    assert len(first) == 4 + 52 and first == again


SEATS_SEEN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
HELD = "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D"
LEADER = "2C 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


@pytest.mark.parametrize("key", [rung.key for rung in LADDER])
def test_every_level_decides_the_same_whatever_the_hidden_hands_hold(key):
    # Seat 0's view is the same in both deals; only the other seats' cards differ.
    first = HandState.from_deal(
        [
            SEATS_SEEN,
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        ],
        Rules(),
        "left",
    )
    second = HandState.from_deal(
        [
            SEATS_SEEN,
            "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        ],
        Rules(),
        "left",
    )
    assert first.view(0) == second.view(0)
    passes = {make_bot(key, 9).choose_pass(state.view(0)) for state in (first, second)}
    assert len(passes) == 1
    # And a card: seat 3 leads the 2♣, seat 0 may follow with any of twelve clubs.
    first = HandState.from_deal(
        [HELD, "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H", LEADER]
    )
    second = HandState.from_deal(
        [HELD, "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S", LEADER]
    )
    for state in (first, second):
        state.play("2C")
    assert first.view(0) == second.view(0) and len(first.view(0).legal_cards) == 12
    plays = {make_bot(key, 9).choose_play(state.view(0)) for state in (first, second)}
    assert len(plays) == 1


def test_the_margins_are_the_measured_ones():
    measured = json.loads(RESULTS.read_text())["levels"]
    for rung in LADDER:
        step = measured.get(rung.key, {}).get("over_below")
        if step is None:
            assert (rung.margin, rung.margin_ci) == (None, None), rung.key
        else:
            assert (rung.margin, rung.margin_ci) == (step["margin"], step["margin_ci"]), rung.key
            assert step["lineup"] == [rung.key, *[LADDER[rung.number - 2].key] * 3]
    assert LADDER[0].margin is None and MASTER.margin is None


def test_level_2_scores_fewer_points_than_level_1():
    # Passing the three highest cards instead of any three: some three points a hand (README).
    results = run_tournament(["level-2", "level-1", "level-1", "level-1"], Rules(), deals=40, seed=53)
    mean = {
        bot: sum(r.score for r in results if r.bot == bot) / sum(r.bot == bot for r in results)
        for bot in ("level-1", "level-2")
    }
    assert mean["level-2"] + 1.0 < mean["level-1"]


def test_a_blend_refuses_a_skill_that_is_no_probability():
    with pytest.raises(ValueError, match=r"skill 1\.5: a probability from 0 to 1"):
        BlendBot(0, skill=1.5, strong=lambda seed: make_bot("normal", seed))


def test_the_ladder_on_the_sites_budget_seats_the_bots_pyodide_makes(monkeypatch):
    """``benchmarks/ladder.py --site`` measures the bots the static site plays: each level's pass
    budget as Pyodide makes it (``engine.bots.hard.IN_BROWSER``); only level 10 and the master
    table differ from the installed ones."""
    from benchmarks.ladder import site_bot
    from engine.bots import hard

    passes = lambda make, key: getattr(make(key, 1), "passes", None)  # noqa: E731
    installed = {key: passes(make_bot, key) for key in level_keys()}
    site = {key: passes(site_bot, key) for key in level_keys()}
    monkeypatch.setattr(hard, "IN_BROWSER", True)
    assert site == {key: passes(make_bot, key) for key in level_keys()}
    assert [key for key in level_keys() if site[key] != installed[key]] == ["level-10", "master"]


def test_in_the_static_site_a_level_says_its_margin_measured_there():
    """Level 10 passes on the site's budget there (above): the career page in the site gives its
    margin measured so (``ladder --site``), the others theirs as installed (the same bots)."""
    import subprocess
    import sys

    from engine.bots.ladder import SITE_MARGINS

    measured = json.loads(RESULTS.with_name("ladder_site.json").read_text())["levels"]
    for number, margin in SITE_MARGINS.items():
        step = measured[f"level-{number}"]["over_below"]
        assert margin == (step["margin"], step["margin_ci"])
        assert step["lineup"] == [f"level-{number}", *[f"level-{number - 1}"] * 3]
    probe = (
        "import sys; sys.platform = 'emscripten'\n"
        "import json; from engine.bots.ladder import LADDER\n"
        "print(json.dumps([(rung.margin, rung.margin_ci) for rung in LADDER]))"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    site = {number: tuple(margin) for number, margin in enumerate(json.loads(shown), start=1)}
    installed = {rung.number: (rung.margin, rung.margin_ci) for rung in LADDER}
    assert site == {**installed, **SITE_MARGINS}
