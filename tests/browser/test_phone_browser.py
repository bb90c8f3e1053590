"""Every page on a phone (390×844) and on a laptop (1280×900), in Chromium against `marimo run
lessons/` (each page loaded once, on the phone, then widened to the laptop's window): nothing
runs off the right edge unless it sits in a box that scrolls sideways, and on the card table no
card covers a seat's name or figures. Full-page screenshots land in test-artifacts/phone-*.png
and test-artifacts/laptop-*.png."""

from __future__ import annotations

import re
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, ROOT, _serve_command, signed_in
from tests.review.history import record_history
from trainer.lessons.catalog import LESSON_MODULES as LESSONS
from trainer.lessons.catalog import lesson_address
from trainer.puzzles import load_puzzle
from trainer.site import HOME, PUZZLES, REVIEW
from trainer.store import Store

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PAGES = ("index", *LESSONS, "puzzles", "review")


def address_of(name: str) -> str:
    return {"index": HOME, "puzzles": PUZZLES, "review": REVIEW}.get(name) or lesson_address(name)


REVIEW_CHARTS = 6
WAIT = 30_000  # ms: a busy two-core machine starts each page's kernel slowly

# Every element whose right edge passes the window's must sit inside a box that scrolls sideways
# (and itself fits); one clipped by `overflow: hidden` on the way is cut off for good.
# marimo scrolls the notebook inside one box, not the document: the tallest box that scrolls.
SCROLLER = """
const notebookScroller = () => {
  let best = document.scrollingElement;
  for (const node of document.querySelectorAll("*")) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && node.scrollHeight > best.scrollHeight) best = node;
  }
  return best;
};
"""

OVERFLOW_SCRIPT = (
    """
() => {"""
    + SCROLLER
    + """
  const width = window.innerWidth;
  const problems = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > width + 1) problems.push(`the page is ${page.scrollWidth}px wide`);
  const scroller = notebookScroller();
  if (scroller.scrollWidth > scroller.clientWidth + 1) {
    problems.push(`the notebook is ${scroller.scrollWidth}px wide`);
  }
  const parentOf = (node) => node.parentElement || (node.parentNode && node.parentNode.host) || null;
  const describe = (node) =>
    `${node.tagName.toLowerCase()}${node.className && node.className.baseVal === undefined
      ? "." + String(node.className).trim().split(/\\s+/).join(".") : ""}`;
  const elements = [];
  const collect = (root) => {
    for (const node of root.querySelectorAll("*")) {
      elements.push(node);
      if (node.shadowRoot) collect(node.shadowRoot);
    }
  };
  collect(document);
  for (const node of elements) {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= width + 1) continue;
    // marimo keeps some menus on the page, faded out (opacity 0): the learner does not see them
    if (!node.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    let holder = parentOf(node);
    let verdict = "runs off the page";
    while (holder && holder !== document.body && holder !== document.documentElement) {
      const overflow = getComputedStyle(holder).overflowX;
      if (overflow === "auto" || overflow === "scroll") {
        const holderBox = holder.getBoundingClientRect();
        // marimo scrolls the whole notebook in one window-wide box: scrolling that is the page's
        if (holderBox.left <= 1 && holderBox.right >= width - 1) verdict = "makes the page scroll sideways";
        else if (holderBox.right > width + 1) verdict = `scrolls inside ${describe(holder)}, which runs off`;
        else verdict = "";
        break;
      }
      if (overflow === "hidden" || overflow === "clip") {
        verdict = `is cut off by ${describe(holder)}`;
        break;
      }
      holder = parentOf(holder);
    }
    if (verdict) problems.push(`${describe(node)} (right edge ${Math.round(box.right)}px) ${verdict}`);
  }
  return problems;
}
"""
)

# On each card table: no card (in a hand, on the trick, an opponent's back or open card) overlaps a
# seat's name or figures, and no two seats overlap.
OVERLAP_SCRIPT = """
(table) => {
  const boxOf = (node) => node.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const labels = [...table.querySelectorAll(".ht-seat .seat-name, .ht-seat .seat-stats")];
  const cards = [...table.querySelectorAll(".played, .ht-hand .card, .back, .face.mini")];
  const seats = [...table.querySelectorAll(".ht-seat")];
  const problems = [];
  const name = (node) => `${node.className} ${node.dataset.card || node.textContent.trim().slice(0, 30)}`;
  for (const label of labels) {
    for (const card of cards) {
      if (getComputedStyle(card).display === "none") continue;
      if (meet(boxOf(label), boxOf(card))) problems.push(`${name(card)} covers ${name(label)}`);
    }
  }
  seats.forEach((seat, i) => seats.slice(i + 1).forEach((other) => {
    if (meet(boxOf(seat), boxOf(other))) {
      problems.push(`seat ${seat.dataset.seat} overlaps seat ${other.dataset.seat}`);
    }
  }));
  return { problems, labels: labels.length, played: table.querySelectorAll(".played").length };
}
"""


@pytest.fixture(scope="module")
def pages_url(tmp_path_factory):
    """The lessons server (as scripts/start.sh runs it) over a store with a recorded history, so the
    review draws its charts."""
    home = tmp_path_factory.mktemp("phone-home")
    store = Store(home / "progress.sqlite3")
    record_history(store)
    store.close()
    yield from _serve_command(
        [sys.executable, "-m", "trainer.serve"], "trainer-serve-phone.log", {"HEARTS_TRAINER_HOME": str(home)}
    )


