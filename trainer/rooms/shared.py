"""Rooms shared by several server processes: the hook the hub calls when it has a bus.

``SharedRooms(RedisStore(url))`` is both the hub's store and its bus. Every change to a room is
made under the room's lease (``lock``) on the freshest saved record (``refresh``), saved with
that lease (a process that lost it cannot overwrite the room) and announced on the bus in the
same step (the hub loads a room another process made when its page is opened). Each process
tells which seats it has pages for (``pages``), so a player connected through another process
is not taken for gone, and a killed process's players are (its connections stop counting by
themselves, and the grace period starts).

Which process saved last is told by Redis's revision of the room, not by ``Room.version``: a
process counts its own changes that are never saved (a page closing), so versions from two
processes cannot be compared.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from .redis_store import Holding, Lease, RedisStore, RedisUnavailableError
from .room import Room

__all__ = ["SharedRooms"]

log = logging.getLogger(__name__)


class SharedRooms:
    """The ``RoomStore`` contract and the hub's bus, for rooms kept in Redis."""

    def __init__(self, store: RedisStore):
        self.store = store
        self.seen: dict[str, int] = {}  # each room's revision this process last loaded or saved
        self.present: dict[str, set[int]] = {}  # each room's connected seats, as last put on it
        self.leases: dict[str, Lease] = {}  # the lease this process holds on a room now

    # ----- the RoomStore contract (remembering the revision each time) -----

    def load(self, code: str) -> dict | None:
        record, self.seen[code] = self.store.load_revision(code)
        return record

    def save(self, code: str, record: dict) -> None:
        self.seen[code] = self.store.save(code, record, lease=self.leases.get(code))

    def codes(self) -> list[str]:
        return self.store.codes()

    def delete(self, code: str) -> None:
        """An idle room goes, unless another process changed it since or has a page of it open."""
        if self.store.revision(code) <= self.seen.get(code, 0) and not self.store.connected_seats(code):
            self.store.delete(code)
        self.seen.pop(code, None)
        self.present.pop(code, None)

    # ----- the bus -----

    def lock(self, code: str) -> _Held:
        """The room's lease for an ``async with``; saves inside it are made with that lease."""
        return _Held(self, self.store.lock(code))

    async def publish(self, code: str, version: int) -> None:
        """Nothing to do: ``save`` announced the change already, with Redis's revision."""

    def refresh(self, code: str, room: Room, now: float) -> Room:
        """The room as it is now: rebuilt from the saved record when another process saved it
        since this one last did, and in either case with the connections of every process."""
        revision = self.store.revision(code)
        if revision > self.seen.get(code, 0):
            record, self.seen[code] = self.store.load_revision(code)
            if record is not None:
                fresh = Room.from_record(record)
                fresh.version = max(fresh.version, room.version + 1)  # a page never sees one twice
                _keep_away_times(room, fresh)
                room = fresh
        if self._put_presence(code, room, now):
            room.version += 1  # who is connected changed: the pages must be told
        return room

    def pages(self, code: str, seat: int, count: int) -> None:
        """This process now has ``count`` pages of ``seat`` open in room ``code``; tells the others
        at once (their pages show who is connected, their drivers time the grace period)."""
        self.store.alive()
        self.store.set_connections(code, seat, count)
        self.store.publish(code, self.store.revision(code))

    async def updates(self) -> AsyncIterator[tuple[str, int]]:
        """The rooms this process must refresh: saved by another process since, or with other
        seats connected than it shows. Also says every ``alive_seconds / 5`` that this process
        runs, and then looks over its rooms' connections (a killed process says nothing)."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        waiting: set[str] = set()  # a room waits to be looked at once, however often it is named

        def look_at(code: str) -> None:
            if code not in waiting:
                waiting.add(code)
                queue.put_nowait(code)

        async def listen():
            async for code, _ in self.store.updates():
                look_at(code)

        async def beat():
            while True:
                try:
                    self.store.alive()
                except RedisUnavailableError as error:  # Redis is back soon, or every change says so
                    log.warning("%s", error)
                for code in list(self.present):
                    look_at(code)
                await asyncio.sleep(self.store.alive_seconds / 5)

        tasks = [asyncio.create_task(listen()), asyncio.create_task(beat())]
        try:
            while True:
                code = await queue.get()
                waiting.discard(code)
                if code not in self.seen:
                    continue  # a room this process does not hold
                try:
                    revision = self.store.revision(code)
                    connected = self.store.connected_seats(code)
                    news = revision > self.seen[code] or connected != self.present.get(code)
                except RedisUnavailableError as error:
                    log.warning("%s", error)
                    continue
                if news:
                    yield code, revision
        finally:
            for task in tasks:
                task.cancel()

    # ----- inside -----

    def _put_presence(self, code: str, room: Room, now: float) -> bool:
        """Seats connected through any process are connected in ``room``; True if that changed."""
        connected = self.store.connected_seats(code)
        self.present[code] = connected
        changed = False
        for index, seat in enumerate(room.seats):
            if seat.kind != "human":
                continue
            if index in connected:
                changed |= not seat.connected
                seat.connected, seat.away_since = True, None
            elif seat.connected or seat.away_since is None:
                changed |= seat.connected
                seat.connected, seat.away_since = False, now  # gone since now, as far as we know
        return changed


class _Held:
    """A room's lease held for an ``async with``, remembered so saves inside are fenced by it."""

    def __init__(self, rooms: SharedRooms, holding: Holding):
        self.rooms, self.holding = rooms, holding

    async def __aenter__(self) -> Lease:
        lease = await self.holding.__aenter__()
        self.rooms.leases[self.holding.code] = lease
        return lease

    async def __aexit__(self, *exc) -> None:
        self.rooms.leases.pop(self.holding.code, None)
        with contextlib.suppress(Exception):  # an expired lease needs no release
            await self.holding.__aexit__(*exc)


def _keep_away_times(old: Room, fresh: Room) -> None:
    """A rebuilt room keeps when each seat's player went away, as this process saw it."""
    for before, after in zip(old.seats, fresh.seats, strict=True):
        after.connected, after.away_since = before.connected, before.away_since
