"""The rooms of one server process, live: each room's pages (WebSocket connections), the view
each seat gets after every change, the driver that makes bots', timers' and away players'
decisions when they are due (bots think in a worker thread: the event loop never waits on them),
a save after every action, and idle rooms expired.

With a ``bus`` (several processes, ``redis_store``), a change is made under the room's lock on
the freshest saved record and announced; other processes reload the room and tell their pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.bots import Bot, bot_action, make_bot
from engine.excerpt import excerpt

from .room import TARGETS, TIMERS, Room, RoomConfig, RoomError
from .store import RoomStore
from .view import seat_view

__all__ = ["MAX_MESSAGE", "RATE", "Hub", "Page"]

MAX_MESSAGE = 4096  # bytes of one message from a page
RATE = 20  # messages a second a page may send (a burst of as many)
IDLE_EXPIRY = 24 * 3600.0  # seconds without a change before a room nobody is in is deleted
HELLO_WAIT = 30.0

log = logging.getLogger(__name__)


@dataclass
class Page:
    """One browser tab in a room: its seat, and what waits to be sent to it (only the newest
    state: a page that falls behind skips the states in between)."""

    send_text: Callable[[str], Awaitable[None]]
    seat: int = -1
    queue: list[dict] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    tokens: float = RATE
    refilled: float | None = None
    warned: bool = False

    def push(self, message: dict) -> None:
        if message.get("type") == "state" and self.queue and self.queue[-1].get("type") == "state":
            self.queue[-1] = message
        else:
            self.queue.append(message)
        self.ready.set()

    async def write(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            queued, self.queue = self.queue, []
            for message in queued:
                await self.send_text(json.dumps(message, separators=(",", ":")))

    def allowed(self, moment: float) -> bool:
        """A token bucket: ``RATE`` a second, bursts of as many (``moment``: the hub's clock)."""
        if self.refilled is not None:
            self.tokens = min(RATE, self.tokens + max(0.0, moment - self.refilled) * RATE)
        self.refilled = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        self.warned = False
        return True


class Hub:
    def __init__(
        self,
        store: RoomStore,
        bus=None,
        *,
        clock: Callable[[], float] = time.time,
        timing: dict | None = None,
        timers: tuple[int, ...] = TIMERS,
        targets: tuple[int, ...] = TARGETS,
        idle_expiry: float = IDLE_EXPIRY,
    ) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock
        self.timing = dict(timing or {})
        """Server-wide seconds for every room (grace, bot_delay, trick_pause, hand_pause)."""
        self.timers = timers
        self.targets = targets
        self.idle_expiry = idle_expiry
        self.rooms: dict[str, Room] = {}
        self.pages: dict[str, list[Page]] = {}
        self.bots: dict[str, dict[int, Bot]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.wakers: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task] = {}
        self.address: str | None = None
        """Where friends reach the rooms (``http://192.168.1.20:2719``) when it is not the address
        a page came by: a host on loopback then still sends a link that works on the network."""
        self.reviewer = None
        """The coach after the game (``reviewer.RoomReviews``; None: not offered): ``reviewer(room,
        seat, push)`` pushes that seat's review messages, ``reviewer.game_over(room)`` keeps the
        host's game, ``reviewer.file(room, seat)`` gives a seat's game as a progress file."""
        self._reviews: set[asyncio.Task] = set()
        self._started = False
        self._listener: asyncio.Task | None = None

    # ----- rooms -----

    async def start(self) -> None:
        """Put every kept room back (after a restart) and start its driver; once."""
        if self._started:
            return
        self._started = True
        now = self.clock()
        for code in self.store.codes():
            if (room := self._restore(code)) is not None:
                room.resumed(now)
                self._keep(room)
        if self.bus is not None:
            self._listener = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        for task in [*self.drivers.values(), *([self._listener] if self._listener else [])]:
            task.cancel()
        self.drivers.clear()

    def config(self, settings: object) -> RoomConfig:
        """A room's settings from the page (preset, target, bot_level, timer), with the server's timing."""
        if not isinstance(settings, dict):
            raise RoomError("The room's settings must be an object.")
        allowed = {"preset", "target", "bot_level", "timer"}
        if unknown := set(settings) - allowed:
            raise RoomError(
                f"Unknown room setting {excerpt(sorted(unknown)[0], 30)}: "
                f"expected {', '.join(sorted(allowed))}."
            )
        timer = settings.get("timer", 0)
        if timer not in self.timers:
            raise RoomError(
                f"timer: {excerpt(timer, 12)} is not one of {', '.join(map(str, self.timers))} seconds."
            )
        target = settings.get("target", RoomConfig.target)
        if target not in self.targets:
            raise RoomError(f"target: {excerpt(target, 12)} is not {' or '.join(map(str, self.targets))}.")
        return RoomConfig(**{**settings, **self.timing})

    async def create(self, settings: object, name: object) -> tuple[Room, str]:
        await self.start()
        room, secret = Room.create(self.config(settings), name, self.clock())
        await asyncio.to_thread(self.store.save, room.code, room.to_record())
        self._keep(room)
        return room, secret

    def _keep(self, room: Room) -> None:
        code = room.code
        self.rooms[code] = room
        self.pages.setdefault(code, [])
        self.locks.setdefault(code, asyncio.Lock())
        self.wakers.setdefault(code, asyncio.Event())
        self.bots.setdefault(code, {})
        if code not in self.drivers:
            self.drivers[code] = asyncio.create_task(self._drive(code))

    def room(self, code: str) -> Room | None:
        return self.rooms.get(code)

    async def find(self, code: str) -> Room | None:
        """The room, taken from the store when this process does not hold it yet (another
        process made it: several processes share one store)."""
        await self.start()
        unknown = code not in self.rooms and isinstance(code, str) and len(code) <= 64
        if unknown and (room := self._restore(code)) is not None:
            room.resumed(self.clock())
            self._keep(room)
        return self.rooms.get(code)

    def _restore(self, code: str) -> Room | None:
        """The kept room, or None. A record that does not load is left where it is (nothing kept
        is ever deleted for being unreadable) and logged by its kind of fault alone: its text
        could hold a hand's cards."""
        try:
            record = self.store.load(code)
            return None if record is None else Room.from_record(record)
        except (KeyError, TypeError, ValueError, AttributeError, OSError) as error:
            log.warning(
                "room %s… cannot be restored (%s); its record is left as it is",
                code[:6],
                type(error).__name__,
            )
            return None

    def _forget(self, code: str) -> None:
        self.rooms.pop(code, None)
        self.pages.pop(code, None)
        self.bots.pop(code, None)
        self.locks.pop(code, None)
        self.wakers.pop(code, None)
        self.drivers.pop(code, None)

    # ----- changes -----

    @contextlib.asynccontextmanager
    async def _changing(self, code: str, save: bool = True):
        """Hold the room while it changes; afterwards save it, tell every page and wake its driver."""
        async with self.locks[code]:
            lease = self.bus.lock(code) if self.bus is not None else contextlib.nullcontext()
            async with _as_async(lease):
                seen = self.rooms[code].version
                if self.bus is not None:
                    self._refresh(code)  # news from another process counts as a change to show
                room = self.rooms[code]
                before, was_over = room.version, room.status == "over"
                yield room
                if room.status == "over" and not was_over and self.reviewer is not None:
                    self.reviewer.game_over(room)  # the host's game kept in progress (off the loop)
                if room.version != before:
                    if save:
                        # Written before any page hears of it, but off the event loop: a slow disk
                        # holds this room (its lock) and no other.
                        await asyncio.to_thread(self.store.save, code, room.to_record())
                    if self.bus is not None:
                        await self.bus.publish(code, room.version)
        if room.version != seen:
            self.broadcast(code)
            self.wakers[code].set()

    def _refresh(self, code: str) -> None:
        """Several processes: the saved room if another process changed it meanwhile, with who is
        connected through every process (``trainer/rooms/shared.py``)."""
        self.rooms[code] = self.bus.refresh(code, self.rooms[code], self.clock())

    async def _listen(self) -> None:
        async for code, _ in self.bus.updates():  # only rooms changed by another process
            if code in self.rooms:
                async with self.locks[code]:
                    self._refresh(code)
                self.broadcast(code)
                self.wakers[code].set()

    def broadcast(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        now = self.clock()
        views: dict[int, dict] = {}
        for page in self.pages.get(code, []):
            if page.seat not in views:
                views[page.seat] = {
                    "type": "state",
                    "version": room.version,
                    "view": seat_view(room, page.seat, now),
                }
            page.push(views[page.seat])

    # ----- the driver -----

    async def _drive(self, code: str) -> None:
        """Bots' and timers' decisions for one room, each when it is due; then sleep until the
        next is due or something changes."""
        waker = self.wakers[code]
        while code in self.rooms:
            try:
                if not await self._step(code, waker):
                    return
            except Exception:  # a fault (a bot's, the store's) must not stop the room for good
                log.exception("room %s…: its driver failed; trying again in a second", code[:6])
                await asyncio.sleep(1)

    async def _step(self, code: str, waker: asyncio.Event) -> bool:
        """Make what is due, or wait until something may be; False once the room has expired."""
        waker.clear()
        now = self.clock()
        room = self.rooms[code]
        if not self.pages.get(code) and now - room.last_change >= self.idle_expiry:
            self.store.delete(code)
            self._forget(code)
            return False
        async with self._changing(code) as room:
            room.tick(now)
        due = room.due(now)
        for seat, reason in due:
            view = room.game.view(seat)
            action = await asyncio.to_thread(bot_action, self._bot(code, seat, room), view)
            async with self._changing(code) as current:
                current.bot_decides(seat, reason, action, self.clock())
        if due:
            return True
        deadline = room.next_deadline(now)
        limit = room.last_change + self.idle_expiry
        wake_at = limit if deadline is None else min(deadline, limit)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waker.wait(), max(0.0, wake_at - self.clock()) + 0.01)
        return True

    def _bot(self, code: str, seat: int, room: Room) -> Bot:
        bots = self.bots[code]
        if seat not in bots:
            bots[seat] = make_bot(room.config.bot_level, secrets.randbits(32))
        return bots[seat]

    # ----- a page -----

    async def session(self, code: str, receive: Callable[[], Awaitable[str | None]], send_text) -> None:
        """One page's conversation: ``receive()`` gives its next message (None: it closed)."""
        await self.start()
        page = Page(send_text)
        writer = asyncio.create_task(page.write())
        try:
            if await self.find(code) is None:
                page.push(_error("There is no room at this address: it may have expired. Make a new one."))
                return
            if not await self._hello(code, page, receive):
                return
            while (text := await receive()) is not None:
                await self._message(code, page, text)
        finally:
            await self._leave(code, page)
            await _drain(page, writer)

    async def _hello(self, code: str, page: Page, receive) -> bool:
        try:
            text = await asyncio.wait_for(receive(), HELLO_WAIT)
        except TimeoutError:
            page.push(_error("The page said nothing: reload it to join the room."))
            return False
        if text is None:
            return False
        message = _parse(text)
        if not isinstance(message, dict) or message.get("type") != "hello":
            page.push(_error('The first message must be {"type": "hello", "secret": ..., "name": ...}.'))
            return False
        async with self._changing(code) as room:
            seat = room.seat_of(message.get("secret"))
            secret = message.get("secret") if seat is not None else None
            if seat is None:
                try:
                    seat, secret = room.join(message.get("name"), self.clock())
                except RoomError as error:
                    page.push(_error(error.text))
                    return False
            page.seat = seat
            first = not any(other.seat == seat for other in self.pages[code])
            self.pages[code].append(page)
            self._tell_bus(code, seat)
            if first:
                room.connect(seat, self.clock())
            link = f"{self.address}/rooms/r/{code}" if self.address else None
            page.push({"type": "welcome", "seat": seat, "secret": secret, "code": code, "link": link})
        self.broadcast(code)
        return True

    async def _leave(self, code: str, page: Page) -> None:
        pages = self.pages.get(code)
        if pages is None or page not in pages:
            return
        pages.remove(page)
        self._tell_bus(code, page.seat)
        if not any(other.seat == page.seat for other in pages) and code in self.rooms:
            async with self._changing(code, save=False) as room:
                if self.bus is None or not room.seats[page.seat].connected:  # else: open elsewhere
                    room.disconnect(page.seat, self.clock())

    def _tell_bus(self, code: str, seat: int) -> None:
        """Several processes: how many pages of ``seat`` this one now has open."""
        if self.bus is not None:
            self.bus.pages(code, seat, sum(page.seat == seat for page in self.pages.get(code, [])))

    async def _message(self, code: str, page: Page, text: str) -> None:
        if len(text.encode()) > MAX_MESSAGE:
            page.push(_error(f"A message is at most {MAX_MESSAGE} bytes: that one was not applied."))
            return
        if not page.allowed(self.clock()):
            if not page.warned:
                page.warned = True
                page.push(
                    _error(f"Too many messages (at most {RATE} a second): the last ones were not applied.")
                )
            return
        message = _parse(text)
        if not isinstance(message, dict):
            page.push(_error("A message must be a JSON object with a 'type'."))
            return
        kind = message.get("type")
        if kind == "review":
            await self._review(code, page)
            return
        errors: list[str] = []
        async with self._changing(code) as room:
            now = self.clock()
            try:
                if kind == "intent":
                    errors = room.intent(page.seat, message.get("view"), message.get("messages"), now)[1]
                elif kind == "start":
                    room.start(page.seat, now)
                elif kind == "bot_seat":
                    room.hand_to_bot(page.seat, message.get("seat"), now)
                else:
                    raise RoomError(
                        f"Unknown message type {excerpt(kind, 30)}: "
                        "expected intent, start, bot_seat or review."
                    )
            except RoomError as error:
                errors = [error.text]
        for text_ in errors:
            page.push(_error(text_))

    async def _review(self, code: str, page: Page) -> None:
        room = self.rooms[code]
        if self.reviewer is None:
            page.push(_error("The review is not available on this server."))
            return
        if room.status != "over":
            page.push(_error("The review comes when the game is over."))
            return
        if room.seats[page.seat].kind != "human":
            page.push(_error("Only a player's own seat is reviewed."))
            return
        # made in the reviewer's worker process: this page's messages go on meanwhile
        task = asyncio.create_task(self.reviewer(room, page.seat, page.push))
        self._reviews.add(task)
        task.add_done_callback(self._reviews.discard)


def _error(text: str) -> dict:
    return {"type": "error", "text": text}


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


async def _drain(page: Page, writer: asyncio.Task) -> None:
    """Send what is still queued (a last error), then stop the page's writer."""
    page.ready.set()
    for _ in range(100):  # at most a second: a closed socket takes nothing more
        await asyncio.sleep(0.01)
        if (not page.queue and not page.ready.is_set()) or writer.done():
            break
    writer.cancel()
    with contextlib.suppress(BaseException):
        await writer


@contextlib.asynccontextmanager
async def _as_async(lease):
    if hasattr(lease, "__aenter__"):
        async with lease:
            yield
    else:
        with lease:
            yield
