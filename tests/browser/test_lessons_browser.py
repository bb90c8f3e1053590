"""The lessons in Chromium against `python -m trainer.serve` (as scripts/start.sh serves them): the
home page, every lesson's first interactive step through the one lesson page, lesson 5 from start
to finish, and the way home from a lesson."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, signed_in
from trainer.lessons.catalog import lesson_address
from trainer.site import HOME, PUZZLES, REVIEW

T = '[data-table="lesson"]'


@pytest.fixture
def lesson_page(new_page, lessons_url):
    page = new_page({"width": 1100, "height": 1600})

    def open_(key: str) -> Page:
        """A lesson by its key, or the home page for "index"."""
        page.goto(signed_in(lessons_url + (HOME if key == "index" else lesson_address(key))))
        return page

    return open_


def snap(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def feedback(page: Page, words: str):
    return expect(page.get_by_text(words).first)


def wait_for_table(page: Page) -> None:
    page.locator(f"{T} .ht-hand .card").first.wait_for()


def choose(page: Page, option: str) -> None:
    page.get_by_role("radio", name=option, exact=True).check()


def play(page: Page, code: str) -> None:
    """Play a card as a learner does: a faded (illegal) card is refused on its first click; a legal
    one is selected, then played by a second click."""
    card = page.locator(f'{T} .ht-hand .card[data-card="{code}"]')
    if "faded" in (card.get_attribute("class") or ""):
        card.click(force=True)  # aria-disabled: Playwright would wait for "enabled"
        expect(page.locator(f'{T} [data-role="error"]')).not_to_be_empty()
        return
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    card.click()


def next_step(page: Page) -> None:
    page.get_by_role("button", name="Next step →").click()


def test_the_home_page_lists_every_lesson(lesson_page) -> None:
    page = lesson_page("index")
    expect(page.get_by_role("heading", name="Hearts Trainer")).to_be_visible()
    for title in ("The game", "Passing", "Following suit and discarding", "Leading and breaking hearts",
                  "The first trick", "Scoring and the moon", "A game to 100", "Strategy in play",
                  "Play a full game"):  # fmt: skip
        expect(page.get_by_role("link", name=title, exact=True)).to_be_visible()
    snap(page, "lessons-home")
    page.get_by_role("link", name="The game", exact=True).click()
    expect(page.get_by_role("heading", name="1. The game")).to_be_visible()


def test_lesson_1_first_step(lesson_page) -> None:
    page = lesson_page("l01_game")
    wait_for_table(page)
    choose(page, "17")
    feedback(page, "three").to_be_visible()
    choose(page, "13")
    feedback(page, "13 each").to_be_visible()
    snap(page, "lesson-1")


def test_lesson_2_first_step_and_its_rule_switch(lesson_page) -> None:
    page = lesson_page("l02_passing")
    wait_for_table(page)
    # The step asks which way this hand passes: the badge keeps it until the learner answers.
    expect(page.locator(f'{T} [data-role="pass"]')).to_have_text("Pass: ?")
    choose(page, "No pass (hold hand)")
    expect(page.locator(f'{T} [data-role="pass"]')).to_have_text("Pass: hold")
    feedback(page, "hold hand").to_be_visible()
    page.get_by_role("switch").click()
    expect(page.locator(f'{T} [data-role="pass"]')).to_have_text("Pass: left")
    feedback(page, "Under this house rule there is no hold hand").to_be_visible()
    snap(page, "lesson-2")


def test_lesson_3_first_step(lesson_page) -> None:
    page = lesson_page("l03_following")
    wait_for_table(page)
    play(page, "JS")
    feedback(page, "you must play one").to_be_visible()
    play(page, "3D")
    feedback(page, "follows suit").to_be_visible()
    snap(page, "lesson-3")


def test_lesson_4_first_step(lesson_page) -> None:
    page = lesson_page("l04_leading")
    wait_for_table(page)
    play(page, "6C")
    feedback(page, "with no choice").to_be_visible()
    play(page, "2C")
    feedback(page, "opens every hand").to_be_visible()
    snap(page, "lesson-4")


def test_lesson_6_first_step(lesson_page) -> None:
    page = lesson_page("l06_scoring")
    page.get_by_role("radio", name="17", exact=True).wait_for()
    choose(page, "5")
    feedback(page, "She is worth **13**".replace("**", "")).to_be_visible()
    choose(page, "17")
    feedback(page, "4 + 13 = 17").to_be_visible()
    snap(page, "lesson-6")


def test_lesson_6_a_count_question_hides_the_seats_points_until_answered(lesson_page) -> None:
    page = lesson_page("l06_scoring")
    page.get_by_role("radio", name="17", exact=True).wait_for()

    def at_step(step: int) -> None:  # one click at a time: a click during a re-run can be lost
        expect(page.get_by_role("heading", name=re.compile(f"^Step {step} of 5"))).to_be_visible()

    try:
        for step in range(2, 6):
            next_step(page)
            at_step(step)
        me = page.locator(f"{T} .ht-seat.me .seat-stats")
        expect(me).to_contain_text("1 card")
        expect(me).not_to_contain_text("point")  # the learner's tricks hold points: the table keeps quiet
        page.get_by_role("radio").first.check()
        expect(me).to_contain_text("point")
        snap(page, "lesson-6-count-hidden")
    finally:  # the lesson resumes where it stopped: leave it at its first step for the other tests
        for _ in range(5):
            shown = page.get_by_role("heading", name=re.compile(r"^Step \d of 5")).inner_text()
            current = int(re.search(r"Step (\d)", shown).group(1))
            if current == 1:
                break
            page.get_by_role("button", name="← Back").click()
            at_step(current - 1)


def test_lesson_7_first_step_and_its_target_switch(lesson_page) -> None:
    page = lesson_page("l07_game")
    page.get_by_role("radio", name="The game goes on", exact=True).wait_for()
    choose(page, "The game goes on")
    feedback(page, "another hand is dealt").to_be_visible()
    page.get_by_role("switch").click()
    feedback(page, "the game ends after this hand").to_be_visible()
    choose(page, "The lowest total wins now")
    feedback(page, "reached the target of 50").to_be_visible()
    snap(page, "lesson-7")


def test_lesson_8_first_step(lesson_page) -> None:
    page = lesson_page("l08_strategy")
    wait_for_table(page)
    play(page, "AD")
    feedback(page, "13 points").to_be_visible()
    play(page, "8D")
    feedback(page, "ducks under the J♦").to_be_visible()
    snap(page, "lesson-8")


def test_lesson_9_first_step(lesson_page) -> None:
    page = lesson_page("l09_play")
    wait_for_table(page)
    feedback(page, "Play the game to the end").to_be_visible()
    expect(page.locator(f'{T}[data-phase="passing"]')).to_have_count(1)
    cards = page.locator(f"{T} .ht-hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    for code in cards[-3:]:
        card = page.locator(f'{T} .ht-hand .card[data-card="{code}"]')
        card.click()
        expect(card).to_have_class(re.compile(r"\bselected\b"))
    page.locator(f'{T} [data-action="pass"]').click()
    expect(page.locator(f"{T} .ht-hand .card.received")).to_have_count(3)
    snap(page, "lesson-9")


def test_lesson_5_from_start_to_finish(lesson_page, lessons_home) -> None:
    page = lesson_page("l05_first_trick")
    wait_for_table(page)
    # Step 1: a heart is refused on the first trick; the variant allows the Q♠.
    play(page, "2H")
    feedback(page, "on the **first trick**".replace("**", "")).to_be_visible()
    snap(page, "lesson-5-step-1-refused")
    page.get_by_role("switch").click()
    expect(page.locator(f'{T} .ht-hand .card[data-card="QS"].legal')).to_have_count(1)
    play(page, "QS")
    feedback(page, "13 points for Right").to_be_visible()
    snap(page, "lesson-5-step-1-variant")
    next_step(page)
    # Step 2: the disputed call, answered under the standard rule.
    expect(page.get_by_role("heading", name=re.compile("Step 2 of 3"))).to_be_visible()
    choose(page, "Yes")
    feedback(page, "The engine refuses her").to_be_visible()
    choose(page, "No")
    feedback(page, "that is the variant, not the standard rule").to_be_visible()
    next_step(page)
    # Step 3: nothing but points.
    expect(page.get_by_role("heading", name=re.compile("Step 3 of 3"))).to_be_visible()
    choose(page, "Any of my cards")
    feedback(page, "the first-trick rule gives way").to_be_visible()
    snap(page, "lesson-5-step-3")
    page.get_by_role("button", name="Finish lesson").click()
    feedback(page, "Lesson 5 complete.").to_be_visible()
    snap(page, "lesson-5-complete")
    page.get_by_role("link", name=re.compile("6. Scoring and the moon")).click()
    expect(page.get_by_role("heading", name="6. Scoring and the moon")).to_be_visible()
    # The home page shows it, and the lesson reopens where it stopped (progress is on disk).
    page.get_by_role("link", name="← All lessons").click()
    expect(
        page.get_by_role("row", name=re.compile("The first trick")).get_by_text("✓ complete")
    ).to_be_visible()
    assert (lessons_home / "progress.sqlite3").exists()
    page.get_by_role("link", name="The first trick", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("Step 3 of 3"))).to_be_visible()


def test_the_lesson_6_calculator_is_a_form_of_four_labelled_fields(new_page, lessons_url) -> None:
    page = new_page({"width": 1280, "height": 900})
    page.goto(signed_in(lessons_url + lesson_address("l06_scoring")))
    heading = page.get_by_role("heading", name=re.compile(r"^Step \d of 5"))
    if heading.inner_text().startswith("Step 1"):
        next_step(page)
    expect(page.get_by_role("heading", name=re.compile("Step 2 of 5"))).to_be_visible()
    seats = ("You", "Left", "Across", "Right")
    fields = [page.get_by_role("textbox", name=f"{who} took") for who in seats]
    for field in fields:
        expect(field).to_be_visible()
    # Shown as itself, the array was a list: a "4 Items" tree with its label's raw markdown.
    expect(page.get_by_text("4 Items")).to_have_count(0)
    expect(page.get_by_text("**Left**")).to_have_count(0)
    tops = {round(field.bounding_box()["y"]) for field in fields}
    assert len(tops) == 1, f"the four fields should sit in one row, not {tops}"
    fields[1].scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "lesson-6-calculator.png"))
    fields[1].fill("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    fields[1].press("Enter")
    feedback(page, "That is a moon for Left").to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "lesson-6-calculator-answered.png"))


def test_a_lesson_leads_home_to_the_hearts_home_page(lesson_page, lessons_url) -> None:
    page = lesson_page("l03_following")
    expect(page.get_by_role("heading", name="3. Following suit and discarding")).to_be_visible()
    expect(page).to_have_title("Hearts Trainer: 3. Following suit and discarding")
    # marimo's own "Back" (to its file gallery) appears only on a `?file=` address: none here.
    expect(page.get_by_label("Back to gallery")).to_have_count(0)
    hrefs = page.locator("a[href]").evaluate_all("links => links.map(a => new URL(a.href).pathname)")
    assert hrefs and set(hrefs) <= {HOME, "/lesson/"}, hrefs
    page.get_by_role("link", name="← All lessons").click()
    expect(page.get_by_role("heading", name="Hearts Trainer", exact=True)).to_be_visible()
    assert page.url == lessons_url + HOME
    expect(page.get_by_role("link", name="Following suit and discarding", exact=True)).to_be_visible()
    snap(page, "lesson-back-to-home")


def test_an_unknown_lesson_says_so_and_links_home(lesson_page, lessons_url) -> None:
    page = lesson_page("l99_nothing")
    expect(page.get_by_text("There is no lesson called")).to_be_visible()
    expect(page).to_have_title("Hearts Trainer: lesson")
    snap(page, "lesson-unknown")
    page.get_by_role("link", name="Hearts Trainer home page").click()
    expect(page.get_by_role("heading", name="Hearts Trainer", exact=True)).to_be_visible()
    assert page.url == lessons_url + HOME


@pytest.mark.parametrize("address", [PUZZLES, REVIEW], ids=["puzzles", "review"])
def test_the_pages_beside_the_lessons_lead_home_too(new_page, lessons_url, address) -> None:
    page = new_page({"width": 1100, "height": 1300})
    page.goto(signed_in(lessons_url + address))
    page.get_by_role("link", name="← All lessons").click()
    expect(page.get_by_role("heading", name="Hearts Trainer", exact=True)).to_be_visible()
    assert page.url == lessons_url + HOME


def go_to_step(page: Page, number: int) -> None:
    """Step ``number`` of the open lesson, by its Back and Next buttons (it reopens where it stopped)."""
    heading = page.get_by_role("heading", name=re.compile(r"^Step \d+ of"))
    heading.wait_for()
    for _ in range(12):
        shown = int(re.match(r"Step (\d+)", heading.inner_text()).group(1))
        if shown == number:
            break
        page.get_by_role("button", name="← Back" if shown > number else "Next step →").click()
        after = shown + (1 if shown < number else -1)
        expect(page.get_by_role("heading", name=re.compile(rf"^Step {after} of"))).to_be_visible()
    page.locator(f"{T} .ht-status").wait_for()


def test_after_new_hand_in_a_step_a_legal_card_is_played(lesson_page) -> None:
    """New hand deals free play: a legal card of the new hand is played, not refused as a card
    of the step's own hand ("You do not hold the 8♣.") and taken back."""
    page = lesson_page("l03_following")
    go_to_step(page, 1)
    page.get_by_role("button", name="New hand").click()
    page.get_by_role("button", name="Deal a new hand").click()
    expect(page.locator(f"{T} .ht-hand .card")).to_have_count(13)  # dealt again (hand 4: no pass)
    legal = page.locator(f"{T} .ht-hand .card.legal").first
    legal.wait_for()
    code = legal.get_attribute("data-card")
    play(page, code)
    expect(page.locator(f'{T} .ht-hand .card[data-card="{code}"]')).to_have_count(0)
    expect(page.locator(f'{T} [data-role="error"]')).to_be_empty()
    expect(page.get_by_text("is not allowed here")).to_have_count(0)
    feedback(page, "A new hand is on the table").to_be_visible()
    snap(page, "lesson-3-new-hand-played")


