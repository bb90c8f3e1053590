"""The static site (`hearts-trainer site build`) in Chromium with no network beyond localhost:
its pages, Pyodide and every wheel served from one local folder. Lesson 1's first steps, one
puzzle solved, and on the home page (a new page) the progress is still there (kept in the
browser's IndexedDB), and the progress it downloads is imported by the installed version. Lesson 9
against Hard bots: the table says which bot is thinking and answers the learner meanwhile. A pass
puzzle's heat map (in streak mode) and the review page's charts are drawn offline (Vega-Lite specs,
no pandas), and the review's "Practise this" opens a practice session that keeps an answer. Only
the puzzles page downloads the puzzle library's wheel.
A shared link to the analysis board opens its position and ranks it in the browser. The career:
a short match won moves the learner up a level, which the home page (a new page) reads back."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import zipfile

import pytest
from playwright.sync_api import Page, expect

from engine import HandState, Rules
from engine.bots import make_bot
from tests.browser import site_early
from tests.browser.conftest import ARTIFACTS, ROOT
from tests.browser.test_career_browser import play_match, scripted_result
from trainer.analysis import AnalysisPosition, from_view, to_address
from trainer.progress.decisions import option_text
from trainer.progress.transfer import import_progress
from trainer.puzzles import load_puzzle
from trainer.site_build.build import serve_folder
from trainer.site_build.trim import LEFT_OUT_BUNDLES, SHIPPED_UNIMPORTED, bundle_name
from trainer.site_build.wheel import PUZZLES_DISTRIBUTION
from trainer.store import Store

LESSON = '[data-table="lesson"]'
PUZZLE = '[data-table="puzzle"]'
LOAD = 120_000  # ms: a cold start loads Pyodide and installs the wheels, slower on a busy machine


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site's folder, built once per session by the CLI: in the background from the session's
    start (``site_early``), else here."""
    place = site_early.started_build(tmp_path_factory)
    if place is not None:
        code, seconds, log = site_early.wait_for(place)
        out = place / "site"
        assert code == 0, f"site build failed:\n{log[-6000:]}"
    else:
        out = tmp_path_factory.mktemp("site")
        started = time.monotonic()
        built = subprocess.run(
            site_early.build_command(out),
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert built.returncode == 0, f"site build failed:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}"
        seconds = f"{time.monotonic() - started:.0f}"
    print(f"site built in {seconds} s")
    for page in site_early.PAGES.split(","):
        assert (out / f"{page}.html").is_file()
    assert (out / "pyodide" / "pyodide.asm.wasm").is_file()
    return out


@pytest.fixture(scope="session")
def site(built_site):
    """The site served from localhost: (its address, the paths it answered 404)."""
    with serve_folder(built_site) as (url, missing):
        yield url, missing


@pytest.fixture(scope="session")
def offline(browser, site):
    """One browser context (so one IndexedDB) where every request outside the site's localhost
    address is blocked and remembered."""
    url, _missing = site
    context = browser.new_context(viewport={"width": 1100, "height": 1500}, accept_downloads=True)
    outside: list[str] = []

    def only_local(route) -> None:
        address = route.request.url
        if address.startswith((url + "/", "data:", "blob:")):
            route.continue_()
        else:
            outside.append(address)
            route.abort()

    context.route("**/*", only_local)
    yield context, outside
    context.close()


def snap(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"site-{name}.png"), full_page=True)


SAVED_AT = """async () => {
    // The newest file time in Emscripten's IDBFS database for the progress folder (0 if none yet).
    const db = await new Promise((resolve) => {
        const request = indexedDB.open("/hearts-trainer");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve(null);
    });
    if (!db || !db.objectStoreNames.contains("FILE_DATA")) return 0;
    const entries = await new Promise((resolve) => {
        const all = db.transaction("FILE_DATA", "readonly").objectStore("FILE_DATA").getAll();
        all.onsuccess = () => resolve(all.result);
        all.onerror = () => resolve([]);
    });
    db.close();
    return Math.max(0, ...entries.map((entry) => new Date(entry.timestamp).getTime()));
}"""


