"""Play with friends in Chromium: two to three browser contexts (each a person with their own
storage) in one room of `hearts-trainer host`: join by the link, pass and play a hand, reload
mid-trick, leave (a bot takes the seat after the grace period) and come back, a turn timer
firing, and the server restarted mid-hand. Short timings (given to the server) keep it quick;
bots are easy.
"""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, ROOT, _free_port, signed_in
from tests.rooms_helpers import is_hand_score

GRACE = 4  # seconds before a bot plays a closed page's seat (a reload under load takes less)
TIMER = 3  # the short turn timer the server allows for tests
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 1000}


class RoomsServer:
    """`python -m trainer.rooms.server` (hearts-trainer host) on a free port, its rooms in a
    folder of its own; ``restart()`` stops it (SIGTERM, as a reboot would) and starts it again."""

    def __init__(self, rooms: pathlib.Path) -> None:
        self.rooms = rooms
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        (ROOT / ".pytest_cache").mkdir(exist_ok=True)
        self.log = open(ROOT / ".pytest_cache" / "rooms-server.log", "w")  # noqa: SIM115

    def start(self) -> None:
        command = [sys.executable, "-m", "trainer.rooms.server", "--port", str(self.port)]
        command += ["--rooms", str(self.rooms), "--grace", str(GRACE), "--bot-delay", "0.05"]
        command += ["--trick-pause", "0.05", "--hand-pause", "600", "--short-timer", str(TIMER)]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                code = self.process.returncode
                pytest.fail(f"the rooms server exited with {code}; see .pytest_cache/rooms-server.log")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the rooms server did not answer /health within 60 s")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module's tests (each makes its own room): a left room stops by itself
    at its hand's end, since the next hand waits for people (``--hand-pause 600``)."""
    rooms = RoomsServer(tmp_path_factory.mktemp("rooms"))
    rooms.start()
    yield rooms
    rooms.stop()
    rooms.log.close()
    # Pages come and go (reloads, closed tabs, a restart): none of it is an error in the host's log.
    log = (ROOT / ".pytest_cache" / "rooms-server.log").read_text()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def people(browser):
    """``person(viewport)``: a new browser context (its own storage: one person) and its page."""
    contexts = []

    def person(viewport=DESKTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page

    yield person
    for context in contexts:
        context.close()


def make_room(page, base: str, name: str = "Ann", timer: int = 0) -> str:
    """The host makes a room on /rooms/ with the form; returns the invite link."""
    page.goto(f"{base}/rooms/")
    page.fill('#create-form input[name="name"]', name)
    if timer in (0, 15, 30, 60):
        page.select_option('select[name="timer"]', str(timer))
        page.click('#create-form button[type="submit"]')
    else:  # the test server's short timer: the same request the form makes
        page.evaluate(
            """async (timer) => {
              const answer = await fetch("/rooms/api/rooms", {method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({preset: "standard", target: 100, bot_level: "easy", timer,
                                      name: "Ann"})});
              const made = await answer.json();
              localStorage.setItem(`hearts-room:${made.code}`, made.secret);
              location.assign(`/rooms/r/${made.code}`);
            }""",
            timer,
        )
    page.locator('[data-role="invite-link"]').wait_for()
    return page.input_value('[data-role="invite-link"]')


def join(page, link: str, name: str) -> None:
    page.goto(link)
    page.fill('#join-form input[name="name"]', name)
    page.click('#join-form button[type="submit"]')
    expect(page.locator('[data-role="seats"] .rm-seat.you')).to_contain_text(name)


def seat_state(page, seat: int):
    return page.locator(f'[data-role="seats"] [data-seat="{seat}"]')


def act(page) -> bool:
    """This page's decision if it is its turn: its first three cards passed, or its first legal
    card played (selected, then played). True if it acted."""
    passing = page.locator('[data-action="pass"]')
    if passing.count() and page.locator(".ht-hand .card.selected").count() == 0:
        for index in range(3):
            page.locator(".ht-hand .card").nth(index).click()
        expect(passing).to_be_enabled()
        passing.click()
        expect(passing).to_have_count(0)
        return True
    legal = page.locator(".ht-hand .card.legal")
    if legal.count():
        code = legal.first.get_attribute("data-card")
        card = page.locator(f'.ht-hand .card[data-card="{code}"]')
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")  # the server has marked it
        card.click()
        expect(page.locator(f'.ht-hand .card[data-card="{code}"]')).to_have_count(0)
        return True
    return False


def play_until(pages, done) -> None:
    """Every page makes its decisions until ``done()``; at most a few minutes of play."""
    deadline = time.monotonic() + 240
    while not done():
        assert time.monotonic() < deadline, "the hand did not move on"
        if not any(act(page) for page in pages):
            pages[0].wait_for_timeout(100)


def hand_over(pages):
    return lambda: all(page.locator(".ht-scores.final").count() for page in pages)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start(host) -> None:
    host.click('[data-action="start"]')
    expect(host.locator('.ht-table[data-phase="passing"]')).to_be_visible()


def test_three_friends_join_by_the_link_and_play_a_whole_hand(server, people):
    ann, bob, cid = people(), people(PHONE), people()
    link = make_room(ann, server.url)
    assert "/rooms/r/" in link
    expect(ann.locator('[data-role="loopback-hint"]')).to_contain_text("works on this computer only")
    # The form offered the server's presets; the room names its rules as they were offered.
    expect(ann.locator('[data-role="settings"]')).to_contain_text("Standard, 4 players · game to 100")
    join(bob, link, "Bob")
    join(cid, link, "Cid")
    expect(seat_state(ann, 2)).to_have_attribute("data-state", "on")
    expect(bob.locator('[data-role="panel"]')).to_contain_text("Waiting for the host to start")
    start(ann)
    expect(bob.locator('.ht-seat[data-seat="0"] .seat-name')).to_have_text("Ann")
    # Someone opening the link now is told at once that the seats are taken, not asked a name.
    late = people(PHONE)
    late.goto(link)
    expect(late.locator('[data-role="room-error"]')).to_have_text(
        "The game has started: its seats are taken. Ask the host for a new room."
    )
    expect(late.locator("#join-form")).to_be_hidden()
    expect(seat_state(ann, 3)).to_contain_text("easy bot")
    # A room's hand is played to its end: no New hand while it lasts, on the page or by its key.
    expect(ann.locator('[data-action="new-hand"]')).to_have_count(0)
    play_until([ann, bob, cid], hand_over([ann, bob, cid]))
    # The score sheet: one row, the hand's 26 points (or a moon), the same on every page.
    row = '[data-role="scores"] tr[data-row="1"] td'
    rows = [page.locator(row).all_text_contents() for page in (ann, bob, cid)]
    assert is_hand_score(rows[0][1:])
    assert rows[0] == rows[1] == rows[2]  # by seat, whoever looks
    expect(ann.locator('[data-role="turn"]')).to_contain_text("Next hand in")
    shot(bob, "rooms-hand-over-phone")
    # Everyone connected presses New hand: the next hand is dealt at once.
    for page in (ann, bob, cid):
        page.click('[data-action="new-hand"]')
    for page in (ann, bob, cid):
        expect(page.locator('[data-role="hand-number"]')).to_have_text("Hand 2")


def test_reload_mid_trick_and_a_closed_page_played_by_a_bot_until_its_player_returns(server, people):
    ann, bob = people(), people()
    link = make_room(ann, server.url)
    join(bob, link, "Bob")
    start(ann)
    # Play until a trick is part-way on the table, then Bob reloads: the same seat and cards.
    play_until([ann, bob], lambda: ann.locator('.ht-trick[data-showing="current"] .played').count() >= 1)
    cards = bob.locator(".ht-hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    bob.reload()
    expect(bob.locator(".ht-hand .card")).to_have_count(len(cards))
    assert bob.locator(".ht-hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == cards
    expect(bob.locator('[data-role="seats"] .rm-seat.you')).to_contain_text("Bob")
    # Bob closes his page: after the grace period a bot plays his seat, and the table says so.
    context = bob.context
    bob.close()
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "off")
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "bot", timeout=GRACE * 1000 + 15_000)
    expect(ann.locator('[data-role="notice"]')).to_contain_text("Bob is away: a bot plays for Bob")
    played = int(ann.locator('.ht-seat[data-seat="1"]').get_attribute("data-seat"))  # the seat stays
    assert played == 1
    play_until([ann], lambda: ann.locator(".ht-hand .card").count() <= 10)  # Bob's bot plays on
    # Bob comes back with the same link: his seat is his again.
    again = context.new_page()
    again.goto(link)
    expect(again.locator('[data-role="seats"] .rm-seat.you')).to_contain_text("Bob")
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "on")
    expect(ann.locator('[data-role="notice"]')).to_contain_text("Bob is back")
    play_until([ann, again], hand_over([ann, again]))