def wait_until_drawn(page: Page, name: str) -> None:
    if name == "index":
        expect(page.get_by_role("heading", name="Hearts Trainer")).to_be_visible(timeout=WAIT)
        expect(page.get_by_role("link", name="Play a full game", exact=True)).to_be_visible(timeout=WAIT)
    elif name == "review":
        charts = page.locator(".vega-embed")
        expect(charts).to_have_count(REVIEW_CHARTS, timeout=WAIT)
        for index in range(REVIEW_CHARTS):
            expect(charts.nth(index).locator("canvas, svg.marks").first).to_be_visible(timeout=WAIT)
        expect(page.locator(".ht-sheet")).to_be_visible(timeout=WAIT)
    elif name == "puzzles":
        page.locator("[data-table] .ht-hand .card").first.wait_for()
    else:
        # Some first steps show a finished hand: the seats are there, the learner's hand empty.
        expect(page.get_by_role("heading", name=re.compile(r"Step 1 of \d+"))).to_be_visible(timeout=WAIT)
        expect(page.locator("[data-table] .ht-seat")).to_have_count(4, timeout=WAIT)


def save_whole_page(page: Page, viewport: dict, name: str) -> None:
    """A screenshot of the whole notebook: marimo scrolls it inside a box, so the window is made
    as tall as the notebook first (Playwright's full_page sees only the window)."""
    height = page.evaluate(
        "() => {"
        + SCROLLER
        + " const box = notebookScroller(); box.scrollTop = 0; return box.scrollHeight; }"
    )
    page.set_viewport_size(
        {"width": viewport["width"], "height": min(max(height, viewport["height"]), 12_000)}
    )
    page.wait_for_timeout(300)  # the charts redraw at the new size
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("name", PAGES)
def test_the_page_fits_the_screen_and_no_card_covers_a_seat(new_page, pages_url, name):
    # One load a page: drawn on the phone, then the same page turned into a laptop's window (the
    # layout follows the window's size, as when a phone is turned or a window widened).
    page = new_page(PHONE, WAIT)
    page.goto(signed_in(f"{pages_url}{address_of(name)}"))
    wait_until_drawn(page, name)
    page.wait_for_load_state("networkidle")
    for viewport, size in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)  # the charts redraw at the new size
        wait_until_drawn(page, name)
        assert_fits(page, name, viewport, size)


def assert_fits(page: Page, name: str, viewport: dict, size: str) -> None:
    overflowing = page.evaluate(OVERFLOW_SCRIPT)
    charts = [mark.bounding_box() for mark in page.locator(".vega-embed canvas, .vega-embed svg.marks").all()]
    tables = [table.evaluate(OVERLAP_SCRIPT) for table in page.locator("[data-table]").all()]
    save_whole_page(page, viewport, f"{size}-{name}")

    assert overflowing == [], size
    # A chart drawn whole on the screen, not in a box the learner must scroll.
    assert len(charts) == (REVIEW_CHARTS if name == "review" else 0)
    for box in charts:
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1, (size, box)
    assert len(tables) == (0 if name in ("index", "review") else 1)
    for found in tables:
        assert found["problems"] == [], size
        assert found["labels"] >= 2 * 4, found  # a name and figures for every seat
        if name == "l03_following":  # three cards on the trick, one beside each seat's figures
            assert found["played"] == 3, found


def test_a_pass_puzzles_verdict_and_heat_map_fit_a_phone(new_page, pages_url):
    page = new_page(PHONE, WAIT)
    page.goto(signed_in(f"{pages_url}{PUZZLES}"))
    page.locator("[data-table] .ht-hand .card").first.wait_for()
    first = page.get_by_text(re.compile(r"Puzzle (pass|play)-[a-z0-9-]*[0-9]"))
    shown = re.search(r"Puzzle (\S+-\d+)", first.inner_text()).group(1)
    page.locator("select").first.select_option(label="What would you pass?")
    prompt = page.get_by_text(re.compile(r"Puzzle pass-[a-z0-9-]*[0-9]"))
    expect(prompt).not_to_contain_text(shown, timeout=WAIT)  # the pass puzzle chosen now
    puzzle_id = re.search(r"(pass-[a-z0-9-]*[0-9])", prompt.inner_text()).group(1)
    puzzle = load_puzzle(ROOT / "puzzles" / f"{puzzle_id}.toml")
    for code in puzzle.answer.best.split():
        card = page.locator(f'[data-table] .ht-hand .card[data-card="{code}"]')
        card.click()
        expect(card).to_have_class(re.compile(r"\bselected\b"))
    page.locator('[data-table] [data-action="pass"]').click()
    expect(page.get_by_text(re.compile(r"Your pass ranks 1 of \d+"))).to_be_visible(timeout=WAIT)
    heat_map = page.locator(".vega-embed canvas, .vega-embed svg.marks")
    expect(heat_map).to_have_count(1, timeout=WAIT)
    page.wait_for_load_state("networkidle")
    box = heat_map.bounding_box()
    overflowing = page.evaluate(OVERFLOW_SCRIPT)
    save_whole_page(page, PHONE, "phone-puzzles-pass-verdict")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    assert overflowing == []