def wait_until_saved(page: Page, since: float) -> None:
    """Wait until the progress folder was written to IndexedDB at or after ``since`` (the page's
    clock, ms): the site saves in the background, and a page closed before that save ends would
    lose it (as a tab closed at once would)."""
    for _ in range(300):
        if page.evaluate(SAVED_AT) >= since:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the progress was not saved to IndexedDB within 30 s")


HEAR_SAVES = """() => {
    window.heardSaves = [];
    new BroadcastChannel("hearts-trainer-saving").onmessage = (event) => heardSaves.push(event.data.saving);
}"""
ANNOUNCE = """(saving) => new BroadcastChannel("hearts-trainer-saving")
    .postMessage({saver: "test", saving})"""


def close_asks_while_saving(page: Page) -> None:
    """A save reported running: closing the page brings the browser's "leave site?" question
    (answered: stay); reported ended: the page closes without a question."""
    asked: list[str] = []

    def stay(dialog) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    page.evaluate(ANNOUNCE, True)
    page.wait_for_function("() => document.documentElement.hasAttribute('data-ht-saving')")
    page.close(run_before_unload=True)
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(100)
    assert asked == ["beforeunload"], f"closing the page mid-save asked {asked}"
    assert not page.is_closed()
    page.evaluate(ANNOUNCE, False)
    page.wait_for_function("() => !document.documentElement.hasAttribute('data-ht-saving')")
    with page.expect_event("close"):
        page.close(run_before_unload=True)
    assert asked == ["beforeunload"], f"the page asked {asked} once the save had ended"


def open_page(offline, site, address: str, ready: str) -> Page:
    context, _ = offline
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{site[0]}/{address}")
    page.locator(ready).first.wait_for(timeout=LOAD)
    return page


