"""The review page in Chromium, over a store with recorded history: the charts render, the last
game is reviewed with a progress bar, a key moment replays as a puzzle, the score sheet shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, _serve
from tests.review.history import record_history
from trainer.progress.games import load_game
from trainer.store import Store

CHART_TITLES = (
    "Points lost by theme",
    "Points lost by phase of the hand",
    "Points lost by pass direction",
    "Accuracy by day",
    "Points a hand, game by game",
    "Improvement areas and strengths",
)


@pytest.fixture(scope="module")
def review_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("review-home")
    store = Store(home / "progress.sqlite3")
    game_id = record_history(store)
    hands = len(load_game(store, game_id).hands)
    store.close()
    return home, hands


@pytest.fixture(scope="module")
def review_url(review_home):
    home, _hands = review_home
    yield from _serve("lessons/review.py", "marimo-run-review.log", {"HEARTS_TRAINER_HOME": str(home)})


@pytest.fixture
def review_page(new_page, review_url):
    page = new_page({"width": 1100, "height": 1400}, 30_000)
    page.goto(review_url)
    return page


def snap(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_the_charts_render_from_the_recorded_history(review_page) -> None:
    page = review_page
    expect(page.get_by_role("heading", name="Where your points go")).to_be_visible()
    expect(page.get_by_text("12 graded decisions")).to_be_visible()
    charts = page.locator(".vega-embed")
    expect(charts).to_have_count(len(CHART_TITLES))
    for index in range(len(CHART_TITLES)):
        drawn = charts.nth(index).locator("canvas, svg.marks")
        expect(drawn.first).to_be_visible()
        box = drawn.first.bounding_box()
        assert box["width"] > 300 and box["height"] > 60
    expect(page.get_by_text("Most points go in queen of spades: 4.67 a decision over 3")).to_be_visible()
    expect(page.get_by_text("Work on queen of spades; your strengths: endgame, ducking")).to_be_visible()
    expect(page.get_by_text("Accuracy is up: 50% on 2026-01-01, 100% on 2026-01-03")).to_be_visible()
    snap(page, "30-review-charts")


def test_the_last_game_is_reviewed_and_a_key_moment_replays_as_a_puzzle(review_page, review_home) -> None:
    page = review_page
    _home, hands = review_home
    expect(page.get_by_text(re.compile(r"Your last game"))).to_be_visible()
    sheet = page.locator(".ht-sheet tbody tr")
    expect(sheet).to_have_count(hands)
    page.locator(".ht-sheet").scroll_into_view_if_needed()
    snap(page, "31-review-score-sheet")

    page.get_by_role("button", name="Review my last game").click()
    # While the evaluator works, the page says so (and how many decisions it looks at).
    expect(page.get_by_text(re.compile(r"Reviewing your game"))).to_be_visible()
    heading = page.get_by_role("heading", name=re.compile(r"Accuracy \d+% · [\d.]+ points lost a hand"))
    expect(heading).to_be_visible(timeout=180_000)
    expect(page.get_by_text("Luck and skill.")).to_be_visible()
    expect(page.get_by_role("heading", name="Key moments")).to_be_visible()
    # The review's decisions join the charts: more than the twelve recorded before.
    expect(page.get_by_text(re.compile(r"(1[3-9]|[2-9]\d|\d{3}) graded decisions"))).to_be_visible()
    # The review is kept: its button goes without a reload (pressing it again would redo it all).
    expect(page.get_by_role("button", name="Review my last game")).to_have_count(0)
    snap(page, "32-review-game")

    choice = page.get_by_role("combobox").first
    options = [o for o in choice.locator("option").all_inner_texts() if o.startswith("Hand ")]
    assert options, "the reviewed game has no key moment to replay"
    choice.select_option(label=options[0])
    expect(page.get_by_role("heading", name=re.compile(r"From your game: hand \d+"))).to_be_visible()
    page.locator('[data-table="puzzle"] .ht-hand .card').first.wait_for()
    page.locator('[data-table="puzzle"]').scroll_into_view_if_needed()
    snap(page, "33-review-replay")
    # The replay's seats name the bots the game was played against (Normal), not the table's default.
    seats = page.locator('[data-table="puzzle"] .ht-seat:not(.me)')
    expect(seats).to_have_count(3)
    for index in range(3):
        expect(seats.nth(index)).to_contain_text("normal bot")
    # The key moments show cards as the table does: Q♠, not QS.
    moments = page.get_by_role("table").filter(has_text="you chose")
    assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", moments.inner_text()), moments.inner_text()

    # Reopened, the kept review shows at once: no button to press, no evaluator to wait for.
    page.reload()
    expect(page.get_by_text(re.compile(r"Your review of this game, kept from"))).to_be_visible()
    expect(heading).to_be_visible()
    expect(page.get_by_role("heading", name="Key moments")).to_be_visible()
    expect(page.get_by_role("button", name="Review my last game")).to_have_count(0)
