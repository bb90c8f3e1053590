"""The card table as an anywidget: the browser draws and reports intent; Python decides.

Every message from the browser (``model.send`` or the ``intent`` trait set by
``save_changes``) goes through ``handle``, which asks the engine first. A refusal is sent back
and shown (the ``error`` trait and a custom message) and leaves the game unchanged. Bots act
on a timer (a thread on a server, the browser's event loop under Pyodide), one decision at a
time, so that their moves are visible one by one and the page answers between them.
"""

from __future__ import annotations

import pathlib
import threading
import time
from collections.abc import Callable, Generator, Iterable, Mapping

import anywidget
import traitlets

from engine import HandState, Phase, Rules
from engine.bots import Bot, make_bot
from engine.excerpt import excerpt

from ..browser import Later, call_later
from ..coach.hint import HintSource
from ..seats import seat_names
from .session import Event, TableError, TableSession
from .snapshot import CONCEALABLE, announce, snapshot

__all__ = ["TableWidget"]

_HERE = pathlib.Path(__file__).parent
_HANDLERS = ("select", "toggle", "pass", "play", "moon", "hint", "take_back", "new_hand")
_DECISIONS = ("pass", "play", "moon")
"""What a still table's learner decides once a position."""
PASS_PAUSE = 0.05
"""Seconds before a bot's pass: none is seen, but under Pyodide a click that came during the last
decision is still on its way through the page's event loop; this lets it be answered first."""


