"""The analysis board in Chromium: a pass set up by clicking cards from the deck and a mid-hand
position by pasted text, each ranked exactly as ``analyse`` ranks that position; the link reopens
it; a bad paste says what is wrong in one line and changes nothing; a review's key moment opens
on the board; the position plays out on the card table.

The server looks at few deals (``HEARTS_ANALYSIS_DEPTH``, no clock), so the ranking is the same
on a busy machine and the tests stay short; the page says it looked at fewer deals."""

from __future__ import annotations

import os
import re
import sys
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from playwright.sync_api import Page, expect

from engine import PassDirection
from tests.browser.conftest import ARTIFACTS, _serve_command, signed_in
from tests.browser.test_phone_browser import OVERFLOW_SCRIPT
from trainer.analysis import AnalysisPosition, Trick, analyse, from_address, parse_cards, to_address
from trainer.analysis.board import DEPTH_HOOK, analysis_depth, band_text
from trainer.analysis.links import moment_link

DEALS = "256"
PICKER = '[data-picker="analysis"]'
PASS_HAND = "2C 7C KC 3D 9D QD AD 4S QS AS 5H JH KH"
PLAY_HAND = "3C 8C JC 4D 10D KD 2S 6S JS KS 3H 8H QH"
TRICK = "2C 9C QC"  # led by Left; then Across, Right, and you to play


@pytest.fixture(scope="module")
def kept_home(tmp_path_factory):
    """A learner's data folder holding a one-hand game with its review kept (key moments)."""
    from tests.review.test_review import BUDGET, learner_hand
    from trainer.progress.games import game_record, load_game, save_game
    from trainer.review.game import review_game
    from trainer.review.stored import keep_review, stored_review
    from trainer.store import Store

    home = tmp_path_factory.mktemp("analysis-home")
    hand, _made = learner_hand(blunder=True)
    store = Store(home / "progress.sqlite3")
    game_id = save_game(store, game_record([hand], 0, {1: "hard", 2: "hard", 3: "hard"}), "l09_play/game/g1")
    keep_review(store, review_game(load_game(store, game_id), BUDGET, workers=1))
    moments = stored_review(load_game(store, game_id)).key_moments()
    store.close()
    return home, moments


@pytest.fixture(scope="module")
def depth_hook():
    """The same depth in this process as in the server's (to compute the expected ranking)."""
    saved = os.environ.get(DEPTH_HOOK)
    os.environ[DEPTH_HOOK] = DEALS
    yield analysis_depth()
    if saved is None:
        os.environ.pop(DEPTH_HOOK, None)
    else:
        os.environ[DEPTH_HOOK] = saved


@pytest.fixture(scope="module")
def server(kept_home):
    home, _moments = kept_home
    yield from _serve_command(
        [sys.executable, "-m", "trainer.serve"],
        "trainer-serve-analysis.log",
        {"HEARTS_TRAINER_HOME": str(home), DEPTH_HOOK: DEALS, "HEARTS_BOT_DELAY": "0.02"},
    )


def open_page(new_page, url: str, width: int = 1100) -> Page:
    page = new_page({"width": width, "height": 1400}, 30_000)
    page.goto(signed_in(url))
    return page


def snap(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def location(page: Page) -> str:
    """The address bar's URL (marimo sets the query with ``history.pushState``, which Playwright's
    ``page.url`` does not follow)."""
    return page.evaluate("location.href")


def address_in(page: Page) -> str:
    """The position's address in the page's URL (its ``p``)."""
    return unquote(parse_qs(urlparse(location(page)).query)["p"][0])


def shown_ranking(page: Page, kind: str) -> list[tuple[str, ...]]:
    """The ranking table's rows: option's codes, band, points lost, your points, others' points."""
    rows = page.locator(f'table[data-ranking="{kind}"] tbody tr')
    rows.first.wait_for(timeout=120_000)
    shown = []
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()  # rank, option, band, lost, you, others, moon
        shown.append((row.get_attribute("data-option"), *cells[2:6]))
    return shown


def expected_ranking(position: AnalysisPosition, depth) -> list[tuple[str, ...]]:
    analysis = analyse(position, depth, 0)
    return [
        (
            row.option.code if hasattr(row.option, "code") else " ".join(c.code for c in row.option),
            band_text(row.label),
            f"{row.loss:.2f}",
            f"{row.points:.2f}",
            f"{row.others:.2f}",
        )
        for row in analysis.rows
    ]


def put(page: Page, place: str, text: str) -> None:
    """Type cards into a place of the picker and set them."""
    page.locator(f'{PICKER} [data-place="{place}"]').click()
    expect(page.locator(f'{PICKER} [data-current="{place}"]')).to_be_visible()
    page.locator(f"{PICKER} .an-input").fill(text)
    page.locator(f'{PICKER} [data-action="paste"]').click()


def test_a_pass_set_up_by_clicks_is_ranked_as_the_coach_ranks_it_and_the_link_reopens_it(
    new_page, server, depth_hook
) -> None:
    page = open_page(new_page, server + "/")
    page.get_by_role("link", name="Analysis board").click()  # from the home page
    for code in PASS_HAND.split():
        card = page.locator(f'{PICKER} .an-card[data-card="{code}"]')
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f'{PICKER} [data-summary="hand"]')).to_have_text(
        " ".join(str(card) for card in parse_cards(PASS_HAND))
    )
    expect(page.locator(f"{PICKER} [data-message]")).to_have_text("")
    position = AnalysisPosition(4, "standard", "pass", parse_cards(PASS_HAND), PassDirection.LEFT)
    page.wait_for_function("new URL(location.href).searchParams.has('p')")
    assert address_in(page) == to_address(position)

    page.get_by_role("button", name="Analyse this position").click()
    shown = shown_ranking(page, "pass")
    assert shown == expected_ranking(position, depth_hook)
    assert len(shown) == 286  # every pass of three from thirteen
    expect(page.locator(".vega-embed").first).to_be_visible()  # the heat map
    expect(page.get_by_role("heading", name="The coach on the top choices")).to_be_visible()
    expect(page.get_by_text(f"started with {DEPTH_HOOK}")).to_be_visible()  # and says so
    snap(page, "60-analysis-pass")

    # The link reopens the position, ranked as it opens.
    link = location(page)
    page.goto(link)
    assert shown_ranking(page, "pass") == shown
    expect(page.locator(f'{PICKER} [data-summary="hand"]')).to_have_text(
        " ".join(str(card) for card in parse_cards(PASS_HAND))
    )

    # Play it out: the position on the card table, the learner's cards as set up.
    page.get_by_role("button", name="Play it out against bots").click()
    table = page.locator('[data-table="analysis"] .ht-hand .card')
    expect(table).to_have_count(13)
    assert sorted(table.evaluate_all("cards => cards.map(c => c.dataset.card)")) == sorted(PASS_HAND.split())


