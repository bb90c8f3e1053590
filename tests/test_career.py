"""The career's progress: the level its matches make, a match kept once, a match in play resumed
with its level's bots, bad rows named and left alone, and the career carried by export/import."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import TieRule, winners_if_over
from engine.bots.ladder import LADDER, MASTER, level_keys
from tests.table_moves import next_move
from trainer.career.page import level_markdown, problems_markdown, status_markdown, strength_chart
from trainer.career.progress import (
    PLACE,
    CareerProgress,
    match_result,
    match_rules,
    next_level,
    rungs,
    strength,
)
from trainer.career.runner import (
    ELSEWHERE,
    NO_HINTS,
    NO_REDEAL,
    STARTED_ELSEWHERE,
    TEST_HOOK,
    CareerRunner,
    _test_hook,
)
from trainer.lessons.home import career_markdown
from trainer.progress.games import load_games
from trainer.progress.tables import load_table
from trainer.progress.transfer import ProgressFileError, export_progress, import_progress
from trainer.store import Store
from trainer.table import TableError, TableSession
from trainer.table.snapshot import snapshot

FIRST, SECOND = rungs()[0], rungs()[1]


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "progress.sqlite3")
    yield store
    store.close()


def move(widget) -> None:
    """The learner's next move through the table, as the browser sends it (bots at once after it):
    the next hand, a pass of the first three cards, or the first legal card."""
    hand = widget.session.hand
    if hand.is_over:
        widget.act({"type": "new_hand"})
    elif hand.phase.value == "passing":
        widget.act({"type": "pass", "cards": [card.code for card in list(hand.hand(0))[:3]]})
    else:
        widget.act({"type": "play", "card": hand.legal_cards()[0].code})


def keep(career: CareerProgress, key: str, level: int, result: str, points=(3, 0, 26)) -> None:
    assert career.keep(key, level, 50, result, list(points))


def test_a_win_moves_up_one_level_and_a_loss_keeps_it(store) -> None:
    career = CareerProgress(store)
    assert career.level == FIRST.number == 1
    keep(career, "a", FIRST.number, "lost")
    assert career.level == FIRST.number
    keep(career, "b", FIRST.number, "won")
    assert career.level == SECOND.number
    keep(career, "c", SECOND.number, "lost")
    assert career.level == SECOND.number
    assert "You are at " + SECOND.title in level_markdown(career.level)
    assert career_markdown(career.level).endswith(f"; you are at {SECOND.title}")


def test_after_the_last_level_the_master_table_and_a_win_there_stays_there(store) -> None:
    career = CareerProgress(store)
    assert next_level(LADDER[-1].number) == MASTER.number == 11
    keep(career, "top", LADDER[-1].number, "won")
    assert career.level == MASTER.number
    keep(career, "m1", MASTER.number, "won")
    keep(career, "m2", MASTER.number, "lost")
    assert career.level == MASTER.number
    assert [m.result for m in career.matches if m.level == MASTER.number] == ["won", "lost"]
    assert "## You are at the master table" in level_markdown(career.level)
    assert "three bots of the master table" in level_markdown(career.level)
    assert career_markdown(career.level).endswith("; you are at the master table")


def test_ties_are_played_off_and_a_shared_lowest_total_does_not_move_you_up() -> None:
    rules = match_rules(50)
    assert rules.ties is TieRule.PLAY_OFF and rules.target == 50
    assert winners_if_over(rules, (52, 10, 10, 30)) == ()  # a tie for lowest: one more hand
    assert winners_if_over(rules, (52, 9, 10, 30)) == (1,)
    assert match_result((0,), 0) == "won"
    assert match_result((1,), 0) == "lost"
    assert match_result((0, 2), 0) == "lost"  # a game kept elsewhere that ended shared


def test_a_match_is_kept_once_by_its_game_key(store) -> None:
    career = CareerProgress(store)
    assert career.keep("g", 1, 50, "won", [1, 2])
    assert not career.keep("g", 1, 50, "lost", [1, 2])
    assert [(m.result, m.points) for m in career.matches] == [("won", (1, 2))]


def test_a_match_refuses_a_row_its_checks_refuse(store) -> None:
    with pytest.raises(ValueError, match=r"career match g\.level: must be 1 to 11, not 12"):
        CareerProgress(store).keep("g", 12, 50, "won", [1])
    assert CareerProgress(store).matches == []


def test_a_played_match_is_kept_with_its_game_and_its_result_moves_the_level(store) -> None:
    runner = CareerRunner(store, deal_seed=5, bot_delay=0)
    assert not runner.in_play and runner.match_level is None
    runner.start_match(50)
    session = runner.widget.session
    assert runner.in_play and session.rules.target == 50 and session.rules.ties is TieRule.PLAY_OFF
    assert set(session.opponents.values()) == {FIRST.key}
    while not session.winners:
        move(runner.widget)
    (match,) = runner.matches()
    assert match.level == FIRST.number and match.target == 50
    assert match.result == ("won" if session.winners == (0,) else "lost")
    assert match.points == tuple(hand.result.scores[0] for hand in session.game_hands)
    assert match.total == session.totals[0]
    (game,) = load_games(store)
    assert game.key == match.game_key and session.review_href.endswith(game.key.replace("/", "%2F"))
    assert runner.progress.level == (SECOND.number if match.won else FIRST.number)
    said = status_markdown(runner, runner.matches())
    assert said.startswith("**You won the match**" if match.won else "**You lost the match**")
    # A reload puts the finished match back on the table and keeps it no second time.
    again = CareerRunner(store, bot_delay=0)
    assert again.finished == match and not again.in_play
    assert len(again.matches()) == 1 and len(load_games(store)) == 1
    assert again.widget.table["review_href"] == session.review_href  # the table's link, as before


def test_a_match_in_play_resumes_with_the_same_cards_and_its_levels_bots(store) -> None:
    runner = CareerRunner(store, deal_seed=9, bot_delay=0)
    runner.start_match(100)
    session = runner.widget.session
    for _ in range(5):
        move(runner.widget)
    kept = load_table(store, PLACE)
    assert kept is not None and kept[0] == FIRST.key
    before = session.to_record()
    runner.close()
    again = CareerRunner(store, bot_delay=0)
    resumed = again.widget.session
    assert again.in_play and again.match_level == FIRST.number
    assert resumed.to_record()["hands"] == before["hands"] and resumed.rules.target == 100
    assert set(resumed.opponents.values()) == {FIRST.key}


def test_a_saved_game_reseats_career_levels_by_key() -> None:
    """trainer/table/session.py restores a bot by its name: a career level's key is one."""
    key = level_keys()[1]  # the second rung (a fresh table seats easy bots, not these)
    session = TableSession(seed=3, bots=dict.fromkeys((1, 2, 3), key), hints=None)
    for _ in range(6):
        next_move(session)
    fresh = TableSession(seed=99, hints=None)  # easy bots until resumed
    fresh.resume(session.to_record())
    assert fresh.opponents == {1: key, 2: key, 3: key}
    assert [type(bot) for bot in fresh.bots.values()] == [type(bot) for bot in session.bots.values()]
    # The table names them in words under each seat: "level 2 bot", not the key.
    seats = snapshot(fresh, levels=["you", key, key, key])["seats"]
    assert [seat["bot"] for seat in seats] == [None, *[key.replace("-", " ")] * 3]
    assert snapshot(fresh, levels=["you", "master", "easy", "hard"])["seats"][1]["bot"] == "master"