def test_lesson_8_count_step_waits_for_the_learner(lesson_page) -> None:
    """The count step's table stands still: Right's K♠ is on it before the question, and the
    verdict counts the spades the table shows."""
    page = lesson_page("l08_strategy")
    go_to_step(page, 4)
    expect(page.locator(f'{T} [data-role="status"]')).to_have_text(re.compile("Your turn"))
    expect(page.locator(f"{T} .ht-trick .played")).to_have_count(1)
    expect(page.locator(f'{T} .ht-trick .played[data-card="KS"]')).to_have_count(1)
    choose(page, "3")
    feedback(page, "9 spades have been played").to_be_visible()
    expect(page.locator(f"{T} .ht-trick .played")).to_have_count(1)  # nobody moved on meanwhile
    snap(page, "lesson-8-count")


def test_lesson_1_winner_step_ends_the_game_only_when_the_learner_plays(lesson_page) -> None:
    """The last hand waits for the learner's last card: no 'Game over' answers the question."""
    page = lesson_page("l01_game")
    go_to_step(page, 5)
    expect(page.locator(f'{T} [data-role="game-over"]')).to_have_count(0)
    expect(page.locator(f"{T} .ht-hand .card")).to_have_count(1)
    choose(page, "Across, with 58")
    feedback(page, "Left passed 100").to_be_visible()
    play(page, page.locator(f"{T} .ht-hand .card").first.get_attribute("data-card"))
    expect(page.locator(f'{T} [data-role="game-over"]')).to_contain_text("Across won")
    snap(page, "lesson-1-game-over-after-the-answer")
