"""Which rules a room can be made with, and what its page calls them: one list, the engine's
presets (engine.rules.PRESETS and PRESET_TITLES), each table once."""

from __future__ import annotations

from starlette.testclient import TestClient

from engine.rules import PRESET_TITLES, PRESETS, preset_title
from trainer.rooms.hub import Hub
from trainer.rooms.room import offered_presets, rules_title
from trainer.rooms.server import build_app
from trainer.rooms.store import MemoryStore

BASE = "http://127.0.0.1:2719"


def test_every_preset_has_a_title_with_its_table_size():
    assert set(PRESET_TITLES) == set(PRESETS)
    assert preset_title("black_maria") == "Black Maria, 4 players"
    assert preset_title("five_players") == "Standard, 5 players"


def test_a_room_offers_each_table_once_and_the_page_names_it_as_offered():
    offered = dict(offered_presets())
    tables = [PRESETS[name].replace(target=100) for name in offered]
    assert len(tables) == len(set(map(repr, tables)))  # no two offers are the same table
    for name, rules in PRESETS.items():  # every preset is some offered table, the target aside
        assert rules.replace(target=100) in tables
        assert rules_title(name) in offered.values()
    # The room chooses its own length: a short game at 100 is not called a short game.
    assert "short_game" not in offered and rules_title("short_game") == "Standard, 4 players"
    assert rules_title("openspiel") == "Queen breaks hearts, 4 players"


def test_the_create_page_gets_the_offered_presets_and_a_room_its_title():
    hub = Hub(MemoryStore(), timing={"bot_delay": 0.0, "trick_pause": 0.0, "hand_pause": 600.0})
    with TestClient(build_app(hub), base_url=BASE) as client:
        answer = client.get("/rooms/api/presets")
        assert answer.status_code == 200
        assert [tuple(pair) for pair in answer.json()["presets"]] == offered_presets()
        made = client.post(
            "/rooms/api/rooms",
            json={"preset": "spot_hearts", "target": 50, "bot_level": "easy", "timer": 0, "name": "Ann"},
        ).json()
        with client.websocket_connect(f"ws://127.0.0.1:2719/rooms/ws/{made['code']}") as ws:
            ws.send_json({"type": "hello", "secret": made["secret"], "name": "Ann"})
            while (message := ws.receive_json())["type"] != "state":
                pass
    assert message["view"]["room"]["rules"] == "Spot Hearts, 4 players"