def test_the_turn_timer_lets_a_bot_pass_for_a_slow_player_and_the_host_hands_a_seat(server, people):
    ann, bob = people(), people(PHONE)
    link = make_room(ann, server.url, timer=TIMER)
    join(bob, link, "Bob")
    start(ann)
    expect(bob.locator('[data-role="turn"]')).to_contain_text("s left")
    act(ann)  # Ann passes; Bob does not
    # Waiting for Bob, Ann's three passed cards are still in her hand, marked as passed.
    expect(ann.locator(".ht-hand .card.passed")).to_have_count(3)
    expect(ann.locator('[data-role="status"]')).to_contain_text("to Bob. Waiting for the others to pass.")
    notice = "Time ran out: a bot passed three cards for Bob."
    expect(ann.locator('[data-role="notice"]')).to_have_text(notice, timeout=TIMER * 1000 + 15_000)
    expect(bob.locator('[data-role="notice"]')).to_contain_text("Time ran out: a bot passed the ")
    expect(bob.locator('[data-action="pass"]')).to_have_count(0)
    shot(bob, "rooms-timer-phone")
    # Bob leaves; the host need not wait for the grace period: a bot plays his seat at once.
    bob.close()
    ann.locator('[data-role="seats"] [data-seat="1"] [data-action="bot-seat"]').click()
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "bot")
    expect(ann.locator('[data-role="notice"]')).to_have_text(
        "The host handed Bob's seat to a bot until Bob comes back."
    )


