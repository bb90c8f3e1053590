"""Rooms kept in Redis, for a site that runs several server processes (issue 52, item 8).

``RedisStore(url)`` keeps the ``RoomStore`` contract of ``trainer/rooms/store.py`` (records are
JSON-able dicts) and adds what sharing a room between processes needs:

- a revision per room, counted by Redis: ``save`` returns the new one, ``load_revision`` reads the
  record with its own, and ``save(..., expected=n)`` refuses when another process saved meanwhile;
- the update bus: ``publish(code, version)`` and ``async for code, version in store.updates()``
  (one pub/sub channel for every room); ``save`` publishes the new revision in the same step, so
  a process killed between the two never leaves the others unaware of a change;
- who is connected: each process counts its own pages of each seat (``set_connections``) and says
  it is running (``alive``); ``connected_seats`` counts the pages of running processes only;
- a lease per room (``SET NX PX``): ``with store.lock(code)`` or ``async with store.lock(code)``,
  so two processes never apply actions to one room at once. A lease expires by itself (a killed
  process's rooms are free again after ``LEASE_SECONDS``), and a save made with a lease that has
  been lost is refused (``StaleRoomError``).

Keys (``prefix`` defaults to ``hearts-trainer:rooms:``): ``<prefix>room:<code>`` a hash of
``record`` (the JSON) and ``revision``; ``<prefix>codes`` the set of kept codes;
``<prefix>lock:<code>`` the lease; ``<prefix>presence:<code>`` pages open a process and seat;
``<prefix>alive:<process>``; ``<prefix>updates`` the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterator

import redis
import redis.asyncio

__all__ = [
    "ALIVE_SECONDS",
    "LEASE_SECONDS",
    "WAIT_SECONDS",
    "Holding",
    "Lease",
    "RedisStore",
    "RedisUnavailableError",
    "RoomBusyError",
    "StaleRoomError",
]

# Far longer than one action takes under the lease (load if newer, apply, save), short enough
# that a killed process's rooms are free again soon.
LEASE_SECONDS = 10.0
# How long to wait for another process's lease before giving up on an action.
WAIT_SECONDS = 15.0
# How long a process's open connections count without its saying it is still running.
ALIVE_SECONDS = 10.0
PREFIX = "hearts-trainer:rooms:"
# A Redis that stops answering is an error after this long, never a server that hangs (the hub
# calls the store from its event loop; the pub/sub connection waits for messages without limit).
TIMEOUTS = {"socket_connect_timeout": 5}

log = logging.getLogger(__name__)

# KEYS: room hash, codes set, lock key. ARGV: record JSON, code, lease token ('' = none), expected
# revision ('' = any), channel. Refuses (an error reply) to save under a lease that is no longer
# ours or over another revision than the one expected; else writes the record with the next
# revision, remembers the code and publishes the revision, all in one step.
_SAVE = """
if ARGV[3] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[3] then
  return redis.error_reply('STALE the lease on this room was lost (held too long, or taken over)')
end
local stored = tonumber(redis.call('HGET', KEYS[1], 'revision')) or 0
if ARGV[4] ~= '' and stored ~= tonumber(ARGV[4]) then
  return redis.error_reply('STALE it changed meanwhile (revision ' .. stored .. ', expected '
    .. ARGV[4] .. ')')
end
local revision = stored + 1
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'revision', revision)
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('PUBLISH', ARGV[5], cjson.encode({code = ARGV[2], version = revision}))
return revision
"""
# KEYS: lock key. ARGV: token, milliseconds. Releases or extends only our own lease.
_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call({}) end return 0"
_RELEASE = _OURS.format("'DEL', KEYS[1]")
_EXTEND = _OURS.format("'PEXPIRE', KEYS[1], ARGV[2]")


class RedisUnavailableError(RuntimeError):
    """Redis cannot be reached at the given address (one line saying where and what to do)."""


class RoomBusyError(RuntimeError):
    """Another process held the room's lease for longer than we may wait."""


class StaleRoomError(RuntimeError):
    """A save refused: our lease was lost, or the stored record is newer than the one saved."""


class Lease:
    """One process's hold on one room until ``release()`` or ``LEASE_SECONDS`` pass."""

    def __init__(self, store: RedisStore, code: str, token: str, seconds: float):
        self.store, self.code, self.token, self.seconds = store, code, token, seconds

    def extend(self) -> bool:
        """Hold the room for another ``seconds``; False when the lease was already lost."""
        key = self.store._lock_key(self.code)
        return bool(self.store._call(self.store._extend, keys=[key], args=[self.token, _ms(self.seconds)]))

    def release(self) -> None:
        self.store._call(self.store._release, keys=[self.store._lock_key(self.code)], args=[self.token])


