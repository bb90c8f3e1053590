"""A room: people and bots at one table, the engine as referee. Pure and synchronous: no I/O,
and the clock comes in as ``now`` (seconds), so tests drive timers and grace periods by hand.

Every change is one entry of the room's log, applied by ``_apply`` live and on replay alike:
``Room.from_record(room.to_record())`` is the same room, decision for decision.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass, field

from engine import (
    CardParseError,
    CardSet,
    Game,
    MoonAction,
    MoonChoice,
    PassAction,
    Phase,
    PlayAction,
    Rules,
    parse_cards,
    to_card,
)
from engine.bots import LEVELS
from engine.excerpt import excerpt
from engine.rules import PRESETS, preset_title

__all__ = [
    "RECORD_FORMAT",
    "TARGETS",
    "TIMERS",
    "Room",
    "RoomConfig",
    "RoomError",
    "Seat",
    "hash_secret",
    "new_code",
    "offered_presets",
    "rules_title",
]

RECORD_FORMAT = "hearts-trainer/room"
TIMERS = (0, 15, 30, 60)
TARGETS = (50, 100)
NAME_LENGTH = 24
KEPT_VIEWS = 8  # per seat: a page's message numbers, so a resent message is applied once

Event = dict[str, object]


class RoomError(ValueError):
    """A message the room refused; nothing changed. ``text`` is the one line the player reads."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _table(preset: str) -> object:
    """A preset's rules but its target: a room sets the game's length itself."""
    return PRESETS[preset].replace(target=PRESETS["standard"].target)


def offered_presets() -> list[tuple[str, str]]:
    """(preset, title) for each table a room can be made with, each set of rules once: a room
    chooses its own target (so the short game is the standard table), and OpenSpiel's preset is
    the queen-breaks-hearts one under another name."""
    offered: list[tuple[str, str]] = []
    seen: list[object] = []
    for name in PRESETS:
        if _table(name) not in seen:
            seen.append(_table(name))
            offered.append((name, preset_title(name)))
    return offered


def rules_title(preset: str) -> str:
    """What a room's page calls its rules: the offered preset of the same table."""
    return dict(offered_presets())[next(n for n in PRESETS if _table(n) == _table(preset))]


def new_code() -> str:
    return secrets.token_urlsafe(16)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class RoomConfig:
    preset: str = "standard"
    target: int = 100
    bot_level: str = "easy"
    timer: int = 0
    """Seconds a human has for each decision (0: no timer)."""
    grace: float = 30.0
    """Seconds a disconnected player keeps their seat before a bot plays it."""
    bot_delay: float = 0.8
    """Seconds before a bot's card, so people see the cards one by one (0 in tests)."""
    trick_pause: float = 1.2
    """More seconds after a trick is complete, so the gathered trick can be seen."""
    hand_pause: float = 20.0
    """Seconds after a hand's end before the next is dealt, unless everyone pressed New hand first."""

    def __post_init__(self) -> None:
        problems = []
        if self.preset not in PRESETS:
            problems.append(f"preset: unknown rules {excerpt(self.preset, 30)}; known: {', '.join(PRESETS)}")
        # The targets offered (TARGETS) are the server's to check; a test server adds a short one.
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not 1 <= self.target <= 1000:
            problems.append(f"target: {excerpt(self.target, 12)} is not a number of points from 1 to 1000")
        if self.bot_level not in LEVELS:
            problems.append(f"bot_level: {excerpt(self.bot_level, 12)} is not one of {', '.join(LEVELS)}")
        # The choices offered (TIMERS) are the server's to check; a test server adds a short one.
        if not isinstance(self.timer, int) or isinstance(self.timer, bool) or not 0 <= self.timer <= 3600:
            problems.append(f"timer: {excerpt(self.timer, 12)} is not a number of seconds from 0 to 3600")
        for name in ("grace", "bot_delay", "trick_pause", "hand_pause"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 <= value <= 3600:
                problems.append(f"{name}: {excerpt(value, 12)} is not a number of seconds from 0 to 3600")
        if problems:
            raise RoomError("The room cannot be made: " + "; ".join(problems) + ".")

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset].replace(target=self.target)