def test_a_server_restart_mid_hand_puts_the_room_back(server, people):
    ann, bob = people(), people()
    link = make_room(ann, server.url)
    join(bob, link, "Bob")
    start(ann)
    play_until([ann, bob], lambda: ann.locator('[data-role="scores"]').count() and tricks_done(ann) >= 3)
    cards = ann.locator(".ht-hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    server.restart()
    # Both pages reconnect by themselves to the same seats and the same hand.
    expect(ann.locator('[data-role="connection"]')).to_have_text("")
    expect(bob.locator('[data-role="connection"]')).to_have_text("")
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "on")
    assert ann.locator(".ht-hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == cards
    play_until([ann, bob], hand_over([ann, bob]))
    rows = ann.locator('[data-role="scores"] tr[data-row="1"] td').all_text_contents()
    assert is_hand_score(rows[1:])


def tricks_done(page) -> int:
    return sum(
        int(text.split(" trick")[0].split("· ")[-1])
        for text in page.locator(".ht-seat .seat-stats").all_text_contents()
    )


def test_the_lessons_server_links_to_the_rooms_and_a_friend_needs_no_token(lessons_url, people):
    """scripts/start.sh's server: the home page's "Play with friends" opens the rooms; the link
    works for a friend without the lessons' token, whose lessons stay closed to them."""
    ann, bob = people(), people(PHONE)
    ann.goto(signed_in(lessons_url))
    ann.get_by_role("link", name="Play with friends").click()
    expect(ann).to_have_url(f"{lessons_url}/rooms/")
    link = make_room(ann, lessons_url)
    refused = []  # nothing the friend's room page asks for is refused (its icon included)
    bob.on("console", lambda line: refused.append(line.text) if line.type == "error" else None)
    join(bob, link, "Bob")
    expect(seat_state(ann, 1)).to_have_attribute("data-state", "on")
    assert refused == []
    assert bob.goto(lessons_url + "/").status == 401  # the friend cannot open the lessons
