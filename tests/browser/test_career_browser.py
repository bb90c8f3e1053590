"""The career in Chromium: a lost match keeps the level, a won one moves the learner up, a reload
keeps where they are; each finished match offers its review.

The matches are short and known through the career's test hook (``HEARTS_CAREER_TEST``, in
``trainer.career.runner``): every match is a game to 1 point, the first dealt from a seed where
the scripted play below loses, the second from one where it wins. The seeds are found here, by
playing the same script in Python against the same level's bots (so they stay right whatever bots
the first level seats)."""

from __future__ import annotations

import os
import re
import sys

import pytest
from playwright.sync_api import Page, expect

from engine.cards import CARDS
from tests.browser.conftest import ARTIFACTS, _serve_command, signed_in
from tests.browser.test_phone_browser import OVERLAP_SCRIPT
from trainer.career.progress import rungs
from trainer.career.runner import TEST_HOOK, CareerRunner
from trainer.site import CAREER
from trainer.store import Store

T = '[data-table="career"]'
ORDER = {card.code: index for index, card in enumerate(CARDS)}
FIRST, SECOND = rungs()[0], rungs()[1]


def lowest(codes: list[str], count: int = 1) -> list[str]:
    """The script's choice: the first cards in the engine's order (three to pass, one to play)."""
    return sorted(codes, key=ORDER.__getitem__)[:count]


def scripted_result(seed: int) -> str | None:
    """'won' or 'lost' when the script's match from ``seed`` ends after its first hand, else None."""
    os.environ[TEST_HOOK] = f"1:{seed}"
    try:
        runner = CareerRunner(Store(":memory:"), bot_delay=0)
        runner.start_match(100)
        widget, session = runner.widget, runner.widget.session
        while not session.hand.is_over:
            hand = session.hand
            if hand.phase.value == "passing":
                widget.act({"type": "pass", "cards": lowest([c.code for c in hand.hand(0)], 3)})
            elif hand.phase.value == "playing":
                widget.act({"type": "play", "card": lowest([c.code for c in hand.legal_cards()])[0]})
            else:
                return None  # a moon choice: not the script's
        return runner.matches()[0].result if session.winners else None
    finally:
        os.environ.pop(TEST_HOOK, None)


@pytest.fixture(scope="module")
def career_url(tmp_path_factory):
    found: dict[str, int] = {}
    for seed in range(200):
        found.setdefault(scripted_result(seed), seed)
        if "lost" in found and "won" in found:
            break
    lose, win = found["lost"], found["won"]
    home = tmp_path_factory.mktemp("career-home")
    env = {"HEARTS_TRAINER_HOME": str(home), TEST_HOOK: f"1:{lose},{win}", "HEARTS_BOT_DELAY": "0.02"}
    yield from _serve_command([sys.executable, "-m", "trainer.serve"], "trainer-serve-career.log", env)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 1600})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def codes(page: Page, which: str) -> list[str]:
    return page.locator(f"{T} .ht-hand .card{which}").evaluate_all("cs => cs.map(c => c.dataset.card)")


def play_match(page: Page) -> None:
    """Start a match and play its one hand by the script."""
    page.get_by_role("button", name="Start the match").click()
    page.locator(f'{T}[data-phase="passing"] .ht-hand .card').first.wait_for()
    new_hand = page.locator(f'{T} [data-action="new-hand"]')
    expect(new_hand).to_have_count(0)  # a hand in a match is played to its end: no deal offered
    for code in lowest(codes(page, ""), 3):
        page.locator(f'{T} .ht-hand .card[data-card="{code}"]').click()
    page.locator(f'{T} [data-action="pass"]').click()
    expect(page.locator(f'{T} [data-action="hint"]')).to_have_count(0)  # a match is the learner's own play
    for _ in range(13):
        page.locator(f"{T} .ht-hand .card.legal").first.wait_for()
        (code,) = lowest(codes(page, ".legal"))
        page.locator(f'{T} .ht-hand .card[data-card="{code}"]').press("Enter")  # the focused card is played
        expect(page.locator(f'{T} .ht-hand .card[data-card="{code}"]')).to_have_count(0)
    expect(page.locator(f'{T} [data-role="game-over"]')).to_contain_text("Game over")
    expect(new_hand).to_have_count(1)  # once the match is over, it deals the next one


