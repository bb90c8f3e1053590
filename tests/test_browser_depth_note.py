"""In the browser the coach says when it looked less deep than the installed version, and only then:
a puzzle's verdict comes from its stored evaluation, verified on more deals than either depth."""

from __future__ import annotations

from dataclasses import replace

import trainer.coach.explain as explain
from trainer.coach import coach_play
from trainer.coach.depth import BROWSER, SHALLOWER_NOTE, judge_play
from trainer.puzzles import load_puzzle
from trainer.puzzles.board import PUZZLES_DIR


def first_play_puzzle(wanted):
    """The first shipped play puzzle that is ``wanted`` (none is named: a re-verification may
    drop any one)."""
    return next(p for p in map(load_puzzle, sorted(PUZZLES_DIR.glob("play-*.toml"))) if wanted(p))


def test_a_verdict_judged_at_the_browsers_depth_says_so_and_a_stored_one_does_not(monkeypatch):
    monkeypatch.setattr(explain, "IN_BROWSER", True)
    puzzle = first_play_puzzle(  # valued on sampled deals (not solved exactly)
        lambda p: p.evaluation.method != "exact" and p.evaluation.samples > BROWSER.play_samples
    )
    view, card = puzzle.view, puzzle.answer.best
    stored = coach_play(view, card, puzzle.evaluation)
    assert puzzle.evaluation.samples > BROWSER.play_samples
    assert SHALLOWER_NOTE not in stored.text
    judged = judge_play(view, card, seed=3, depth=replace(BROWSER, play_seconds=None))
    assert judged.samples <= BROWSER.play_samples
    assert SHALLOWER_NOTE in coach_play(view, card, judged).text
    monkeypatch.setattr(explain, "IN_BROWSER", False)
    assert SHALLOWER_NOTE not in coach_play(view, card, judged).text  # installed: never said


def test_a_stored_exact_evaluation_is_not_called_shallower(monkeypatch):
    """A late play puzzle's evaluation solved every deal exactly: deeper than the browser's look,
    so its verdict must not carry the shallower-look note."""
    monkeypatch.setattr(explain, "IN_BROWSER", True)
    puzzle = first_play_puzzle(lambda p: p.answer.method == "exact")
    assert puzzle.evaluation.method == "exact" and puzzle.evaluation.samples > BROWSER.exact_samples
    assert SHALLOWER_NOTE not in coach_play(puzzle.view, puzzle.answer.best, puzzle.evaluation).text


def test_a_look_at_every_deal_is_not_called_shallower(monkeypatch):
    """Late in a hand the browser, like the installed version, solves every deal the view
    allows when they fit its budget: the same exact verdict at either depth, so no note."""
    from engine import HandState, Rules
    from engine.bots import make_bot

    monkeypatch.setattr(explain, "IN_BROWSER", True)
    browser = replace(BROWSER, play_seconds=None)
    for seed in range(40):
        state = HandState.from_seed(seed, Rules(), "hold")
        bots = [make_bot("normal", 4 * seed + seat) for seat in range(4)]
        while len(state.hand(state.to_move)) > 2:
            state.play(bots[state.to_move].choose_play(state.view(state.to_move)))
        view = state.view(state.to_move)
        if len(view.legal_cards) < 2:
            continue
        card = view.legal_cards[0]
        judged = judge_play(view, card, seed=3, depth=browser)
        if not judged.every_deal:
            continue
        assert judged.samples <= BROWSER.exact_samples
        installed = coach_play(view, card, judge_play(view, card, seed=4))
        shown = coach_play(view, card, judged)
        assert SHALLOWER_NOTE not in shown.text
        assert (shown.headline, shown.numbers) == (installed.headline, installed.numbers)
        return
    raise AssertionError("no late play with few enough deals in 40 hands")