class TableWidget(anywidget.AnyWidget):
    """A Hearts table for one learner. In marimo: ``mo.ui.anywidget(TableWidget(...))``.

    ``bots`` maps seats to a level (``"easy"``, ``"normal"``, ``"hard"``) or a Bot;
    ``open_seats`` shows those seats' cards face up; ``bot_delay`` (seconds) is the pause
    before each bot card, 0 to let bots act at once (for code and tests).
    """

    _esm = _HERE / "table.js"
    _css = _HERE / "table.css"

    table = traitlets.Dict().tag(sync=True)
    error = traitlets.Dict().tag(sync=True)
    announcement = traitlets.Dict().tag(sync=True)
    intent = traitlets.Dict().tag(sync=True)
    """The browser's messages: ``{"view": ID, "messages": [{..., "seq": N}, ...]}``, the newest few,
    each numbered by the page that sent it. The page may have set it several times before one
    setting reached Python (marimo sends the latest), so each setting repeats the last ones and
    Python applies those it has not seen. A single message (``{"type": ..., "n": ...}``) works too."""
    four_colour = traitlets.Bool(False).tag(sync=True)
    open_seats = traitlets.List(traitlets.Int()).tag(sync=True)
    table_id = traitlets.Unicode("play").tag(sync=True)
    offers_hints = True
    """A table without hints (a career match) has no Hint button."""
    deals_mid_hand = True
    """A table whose hands are played to their end (a career match) offers New hand only after one."""
    no_new_hand = ""
    """Why this table deals no new hand at all (a puzzle is one position, not a game): it then has
    no New hand button and refuses the message with this reason. Empty: it deals them."""
    shown_end = traitlets.Unicode("").tag(sync=True)
    """The browser's report that it has drawn a hand's end ("hand:phase"): a change from the
    browser, so a notebook cell that reads the widget's value runs again and can say the result
    (changes made by the bots' timer reach the page but run no cell). Python reads nothing from it."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        seat: int = 0,
        bots: Mapping[int, str | Bot] | None = None,
        hints: HintSource | Bot | None = None,
        practice: bool = True,
        bot_delay: float = 0.7,
        trick_pause: float = 1.2,
        autoplay: bool = True,
        still_status: str = "The table stops here: the others do not play on.",
        **traits: object,
    ) -> None:
        """``autoplay=False`` keeps the bots still (a puzzle: the learner's one decision is all
        that happens), and once the learner has decided, the status line says ``still_status``
        instead of naming a bot to play."""
        super().__init__(**traits)
        self.autoplay = autoplay
        self.still_status = still_status
        self._concealed: frozenset[str] = frozenset()
        self._decided = False
        """A still table's learner has passed, played or chosen in this position: the table
        then says ``still_status`` and takes no other decision until a new position."""
        self.session = TableSession(rules, seed, seat, bots, hints, practice)
        self.bot_delay = bot_delay
        self.trick_pause = trick_pause
        self.events: list[Event] = []
        self._listeners: list[Callable[[Event], None]] = []
        self._lock = threading.RLock()
        self._seen: dict[str, int] = {}  # a page's view -> the last message number applied
        self._appliers: list[Callable[[object], None]] = []
        self._generation = 0  # bumped on every learner action: stale bot timers then do nothing
        self._timer: Later | None = None
        self._turn: tuple[tuple, Generator] | None = (
            None  # a bot's decision part-way: (its hand's state, steps)
        )
        self._levels = [
            "you" if s == seat else self.session.bots[s].name for s in range(self.session.rules.players)
        ]
        self._named: set[int] = set()
        """Seats a still table labels with their bot (``set_bots``: a replay names the game's)."""
        self.on_msg(lambda _widget, content, _buffers: self._apply(content))
        self.observe(self._on_intent, names="intent")
        self.observe(lambda _change: self._refresh(), names="open_seats")
        self._refresh()
        self._run_bots()

    # ----- Python's side: drive and observe -----

    def on_event(self, callback: Callable[[Event], None]) -> None:
        """Call ``callback(event)`` for every event: plays, tricks, passes, errors, hints..."""
        self._listeners.append(callback)

    def set_position(
        self,
        hand: HandState,
        score_rows: Iterable[Iterable[int]] = (),
        totals_before: Iterable[int] | None = None,
    ) -> None:
        """Put any hand on the table (e.g. ``setup_position(...)``); bots continue from there."""
        with self._lock:
            self._generation += 1
            self._decided = False
            self._publish(self.session.set_position(hand, score_rows, totals_before))
            self.error = {}
            self._run_bots()

    def seat_table(self, rules: Rules) -> None:
        """Seat a table of another size and rules (a puzzle at 3 or 5 players): a new session
        with the same learner seat, hints and mode, its other seats default bots. Put a hand on
        it with ``set_position``."""
        with self._lock:
            old = self.session
            self._generation += 1
            self._decided = False
            self.session = TableSession(rules, old.seed, old.seat, None, old.hints, old.practice)
            self._named = set()
            self._levels = [
                "you" if s == old.seat else self.session.bots[s].name for s in range(rules.players)
            ]

    def resume(self, record: object) -> None:
        """Put a game kept with ``session.to_record()`` back on the table; bots continue from
        there. A record that does not load raises ``TableError`` and changes nothing."""
        with self._lock:
            events = self.session.resume(record)
            self._generation += 1
            self._decided = False
            self._levels = [
                "you" if s == self.session.seat else self.session.bots[s].name
                for s in range(self.session.rules.players)
            ]
            self._publish(events)
            self.error = {}
            self._run_bots()

    def set_bots(self, bots: Mapping[int, str | Bot]) -> None:
        """Seat other bots (a level name or a Bot per seat); they decide from the next move on."""
        with self._lock:
            for seat, choice in bots.items():
                if seat not in self.session.bots:
                    raise ValueError(f"seat {seat} is not a bot seat")
                bot = make_bot(choice, self.session.seed + seat) if isinstance(choice, str) else choice
                self.session.bots[seat] = bot
                self._levels[seat] = bot.name
                self._named.add(seat)
            self._refresh()

    def act(self, message: Mapping[str, object]) -> None:
        """Do what the browser would ask (``{"type": "play", "card": "QS"}``); raises TableError
        when refused, after showing the refusal like a browser message."""
        with self._lock:
            if not self.handle(dict(message)):
                raise TableError(self.error["reason"], self.error["message"])

    def wait_for_bots(self, timeout: float = 30.0) -> bool:
        """Block until no bot is about to act (the learner's turn or the hand's end)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.session.bot_to_act is None:
                    return True
            time.sleep(0.02)
        return False

    def close(self) -> None:
        with self._lock:
            self._generation += 1
            if self._timer:
                self._timer.cancel()
        super().close()

    # ----- messages from the browser -----

    def handle(self, message: object) -> bool:
        """Apply one message; on refusal show the error and change nothing. True if applied."""
        with self._lock:
            try:
                events = self._dispatch(message)
            except TableError as error:
                self._refuse(error)
                return False
            self._generation += 1
            self.error = {}
            if not self.autoplay and isinstance(message, dict):
                kind = message.get("type")
                if kind in _DECISIONS:
                    self._decided = True
                elif kind in ("take_back", "new_hand"):
                    self._decided = False
            self._publish(events)
            self._run_bots()
            return True

    def on_message(self, listener: Callable[[object], None]) -> None:
        """Call ``listener(message)`` after each message from the browser is applied or refused."""
        self._appliers.append(listener)

    def _apply(self, message: object) -> None:
        with self._lock:
            message = self._with_marks(message)
            self.handle(message)
        for listener in list(self._appliers):
            listener(message)

    def _with_marks(self, message: object) -> object:
        """A pass that names no cards passes the cards marked here: the page's own picture of
        the marks may lag behind its quick clicks (each applied in order before the pass)."""
        if isinstance(message, dict) and message.get("type") == "pass" and "cards" not in message:
            return {**message, "cards": list(self.session.selected)}
        return message

    def _on_intent(self, change: dict) -> None:
        new = change["new"]
        if not new:
            return
        if "messages" not in new:
            self._apply({k: v for k, v in new.items() if k != "n"})
            return
        view, messages = str(new.get("view")), new["messages"]
        if not isinstance(messages, list):
            self._apply(messages)  # refused, with the reason
            return
        with self._lock:
            for message in messages:
                number = message.get("seq") if isinstance(message, dict) else None
                if not isinstance(number, int) or number <= self._seen.get(view, 0):
                    continue
                self._seen[view] = number
                self._apply({k: v for k, v in message.items() if k != "seq"})

    def _dispatch(self, message: object) -> list[Event]:
        if not isinstance(message, dict):
            raise TableError(
                "bad_message", f"A message must be an object with a 'type', not {excerpt(message)}."
            )
        kind = message.get("type")
        if kind not in _HANDLERS:
            raise TableError(
                "unknown_type",
                f"Unknown message type {excerpt(kind)}: expected one of {', '.join(_HANDLERS)}.",
            )
        session = self.session
        if self._decided and kind in (*_DECISIONS, "hint"):
            raise TableError(
                "decided", f"{self.still_status} This position is answered: go on to the next one."
            )
        if kind == "select":
            return session.select(message.get("cards"))
        if kind == "toggle":
            return session.toggle(message.get("card"))
        if kind == "pass":
            return session.pass_selected(self._with_marks(message)["cards"])
        if kind == "play":
            return session.play(message.get("card"))
        if kind == "moon":
            return session.choose_moon(message.get("choice"))
        if kind == "hint":
            return session.ask_hint()
        if kind == "take_back":
            return session.take_back()
        if self.no_new_hand:
            raise TableError("no_new_hand", self.no_new_hand)
        return session.new_hand(discard=message.get("discard") is True)

    def _refuse(self, error: TableError) -> None:
        count = int(self.error.get("n", 0)) + 1 if self.error else 1
        self.error = {"reason": error.reason, "message": error.message, "n": count}
        self.send({"type": "error", "reason": error.reason, "message": error.message})
        self._notify({"type": "error", "reason": error.reason, "message": error.message})

    # ----- keeping the browser up to date -----

    def _publish(self, events: list[Event]) -> None:
        names = seat_names(self.session.rules.players, self.session.seat)
        spoken = [text for event in events if (text := announce(event, names))]
        self._refresh()
        if spoken:
            self.announcement = {"text": " ".join(spoken), "n": int(self.announcement.get("n", 0)) + 1}
        for event in events:
            self._notify(event)

    def _notify(self, event: Event) -> None:
        self.events.append(event)
        for listener in list(self._listeners):
            listener(event)

    @property
    def concealed(self) -> frozenset[str]:
        """What the table does not show (``CONCEALABLE``): a lesson question asks the learner
        for it."""
        return self._concealed

    @concealed.setter
    def concealed(self, parts: Iterable[str]) -> None:
        hidden = frozenset(parts)
        if unknown := hidden - CONCEALABLE:
            raise ValueError(f"the table cannot conceal {', '.join(sorted(unknown))}")
        with self._lock:
            self._concealed = hidden
            self._refresh()

    def _refresh(self) -> None:
        still = None if self.autoplay else self.still_status
        levels = self._levels
        if not self.autoplay:  # no bot plays a still table's seats: a level there would be untrue
            levels = [level if s in self._named or level == "you" else "" for s, level in enumerate(levels)]
        table = snapshot(self.session, self.open_seats, levels, still, self._decided, self._concealed)
        if not self.offers_hints:
            table["hints"] = False  # table.js draws no Hint button
        if not self.deals_mid_hand:
            table["deal_mid_hand"] = False  # table.js offers New hand (and N) once the hand is over
        if self.no_new_hand:
            table["deals"] = False  # table.js offers no New hand (nor N) at all
        self.table = table

    # ----- the bots -----

    def _run_bots(self) -> None:
        """One bot decision a turn: each waits for the timer (a thread on a server, a turn of the
        browser's event loop under Pyodide, which has one thread for the page's Python), so the
        learner's clicks are answered between bots' decisions, never after all of them; the
        table says which bot is thinking meanwhile (``snapshot``'s ``thinking``). Cards come
        after a pause, so the learner sees them one by one; passes, which nobody sees, after a moment
        (``PASS_PAUSE``). ``bot_delay`` 0 (code and tests): every bot at once."""
        session = self.session
        if not self.autoplay or session.bot_to_act is None:
            return
        if self.bot_delay <= 0:
            while session.bot_to_act is not None:
                self._publish(session.bot_step())
            return
        pause = PASS_PAUSE if session.hand.phase is Phase.PASSING else self.bot_delay
        if not session.hand.current_trick.cards and session.hand.tricks:
            pause += self.trick_pause  # let the learner see the last trick gathered
        if self._timer is not None:
            self._timer.cancel()  # a learner's action came first: one bot turn on its way, not two
        self._timer = call_later(pause, self._bot_tick, self._generation)

    def _bot_tick(self, generation: int) -> None:
        """One part of the next bot's decision (a searching bot's comes in parts,
        ``HardBot.pass_steps``): the rest of it waits for another turn, so a click is answered
        between the parts too."""
        with self._lock:
            if generation != self._generation:
                return
            turn = self._turn_for(self.session)
            if turn is None:
                return
            try:
                next(turn)
            except StopIteration as done:
                self._turn = None
                self._publish(done.value)
                self._run_bots()
                return
            self._timer = call_later(PASS_PAUSE, self._bot_tick, generation)

    def _turn_for(self, session: TableSession):
        """The bot decision under way, kept while its hand is where it began (a learner's
        selecting or asking for a hint leaves it); a new one when the hand has moved on."""
        seat = session.bot_to_act
        if seat is None:
            self._turn = None
            return None
        hand = session.hand
        begun = (hand, hand.history, seat)
        if self._turn is None or self._turn[0][0] is not hand or self._turn[0][1:] != begun[1:]:
            self._turn = (begun, session.bot_turn())
        return self._turn[1]