def test_a_match_is_played_as_dealt(store) -> None:
    runner = CareerRunner(store, deal_seed=2, bot_delay=0)
    runner.start_match(50)
    hand = runner.widget.session.hand
    with pytest.raises(TableError, match="every hand is played to its end"):
        runner.widget.act({"type": "new_hand", "discard": True})
    assert runner.widget.table["hints"] is False  # no Hint button at a match's table
    assert runner.widget.table["deal_mid_hand"] is False  # nor New hand until the hand is over
    with pytest.raises(TableError, match="No hints"):
        runner.widget.act({"type": "hint"})
    assert runner.widget.session.hand is hand
    assert NO_REDEAL and NO_HINTS


def test_a_stale_tab_cannot_play_over_the_match_another_tab_played_on(store) -> None:
    # Two tabs on one match: without the check the stale one's card replaced the other's kept
    # progress (a take-back in disguise, and the other tab's play lost).
    first = CareerRunner(store, deal_seed=2, bot_delay=0)
    first.start_match(50)
    second = CareerRunner(store, bot_delay=0)  # opened on the same match
    hand = second.widget.session.hand
    move(first.widget)  # the pass, and the bots' cards after it
    kept = load_table(store, PLACE)
    cards = [card.code for card in list(hand.hand(0))[:3]]
    assert not second.widget.handle({"type": "pass", "cards": cards})
    assert second.widget.error["message"] == ELSEWHERE
    assert second.widget.session.hand is hand and load_table(store, PLACE) == kept
    third = CareerRunner(store, bot_delay=0)  # a reload: the match as the first tab left it
    assert third.widget.session.hand.history == first.widget.session.hand.history
    move(third.widget)  # and it plays on
    for runner in (first, second, third):
        runner.close()


