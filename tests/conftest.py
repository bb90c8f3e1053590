"""Shared helpers: build exactly the hand a test talks about."""

from __future__ import annotations

import os

import pytest

from engine import CARDS, HandState, Rules
from engine.cards import card_mask


def deal_with(seats: dict[int, str], rules: Rules | None = None) -> list[int]:
    """A deal where the given seats hold the given cards; the other cards in play are shared
    out in card order to whoever still needs some."""
    rules = rules or Rules()
    hands = [card_mask(seats.get(seat, "")) for seat in range(rules.players)]
    used = 0
    for mask in hands:
        used |= mask
    free = [card for card in CARDS if rules.deck_mask >> card & 1 and not used >> card & 1]
    for seat in range(rules.players):
        while hands[seat].bit_count() < rules.hand_size:
            hands[seat] |= 1 << free.pop(0)
    return hands


def hand_with(seats: dict[int, str], rules: Rules | None = None, plays: str = "") -> HandState:
    """A hold hand (no passing) dealt by ``deal_with``, with ``plays`` already made."""
    rules = rules or Rules()
    state = HandState(rules, deal_with(seats, rules), "hold")
    for card in plays.split():
        state.play(card)
    return state


@pytest.fixture
def snapshot():
    """Everything observable about a hand, to show that a refused action changed nothing."""

    def take(state: HandState) -> tuple:
        return (
            state.phase,
            tuple(state.hand(seat) for seat in range(state.players)),
            tuple(state.passed(seat) for seat in range(state.players)),
            state.to_move,
            state.current_trick,
            state.tricks,
            state.hearts_broken,
            state.points_taken,
            state.history,
        )

    return take


@pytest.fixture(autouse=True, scope="session")
def _progress_kept_apart(tmp_path_factory):
    """No test writes to the developer's own progress: servers the tests start inherit this (a rooms
    server keeps the host's game when a game ends). A test that needs another home sets its own."""
    if "HEARTS_TRAINER_HOME" not in os.environ:
        os.environ["HEARTS_TRAINER_HOME"] = str(tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="session")
def some_puzzles():
    """Four shipped puzzles of each kind: for tests that need puzzles to solve, not the whole
    library (reading its 500 files takes about 10 s)."""
    from trainer.puzzles.board import PUZZLES_DIR
    from trainer.puzzles.format import load_files

    paths = [path for kind in ("pass", "play") for path in sorted(PUZZLES_DIR.glob(f"{kind}-*.toml"))[:4]]
    puzzles, problems = load_files(paths)
    assert len(puzzles) == 8 and not problems, problems
    return puzzles


HEAVY_FIRST = (
    "tests/browser/test_lessons_browser.py",
    "tests/browser/test_phone_browser.py",
    "tests/browser/test_table_browser.py",
    # Minutes: Pyodide starts cold nine times. Not first: its site is built in the background from
    # the session's start (``tests/browser/site_early.py``), a minute or more on a clean clone.
    "tests/browser/test_static_site_browser.py",
    "tests/test_calibration_pool.py",  # minutes on a busy machine: the probe run in a fresh worktree
    "tests/browser/test_review_browser.py",
    "tests/browser/test_rooms_browser.py",  # about a minute: whole hands in two or three browsers
    "tests/browser/test_analysis_browser.py",  # positions set up, ranked, reopened, played out
    "tests/browser/test_practice_browser.py",  # a reviewed game's mistakes practised
    "tests/browser/test_puzzles_browser.py",  # six puzzles solved, the coach asked
    "tests/test_calibration.py",  # the map refitted from the kept archive
    "tests/test_mining.py",  # a two-process Dask cluster, puzzles mined and resumed
    "tests/test_hint.py",
    "tests/test_coach_facts.py",
    "tests/browser/test_career_browser.py",  # two short matches and a reload
    "tests/test_rooms_review.py",
    "tests/test_rooms_redis.py",  # redis-server and two rooms servers, short games
    "tests/browser/test_rooms_review_browser.py",
    # Not the longest, but long enough that one left to the end keeps a worker busy alone.
    "tests/test_pass_vs_hard.py",
    "tests/test_ladder.py",
    "tests/browser/test_game_in_play_browser.py",
    "tests/test_puzzle_reverify.py",
    "tests/test_puzzle_files.py",
    "tests/test_analysis_position.py",
    # Half a minute or less, but the rest go in path order, and these came last or nearly
    # (tests/test_wheel.py was the very last file: pip builds the wheel in a fresh environment).
    "tests/lessons/test_checks.py",  # the coach judges the lessons' passes
    "tests/review/test_review_notebook.py",
    "tests/test_wheel.py",
    "tests/review/test_review.py",
    "tests/test_solver.py",
    "tests/test_inference.py",
    "tests/test_cluster.py",
    "tests/test_practice.py",
    "tests/lessons/test_notebooks.py",
    "tests/test_sampling.py",
    "tests/test_puzzle_check.py",
)
"""Test files that take longest, run first: the suite runs a file at a time on each of two
workers (``scripts/test.sh``), and a long file started last keeps one worker busy while the
other has nothing left to do."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return HEAVY_FIRST.index(path) if path in HEAVY_FIRST else len(HEAVY_FIRST)

    items.sort(key=rank)  # stable: every file keeps its own order


@pytest.hookimpl(trylast=True)  # after the tmp_path plugin's: the build goes in its base folder
def pytest_configure(config: pytest.Config) -> None:
    from tests.browser import site_early

    site_early.start(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    from tests.browser import site_early

    site_early.stop(config)


@pytest.fixture(scope="module")
def scheduler():
    """A running Dask cluster of two worker processes, as ``dask scheduler`` and ``dask worker``
    give, started once for a test file's jobs (``tests/test_cluster.py``, ``tests/test_mining.py``)."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address