def test_the_site_works_offline_and_keeps_progress_across_pages(offline, site, built_site, tmp_path):
    context, outside = offline
    url, missing = site

    # Lesson 1: the table is drawn and the first question judged, in the browser. Its cold load
    # is also what shows the site carries only what its pages load (``ships_only_what_it_loads``).
    fetched: list[str] = []

    def note(request) -> None:
        fetched.append(request.url.rsplit("/", 1)[-1])

    context.on("request", note)
    try:
        page = open_page(offline, site, "lesson.html?lesson=l01_game", f"{LESSON} .ht-hand .card")
    finally:
        context.remove_listener("request", note)
    ships_only_what_it_loads(page, built_site, fetched)
    expect(page.get_by_role("heading", name=re.compile(r"^Step 1 of 5"))).to_be_visible()
    page.get_by_role("radio", name="17", exact=True).check()
    expect(page.get_by_text("three").first).to_be_visible()
    page.get_by_role("radio", name="13", exact=True).check()
    expect(page.get_by_text("13 each").first).to_be_visible()
    snap(page, "lesson-1-answered")
    page.evaluate(HEAR_SAVES)
    clicked = page.evaluate("Date.now()")
    page.get_by_role("button", name="Next step →").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Step 2 of 5"))).to_be_visible()
    wait_until_saved(page, clicked)
    # The page's worker said when its save began and ended...
    page.wait_for_function("() => heardSaves.includes(true) && heardSaves.at(-1) === false")
    # ...and while a save runs, leaving the page asks first (and not once it has ended).
    close_asks_while_saving(page)

    # One play puzzle, solved, with the coach's verdict from the puzzle's stored evaluation. The
    # puzzles page is the one that downloads the puzzle library's wheel (lesson 1 did not).
    fetched.clear()
    context.on("request", note)
    try:
        page = open_page(offline, site, "puzzles.html", f"{PUZZLE} .ht-hand .card")
    finally:
        context.remove_listener("request", note)
    assert library_wheel(built_site) in fetched
    first = page.get_by_text(re.compile(r"Puzzle (pass|play)-[a-z0-9-]*[0-9]"))
    shown = re.search(r"Puzzle (\S+-\d+)", first.inner_text()).group(1)
    page.locator("select").first.select_option(label="What would you play?")
    prompt = page.get_by_text(re.compile(r"Puzzle play-[a-z0-9-]*[0-9]"))
    expect(prompt).not_to_contain_text(shown)
    puzzle_id = re.search(r"Puzzle (play-[a-z0-9-]*[0-9])", prompt.inner_text()).group(1)
    puzzle = load_puzzle(ROOT / "puzzles" / f"{puzzle_id}.toml")
    best = puzzle.answer.best
    card = page.locator(f'{PUZZLE} .ht-hand .card[data-card="{best}"]')
    card.click()
    expect(card).to_have_class(re.compile(r"\bselected\b"))
    started = time.monotonic()
    clicked = page.evaluate("Date.now()")
    card.click()
    expect(page.get_by_text("✅ Solved.")).to_be_visible(timeout=60_000)
    print(f"puzzle verdict shown {time.monotonic() - started:.1f} s after the play")
    # The verdict comes from the puzzle's verified evaluation, deeper than the browser's own look:
    # it says on how many deals and what its figures are, and no shallower-look note.
    # (a late puzzle's figures may be solved exactly, over every deal the unseen cards allow)
    deals = puzzle.answer.samples
    forecast = puzzle.answer.measure == "forecast"
    lead = "what strong players make of such hands, read from" if forecast else "over"
    if deals == 1:
        said = re.compile(rf"{lead} the one deal the unseen cards allow, solved exactly")
    else:
        said = re.compile(rf"{lead} (all )?{deals:,} (imagined )?deals")
    figures = page.get_by_text(said).first
    expect(figures).to_be_visible()
    expect(page.get_by_text("In the browser the coach looks at up to")).to_have_count(0)
    figures.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "site-puzzle-verdict.png"))
    rating = page.get_by_text(re.compile(r"Your puzzle rating: \d+"))
    expect(rating).to_contain_text("1 attempt, 1 solved")
    snap(page, "puzzle-solved")

    win_a_career_match(offline, site)

    # The way home is a relative link (the site works in any folder of any host). The home page is
    # a new page with a fresh Pyodide: it shows lesson 1 begun (saved in IndexedDB by the lesson's
    # page, now closed) and downloads the lesson's step and the puzzle's attempt (saved by the
    # puzzle's page) for the installed version. Two more cold starts to reload the lesson and the
    # puzzle pages would show the same store again, at a minute or more each.
    wait_until_saved(page, clicked)
    page.get_by_role("link", name="← All lessons").click()
    page.get_by_text("Download my progress").wait_for(timeout=LOAD)
    assert page.url.rstrip("/") in (url, f"{url}/index.html"), page.url
    row = page.locator("tr", has_text="The game")
    expect(row).not_to_contain_text("not started")
    expect(page.get_by_text("you are at Level 2")).to_be_visible()  # the career page's win, kept
    with page.expect_download() as download:
        page.get_by_text("Download my progress").click()
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    snap(page, "home-after-reload")
    page.close()

    document = json.loads(saved.read_text())
    assert [row["step"] for row in document["tables"]["lesson_progress"] if row["lesson"] == "l01_game"] == [
        1
    ]
    assert [row["solved"] for row in document["tables"]["puzzle_attempts"]] == [1]
    assert [(row["level"], row["result"]) for row in document["tables"]["career_matches"]] == [(1, "won")]
    store = Store(tmp_path / "installed.sqlite3")
    changed = import_progress(store, saved)
    assert changed["puzzle_attempts"] == 1 and changed["lesson_progress"] == 1
    assert changed["career_matches"] == 1
    assert store.query("SELECT attempts FROM puzzle_learner") == [(1,)]

    assert outside == [], f"the site asked for addresses outside localhost: {outside[:5]}"
    assert missing == [], f"the site asked for files it does not have: {sorted(set(missing))[:5]}"


