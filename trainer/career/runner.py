"""Runs the career for one page session: the match table, starting and resuming a match, and
keeping a finished one (its game for review, its result for the level).

The table is lesson 9's (``TableWidget``) with three of the level's bots seated by the level's key,
so a reload seats the same level again (``TableSession.resume``). A match is played as it is dealt:
no take-back, no hint and no fresh deal in the middle of a hand, since its result moves the learner
up or not and its points measure the learner's own play.

Test hook: ``HEARTS_CAREER_TEST="TARGET:SEED,SEED,..."`` makes every match a game to TARGET
points, the n-th match kept in the store (counted from 0) dealt from the n-th SEED (the last one
once they run out), so a browser test plays a short match whose deal it knows. Unset, a match is
to the learner's choice of 50 or 100, dealt from a fresh seed. It and ``HEARTS_BOT_DELAY`` are read
as a match is dealt, not as the page opens: a static-site page has no environment of its own, so a
test sets them in the page's Pyodide before it starts the match.
"""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable
from urllib.parse import quote

from engine import HandState, deal_game_hand
from engine.bots.ladder import level as level_by_key

from ..lessons.runner import _bot_delay
from ..progress.games import game_record, save_game
from ..progress.tables import kept_text, load_table, save_table
from ..site import REVIEW
from ..store import Store, StoreError, open_store
from ..table import TableError, TableSession, TableWidget
from ..table.session import Event
from .progress import PLACE, TARGETS, CareerProgress, Match, level_from, match_result, match_rules, rung

__all__ = ["TEST_HOOK", "CareerRunner", "MatchTable", "open_career", "review_address"]

TEST_HOOK = "HEARTS_CAREER_TEST"
NO_HINTS = "No hints in a career match: it measures your own play. Lesson 9 has them."
NO_REDEAL = "In a career match every hand is played to its end; New hand deals the next one then."
ELSEWHERE = "This match has moved on in another tab or window: reload the page to play on from there."
STARTED_ELSEWHERE = (
    "A match was dealt or played on in another tab or window since this page opened: reload the page "
    "to play it from there (starting one here would replace it)."
)
_MOVES = frozenset({"pass", "play", "moon", "new_hand"})  # what changes the kept match
_NOT_SAVED = frozenset({"select", "hint", "error"})  # events that change nothing in the game


def review_address(game_key: str) -> str:
    """The review page opened on this game."""
    return f"{REVIEW}?game={quote(game_key, safe='')}"


def _test_hook() -> tuple[int, list[int]] | None:
    """(target, seeds) from ``HEARTS_CAREER_TEST``, or None when it is not set."""
    value = os.environ.get(TEST_HOOK, "").strip()
    if not value:
        return None
    target, _, seeds = value.partition(":")
    try:
        return int(target), [int(seed) for seed in seeds.split(",") if seed.strip()] or [0]
    except ValueError:
        raise ValueError(f"{TEST_HOOK}={value!r}: expected TARGET:SEED,SEED,... (whole numbers)") from None


class MatchTable(TableWidget):
    """The card table of a match: hands are played as dealt. New hand after the match's last hand
    starts the next match (``next_match``)."""

    next_match: Callable[[], list[Event]] | None = None
    moved_elsewhere: Callable[[], bool] | None = None
    """Whether the kept match has changed since this table last kept or read it (another tab)."""
    offers_hints = False  # a match measures the learner's own play
    deals_mid_hand = False  # no New hand button mid-hand: it would offer a deal the match refuses

    def _dispatch(self, message: object) -> list[Event]:
        kind = message.get("type") if isinstance(message, dict) else None
        session = self.session
        if kind == "hint":
            raise TableError("match", NO_HINTS)
        # A stale tab must not overwrite the match another tab played on (a take-back in disguise).
        if kind in _MOVES and self.moved_elsewhere is not None and self.moved_elsewhere():
            raise TableError("elsewhere", ELSEWHERE)
        if kind == "new_hand" and not session.hand.is_over:
            raise TableError("match", NO_REDEAL)
        if kind == "new_hand" and session.winners and self.next_match is not None:
            return self.next_match()
        return super()._dispatch(message)