def test_a_stale_tab_cannot_start_a_match_over_the_one_another_tab_dealt(store) -> None:
    # Two tabs opened with no match in play: the second's Start replaced the first's match,
    # its cards played and all.
    first = CareerRunner(store, deal_seed=2, bot_delay=0)
    second = CareerRunner(store, deal_seed=3, bot_delay=0)
    first.start_match(50)
    move(first.widget)
    kept = load_table(store, PLACE)
    second.start_match(50)
    assert second.notice == STARTED_ELSEWHERE and not second.in_play
    assert load_table(store, PLACE) == kept
    third = CareerRunner(store, bot_delay=0)  # a reload plays the first tab's match
    assert third.in_play and third.widget.session.hand.history == first.widget.session.hand.history
    for runner in (first, second, third):
        runner.close()


def test_new_hand_after_a_finished_match_deals_the_next_match_at_the_new_level(store, monkeypatch) -> None:
    monkeypatch.setenv(TEST_HOOK, "1:7")  # a match to 1 point: over in a hand or two
    runner = CareerRunner(store, bot_delay=0)
    runner.start_match(50)
    session = runner.widget.session
    while not session.winners:
        move(runner.widget)
    level = runner.progress.level
    runner.widget.act({"type": "new_hand"})
    assert runner.in_play and runner.match_level == level and len(session.game.hands) == 1
    assert all(action.seat != 0 for action in session.hand.history)  # a fresh deal: bots passed only
    assert set(session.opponents.values()) == {next(r.key for r in rungs() if r.number == level)}
    assert session.rules.target == 1 and len(runner.matches()) == 1


def test_bad_stored_rows_are_named_in_one_line_each_and_change_nothing(store) -> None:
    career = CareerProgress(store)
    keep(career, "good", 1, "won")
    with store.transaction() as db:
        db.execute(
            "INSERT INTO career_matches (game_key, level, target, result, points, hands, finished_at) "
            "VALUES ('bad', 12, 50, 'won', '[1]', 1, '2026-01-01T00:00:00'), "
            "('worse', 1, 50, 'won', '[1, 2', 2, '2026-01-01T00:00:01')"
        )
    before = store.query("SELECT * FROM career_matches ORDER BY id")
    matches, problems = career.readable_matches()
    assert [m.game_key for m in matches] == ["good"]
    assert len(problems) == 2 and all("\n" not in line and len(line) <= 300 for line in problems)
    assert "career_matches row 2, level: must be 1 to 11, not 12" in problems[0]
    assert problems[1].startswith("career_matches row 3, points:")
    assert career.level == SECOND.number  # the bad win at "level 12" counts for nothing
    assert "2 kept matches could not be read and are left out, untouched" in problems_markdown("", problems)
    assert store.query("SELECT * FROM career_matches ORDER BY id") == before


def test_the_career_travels_by_export_and_import(store, tmp_path) -> None:
    runner = CareerRunner(store, deal_seed=11, bot_delay=0)
    runner.start_match(50)
    for _ in range(4):
        move(runner.widget)
    keep(CareerProgress(store), "earlier", 1, "won", (0, 5, 26))
    path = tmp_path / "progress.json"
    path.write_text(json.dumps(export_progress(store)))
    other = Store(tmp_path / "other.sqlite3")
    changed = import_progress(other, path)
    assert changed["career_matches"] == 1 and changed["table_games"] == 1
    assert CareerProgress(other).matches[0].points == (0, 5, 26)
    assert CareerProgress(other).level == SECOND.number
    resumed = CareerRunner(other, bot_delay=0)
    assert (
        resumed.in_play
        and resumed.widget.session.to_record()["hands"] == runner.widget.session.to_record()["hands"]
    )
    assert import_progress(other, path)["career_matches"] == 0  # the same file twice: nothing new