CAREER_HOOK = """(hook) => self.pyodide.runPython(`import os
os.environ.update(HEARTS_CAREER_TEST="${hook}", HEARTS_BOT_DELAY="0.05")`)"""
"""In the career page's Pyodide: its test hook (``trainer.career.runner``, read as a match is dealt)."""


def win_a_career_match(offline, site) -> None:
    """The career page, offline: a match to 1 point dealt where the scripted play wins at level 1
    (``test_career_browser``'s script and seed search); the learner moves up, with the review
    the site has (its charts) and no promise of the installed one's."""
    seed = next(seed for seed in range(200) if scripted_result(seed) == "won")
    page = open_page(offline, site, "career.html", "text=No match in play")
    (runtime,) = [w for w in page.workers if w.evaluate("() => typeof self.pyodide === 'object'")]
    runtime.evaluate(CAREER_HOOK, f"1:{seed}")
    clicked = page.evaluate("Date.now()")
    play_match(page)
    expect(page.get_by_text("You won the match")).to_be_visible()
    expect(page.get_by_role("heading", name="You are at Level 2")).to_be_visible()
    expect(page.get_by_role("link", name="Your review").first).to_have_attribute("href", "review.html")
    expect(
        page.get_by_text("a review of it decision by decision needs the installed version")
    ).to_be_visible()
    expect(page.locator('[data-role="review-link"]')).to_have_text("Your review: this game in its charts →")
    snap(page, "career-won")
    wait_until_saved(page, clicked)
    page.close()


def test_hard_bots_think_in_turn_and_the_table_answers_meanwhile(offline, site):
    """Lesson 9 against Hard bots: their passes take seconds each in Pyodide, one bot a turn of the
    page's event loop. The table names the bot thinking, and a card clicked meanwhile is marked
    before the last bot has passed (once, the three passes froze the page for over a minute)."""
    page = open_page(offline, site, "lesson.html?lesson=l09_play", f"{LESSON} .ht-hand .card")
    page.get_by_label("Opponents and game length").select_option(label="Hard bots")
    thinking = page.locator(f'{LESSON} [data-role="thinking"]')
    expect(thinking).to_have_count(1, timeout=LOAD)
    thinker = page.locator(f"{LESSON} .ht-seat", has=page.locator('[data-role="thinking"]'))
    expect(thinker).to_contain_text("hard bot")
    snap(page, "lesson-9-hard-thinking")
    cards = page.locator(f"{LESSON} .ht-hand .card")
    first = cards.first
    first.click()
    expect(first).to_have_class(re.compile(r"\bselected\b"), timeout=LOAD)
    expect(thinking).to_have_count(1)  # answered while a Hard bot was still to pass
    for index in (1, 2):
        cards.nth(index).click()
        expect(cards.nth(index)).to_have_class(re.compile(r"\bselected\b"), timeout=LOAD)
    page.locator(f'{LESSON} [data-action="pass"]').click()
    expect(page.locator(f'{LESSON} [data-role="status"]')).not_to_contain_text("pass", timeout=LOAD)
    expect(page.locator(f"{LESSON}")).to_have_attribute("data-phase", "playing")
    snap(page, "lesson-9-hard-passed")
    page.close()


PROMPT = re.compile(r"Puzzle ((?:pass|play)-[a-z0-9-]*[0-9])")


def answer_puzzle(page: Page, right: bool):
    """Answer the puzzle the page shows as a learner does on the table: an accepted answer, or the
    first of its options that is not; returns the puzzle (read from its file)."""
    prompt = page.get_by_text(PROMPT).first
    puzzle = load_puzzle(ROOT / "puzzles" / f"{PROMPT.search(prompt.inner_text())[1]}.toml")
    options = [option_text(value.option) for value in puzzle.evaluation.options]
    choice = next(text for text in options if puzzle.is_accepted(text) == right)
    for code in choice.split():
        card = page.locator(f'{PUZZLE} .ht-hand .card[data-card="{code}"]')
        card.click()
        expect(card).to_have_class(re.compile(r"\bselected\b"))
    if puzzle.kind == "pass":
        page.locator(f'{PUZZLE} [data-action="pass"]').click()
    else:
        page.locator(f'{PUZZLE} .ht-hand .card[data-card="{choice}"]').click()
    return puzzle