@dataclass
class Seat:
    name: str
    kind: str  # "human" | "bot" | "empty"
    secret_hash: str | None = None
    connected: bool = False
    away_since: float | None = None
    bot_playing: bool = False
    """A bot plays the seat: its player was away past the grace, or the host handed it to a bot
    (until the player comes back)."""


@dataclass
class Notice:
    """A timer, takeover or return, told to everyone (a pass's cards to its seat alone)."""

    kind: str  # "timer" | "away" | "back" | "handed"
    seat: int
    action: str | None = None  # "pass" | "play" | "moon"
    cards: list[str] = field(default_factory=list)
    clock: float | None = None  # a timer's: when the clock that ran out started


def _clean_name(name: object, fallback: str) -> str:
    text = " ".join(str(name or "").split())[:NAME_LENGTH]
    return text or fallback


class Room:
    def __init__(self, code: str, config: RoomConfig, seed: int, created: float) -> None:
        self.code = code
        self.config = config
        self.seed = seed
        self.created = created
        rules = config.rules
        self.rules = rules
        self.seats: list[Seat] = [Seat(f"Seat {k + 1}", "empty") for k in range(rules.players)]
        self.status = "lobby"
        self.version = 0
        self.game: Game | None = None
        self.log: list[dict] = []
        self.selected: dict[int, list[str]] = {}
        self.seen: dict[int, dict[str, int]] = {}
        self.ready: set[int] = set()
        self.turn_started = created
        self.hand_ended: float | None = None
        self.last_change = created
        # The last event told; timers that ran out on one clock (the passes share the deal's) are
        # told together, so each player whose pass a bot made reads it.
        self.notices: list[Notice] = []

    # ----- making and keeping -----

    @classmethod
    def create(cls, config: RoomConfig, host_name: object, now: float) -> tuple[Room, str]:
        """A new room with its host in seat 0; returns the room and the host's seat secret."""
        room = cls(new_code(), config, secrets.randbits(63), now)
        secret = room.join(host_name, now)[1]
        return room, secret

    def to_record(self) -> dict:
        return {
            "format": RECORD_FORMAT,
            "version": 1,
            "code": self.code,
            "config": asdict(self.config),
            "seed": self.seed,
            "created": self.created,
            "log": list(self.log),
            "selected": {str(k): v for k, v in self.selected.items()},
            "seen": {str(k): v for k, v in self.seen.items()},
            "room_version": self.version,
        }

    @classmethod
    def from_record(cls, record: dict) -> Room:
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} record")
        room = cls(
            record["code"], RoomConfig(**record["config"]), int(record["seed"]), float(record["created"])
        )
        for entry in record["log"]:
            room._apply(entry)
            room.log.append(entry)
        room.selected = {int(k): list(v) for k, v in record.get("selected", {}).items()}
        room.seen = {int(k): dict(v) for k, v in record.get("seen", {}).items()}
        room.version = int(record.get("room_version", room.version))
        return room

    def resumed(self, now: float) -> None:
        """After a restart: nobody is connected yet; each human gets the grace period from now,
        and the decision under way its whole timer again."""
        for seat in self.seats:
            if seat.kind == "human":
                seat.connected = False
                seat.away_since = now
        self.turn_started = now
        if self.hand_ended is not None:
            self.hand_ended = now
        self.last_change = now

    # ----- seats -----

    def seat_of(self, secret: object) -> int | None:
        if not isinstance(secret, str) or not secret:
            return None
        digest = hash_secret(secret)
        for index, seat in enumerate(self.seats):
            if seat.secret_hash and hmac.compare_digest(seat.secret_hash, digest):
                return index
        return None

    def closed_to_newcomers(self) -> str | None:
        """Why someone without a seat cannot take one now, or None (a free seat in the lobby)."""
        if self.status != "lobby":
            return "The game has started: its seats are taken. Ask the host for a new room."
        if all(seat.kind != "empty" for seat in self.seats):
            return "The room is full."
        return None

    def join(self, name: object, now: float) -> tuple[int, str]:
        """Take the first free seat in the lobby; returns the seat and its new secret."""
        if (why := self.closed_to_newcomers()) is not None:
            raise RoomError(why)
        free = next(k for k, seat in enumerate(self.seats) if seat.kind == "empty")
        secret = secrets.token_urlsafe(24)
        taken = {seat.name for seat in self.seats if seat.kind == "human"}
        wanted = _clean_name(name, f"Player {free + 1}")
        unique, n = wanted, 2
        while unique in taken:
            unique, n = f"{wanted} {n}", n + 1
        self._change({"op": "join", "seat": free, "name": unique, "hash": hash_secret(secret)}, now)
        return free, secret

    def connect(self, seat: int, now: float) -> list[Event]:
        """A page of ``seat`` is connected (another tab of the seat counts too)."""
        place = self.seats[seat]
        if self.hand_ended is not None and not self._anyone_here():
            self.hand_ended = now  # the first back at a stopped room gets the whole pause
        place.connected = True
        place.away_since = None
        events: list[Event] = []
        if place.bot_playing:
            self._change({"op": "back", "seat": seat}, now)
            events.append({"type": "back", "seat": seat})
        else:
            self._touch(now)
        return events

    def disconnect(self, seat: int, now: float) -> None:
        """The last page of ``seat`` closed: the grace period starts."""
        place = self.seats[seat]
        place.connected = False
        place.away_since = now
        self._touch(now)

    def hand_to_bot(self, by: int, seat: object, now: float) -> list[Event]:
        if by != 0:
            raise RoomError("Only the host can hand a seat to a bot.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise RoomError(f"There is no seat {excerpt(seat, 12)} at this table.")
        place = self.seats[seat]
        if seat == 0:
            raise RoomError("The host keeps their own seat.")
        if place.kind != "human":
            raise RoomError(f"{place.name} is not a player's seat.")
        if place.connected:
            raise RoomError(f"{place.name} is connected: a bot takes only an idle seat.")
        if place.bot_playing:
            raise RoomError(f"A bot already plays for {place.name}.")
        self._change({"op": "handed", "seat": seat}, now)
        return [{"type": "handed", "seat": seat}]

    # ----- the game -----

    def start(self, by: int, now: float) -> list[Event]:
        if by != 0:
            raise RoomError("Only the host can start the game.")
        if self.status != "lobby":
            raise RoomError("The game has already started.")
        self._change({"op": "start"}, now)
        return [{"type": "start"}]

    @property
    def hand(self):
        return self.game.hand if self.game else None

    def awaiting(self) -> list[int]:
        """The seats whose decision the hand waits for now."""
        if self.status != "playing" or self.game is None:
            return []
        hand = self.game.hand
        if hand.is_over:
            return []
        if hand.phase is Phase.PASSING:
            return list(hand.seats_to_pass)
        return [hand.to_move] if hand.to_move is not None else []

    def played_by_bot(self, seat: int) -> bool:
        place = self.seats[seat]
        return place.kind == "bot" or place.bot_playing

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s timer runs out, if it is a human's decision under a timer."""
        if self.config.timer and seat in self.awaiting() and not self.played_by_bot(seat):
            return self.turn_started + self.config.timer
        return None

    def _bot_ready_at(self) -> float:
        pause = self.config.bot_delay
        hand = self.hand
        if hand is not None and hand.phase is Phase.PLAYING and not hand.current_trick.cards and hand.tricks:
            pause += self.config.trick_pause
        return self.turn_started + pause

    def due(self, now: float) -> list[tuple[int, str]]:
        """Decisions a bot must make now: ``(seat, reason)`` with reason "bot" (a bot's seat),
        "away" (a seat a bot plays for its player) or "timer" (a human's time ran out)."""
        due = []
        for seat in self.awaiting():
            place = self.seats[seat]
            if place.kind == "bot":
                if now >= self._bot_ready_at():
                    due.append((seat, "bot"))
            elif place.bot_playing:
                if now >= self._bot_ready_at():
                    due.append((seat, "away"))
            elif (deadline := self.deadline(seat)) is not None and now >= deadline:
                due.append((seat, "timer"))
        return due

    def tick(self, now: float) -> list[Event]:
        """What time alone changes: a player away past the grace period gets a bot in their seat;
        a finished hand's pause is over and the next is dealt."""
        events: list[Event] = []
        if self.status == "playing":
            for index, place in enumerate(self.seats):
                gone = place.away_since is not None and now - place.away_since >= self.config.grace
                if place.kind == "human" and not place.connected and gone and not place.bot_playing:
                    self._change({"op": "away", "seat": index}, now)
                    events.append({"type": "away", "seat": index})
            paused = self.hand_ended is not None and self._anyone_here()
            if paused and now >= self.hand_ended + self.config.hand_pause:
                events += self._next_hand("pause", now)
        return events

    def next_deadline(self, now: float) -> float | None:
        """The next moment ``due`` or ``tick`` may have something to do (None: only people can
        move the room on)."""
        times = []
        for seat in self.awaiting():
            if self.played_by_bot(seat):
                times.append(self._bot_ready_at())
            elif (deadline := self.deadline(seat)) is not None:
                times.append(deadline)
        if self.status == "playing":
            for place in self.seats:
                idle = place.kind == "human" and not place.connected and not place.bot_playing
                if idle and place.away_since is not None:
                    times.append(place.away_since + self.config.grace)
            if self.hand_ended is not None and self._anyone_here():
                times.append(self.hand_ended + self.config.hand_pause)
        return min(times) if times else None

    def _anyone_here(self) -> bool:
        """A person is at the table. A room everyone has left stops at its hand's end: bots do
        not play its game out for them (nor is that game kept as the host's)."""
        return any(place.kind == "human" and place.connected for place in self.seats)

    def act(self, seat: int, message: object, now: float) -> list[Event]:
        """One table intent (as table.js sends it) from ``seat``'s player."""
        if not isinstance(message, dict):
            raise RoomError(f"A message must be an object with a 'type', not {excerpt(message, 40)}.")
        kind = message.get("type")
        if kind in ("toggle", "select"):
            return self._select(seat, kind, message)
        if kind in ("pass", "play", "moon"):
            if self.status != "playing":
                raise RoomError("The game has not started: wait for the host.")
            action = self._action(seat, kind, message)
            return self._decide(seat, action, "player", now)
        if kind == "new_hand":
            return self._press_new_hand(seat, now)
        if kind == "hint":
            raise RoomError("Hints are for the lessons: at a room's table you play on your own.")
        if kind == "take_back":
            raise RoomError("At a room's table a card played stays played.")
        raise RoomError(
            f"Unknown message type {excerpt(kind, 30)}: "
            "expected select, toggle, pass, play, moon or new_hand."
        )

    def intent(self, seat: int, view: object, messages: object, now: float) -> tuple[list[Event], list[str]]:
        """table.js's ``intent``: its numbered messages, each applied once per (page, number)
        however often it is sent. Returns the events and the refusals' texts."""
        if not isinstance(view, str) or not view or len(view) > 80:
            raise RoomError("An intent needs its page's 'view' name.")
        if not isinstance(messages, list):
            raise RoomError("An intent's 'messages' must be a list.")
        events: list[Event] = []
        errors: list[str] = []
        pages = self.seen.setdefault(seat, {})
        for message in messages:
            number = message.get("seq") if isinstance(message, dict) else None
            if not isinstance(number, int) or isinstance(number, bool) or number <= pages.get(view, 0):
                continue
            pages.pop(view, None)
            pages[view] = number  # most recent last: the oldest pages are forgotten first
            while len(pages) > KEPT_VIEWS:
                pages.pop(next(iter(pages)))
            try:
                events += self.act(seat, {k: v for k, v in message.items() if k != "seq"}, now)
            except RoomError as error:
                errors.append(error.text)
        return events, errors

    def bot_decides(self, seat: int, reason: str, action, now: float) -> list[Event]:
        """Apply a bot's decision for ``seat`` (computed from ``game.view(seat)`` alone) if it is
        still due for that reason; otherwise (someone acted first) nothing happens."""
        if (seat, reason) not in self.due(now) or action.seat != seat:
            return []
        try:
            return self._decide(seat, action, reason, now)
        except RoomError:
            return []

    # ----- inside -----

    def _select(self, seat: int, kind: str, message: dict) -> list[Event]:
        hand = self.hand
        if hand is None or hand.is_over:
            raise RoomError("There are no cards to choose now.")
        if kind == "toggle":
            card = message.get("card")
            if not isinstance(card, str):
                raise RoomError(f"A card must be a string such as 'QS', not {excerpt(card, 30)}.")
            (code,) = self._own_cards(seat, [card])
            marked = self.selected.get(seat, [])
            chosen = [c for c in marked if c != code] if code in marked else [*marked, code]
        else:
            chosen = self._own_cards(seat, message.get("cards"))
        if hand.phase is Phase.PASSING:
            if seat not in hand.seats_to_pass:
                raise RoomError("You have already passed: wait for the others.")
            if len(chosen) > self.rules.pass_count:
                raise RoomError(f"Pass exactly {self.rules.pass_count} cards: unselect one first.")
        elif hand.phase is Phase.PLAYING:
            if len(chosen) > 1:
                raise RoomError("Select one card to play.")
        else:
            raise RoomError("There are no cards to choose now.")
        self.selected[seat] = chosen
        self.version += 1
        return [{"type": "select", "seat": seat}]

    def _own_cards(self, seat: int, cards: object) -> list[str]:
        if isinstance(cards, str) or not isinstance(cards, list | tuple):
            raise RoomError("Cards must be a list such as ['QS', '10H'].")
        try:
            parsed = parse_cards(cards)
        except CardParseError as error:
            raise RoomError(str(error)) from error
        if len(set(parsed)) != len(parsed):
            raise RoomError("A card is chosen twice.")
        for card in parsed:
            if card not in self.hand.hand(seat):
                raise RoomError(f"You do not hold the {card}.")
        return [card.code for card in parsed]

    def _action(self, seat: int, kind: str, message: dict):
        hand = self.hand
        if kind == "pass":
            cards = message.get("cards", self.selected.get(seat, []))
            return PassAction(seat, CardSet(self._own_cards(seat, cards)))
        if kind == "play":
            card = message.get("card")
            if not isinstance(card, str):
                raise RoomError("A play needs one card, such as 'QS'.")
            try:
                parsed = to_card(card)
            except CardParseError as error:
                raise RoomError(str(error)) from error
            if hand.phase is Phase.PLAYING and hand.to_move != seat and parsed in hand.hand(seat):
                raise RoomError("Wait for your turn: the others are still playing.")
            return PlayAction(seat, parsed)
        choice = message.get("choice")
        try:
            if not isinstance(choice, str):
                raise ValueError
            return MoonAction(seat, MoonChoice(choice))
        except ValueError as error:
            raise RoomError(f"{excerpt(choice, 30)} is not a moon choice.") from error

    def _decide(self, seat: int, action, by: str, now: float) -> list[Event]:
        hand = self.hand
        if by == "player" and self.played_by_bot(seat):
            raise RoomError("A bot plays this seat now: reload the page to take it back.")
        if refusal := hand.why_not(action):
            raise RoomError(refusal.message)
        entry = {"op": "act", "seat": seat, "kind": action.kind, "payload": _payload(action), "by": by}
        events = self._change(entry, now)
        return events

    def _press_new_hand(self, seat: int, now: float) -> list[Event]:
        if self.status == "over":
            raise RoomError("The game is over: the host can make a new room for another game.")
        if self.hand is None or not self.hand.is_over:
            raise RoomError("A room's hand is played to its end: the next is dealt when it is over.")
        if seat in self.ready:
            return []
        self._change({"op": "ready", "seat": seat}, now)
        waiting = [
            k for k, s in enumerate(self.seats) if s.kind == "human" and s.connected and k not in self.ready
        ]
        if not waiting:
            return self._next_hand("ready", now)
        return [{"type": "ready", "seat": seat}]

    def _next_hand(self, why: str, now: float) -> list[Event]:
        self._change({"op": "next_hand", "why": why}, now)
        return [{"type": "new_hand", "hand": self.game.hand_index + 1}]

    def _touch(self, now: float) -> None:
        self.version += 1
        self.last_change = now

    def _change(self, entry: dict, now: float) -> list[Event]:
        entry = {**entry, "at": now}
        events = self._apply(entry)
        self.log.append(entry)
        return events

    def _apply(self, entry: dict) -> list[Event]:
        """One log entry, live or on replay: the one place the room's state changes."""
        op, now = entry["op"], entry["at"]
        events: list[Event] = []
        if op == "join":
            self.seats[entry["seat"]] = Seat(entry["name"], "human", entry["hash"], away_since=now)
        elif op == "start":
            for index, place in enumerate(self.seats):
                if place.kind == "empty":
                    self.seats[index] = Seat(f"Bot {index + 1}", "bot")  # short: seven fit a phone
            self.status = "playing"
            self.game = Game(self.rules, self.seed)
            self.turn_started = now
        elif op == "act":
            action = _action_of(entry)
            clock = self.turn_started
            self.hand.apply(action)
            self.selected.pop(entry["seat"], None)
            if self.hand.phase is not Phase.PASSING:  # the passes all run on the deal's one clock
                self.turn_started = now
            if entry["by"] == "timer":
                told = Notice("timer", entry["seat"], entry["kind"], _cards_of(entry), clock)
                same = self.notices and all(n.kind == "timer" and n.clock == clock for n in self.notices)
                self.notices = [*self.notices, told] if same else [told]
            events.append({"type": entry["kind"], "seat": entry["seat"], "by": entry["by"]})
            if self.hand.is_over:
                if self.game.is_over:
                    self.status = "over"
                    self.hand_ended = None
                else:
                    self.hand_ended = now
                self.ready = set()
                events.append({"type": "hand_over"})
        elif op == "ready":
            self.ready.add(entry["seat"])
        elif op == "next_hand":
            self.game.next_hand()
            self.hand_ended = None
            self.ready = set()
            self.selected = {}
            self.notices = []
            self.turn_started = now
        elif op == "away":
            self.seats[entry["seat"]].bot_playing = True
            self.notices = [Notice("away", entry["seat"])]
            self.turn_started = max(self.turn_started, now - self.config.bot_delay)
        elif op == "handed":
            place = self.seats[entry["seat"]]
            place.bot_playing = True
            self.notices = [Notice("handed", entry["seat"])]
        elif op == "back":
            place = self.seats[entry["seat"]]
            place.bot_playing = False
            self.notices = [Notice("back", entry["seat"])]
            self.turn_started = now  # their decision (if it is theirs) gets the whole timer
        else:
            raise ValueError(f"unknown room log entry {excerpt(op, 20)}")
        self.version += 1
        self.last_change = now
        return events


def _payload(action) -> object:
    if isinstance(action, PassAction):
        return [card.code for card in action.cards]
    if isinstance(action, PlayAction):
        return action.card.code
    return action.choice.value


def _cards_of(entry: dict) -> list[str]:
    payload = entry["payload"]
    if entry["kind"] == "pass":
        return list(payload)
    return [payload] if entry["kind"] == "play" else []


def _action_of(entry: dict):
    seat, kind, payload = entry["seat"], entry["kind"], entry["payload"]
    if kind == "pass":
        return PassAction(seat, CardSet(parse_cards(payload)))
    if kind == "play":
        return PlayAction(seat, to_card(payload))
    return MoonAction(seat, MoonChoice(payload))
