"""'Practise this' on the review page, in Chromium (issue 55): over a store with a reviewed game and
graded decisions, the link opens the puzzles page in practice mode, the learner's own key moment
first, then a puzzle of their weakest theme; the home page then says what is due."""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, _serve_command, signed_in
from tests.review.history import record_history
from trainer.progress.games import load_game
from trainer.puzzles.format import PUZZLES_DIR
from trainer.puzzles.source import read_toml
from trainer.site import HOME, REVIEW
from trainer.store import Store

MOMENT = "pass-001"
"""A library pass puzzle standing for the kept review's key moment (a review takes minutes)."""


def kept_review(store: Store, game_id: int) -> None:
    """A review kept with the game as ``trainer.review.stored.keep_review`` keeps one: its
    figures, and one key moment (the pass of hand 1) with its replay puzzle."""
    game = load_game(store, game_id)
    puzzle = {**read_toml(PUZZLES_DIR / f"{MOMENT}.toml"), "id": "review"}
    puzzle["title"] = "From your game: hand 1, the pass"
    best = puzzle["answer"]["accepted"][0]
    summary = {
        "hands": len(game.hands),
        "decisions": 52,
        "accuracy": 90.0,
        "loss_per_hand": 1.0,
        "total_loss": 3.0,
        "cards": 0.0,
        "luck": 0.0,
        "result": 0.0,
        "points": sum(hand.result.scores[0] for hand in game.hands),
        "bands": {"best": 40, "good": 7, "inaccuracy": 4, "mistake": 1, "blunder": 0},
        "per_hand": [
            {
                "hand": index + 1,
                "pass": hand.pass_direction.value,
                "points": hand.result.scores[0],
                **dict.fromkeys(("result", "cards", "decisions", "luck"), 0.0),
            }
            for index, hand in enumerate(game.hands)
        ],
        "stored": 1,
        "moments": [
            {
                "hand": 0,
                "kind": "pass",
                "trick": 0,
                "seat": 0,
                "choice": "2C 3C 4C",
                "best": best,
                "loss": 3.0,
                "band": "mistake",
                "players": 4,
                "puzzle": puzzle,
            }
        ],
        "notes": {},
    }
    with store.transaction() as db:
        db.execute(
            "UPDATE games SET reviewed_at = ?, review = ? WHERE id = ?",
            ("2026-03-01T10:00:00", json.dumps(summary), game_id),
        )


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    home = tmp_path_factory.mktemp("practice-home")
    store = Store(home / "progress.sqlite3")
    game_id = record_history(store)
    kept_review(store, game_id)
    store.close()
    env = {"HEARTS_TRAINER_HOME": str(home)}
    for url in _serve_command([sys.executable, "-m", "trainer.serve"], "trainer-serve-practice.log", env):
        yield url, home


def test_practise_this_opens_the_practice_of_the_learners_own_mistakes(browser, served) -> None:
    served, home = served
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_context(viewport={"width": 1100, "height": 1400}).new_page()
    page.set_default_timeout(30_000)
    page.goto(signed_in(served + REVIEW))
    link = page.get_by_role("link", name="Practise this →")
    expect(link).to_be_visible()
    line = page.get_by_text(re.compile(r"A session of puzzles of your weakest theme"))
    expect(line).to_contain_text("queen of spades")
    expect(line).to_contain_text("1 key moment of your own games")
    link.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "60-review-practise-this.png"))
    link.click()

    expect(page).to_have_url(re.compile(r"/puzzles/\?mode=practice$"))
    expect(page.get_by_role("heading", name="Practice: your own mistakes")).to_be_visible()
    expect(
        page.get_by_text(re.compile(r"Practice: puzzle 1 of 10\. From your game of \d{4}"))
    ).to_contain_text("From your game of ")
    expect(page.get_by_role("heading", name="From your game: hand 1, the pass")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Puzzle review-g1-h1-t0"))).to_be_visible()
    expect(page.get_by_role("combobox")).to_have_count(0)  # practice chooses: no filters
    table = page.locator('[data-table="puzzle"]')
    table.locator(".ht-hand .card").first.wait_for()
    page.screenshot(path=str(ARTIFACTS / "61-practice-own-moment.png"), full_page=True)

    page.get_by_role("button", name="Next puzzle").click()
    second = page.get_by_text(re.compile(r"Practice: puzzle 2 of 10\. Theme"))
    expect(second).to_contain_text("Theme queen of spades")
    page.screenshot(path=str(ARTIFACTS / "62-practice-weakest-theme.png"), full_page=True)

    store = Store(home / "progress.sqlite3")  # the moment, missed before, is due again
    with store.transaction() as db:
        db.execute(
            "INSERT INTO practice_items VALUES ('review-g1-h1-t0', 'moment', 0, '2026-01-02', 1, 0, "
            "'2026-01-01T10:00:00')"
        )
    store.close()
    page.goto(signed_in(served + HOME))
    due = page.get_by_role("link", name="1 puzzle due today: 1 of your own mistakes →")
    expect(due).to_be_visible()
    due.click()
    expect(page.get_by_text(re.compile(r"Practice: puzzle 1 of \d+\. Due \d+ days ago"))).to_contain_text(
        "you missed it last time"
    )
    expect(page.get_by_text(re.compile(r"Puzzle review-g1-h1-t0"))).to_be_visible()
    page.context.close()