def test_a_pass_puzzles_heat_map_the_review_charts_and_practice_work_offline(offline, site):
    _context, outside = offline
    # Streak mode: a pass puzzle solved (its heat map drawn), the next one missed.
    page = open_page(offline, site, "puzzles.html?mode=streak", f"{PUZZLE} .ht-hand .card")
    expect(page.get_by_role("heading", name="Puzzle streak")).to_be_visible()
    first = page.get_by_text(PROMPT)
    shown = PROMPT.search(first.inner_text())[1]
    page.locator("select").first.select_option(label="What would you pass?")
    expect(page.get_by_text(re.compile(r"Puzzle pass-[a-z0-9-]*[0-9]"))).not_to_contain_text(shown)
    answer_puzzle(page, right=True)
    expect(page.get_by_text(re.compile(r"Your pass ranks 1 of \d+"))).to_be_visible(timeout=60_000)
    heat_map = page.locator(".vega-embed canvas, .vega-embed svg.marks")
    expect(heat_map).to_have_count(1, timeout=60_000)
    expect(page.get_by_text("Streak: 1 in a row · best 1")).to_be_visible()
    heat_map.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "site-pass-heat-map.png"))
    solved = PROMPT.search(page.get_by_text(PROMPT).first.inner_text())[1]
    page.get_by_role("button", name="Next puzzle").click()
    expect(page.get_by_text(PROMPT).first).not_to_contain_text(solved)
    clicked = page.evaluate("Date.now()")
    answer_puzzle(page, right=False)
    expect(page.get_by_text(re.compile(r"Streak over\. Best 1"))).to_be_visible(timeout=60_000)
    snap(page, "streak-over")
    wait_until_saved(page, clicked)
    page.close()

    # The review page, a new page: the graded passes are in the charts, each drawn.
    page = open_page(offline, site, "review.html", "text=Kept in this browser")
    expect(
        page.get_by_text("A game's review, decision by decision, needs the installed version")
    ).to_be_visible()
    charts = page.locator(".vega-embed")
    expect(charts).to_have_count(6, timeout=LOAD)
    for index in range(6):
        expect(charts.nth(index).locator("canvas, svg.marks").first).to_be_visible()
    expect(page.get_by_text(re.compile(r"phase cost you most: [0-9.]+ a decision over \d+"))).to_be_visible()
    snap(page, "review-charts")

    # "Practise this": the missed pass made a weakest theme or phase; a session of it opens, and an
    # answer there is kept with the day it is due again.
    line = page.get_by_text(re.compile(r"A session of puzzles of (your weakest theme|the phase)"))
    expect(line).to_be_visible()
    page.get_by_role("link", name="Practise this →").click()
    page.locator(f"{PUZZLE} .ht-hand .card").first.wait_for(timeout=LOAD)
    assert page.url.endswith("puzzles.html?mode=practice"), page.url
    expect(page.get_by_role("heading", name="Practice: your own mistakes")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Practice: puzzle 1 of \d+\. (Theme|Phase)"))).to_be_visible()
    clicked = page.evaluate("Date.now()")
    answer_puzzle(page, right=False)
    expect(page.get_by_text(re.compile(r"Due again on \d{4}-\d\d-\d\d \(in 1 day\)"))).to_be_visible(
        timeout=60_000
    )
    snap(page, "practice-answered")
    wait_until_saved(page, clicked)
    page.close()
    # The context is the session's: nothing any page of these tests opened asked beyond localhost.
    assert outside == [], f"the site asked for addresses outside localhost: {outside[:5]}"


def mid_hand_position() -> AnalysisPosition:
    """A play with eight cards each left (Normal bots throughout)."""
    state = HandState.from_seed(7, Rules(), "hold")
    bot = make_bot("normal", 1)
    while not (state.to_move == 0 and len(state.view(0).hand) <= 8):
        state.play(bot.choose_play(state.view(state.to_move)), state.to_move)
    return from_view(state.view(0))


def test_a_shared_analysis_link_opens_offline_at_the_browsers_depth(offline, site):
    position = mid_hand_position()
    page = open_page(offline, site, f"analysis.html?p={to_address(position)}", '[data-picker="analysis"]')
    rows = page.locator('table[data-ranking="play"] tbody tr')
    expect(rows.first).to_be_visible(timeout=60_000)  # analysed as the link opens
    legal = sorted(card.code for card in position.options())
    assert sorted(rows.evaluate_all("rows => rows.map(r => r.dataset.option)")) == legal
    expect(page.get_by_role("heading", name="The coach on the top choices")).to_be_visible()
    expect(page.get_by_text("In the browser the coach looks at up to").first).to_be_visible()  # and says so
    shown = " ".join(str(card) for card in position.hand)
    expect(page.locator('[data-picker="analysis"] [data-summary="hand"]')).to_have_text(shown)
    snap(page, "analysis-link")
    page.close()


NOT_IMPORTED = """() => self.pyodide.runPython(`
import importlib.metadata, json, sys
imported = {name.split(".")[0] for name in sys.modules}
json.dumps(sorted(
    dist.metadata["Name"] for dist in importlib.metadata.distributions()
    if not {file.parts[0].split(".")[0] for file in dist.files or ()} & imported
))`)"""
"""In the page's Pyodide: the installed distributions none of whose top-level modules is imported."""


def library_wheel(built_site) -> str:
    """The puzzle library's wheel (``trainer.site_build.puzzle_pages``): its file name."""
    (wheel,) = built_site.glob(f"packages/*/{PUZZLES_DISTRIBUTION}-*.whl")
    return wheel.name


def ships_only_what_it_loads(page: Page, built_site, fetched: list[str]) -> None:
    """Each wheel the site carries is fetched by a cold load of lesson 1 (``fetched``: the files
    asked for), and imported there, but for the few SHIPPED_UNIMPORTED; the bundles left out of
    marimo's front end are not there (and no page asks for them: the tests find no file missing)."""
    (runtime,) = [w for w in page.workers if w.evaluate("() => typeof self.pyodide === 'object'")]
    not_imported = {name.lower() for name in json.loads(runtime.evaluate(NOT_IMPORTED))}
    shipped = {path.name for path in built_site.glob("packages/*/*.whl")} - {library_wheel(built_site)}
    assert shipped and shipped <= set(fetched), f"shipped, never loaded: {sorted(shipped - set(fetched))}"
    assert library_wheel(built_site) not in fetched  # the puzzle files: the puzzles page's only
    assert not_imported <= set(SHIPPED_UNIMPORTED), f"loaded, never imported: {sorted(not_imported)}"


def test_the_site_ships_its_wheels_and_standard_library_compiled_and_no_left_out_bundle(built_site):
    # Each wheel brings its bytecode (compiled by this Pyodide), so no import compiles a module.
    for wheel in built_site.glob("packages/*/*.whl"):
        names = zipfile.ZipFile(wheel).namelist()
        assert any(name.endswith(".pyc") for name in names) or not any(n.endswith(".py") for n in names), (
            wheel
        )
    # Pyodide's standard library too (the npm package has its sources only: zipimport compiled
    # every module a cold load imported, most of Pyodide's start).
    stdlib = zipfile.ZipFile(built_site / "pyodide" / "python_stdlib.zip").namelist()
    assert "os.pyc" in stdlib and not [name for name in stdlib if name.endswith(".py")]
    assert not [
        path.name for path in (built_site / "assets").iterdir() if bundle_name(path) in LEFT_OUT_BUNDLES
    ]