def test_an_imported_career_row_that_fails_its_checks_is_refused_in_one_line(store, tmp_path) -> None:
    keep(CareerProgress(store), "x", 1, "won", (1, 2))
    document = export_progress(store)
    document["tables"]["career_matches"][0]["hands"] = 3
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    other = Store(tmp_path / "other.sqlite3")
    with pytest.raises(ProgressFileError) as refused:
        import_progress(other, path)
    assert "tables.career_matches[0].points: 2 hands' points for 3 hands played" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert CareerProgress(other).matches == []


def test_the_test_hook_sets_the_target_and_each_matchs_seed(store, monkeypatch) -> None:
    monkeypatch.setenv(TEST_HOOK, "1:40,41")
    assert _test_hook() == (1, [40, 41])
    runner = CareerRunner(store, bot_delay=0)
    runner.start_match(100)
    session = runner.widget.session
    assert session.rules.target == 1 and session.game.seed == 40
    monkeypatch.setenv(TEST_HOOK, "one")
    with pytest.raises(ValueError, match="HEARTS_CAREER_TEST='one': expected TARGET:SEED"):
        _test_hook()


def test_the_page_counts_the_levels_there_are() -> None:
    from trainer.career.page import INTRO, _count

    assert f"{_count(len(LADDER))} levels of bots, then the master table" in INTRO
    assert (_count(3), _count(10), _count(12)) == ("Three", "Ten", "12")


def test_strength_is_the_mean_a_hand_with_a_t_interval() -> None:
    figure = strength([0, 26])
    assert figure.hands == 2 and figure.mean == 13
    assert figure.half == pytest.approx(12.706 * 18.3848 / 2**0.5, rel=1e-4)
    assert strength([5]).half is None
    assert strength_chart([]) is None


def test_a_matchs_review_link_opens_that_game_on_the_review_page(store, monkeypatch) -> None:
    from trainer.review.page import game_markdown, open_review

    monkeypatch.setenv(TEST_HOOK, "1:3,4")  # short matches
    runner = CareerRunner(store, bot_delay=0)
    for _ in range(2):  # two matches: the first is no longer the last game
        runner.start_match(50)
        while not runner.widget.session.winners:
            move(runner.widget)
    first, second = runner.matches()
    data = open_review(store)
    assert data.game(first.game_key).key == first.game_key
    assert data.game(None) is data.last_game and data.last_game.key == second.game_key
    assert data.game("career/match/none") is data.last_game  # a key not kept: the last game, so named
    assert game_markdown(data.game(first.game_key), last=False).startswith("**This game**")


@pytest.mark.parametrize(
    ("level", "record", "said"),
    [
        ("level-99", {"format": "hearts-trainer/table-session"}, "names no level of the career"),
        (FIRST.key, {"format": "something else"}, "The saved game cannot be resumed: not a"),
    ],
)
def test_a_match_in_play_that_does_not_read_back_is_named_and_left_alone(store, level, record, said) -> None:
    from trainer.progress.tables import save_table

    save_table(store, PLACE, level, record)
    before = store.query("SELECT * FROM table_games")
    runner = CareerRunner(store, bot_delay=0)
    assert said in runner.notice and "\n" not in runner.notice and len(runner.notice) < 400
    assert not runner.in_play and runner.match_level is None
    assert store.query("SELECT * FROM table_games") == before


def test_in_the_static_site_the_career_is_linked_and_offers_the_review_the_site_has() -> None:
    """Under Pyodide the home page links the career's page, and a finished match offers the site's
    review page (its charts), saying a review decision by decision needs the installed version."""
    probe = (
        "import sys; sys.platform = 'emscripten'\n"
        "from trainer.lessons.home import career_markdown\n"
        "from trainer.career.page import matches_markdown, review_markdown\n"
        "from trainer.career.progress import Match\n"
        "from trainer.table.snapshot import REVIEW_LABEL\n"
        "match = Match(1, 'career/match/k', 1, 50, 'won', (0, 3), '2026-12-07T04:00:00')\n"
        "print(career_markdown(2), review_markdown('career/match/k'), REVIEW_LABEL, sep='\\n')\n"
        "print(matches_markdown([match]))\n"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    home, review, label, *matches = shown.splitlines()
    assert "**[The career](career.html)**" in home and home.endswith("; you are at Level 2")
    assert review.startswith(
        "[Your review](review.html) has this match in its chart of points a hand over time"
    )
    assert "a review of it decision by decision needs the installed version" in review
    assert label == "Your review: this game in its charts →"
    assert "review.html?game=" not in "\n".join(matches)  # the site's review page shows no one game
    assert matches[-1].startswith("[Your review](review.html) has these matches")
