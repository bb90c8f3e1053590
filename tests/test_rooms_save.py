"""A room is saved before its pages hear of a change, and off the hub's event loop: a room
whose disk is slow holds itself and no other room."""

from __future__ import annotations

import asyncio
import threading

from tests.rooms_helpers import run_apart
from trainer.rooms.hub import Hub
from trainer.rooms.store import FileStore, MemoryStore

SETTINGS = {"preset": "standard", "target": 100, "bot_level": "easy", "timer": 0}
QUICK = {"bot_delay": 0.0, "trick_pause": 0.0, "hand_pause": 600.0}


class SlowStore(MemoryStore):
    """Every save of one room waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.slow: str | None = None
        self.release = threading.Event()

    def save(self, code: str, record: dict) -> None:
        if code == self.slow:
            assert self.release.wait(10), "the slow save was never released"
        super().save(code, record)


def test_a_slow_save_holds_its_own_room_and_no_other():
    async def scenario() -> None:
        store = SlowStore()
        hub = Hub(store, timing=QUICK)
        slow, _ = await hub.create(SETTINGS, "Ann")
        quick, _ = await hub.create(SETTINGS, "Bea")
        store.slow = slow.code

        async def join(code: str, name: str) -> None:
            async with hub._changing(code) as room:
                room.join(name, hub.clock())

        stuck = asyncio.create_task(join(slow.code, "Cid"))
        await asyncio.sleep(0.05)
        assert not stuck.done()  # waiting on its disk
        await asyncio.wait_for(join(quick.code, "Dan"), 5)  # the other room goes on meanwhile
        assert "Dan" in str(store.load(quick.code)["log"])  # saved
        assert "Cid" not in str(store.load(slow.code)["log"])  # not saved yet, so not shown yet either
        store.release.set()
        await asyncio.wait_for(stuck, 5)
        assert "Cid" in str(store.load(slow.code)["log"])
        await hub.stop()

    run_apart(scenario())


def test_a_saved_room_file_is_complete_and_synced(tmp_path, monkeypatch):
    import os

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    store = FileStore(tmp_path)
    store.save("abcdefgh", {"code": "abcdefgh", "log": list(range(1000))})
    assert store.load("abcdefgh")["log"][-1] == 999
    assert len(synced) == 2  # the file, then the folder that holds its new name
    assert not list(tmp_path.glob(".*.tmp"))