def record_row(page: Page, title: str):
    """The level's row in "Your record" (the first table naming levels)."""
    return page.locator("tr", has=page.locator("td", has_text=re.compile(f"^{title}$"))).first


def test_a_lost_match_keeps_the_level_a_won_one_moves_up_and_a_reload_keeps_it(career_url, page) -> None:
    page.goto(signed_in(career_url + CAREER))
    expect(page.get_by_role("heading", name=f"You are at {FIRST.title}")).to_be_visible()
    expect(page.get_by_text("No match in play")).to_be_visible()

    play_match(page)
    expect(page.get_by_text("You lost the match")).to_be_visible()
    expect(page.get_by_role("heading", name=f"You are at {FIRST.title}")).to_be_visible()
    expect(record_row(page, FIRST.title).locator("td")).to_have_text([FIRST.title, "0", "1"])
    review = page.get_by_role("link", name="Review this match")
    expect(review).to_have_attribute("href", re.compile(r"^/review/\?game=career%2Fmatch%2F"))
    # The table's own game-over box links to the same review.
    link = page.locator(f'{T} [data-role="review-link"]')
    expect(link).to_have_attribute("href", review.get_attribute("href"))

    play_match(page)
    expect(page.get_by_text("You won the match")).to_be_visible()
    expect(page.get_by_text(f"You are now at {SECOND.title}")).to_be_visible()
    expect(page.get_by_role("heading", name=f"You are at {SECOND.title}")).to_be_visible()
    expect(record_row(page, FIRST.title).locator("td")).to_have_text([FIRST.title, "1", "1"])
    expect(page.get_by_text("Your points a hand against the bots of each level")).to_be_visible()
    expect(page.locator(".vega-embed")).to_have_count(1)  # the chart, match by match
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "career-won.png"), full_page=True)

    page.reload()
    expect(page.get_by_role("heading", name=f"You are at {SECOND.title}")).to_be_visible()
    expect(record_row(page, FIRST.title).locator("td")).to_have_text([FIRST.title, "1", "1"])
    expect(page.get_by_text(f"three {SECOND.title} bots")).to_be_visible()

    # "Your matches", newest first: the lost match's review opens that game, not the last one.
    lost = page.get_by_role("link", name="review", exact=True).nth(1)
    page.goto(career_url + lost.get_attribute("href"))
    expect(page.get_by_text("This game", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Review this game")).to_be_visible()


def test_on_a_phone_no_card_on_the_trick_covers_a_seats_name_or_figures(career_url, page) -> None:
    # The career's seats show points, which wrap a side seat's figures wider than the lessons' do.
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(signed_in(career_url + CAREER))
    page.get_by_role("button", name="Start the match").click()
    page.locator(f'{T}[data-phase="passing"] .ht-hand .card').first.wait_for()
    for code in lowest(codes(page, ""), 3):
        page.locator(f'{T} .ht-hand .card[data-card="{code}"]').click()
    page.locator(f'{T} [data-action="pass"]').click()
    table, found = page.locator(T), []
    # The keys' help opens inside the table, not a word a line down past it.
    page.locator(f'{T} [data-action="help"]').click()
    page.locator(f"{T} .ht-help").wait_for()  # drawn on the widget's next render, not at the click
    outer, inner = table.bounding_box(), page.locator(f"{T} .ht-help").bounding_box()
    assert outer["x"] <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"]
    assert inner["y"] + inner["height"] <= outer["y"] + outer["height"], (inner, outer)
    page.locator(f"{T} .ht-help button").click()
    for _ in range(13):  # the first hand, checked at each of the learner's turns
        page.locator(f"{T} .ht-hand .card.legal").first.wait_for()
        found.append(table.evaluate(OVERLAP_SCRIPT))
        (code,) = lowest(codes(page, ".legal"))
        page.locator(f'{T} .ht-hand .card[data-card="{code}"]').press("Enter")
        expect(page.locator(f'{T} .ht-hand .card[data-card="{code}"]')).to_have_count(0)
    assert any(check["played"] >= 2 for check in found)  # Right's card (at least) on the trick
    assert [check["problems"] for check in found if check["problems"]] == []