def test_a_mid_hand_position_by_pasted_text_is_ranked_and_a_bad_paste_changes_nothing(
    new_page, server, depth_hook
) -> None:
    # A link whose position does not read: the page says why in one line and starts empty.
    page = open_page(new_page, server + "/analysis/?p=9.nothing", width=360)
    expect(page.get_by_text("This link's position could not be opened. address:")).to_be_visible()
    page.get_by_label("Mid-hand: a play").check()
    page.get_by_label("Pass this hand").select_option(label="Hold (no pass)")
    put(page, "hand", "3♣ 8♣ J♣ 4♦ 10♦ K♦ 2♠ 6♠ J♠ K♠ 3♥ 8♥ Q♥")
    page.locator(f'{PICKER} [data-action="add-trick"]').click()
    page.locator(f'{PICKER} [data-leader="0"]').select_option(label="Left")
    put(page, "trick:0", TRICK.lower().replace(" ", ", "))
    expect(page.locator(f"{PICKER} [data-message]")).to_have_text("")
    position = AnalysisPosition(
        4,
        "standard",
        "play",
        parse_cards(PLAY_HAND),
        PassDirection.HOLD,
        tricks=(Trick(1, parse_cards(TRICK)),),
    )
    page.wait_for_function("new URL(location.href).searchParams.has('p')")
    assert address_in(page) == to_address(position)
    page.get_by_role("button", name="Analyse this position").click()
    shown = shown_ranking(page, "play")
    assert shown == expected_ranking(position, depth_hook)
    assert sorted(row[0] for row in shown) == ["3C", "8C", "JC"]  # must follow clubs
    # On a phone nothing runs off the right edge but inside a box that scrolls sideways.
    assert page.evaluate(OVERFLOW_SCRIPT) == []
    snap(page, "61-analysis-play-phone")

    # A text that is not cards: one line naming the field and the word; nothing else changes.
    link = location(page)
    put(page, "hand", "AS ZZ")
    message = page.locator(f"{PICKER} [data-message]")
    expect(message).to_contain_text("hand")
    expect(message).to_contain_text("ZZ")
    assert "\n" not in message.inner_text() and len(message.inner_text()) < 300
    expect(page.locator(f'{PICKER} [data-summary="hand"]')).to_have_text(
        " ".join(str(card) for card in parse_cards(PLAY_HAND))
    )
    assert location(page) == link
    assert shown_ranking(page, "play") == shown

    # An impossible position (the 2♣ both played and held): the engine's reason in one line; the
    # address and the ranking stay those of the last position that was one.
    page.locator(f'{PICKER} .an-card[data-card="2C"]').click()
    expect(message).to_contain_text(re.compile(r"^trick 1: .*2♣"))
    assert "\n" not in message.inner_text() and len(message.inner_text()) < 300
    expect(page.get_by_text("is not a position yet")).to_be_visible()
    assert location(page) == link
    assert shown_ranking(page, "play") == shown


def test_a_reviews_key_moment_opens_on_the_board(new_page, server, kept_home, depth_hook) -> None:
    _home, moments = kept_home
    page = open_page(new_page, server + "/review/")
    expect(page.get_by_role("heading", name="Key moments")).to_be_visible()
    page.get_by_role("link", name="Analyse this").first.click()
    expect(page).to_have_url(re.compile(r"/analysis/\?p="))  # a link: a real navigation
    expected = moment_link(moments[0])
    assert address_in(page) == unquote(expected.split("?p=", 1)[1])
    position = from_address(address_in(page))
    kind = position.moment
    assert shown_ranking(page, kind) == expected_ranking(position, depth_hook)  # analysed as it opens
    expect(page.locator(f'{PICKER} [data-summary="hand"]')).to_have_text(
        " ".join(str(card) for card in position.hand)
    )
    snap(page, "62-analysis-from-review")
