"""The shooter's choice in Chromium: the learner who shot the moon chooses how it is scored."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, _serve

T = '[data-table="moon"]'


@pytest.fixture(scope="module")
def moon_url():
    yield from _serve("tests/browser/notebooks/moon_choice.py", "marimo-run-moon.log")


def test_the_shooter_chooses_to_subtract_the_moon_and_the_score_table_shows_it(browser, moon_url):
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    page.set_default_timeout(20_000)
    page.goto(moon_url)
    subtract = page.locator(f'{T} [data-action="moon-subtract"]')
    expect(subtract).to_be_visible()
    expect(page.locator(f'{T} [data-action="moon-add"]')).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(T).screenshot(path=str(ARTIFACTS / "10-moon-choice.png"))
    subtract.click()
    expect(page.locator(T)).to_contain_text("You shot the moon!")
    totals = page.locator(f"{T} table tr").last
    expect(totals).to_contain_text("-16")  # 10 before the hand, minus 26
    expect(subtract).to_have_count(0)
    page.locator(T).screenshot(path=str(ARTIFACTS / "11-moon-scored.png"))
    page.context.close()