class Holding:
    """``RedisStore.lock``: a room's lease for one ``with`` or ``async with`` block."""

    def __init__(self, store: RedisStore, code: str, seconds: float, wait: float):
        self.store, self.code, self.seconds, self.wait = store, code, seconds, wait
        self.lease: Lease | None = None

    def _attempts(self) -> Iterator[float]:
        """Try for the lease; yield the pause before each retry until it is ours or time is up."""
        give_up, pause = time.monotonic() + self.wait, 0.002
        while (lease := self.store.try_lock(self.code, self.seconds)) is None:
            if time.monotonic() > give_up:
                raise RoomBusyError(
                    f"room {self.code} is busy in another server process (waited {self.wait:g} s for it)"
                )
            yield pause
            pause = min(pause * 2, 0.05)
        self.lease = lease

    def __enter__(self) -> Lease:
        for pause in self._attempts():
            time.sleep(pause)
        return self.lease

    async def __aenter__(self) -> Lease:
        for pause in self._attempts():
            await asyncio.sleep(pause)
        return self.lease

    def __exit__(self, *exc) -> None:
        self.lease.release()

    async def __aexit__(self, *exc) -> None:
        self.lease.release()


class RedisStore:
    """The ``RoomStore`` contract in Redis, with the update bus and per-room leases."""

    def __init__(self, url: str, prefix: str = PREFIX, alive_seconds: float = ALIVE_SECONDS):
        self.url, self.prefix = url, prefix
        self.alive_seconds = alive_seconds  # how long this process's connections count unrenewed
        self.shown = _without_password(url)  # for messages and logs: never the password
        self.process = secrets.token_hex(8)  # this process, in the presence records
        try:
            self.client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5, **TIMEOUTS)
        except ValueError as error:
            what = "--redis" if self.shown == "?" else f"--redis {self.shown!r}"
            raise RedisUnavailableError(f"{what} is not a Redis address ({error})") from None
        self._save = self.client.register_script(_SAVE)
        self._release = self.client.register_script(_RELEASE)
        self._extend = self.client.register_script(_EXTEND)
        self._call(self.client.ping)

    # --- the RoomStore contract ---------------------------------------------------------------

    def load(self, code: str) -> dict | None:
        return self.load_revision(code)[0]

    def load_revision(self, code: str) -> tuple[dict | None, int]:
        """The record and its revision (0 when there is no such room)."""
        text, revision = self._call(self.client.hmget, self._room_key(code), ["record", "revision"])
        if text is None:
            return None, 0
        try:
            record = json.loads(text)
        except ValueError as error:
            where = f"room {code} in Redis ({self.shown})"
            raise ValueError(f"{where}: its record is not JSON ({error})") from None
        if not isinstance(record, dict):
            raise ValueError(f"room {code} in Redis ({self.shown}): its record is not a JSON object")
        return record, int(revision or 0)

    def save(self, code: str, record: dict, lease: Lease | None = None, expected: int | None = None) -> int:
        """Write the whole record at once, publish its new revision and return it. With ``lease``,
        only while that lease is still ours; with ``expected``, only over that revision."""
        args = [
            json.dumps(record, separators=(",", ":")),
            code,
            "" if lease is None else lease.token,
            "" if expected is None else str(int(expected)),
            self._channel(),
        ]
        keys = [self._room_key(code), self._codes_key(), self._lock_key(code)]
        try:
            return int(self._call(self._save, keys=keys, args=args))
        except redis.ResponseError as error:
            if str(error).startswith("STALE"):
                raise StaleRoomError(f"room {code}: not saved, {str(error)[6:]}") from None
            raise

    def codes(self) -> list[str]:
        return sorted(self._call(self.client.smembers, self._codes_key()))

    def delete(self, code: str) -> None:
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(self._room_key(code), self._lock_key(code), self._presence_key(code))
        pipe.srem(self._codes_key(), code)
        self._call(pipe.execute)

    # --- the update bus -------------------------------------------------------------------------

    def revision(self, code: str) -> int:
        """The stored record's revision (1 after its first save; 0: no such room), cheaply."""
        return int(self._call(self.client.hget, self._room_key(code), "revision") or 0)

    def publish(self, code: str, version: int) -> None:
        message = json.dumps({"code": code, "version": int(version)})
        self._call(self.client.publish, self._channel(), message)

    async def updates(self) -> AsyncIterator[tuple[str, int]]:
        """Every ``(code, version)`` published by any process (this one included), for as long as
        the caller iterates. After a lost connection it subscribes again and first yields every
        kept room's stored revision, so an update missed meanwhile is not missed for good."""
        resubscribed = False
        while True:
            client = redis.asyncio.Redis.from_url(self.url, decode_responses=True, **TIMEOUTS)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel())
                if resubscribed:
                    for code in self.codes():
                        if revision := self.revision(code):
                            yield code, revision
                async for message in pubsub.listen():
                    try:
                        update = json.loads(message["data"])
                        code, version = str(update["code"]), int(update["version"])
                    except (ValueError, KeyError, TypeError):
                        log.warning("ignored a malformed room update on %s: %.200r", self._channel(), message)
                        continue
                    yield code, version
            except (redis.ConnectionError, redis.TimeoutError, OSError, RedisUnavailableError) as error:
                log.warning("room updates (Redis at %s) cut: %s; subscribing again", self.shown, error)
                resubscribed = True
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                    await client.aclose()

    # --- the per-room lease ----------------------------------------------------------------------

    def try_lock(self, code: str, seconds: float = LEASE_SECONDS) -> Lease | None:
        """The room's lease if no other process holds it now, else None (never waits)."""
        token = secrets.token_urlsafe(16)
        if self._call(self.client.set, self._lock_key(code), token, nx=True, px=_ms(seconds)):
            return Lease(self, code, token, seconds)
        return None

    def lock(self, code: str, seconds: float = LEASE_SECONDS, wait: float = WAIT_SECONDS) -> Holding:
        """Hold the room for a ``with`` (waits with ``time.sleep``) or an ``async with`` (waits with
        ``asyncio.sleep``, so other rooms go on), up to ``wait`` seconds for another process."""
        return Holding(self, code, seconds, wait)

    # --- who is connected, across processes ----------------------------------------------------

    def alive(self, seconds: float | None = None) -> None:
        """This process is running: its connections count for ``seconds`` (default
        ``alive_seconds``) more (call it again before they pass; a killed process's connections
        stop counting by themselves)."""
        seconds = self.alive_seconds if seconds is None else seconds
        self._call(self.client.set, self._alive_key(self.process), "1", px=_ms(seconds))

    def set_connections(self, code: str, seat: int, count: int) -> None:
        """How many pages of ``seat`` this process has open in room ``code``."""
        field = f"{self.process}:{seat}"
        if count > 0:
            self._call(self.client.hset, self._presence_key(code), field, count)
        else:
            self._call(self.client.hdel, self._presence_key(code), field)

    def connected_seats(self, code: str) -> set[int]:
        """The seats with a page open in any running process."""
        counts = self._call(self.client.hgetall, self._presence_key(code))
        fields = [(field, *field.rsplit(":", 1)) for field in counts]
        processes = sorted({process for _, process, _ in fields})
        if not processes:
            return set()
        running = self._call(self.client.mget, [self._alive_key(process) for process in processes])
        gone = {process for process, flag in zip(processes, running, strict=True) if flag is None}
        if stale := [field for field, process, _ in fields if process in gone]:
            self._call(self.client.hdel, self._presence_key(code), *stale)
        live = [(field, seat) for field, process, seat in fields if process not in gone]
        return {int(seat) for field, seat in live if int(counts[field]) > 0}

    def close(self) -> None:
        self.client.close()

    # --- helpers -------------------------------------------------------------------------------

    def _room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def _lock_key(self, code: str) -> str:
        return f"{self.prefix}lock:{code}"

    def _presence_key(self, code: str) -> str:
        return f"{self.prefix}presence:{code}"

    def _alive_key(self, process: str) -> str:
        return f"{self.prefix}alive:{process}"

    def _codes_key(self) -> str:
        return f"{self.prefix}codes"

    def _channel(self) -> str:
        return f"{self.prefix}updates"

    def _call(self, function, *args, **kwargs):
        try:
            return function(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise RedisUnavailableError(
                f"Redis at {self.shown} cannot be reached ({error}); start redis-server or check --redis"
            ) from None


def _without_password(url: str) -> str:
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        return "?"  # not readable as an address: shown as nothing of it
    if parts.password is None:
        return url
    where = parts.netloc.rsplit("@", 1)[-1]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{where}"))


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
