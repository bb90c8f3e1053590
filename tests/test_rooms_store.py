"""Where rooms are kept (FileStore: one JSON file a room, never half written), what `hearts-trainer
host` says about who can open the rooms, and the home page's way to them."""

from __future__ import annotations

import json
import sys

import pytest

from trainer.lessons.home import friends_markdown
from trainer.rooms.room import Room, RoomConfig
from trainer.rooms.server import banner
from trainer.rooms.store import FileStore, MemoryStore


@pytest.mark.parametrize("kind", ["file", "memory"])
def test_a_store_keeps_lists_and_deletes_rooms(tmp_path, kind):
    store = FileStore(tmp_path) if kind == "file" else MemoryStore()
    room, _ = Room.create(RoomConfig(), "Ann", 0.0)
    record = room.to_record()
    store.save(room.code, record)
    assert store.codes() == [room.code]
    assert store.load(room.code) == json.loads(json.dumps(record))
    assert store.load("Zz" * 11) is None
    store.delete(room.code)
    assert store.codes() == [] and store.load(room.code) is None


def test_a_failed_write_leaves_the_room_as_it_was(tmp_path, monkeypatch):
    store = FileStore(tmp_path)
    room, _ = Room.create(RoomConfig(), "Ann", 0.0)
    store.save(room.code, room.to_record())
    before = (tmp_path / f"{room.code}.json").read_bytes()
    room.join("Bob", 1.0)
    with pytest.raises(TypeError):
        store.save(room.code, {**room.to_record(), "broken": object()})  # cannot be written at all

    def no_space(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", no_space)  # written, but never put in place
    with pytest.raises(OSError):
        store.save(room.code, room.to_record())
    assert (tmp_path / f"{room.code}.json").read_bytes() == before
    assert [path.name for path in tmp_path.iterdir()] == [f"{room.code}.json"]  # no temporary left


def test_a_file_name_is_only_ever_a_room_code(tmp_path):
    store = FileStore(tmp_path)
    assert store.load("../../etc/passwd") is None
    with pytest.raises(ValueError):
        store.save("../escape", {})


def test_sharing_on_a_network_is_said_plainly():
    assert (
        banner("127.0.0.1", 2719) == "Hearts Trainer rooms (this computer only): http://127.0.0.1:2719/rooms/"
    )
    shared = banner("0.0.0.0", 2719)
    assert "Anyone on this network can open the rooms" in shared and ":2719/rooms/" in shared
    assert "http://192.168.1.20:8000/rooms/" in banner("192.168.1.20", 8000)


def test_the_home_page_links_to_the_rooms_or_says_they_need_the_app(monkeypatch):
    assert "[Play with friends](/rooms/)" in friends_markdown()
    monkeypatch.setattr(sys, "platform", "emscripten")
    text = friends_markdown()
    assert "needs the installed app" in text and "hearts-trainer host" in text and "](/rooms/)" not in text


def test_the_folder_is_made_with_the_first_room(tmp_path):
    store = FileStore(tmp_path / "home" / "rooms")
    assert store.codes() == [] and not (tmp_path / "home").exists()
    store.save("a-room-code-1234", {"format": "x"})
    assert store.codes() == ["a-room-code-1234"]
