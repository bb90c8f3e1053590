"""The coach after a room's game, in Chromium: the host plays a whole game (to the test server's
short target, 30: two hands at least) against bots on the room page, presses **Review my game**,
sees the progress and then the review drawn by review.js, every sentence of it one the server's
payload holds (the coach's checked verdicts and lesson 9's wording); it fits a phone's width; the
game is in the host's progress with its review, and the downloaded file imports into another
Hearts Trainer."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, ROOT
from trainer.progress.games import load_games
from trainer.progress.transfer import import_progress
from trainer.review.stored import stored_review
from trainer.store import Store

T = "#table"
TARGET = 30  # the server's short game, offered in the form as the test server's own choice


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    """`hearts-trainer host` on a free port, bots at once, reviews on few imagined deals."""
    home = tmp_path_factory.mktemp("rooms-home")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [sys.executable, "-m", "trainer.rooms.server", "--port", str(port), "--bot-delay", "0"]
    command += ["--hand-pause", "0", "--review-samples", "32", "--rooms", str(home / "rooms")]
    command += ["--short-target", str(TARGET)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEARTS_TRAINER_HOME": str(home)}
    log = open(home / "server.log", "w")  # noqa: SIM115
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}/rooms/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail(f"the rooms server did not answer: {(home / 'server.log').read_text()[-2000:]}")
            time.sleep(0.2)
        yield url, home
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
        log.close()


def play_to_the_end(page: Page) -> None:
    """Ann's passes and cards (the first ones she may) until the game is over."""
    over = page.locator('[data-action="review-game"]')
    legal = page.locator(f"{T} .ht-hand .card.legal")
    passing = page.locator(f'{T} [data-action="pass"]')
    while not over.is_visible():
        page.wait_for_function(
            """() => document.querySelector('[data-action="review-game"]')
              || document.querySelector('#table .ht-hand .card.legal')
              || (document.querySelector('#table [data-action="pass"]')
                  && !document.querySelector('#table .ht-hand .card.selected'))""",
            timeout=60_000,
        )
        if over.is_visible():
            break
        if passing.count():
            cards = page.locator(f"{T} .ht-hand .card")
            for index in range(3):
                cards.nth(index).click()
            passing.click()  # enabled once the server has marked the three
            expect(passing).to_have_count(0)
        elif legal.count():
            card = page.locator(f'{T} .ht-hand .card[data-card="{legal.first.get_attribute("data-card")}"]')
            card.click()  # chooses the card; Play (enabled once the server has marked it) plays it
            expect(card).to_have_class(re.compile(r"\bselected\b"))
            held = page.locator(f"{T} .ht-hand .card").count()
            page.locator(f'{T} [data-action="play"]').click()
            # played: one card fewer, or (the hand's last card) the next hand dealt, which may hold it again
            page.wait_for_function(
                "held => document.querySelectorAll('#table .ht-hand .card').length !== held", arg=held
            )


def plain(text: str) -> str:
    """A payload sentence as the page shows it: lesson 9's markdown marks drawn, not written."""
    return re.sub(r"\*\*?([^*]+)\*\*?", r"\1", text)


def test_the_host_reviews_a_room_game_and_keeps_it(browser, rooms, tmp_path) -> None:
    url, home = rooms
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1100, "height": 1300}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    reviews: list[dict] = []

    def frames(ws) -> None:
        def received(payload) -> None:
            message = json.loads(payload)
            if message.get("type") == "review":
                reviews.append(message)

        ws.on("framereceived", received)

    page.on("websocket", frames)
    page.goto(url)
    form = page.locator("#create-form")
    form.locator('[name="name"]').fill("Ann")
    target = form.locator('[name="target"]')
    target.evaluate("(select, points) => select.add(new Option(`${points} points`, points))", TARGET)
    target.select_option(str(TARGET))
    form.locator('button[type="submit"]').click()
    page.locator('[data-action="start"]').click()
    play_to_the_end(page)

    page.locator('[data-action="review-game"]').click()
    box = page.locator('[data-role="review"]')
    expect(box.locator("h2")).to_have_text("Your review")
    expect(box.locator(".hr-lead")).to_be_visible(timeout=120_000)
    done = reviews[-1]
    assert done["status"] == "done" and done["seat"] == 0
    assert any(r["status"] == "working" for r in reviews)

    # every paragraph drawn is a sentence of the payload, or a label made of its cards and names
    said = [*done["lines"], done["explain"], done["kept"], *(" ".join(h["note"]) for h in done["hands"])]
    said += [text for m in done["moments"] for text in m["verdict"]]
    said = [text for text in said if text] + ([] if done["moments"] else [done["no_moments"]])
    shown = box.locator("p").all_inner_texts()
    labels = ("Your hand", "Trick so far:", "The coach names seats from yours:")
    payload = {plain(text) for text in said}
    assert [text for text in shown if text and text not in payload and not text.startswith(labels)] == []
    assert payload <= set(shown)
    expect(box.locator("li.hr-moment")).to_have_count(len(done["moments"]))
    expect(box.locator("table th[scope=col]").first).to_have_text("hand")
    box.screenshot(path=str(ARTIFACTS / "room-review.png"))

    # the host's game is in the server's progress with its review (charts, key moments as puzzles)
    (kept,) = load_games(Store(home / "progress.sqlite3"))
    assert stored_review(kept) is not None and kept.seat == 0

    # the download is a progress file another Hearts Trainer imports
    with page.expect_download() as waiting:
        box.locator("button", has_text="Download this game").click()
    saved = tmp_path / waiting.value.suggested_filename
    waiting.value.save_as(saved)
    other = Store(tmp_path / "other.sqlite3")
    import_progress(other, saved)
    (imported,) = load_games(other)
    assert imported.key == kept.key and stored_review(imported) is not None

    # at a phone's width nothing of the review runs off the screen
    page.set_viewport_size({"width": 360, "height": 800})
    widths = box.evaluate("el => [el.scrollWidth, el.clientWidth, document.documentElement.scrollWidth]")
    assert widths[0] <= widths[1] and widths[2] <= 360
    # and the luck table's every column is in view, without scrolling it sideways
    luck = box.locator(".hr-scroll").first.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert luck[0] <= luck[1]
    box.screenshot(path=str(ARTIFACTS / "room-review-phone.png"))
    context.close()