class CareerRunner:
    """``deal_seed`` makes the matches' deals reproducible (tests); by default each is fresh."""

    def __init__(
        self, store: Store, notice: str = "", deal_seed: int | None = None, bot_delay: float | None = None
    ) -> None:
        self.store = store
        self.progress = CareerProgress(store)
        self.notice = notice
        self._deals = random.Random(deal_seed) if deal_seed is not None else random.SystemRandom()
        self._delay = bot_delay
        delay = _bot_delay() if bot_delay is None else bot_delay
        self.widget = MatchTable(  # still until a match starts: no bot plays an unseen table
            autoplay=False,
            practice=False,
            bot_delay=delay,
            trick_pause=min(1.2, 2 * delay),
            table_id="career",
        )
        self.widget.next_match = self._next_match
        self.widget.moved_elsewhere = self._moved_elsewhere
        self._seen: str | None = None
        """The kept match as this page last kept or read it (JSON; "" for none), to notice another
        tab's moves; None when it could not be read."""
        self.widget.session.on_game_over = self._keep_match
        self.widget.on_event(self._keep_table)
        self.match_level: int | None = None
        """The level of the match on the table (None before the first)."""
        self.finished: Match | None = None
        """The match on the table once it is over and kept."""
        self._listeners: list[Callable[[], None]] = []
        self.problems: list[str] = []
        self._resume()

    def on_change(self, callback: Callable[[], None]) -> None:
        """Called when a match starts or ends (so a page can redraw what it says)."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # ----- what the page shows -----

    def matches(self) -> list[Match]:
        matches, self.problems = self.progress.readable_matches()
        return matches

    @property
    def in_play(self) -> bool:
        """A match is on the table and not over."""
        return self.match_level is not None and not self.widget.session.winners

    @property
    def target(self) -> int:
        return self.widget.session.rules.target

    # ----- starting, resuming, keeping -----

    def start_match(self, target: int) -> None:
        """Deal a new match at the learner's level, to ``target`` (50 or 100)."""
        if target not in TARGETS:
            raise ValueError(f"a match is to {' or '.join(map(str, TARGETS))}, not {target!r}")
        if self._moved_elsewhere():  # a stale page would overwrite the match kept since it read it
            self.notice = STARTED_ELSEWHERE
            self._changed()
            return
        self.widget.set_position(self._deal(target))
        self._changed()

    def _deal(self, target: int) -> HandState:
        """The learner's level seated and the match's first hand (the hook's target and seed in a test)."""
        matches = self.matches()
        level = rung(level_from(matches))
        hook = _test_hook()
        if hook is not None:
            target, seeds = hook
            seed = seeds[min(len(matches), len(seeds) - 1)]
        else:
            seed = self._deals.randrange(2**31)
        widget = self.widget
        if self._delay is None:
            widget.bot_delay = _bot_delay()
            widget.trick_pause = min(1.2, 2 * widget.bot_delay)
        widget.autoplay = True
        widget.session.seed = seed  # the bots' seeds and the later hands follow from it
        widget.set_bots(dict.fromkeys(widget.session.bots, level.key))
        self.match_level = level.number
        self.finished = None
        return deal_game_hand(match_rules(target), seed, 0)

    @property
    def next_target(self) -> int:
        """What New hand on a finished match's table deals the next match to: the same length."""
        return self.target if self.target in TARGETS else TARGETS[-1]

    def _next_match(self) -> list[Event]:
        """New hand on a finished match's table: the next match, to the same target."""
        events = self.widget.session.set_position(self._deal(self.next_target))
        self._changed()
        return [*events, {"type": "new_hand", "hand": 1, "text": "A new match is dealt."}]

    def _resume(self) -> None:
        """The match kept at ``PLACE`` back on the table; one that ended unkept is kept now."""
        try:
            kept = load_table(self.store, PLACE)
        except (StoreError, ValueError, sqlite3.Error) as error:
            self.notice = f"Your match in play could not be read back ({error}); it is left as it is."
            return
        if kept is None:
            self._seen = ""  # nothing kept: a match another tab deals from now on shows
            return
        key, record = kept
        try:
            level = level_by_key(key)
        except KeyError as error:
            self.notice = f"Your match in play names no level of the career ({error.args[0]}); it is left."
            return
        self.widget.autoplay = True
        try:
            self.widget.resume(record)
        except TableError as error:
            self.widget.autoplay = False
            self.notice = f"{error.message} Start a new match below."
            return
        self.match_level = level.number
        try:
            self._seen = kept_text(self.store, PLACE)  # the match as read: another tab's later play shows
        except (StoreError, sqlite3.Error):
            self._seen = None  # unreadable now: moves go on, the next save says so
        session = self.widget.session
        if session.winners:
            self._keep_match(session)
            self.widget._refresh()  # the table's review link: its game's key is known only now

    def _keep_table(self, event: dict) -> None:
        """After every card, pass and deal of a match: keep it (a reload or a restart resumes it)."""
        if self.match_level is None or event.get("type") in _NOT_SAVED:
            return
        level = rung(self.match_level)
        try:
            self._seen = save_table(self.store, PLACE, level.key, self.widget.session.to_record())
        except (StoreError, OSError, ValueError, sqlite3.Error) as error:
            self.notice = f"Your match could not be saved just now ({error}); it goes on."

    def _moved_elsewhere(self) -> bool:
        """The kept match is not the one this page last kept or read: another tab played on."""
        if self._seen is None:
            return False
        try:
            kept = kept_text(self.store, PLACE)
        except (StoreError, sqlite3.Error):
            return False  # unreadable: the next save says so
        return kept is not None and kept != self._seen

    def _keep_match(self, session: TableSession) -> None:
        """The match has ended: keep its game for review and its result (once)."""
        if self.match_level is None or not session.game_hands:
            return
        key = f"{PLACE}/{session.game_key}"
        session.review_href = review_address(key)
        try:
            if not self.progress.recorded(key):
                save_game(self.store, game_record(session.game_hands, session.seat, session.opponents), key)
                points = [hand.result.scores[session.seat] for hand in session.game_hands]
                result = match_result(session.winners, session.seat)
                self.progress.keep(key, self.match_level, session.rules.target, result, points)
        except (StoreError, ValueError, sqlite3.Error) as error:
            self.notice = f"Your match could not be kept ({error}). Its game stays on the table."
            return
        self.finished = next((m for m in reversed(self.matches()) if m.game_key == key), None)
        self._changed()

    def close(self) -> None:
        self.widget.close()


def open_career(store: Store | None = None) -> CareerRunner:
    """The runner the career page uses, over the learner's store."""
    notice = ""
    if store is None:
        store, notice = open_store()
    return CareerRunner(store, notice)
