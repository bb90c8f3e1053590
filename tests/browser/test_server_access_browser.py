"""The lessons server is the learner's alone: only the address with its token gets in, and no other
web page (another Origin) can open a page's WebSocket, token or not."""

from __future__ import annotations

import re
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.browser.conftest import SERVER_TOKEN, signed_in
from trainer.lessons.catalog import lesson_address
from trainer.server_guard import TOKEN_PARAM
from trainer.site import HOME

EVIL = "http://evil.example"


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 1300})
    yield context
    context.close()


def test_a_browser_without_the_token_sees_no_lesson_and_is_told_which_address_to_open(
    context, lessons_url
) -> None:
    page = context.new_page()
    response = page.goto(lessons_url + lesson_address("l03_following"))
    assert response.status == 401
    expect(page.get_by_text("needs the address printed by")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Following suit"))).to_have_count(0)
    assert page.locator("[data-table]").count() == 0


def test_the_address_with_the_token_lets_the_whole_browser_in_and_drops_the_token(
    context, lessons_url
) -> None:
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(signed_in(lessons_url + HOME))
    expect(page.get_by_role("heading", name="Hearts Trainer", exact=True)).to_be_visible()
    assert page.url == lessons_url + HOME  # out of the address bar and the history
    # A second tab of the same browser gets in on the cookie, with no token in its address.
    second = context.new_page()
    second.goto(lessons_url + lesson_address("l03_following"))
    expect(second.get_by_role("heading", name="3. Following suit and discarding")).to_be_visible(
        timeout=20_000
    )


def test_a_wrong_token_is_refused(context, lessons_url) -> None:
    page = context.new_page()
    response = page.goto(f"{lessons_url}{HOME}?{urlencode({TOKEN_PARAM: SERVER_TOKEN + 'x'})}")
    assert response.status == 401


def websocket_status(lessons_url: str, origin: str | None, token: str | None) -> int:
    """The HTTP status of a WebSocket handshake on the home page's session endpoint (101: opened)."""
    query = {"session_id": "s_access_probe", **({TOKEN_PARAM: token} if token else {})}
    address = f"ws://{urlsplit(lessons_url).netloc}/ws?{urlencode(query)}"
    try:
        with connect(address, origin=origin, open_timeout=20) as socket:
            return socket.response.status_code
    except InvalidStatus as refused:
        return refused.response.status_code


def test_a_websocket_from_another_origin_is_refused_even_with_the_token(lessons_url) -> None:
    own = "http://" + urlsplit(lessons_url).netloc
    assert websocket_status(lessons_url, EVIL, SERVER_TOKEN) == 403
    assert websocket_status(lessons_url, own, None) == 403
    assert websocket_status(lessons_url, own, SERVER_TOKEN) == 101
