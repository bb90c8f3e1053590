"""A scripted player for a room (``trainer/rooms``): joins by the room's code over its WebSocket and
plays whatever its seat must decide, from the ``state`` messages alone, sending table intents as
``trainer/table/table.js`` does (each message numbered, the newest 16 travelling together).

Used by the load benchmark (``benchmarks/room_load.py``) and the secrecy test
(``tests/test_rooms_secrecy.py``). Loopback servers only: it is a test tool, not a bot.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

__all__ = ["RoomClient", "create_room", "decide"]

MAX_SENT = 16  # table.js: the newest 16 messages travel in every intent
MIN_GAP = 0.06  # seconds between two messages: under the rooms' 20 a second, as clicks are
RETRY = 0.5  # seconds before deciding again after a refusal


def create_room(base: str, **config: Any) -> dict:
    """``POST /rooms/api/rooms`` (the "Play with friends" form): ``{code, secret, link}``."""
    request = urllib.request.Request(
        f"{base}/rooms/api/rooms",
        data=json.dumps(config).encode(),
        headers={"Content-Type": "application/json", "Origin": base},
        method="POST",
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy
    with opener.open(request, timeout=30) as response:
        return json.loads(response.read())


def decide(view: dict, rng: random.Random) -> list[dict] | None:
    """The table messages this seat's view asks for now, or None when nothing is this seat's to
    decide: a pass (the missing marks toggled, then ``pass``, as clicks and the Pass button send
    them), a legal card, the moon choice, or New hand once a hand is over."""
    if view.get("passing"):
        held = [card["code"] for card in view["hand"]]
        chosen = set(rng.sample(held, view["pass_count"]))
        marked = set(view.get("selected") or ())
        toggles = [{"type": "toggle", "card": code} for code in held if (code in chosen) != (code in marked)]
        return [*toggles, {"type": "pass"}]
    if view.get("moon_choice"):
        return [{"type": "moon", "choice": rng.choice(["add_to_others", "subtract_from_shooter"])}]
    if view.get("my_turn"):
        legal = [card["code"] for card in view["hand"] if card.get("legal")]
        if legal:
            return [{"type": "play", "card": rng.choice(legal)}]
    room = view.get("room") or {}
    if (
        view.get("hand_over")
        and room.get("status") == "playing"
        and room.get("you") not in room.get("ready", ())
    ):
        return [{"type": "new_hand"}]  # the New hand button: the next hand comes when everyone pressed it
    return None


def decision_point(view: dict) -> tuple:
    """Where in the game a decision stands: one decision is sent per point."""
    return (
        view.get("hand_number"),
        view.get("phase"),
        view.get("tricks_done"),
        len(view.get("trick") or ()),
    )


class RoomClient:
    """One scripted player. ``await client.play()`` joins (``hello`` with ``secret`` or ``name``),
    then answers every state until the room's game is over (or ``stop()``).

    ``think``: seconds before each decision (drawn between half and one and a half times it);
    ``on_message(client, message, received_at)``: every message received, decoded, with its
    ``time.perf_counter()``; ``on_send(client, messages, sent_at)``: each decision as it leaves;
    ``record``: keep every message's text in ``received`` (the secrecy test reads them all).
    """

    def __init__(
        self,
        base: str,
        code: str,
        name: str,
        secret: str | None = None,
        *,
        think: float = 0.0,
        seed: int | None = None,
        record: bool = False,
        on_message: Callable[[RoomClient, dict, float], None] | None = None,
        on_send: Callable[[RoomClient, list[dict], float], None] | None = None,
    ) -> None:
        self.base = base
        self.code = code
        self.name = name
        self.secret = secret
        self.think = think
        self.rng = random.Random(seed)
        self.record = record
        self.received: list[str] = []
        self.on_message = on_message
        self.on_send = on_send
        self.seat: int | None = None
        self.view: dict | None = None
        self.errors: list[str] = []
        self.over = False
        self._page = f"{int(time.time() * 1000)}-{uuid.uuid4().hex[:8]}"  # table.js's `view`
        self._number = 0
        self._sent: list[dict] = []
        self._acted: tuple | None = None
        self._ws = None
        self._stopping = False
        self._pending: asyncio.Task | None = None
        self._closing: asyncio.Future | None = None
        self._sending = asyncio.Lock()
        self._last_sent = 0.0
        self.welcomed = asyncio.Event()

    async def play(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/rooms/ws/{self.code}"
        async with connect(url, origin=self.base, proxy=None, open_timeout=60, ping_interval=None) as ws:
            self._ws = ws
            await ws.send(json.dumps({"type": "hello", "secret": self.secret, "name": self.name}))
            async for text in ws:
                received_at = time.perf_counter()
                if self.record:
                    self.received.append(text)
                message = json.loads(text)
                if self.on_message is not None:
                    self.on_message(self, message, received_at)
                self._take(message)
                if self.over or self._stopping:
                    break
            if self._pending is not None:
                self._pending.cancel()

    async def send(self, message: dict) -> None:
        """A message outside the table's intents (``start``, ``bot_seat``, ``review``)."""
        await self._ws.send(json.dumps(message))

    def stop(self) -> None:
        self._stopping = True
        if self._ws is not None:
            self._closing = asyncio.ensure_future(self._ws.close())

    def _take(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.seat, self.secret = message["seat"], message["secret"]
            self.welcomed.set()
        elif kind == "error":
            self.errors.append(str(message.get("text")))
            self._acted = None  # refused, nothing changed: decide again a moment later, as a person would
            asyncio.get_running_loop().call_later(RETRY, self._consider)
        elif kind == "state":
            self.view = message["view"]
            if (self.view.get("room") or {}).get("status") == "over":
                self.over = True
                return
            self._consider()

    def _consider(self) -> None:
        """Send this seat's decision for the view in hand, once per decision point."""
        view = self.view
        if view is None or self.over or decision_point(view) == self._acted:
            return
        messages = decide(view, self.rng)
        if messages is not None:
            self._acted = decision_point(view)
            self._pending = asyncio.ensure_future(self._send_intents(messages))

    async def _send_intents(self, messages: list[dict]) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        async with self._sending:  # in order, and no faster than a person clicks
            for message in messages:
                await asyncio.sleep(max(0.0, self._last_sent + MIN_GAP - time.perf_counter()))
                self._last_sent = time.perf_counter()
                if not await self._send_one(message):
                    return

    async def _send_one(self, message: dict) -> bool:
        # table.js's send(): number it, keep the newest 16, send them all as the intent
        self._number += 1
        self._sent = [*self._sent, {**message, "seq": self._number}][-MAX_SENT:]
        intent = {"type": "intent", "view": self._page, "messages": self._sent}
        if self.on_send is not None:
            self.on_send(self, [message], time.perf_counter())
        try:
            await self._ws.send(json.dumps(intent))
        except ConnectionClosed:
            return False  # the room or the run is over: play() ends on its own
        return True
