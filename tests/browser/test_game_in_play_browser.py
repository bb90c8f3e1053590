"""Lesson 9's game in Chromium: a reload in the middle of a game puts the same cards back, and a
game that ends shows its result and the review link on the table at once."""

from __future__ import annotations

import re
import sys

import pytest
from playwright.sync_api import Page, expect

from engine import Rules
from tests.browser.conftest import ARTIFACTS, _serve_command, signed_in
from tests.table_moves import next_move
from trainer.lessons.catalog import lesson_address
from trainer.progress.tables import save_table
from trainer.site import REVIEW
from trainer.store import Store
from trainer.table import TableSession

T = '[data-table="lesson"]'


def almost_finished_game() -> dict:
    """A game to 100 against easy bots, played from its first hand to one learner card before
    its end: the record the lesson keeps, as it was just before that card."""
    session = TableSession(Rules(), seed=41, bots={1: "easy", 2: "easy", 3: "easy"}, hints=None)
    before_last = None
    while not session.winners:
        if not session.hand.is_over and session.bot_to_act is None and session.hand.phase.value == "playing":
            before_last = session.to_record()  # just before a learner card
        next_move(session)
    return before_last


@pytest.fixture(scope="module")
def game_url(tmp_path_factory):
    """The lessons server over a progress file whose lesson 9 game is one card from its end."""
    home = tmp_path_factory.mktemp("game-home")
    store = Store(home / "progress.sqlite3")
    save_table(store, "l09_play/game", "Easy bots", almost_finished_game())
    store.close()
    yield from _serve_command(
        [sys.executable, "-m", "trainer.serve"], "trainer-serve-game.log", {"HEARTS_TRAINER_HOME": str(home)}
    )


@pytest.fixture(scope="module")
def fresh_url(tmp_path_factory):
    """The lessons server over a progress file of its own (the other tests' games stay apart)."""
    home = tmp_path_factory.mktemp("fresh-home")
    yield from _serve_command(
        [sys.executable, "-m", "trainer.serve"], "trainer-serve-fresh.log", {"HEARTS_TRAINER_HOME": str(home)}
    )


@pytest.fixture
def page(new_page):
    return new_page({"width": 1100, "height": 1600})


def hand_codes(page: Page) -> list[str]:
    return page.locator(f"{T} .ht-hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def play_first_legal(page: Page) -> str:
    card = page.locator(f"{T} .ht-hand .card.legal").first
    code = card.get_attribute("data-card")
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    card.click()
    expect(page.locator(f'{T} .ht-hand .card[data-card="{code}"]')).to_have_count(0)
    return code


def test_the_game_ends_with_its_result_and_review_link_on_the_table(game_url, page) -> None:
    page.goto(signed_in(game_url + lesson_address("l09_play")))
    page.locator(f"{T} .ht-hand .card.legal").first.wait_for()
    expect(page.locator(f'{T} [data-role="game-over"]')).to_have_count(0)
    play_first_legal(page)
    over = page.locator(f'{T} [data-role="game-over"]')
    expect(over).to_contain_text("Game over")
    expect(over).to_contain_text("Final totals")
    link = over.locator('[data-role="review-link"]')
    expect(link).to_have_attribute("href", REVIEW)
    expect(page.locator(f'{T} [data-role="status"]')).to_contain_text("won")
    # The score sheet's caption says it too (unless the last hand was a moon, which it names).
    caption = page.locator(f'{T} [data-role="scores"] caption')
    expect(caption).to_have_text(re.compile("Game over|shot the moon"))
    # The lesson's own text below the table says the result too, without another click.
    expect(page.get_by_text("Final totals").nth(1)).to_be_visible()
    expect(page.get_by_text("Play the game to the end")).to_have_count(0)
    # The finished game is kept for review as it ended: Take back is not offered (greyed out).
    expect(page.locator(f'{T} [data-action="take-back"]')).to_be_disabled()
    expect(over).to_contain_text("Game over")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lesson-9-game-over.png"), full_page=True)
    link.click()
    expect(page.get_by_role("heading", name=re.compile("review", re.I)).first).to_be_visible()


def test_a_reload_mid_game_resumes_the_same_cards(fresh_url, page) -> None:
    page.goto(signed_in(fresh_url + lesson_address("l09_play")))
    page.locator(f"{T} .ht-hand .card").first.wait_for()
    if page.locator(f'{T}[data-phase="passing"]').count():
        for code in hand_codes(page)[-3:]:
            page.locator(f'{T} .ht-hand .card[data-card="{code}"]').click()
        page.locator(f'{T} [data-action="pass"]').click()
    page.locator(f"{T} .ht-hand .card.legal").first.wait_for()
    play_first_legal(page)
    page.locator(f"{T} .ht-hand .card.legal").first.wait_for()  # the bots have played round to us
    # Twelve cards: thirteen after the pass, one played (read once the table has settled: a read
    # during a redraw on a busy machine once caught four cards of a trick).
    expect(page.locator(f"{T} .ht-hand .card")).to_have_count(12)
    cards = hand_codes(page)
    # The trick in play: a finished trick stays on the table a moment before it is swept away, and
    # a resumed game does not show it again.
    current = f'{T} .ht-trick[data-showing="current"]'
    page.locator(current).wait_for()
    trick = page.locator(f"{current} .played").evaluate_all("ps => ps.map(p => p.dataset.card)")
    page.reload()
    page.locator(f"{T} .ht-hand .card.legal").first.wait_for()
    expect(page.locator(f"{T} .ht-hand .card")).to_have_count(12)
    assert hand_codes(page) == cards
    page.locator(current).wait_for()
    shown = page.locator(f"{current} .played").evaluate_all("ps => ps.map(p => p.dataset.card)")
    assert shown == trick
    expect(page.get_by_text("cannot be resumed")).to_have_count(0)


def test_another_level_deals_a_new_game_and_the_home_page_shows_it_in_play(fresh_url, page) -> None:
    page.goto(signed_in(fresh_url + lesson_address("l09_play")))
    page.locator(f"{T} .ht-hand .card").first.wait_for()
    before = hand_codes(page)
    page.get_by_role("combobox").first.select_option(label="Normal bots, game to 50")
    old = ", ".join(f'[data-card="{code}"]' for code in before)
    expect(page.locator(f"{T} .ht-hand .card:is({old})")).not_to_have_count(len(before))  # another deal
    expect(page.locator(f"{T} .ht-hand .card")).to_have_count(13)
    assert not page.locator(f"{T} .ht-hand .card.received").count()  # a new deal, not a pass
    page.goto(signed_in(fresh_url + "/"))
    row = page.get_by_role("row").filter(has_text="Play a full game")
    expect(row).to_contain_text("a game in play")
    expect(row).not_to_contain_text("not started")
