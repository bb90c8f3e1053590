"""The compiled play-outs split over threads give every game the same result as one thread,
and the evaluator's large sums taken by numpy agree with its pure-Python ones."""

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from engine import Rules
from engine.search import threads
from engine.search.batch import Batch
from engine.search.budget import PlayBudget
from engine.search.evaluator import _VECTOR_FROM, _weighted
from tests.test_batch import moon_positions, play_by_policy, positions


@pytest.fixture
def two_threads(monkeypatch):
    before = threads.playout_threads()
    monkeypatch.setattr(threads, "MIN_ROWS_A_THREAD", 8)
    threads.set_playout_threads(2)
    yield
    threads.set_playout_threads(before)


@pytest.mark.parametrize("cards_played", [0, 5])
def test_a_batch_split_over_threads_plays_every_game_as_the_policy_does(two_threads, cards_played):
    rules = Rules()
    states = positions(rules, 40, cards_played) + moon_positions(rules, 24, cards_played)
    assert len(threads.parts(len(states))) == 2
    batch = Batch.from_states(states)
    scores = batch.run("heuristic")
    assert batch.is_over
    for row, state in enumerate(states):
        assert tuple(scores[row]) == play_by_policy(state.copy()), row
    threads.set_playout_threads(1)
    assert (Batch.from_states(states).run("heuristic") == scores).all()


def test_the_parts_cover_every_row_once(two_threads):
    for rows in (0, 1, 7, 16, 17, 1001):
        ranges = threads.parts(rows)
        covered = [row for low, high in ranges for row in range(low, high)]
        assert covered == list(range(rows))
        assert len(ranges) == (2 if rows >= 16 else 1)


def test_the_default_is_a_thread_for_each_core_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv("HEARTS_THREADS", raising=False)
    for cores in (1, 2, 8):
        monkeypatch.setattr(threads, "_cores", lambda cores=cores: cores)
        assert threads._default() == cores
    monkeypatch.setenv("HEARTS_THREADS", "3")
    assert threads._default() == 3


def test_a_wrong_thread_count_is_refused_with_its_reason(monkeypatch):
    monkeypatch.setenv("HEARTS_THREADS", "two")
    with pytest.raises(ValueError, match="HEARTS_THREADS must be a whole number of threads, not 'two'"):
        threads._default()
    monkeypatch.setenv("HEARTS_THREADS", "0")
    with pytest.raises(ValueError, match="at least 1"):
        threads._default()
    monkeypatch.setenv("HEARTS_THREADS", "3")
    assert threads._default() == 3
    with pytest.raises(ValueError, match="at least 1"):
        threads.set_playout_threads(0)


def test_numpy_sums_agree_with_the_pure_python_ones(monkeypatch):
    rng = random.Random(5)
    values = [rng.choice([0.0, 1.0, 13.0, -26.0, 4.0]) for _ in range(_VECTOR_FROM * 3)]
    weights = [rng.uniform(0.2, 1.0) for _ in values]
    fast = _weighted(values, weights)
    monkeypatch.setattr("engine.search.evaluator.np", None)
    slow = _weighted(values, weights)
    assert fast[0] == pytest.approx(slow[0], abs=1e-12)
    assert fast[1] == pytest.approx(slow[1], rel=1e-9)
    assert math.isfinite(fast[1]) and np.isfinite(slow[1])


def test_a_judged_play_gets_the_same_losses_with_or_without_numpy_sums(monkeypatch):
    """Both the running paired sums (``_Pairs``) and the final intervals take their numpy path
    here: the judged card's band is left undecided (a limit at its loss), so rounds of 512 deals
    are summed."""
    from engine import HandState
    from engine.search.evaluator import evaluate_play

    state = HandState.from_seed(11, Rules(), "hold")
    for _ in range(6):
        state.play(state.legal_cards()[-1])
    view = state.view(state.to_move)
    card = view.legal_cards[0]
    budget = PlayBudget(samples=4 * _VECTOR_FROM)
    loss = evaluate_play(view, budget, seed=3, vectorized=False).value_of(card).loss
    judged = replace(budget, min_samples=2 * _VECTOR_FROM)
    settings = dict(seed=3, vectorized=False, judge=card, limits=(loss,))
    fast = evaluate_play(view, judged, **settings)
    monkeypatch.setattr("engine.search.evaluator.np", None)
    slow = evaluate_play(view, judged, **settings)
    assert fast.samples == slow.samples == 4 * _VECTOR_FROM
    assert not fast.decided and not slow.decided
    for a, b in zip(fast.options, slow.options, strict=True):
        assert a.option == b.option
        assert (a.loss, a.loss_low, a.loss_high) == pytest.approx((b.loss, b.loss_low, b.loss_high), abs=1e-9)


def _split_batch_scores(states) -> list:
    return Batch.from_states(states).run("heuristic").tolist()


def test_a_process_forked_after_threaded_play_outs_can_play_out_too(two_threads):
    """The calibration benchmark probes the engine (threads started), then forks its workers:
    a child must start threads of its own, not wait on its parent's, which it does not have."""
    import multiprocessing

    states = positions(Rules(), 40, 0)
    assert len(threads.parts(len(states))) == 2
    here = _split_batch_scores(states)  # the executor's threads now run in this process
    with multiprocessing.get_context("fork").Pool(1) as pool:
        there = pool.apply_async(_split_batch_scores, (states,)).get(timeout=120)
    assert there == here
