"""The rooms over HTTP and WebSockets (Starlette's TestClient, no browser): make a room, join it
by its link, play a hand from two pages, come back to one's seat with the secret (also after a
restart), and the limits: too big, too fast or malformed messages, a foreign Origin."""

from __future__ import annotations

import json
import threading

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.rooms_helpers import is_hand_score
from trainer.rooms.hub import MAX_MESSAGE, RATE, Hub
from trainer.rooms.server import build_app
from trainer.rooms.store import FileStore, MemoryStore

BASE = "http://127.0.0.1:2719"
WS = "ws://127.0.0.1:2719"
QUICK = {"bot_delay": 0.0, "trick_pause": 0.0, "hand_pause": 600.0}
SETTINGS = {"preset": "standard", "target": 100, "bot_level": "easy", "timer": 0}


@pytest.fixture
def client_for():
    clients = []

    def make(store=None, **options) -> tuple[TestClient, Hub]:
        hub = Hub(store or MemoryStore(), timing=QUICK, **options)
        client = TestClient(build_app(hub), base_url=BASE)
        client.__enter__()  # one event loop for every request: the rooms live in it
        clients.append(client)
        return client, hub

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def create(client: TestClient, name: str = "Ann", **settings) -> dict:
    answer = client.post("/rooms/api/rooms", json={**SETTINGS, **settings, "name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()


def until(ws, kind: str, test=lambda message: True) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == kind and test(message):
            return message


def hello(ws, secret: str | None, name: str = "") -> dict:
    ws.send_json({"type": "hello", "secret": secret, "name": name})
    return until(ws, "welcome")


class Player(threading.Thread):
    """A page that makes its seat's first legal decision on every state, until the hand is over."""

    def __init__(self, ws, seat: int) -> None:
        super().__init__(daemon=True)
        self.ws, self.seat, self.number, self.done_view, self.errors = ws, seat, 0, None, []

    def run(self) -> None:
        made = set()
        while True:
            message = self.ws.receive_json()
            if message["type"] == "error":
                self.errors.append(message["text"])
                continue
            if message["type"] != "state" or "seats" not in message["view"]:
                continue
            view = message["view"]
            if view["hand_over"]:
                self.done_view = view
                return
            moment = (view["passing"], view["tricks_done"], len(view["trick"]))
            if moment in made or not (view["passing"] or view["my_turn"]):
                continue
            made.add(moment)
            if view["passing"]:
                choice = {"type": "pass", "cards": [card["code"] for card in view["hand"][:3]]}
            else:
                card = next(card["code"] for card in view["hand"] if card["legal"])
                choice = {"type": "play", "card": card}
            self.number += 1
            messages = [{**choice, "seq": self.number}]
            self.ws.send_json({"type": "intent", "view": f"page-{self.seat}", "messages": messages})


def test_make_a_room_join_by_the_link_and_play_a_hand(client_for):
    client, hub = client_for()
    made = create(client, "Ann")
    assert made["link"] == f"{BASE}/rooms/r/{made['code']}"
    page = client.get(f"/rooms/r/{made['code']}")
    assert page.status_code == 200 and made["secret"] not in page.text and "room.js" in page.text
    assert client.get("/rooms/r/no-such-room-code").status_code == 404
    with (
        client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann,
        client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as bob,
    ):
        assert hello(ann, made["secret"])["seat"] == 0
        welcome = hello(bob, None, "Bob")
        assert welcome["seat"] == 1 and welcome["secret"] != made["secret"]
        lobby = until(ann, "state", lambda m: m["view"]["room"]["seats"][1]["connected"])
        assert [s["kind"] for s in lobby["view"]["room"]["seats"]] == ["human", "human", "empty", "empty"]
        bob.send_json({"type": "start"})
        assert until(bob, "error")["text"] == "Only the host can start the game."
        ann.send_json({"type": "start"})
        players = [Player(ann, 0), Player(bob, 1)]
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=120)
            assert not player.is_alive(), "the hand did not end"
            assert player.errors == []
        ends = [player.done_view for player in players]
        assert ends[0]["score_rows"] == ends[1]["score_rows"] and is_hand_score(ends[0]["score_rows"][0])
        assert ends[0]["room"]["score_sheet"]["names"] == ["Ann", "Bob", "Bot 3", "Bot 4"]
    room = hub.room(made["code"])
    assert room.game.hand.is_over and not room.seats[0].connected


def test_the_page_asks_whether_a_newcomer_can_take_a_seat_before_asking_their_name(client_for):
    client, _ = client_for()
    made = create(client, "Ann")
    seat = f"/rooms/api/rooms/{made['code']}/seat"
    assert client.get(seat).json() == {"open": True, "text": ""}
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        hello(ann, made["secret"])
        ann.send_json({"type": "start"})
        until(ann, "state", lambda m: m["view"].get("phase") == "passing")
        closed = client.get(seat).json()
        assert closed == {
            "open": False,
            "text": "The game has started: its seats are taken. Ask the host for a new room.",
        }
        with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as late:  # the same words on a try
            late.send_json({"type": "hello", "secret": None, "name": "Cid"})
            assert until(late, "error")["text"] == closed["text"]
    gone = client.get("/rooms/api/rooms/no-such-room/seat")
    assert gone.status_code == 404 and not gone.json()["open"]


def test_the_secret_brings_a_player_back_to_their_seat_after_a_restart(client_for, tmp_path):
    client, _ = client_for(FileStore(tmp_path))
    made = create(client, "Ann")
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        hello(ann, made["secret"])
        ann.send_json({"type": "start"})
        card = until(ann, "state", lambda m: m["view"].get("phase") == "passing")["view"]["hand"][0]["code"]
        mark = {"type": "toggle", "card": card, "seq": 1}
        ann.send_json({"type": "intent", "view": "p", "messages": [mark]})
        before = until(ann, "state", lambda m: m["view"].get("selected") == [card])["view"]
    # A new server process on the same directory: the room, the hand and the seat are back.
    again, again_hub = client_for(FileStore(tmp_path))

    with again.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        assert hello(ann, made["secret"])["seat"] == 0
        after = until(ann, "state")["view"]
        # The page sends its last intent again on reconnecting: a toggle applied twice would
        # unmark the card; it is applied once.
        ann.send_json({"type": "intent", "view": "p", "messages": [mark]})
        ann.send_json({"type": "start"})  # answered with an error: the resend was handled before it
        assert until(ann, "error")["text"] == "The game has already started."
    assert again_hub.room(made["code"]).selected[0] == [card]
    assert after["hand"] == before["hand"] and after["selected"] == [card]
    assert after["room"]["seats"][0]["name"] == "Ann"
    with again.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as stranger:
        stranger.send_json({"type": "hello", "secret": "guessed", "name": "Eve"})
        assert "has started" in until(stranger, "error")["text"]


def test_two_tabs_of_one_seat_count_as_one_connection(client_for):
    client, hub = client_for()
    made = create(client)
    url = f"{WS}/rooms/ws/{made['code']}"
    with client.websocket_connect(url) as first:
        hello(first, made["secret"])
        with client.websocket_connect(url) as second:
            assert hello(second, made["secret"])["seat"] == 0
        until(first, "state")
        assert hub.room(made["code"]).seats[0].connected  # the first tab is still open


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x" * (MAX_MESSAGE + 1), f"at most {MAX_MESSAGE} bytes"),
        ("{not json", "must be a JSON object"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type": "teleport"}', "Unknown message type 'teleport'"),
        ('{"type": "intent", "view": "p", "messages": "play QS"}', "'messages' must be a list"),
        ('{"type": "intent", "view": "p", "messages": [{"type": "play", "card": "ZZ", "seq": 1}]}', "ZZ"),
        ('{"type": "bot_seat", "seat": 9}', "no seat 9"),
    ],
)
def test_a_bad_message_gets_one_clear_error_and_changes_nothing(client_for, text, words):
    client, hub = client_for()
    made = create(client)
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        hello(ann, made["secret"])
        ann.send_json({"type": "start"})
        room = hub.room(made["code"])

        # The bots have passed and the page has heard of it, so the room is saved as it stands.
        def quiet(m):
            return room.game is not None and room.hand.seats_to_pass == (0,) and m["version"] == room.version

        until(ann, "state", quiet)
        record = json.dumps(hub.store.load(made["code"]))
        ann.send_text(text)
        error = until(ann, "error")
        assert words in error["text"] and len(error["text"]) < 300
        kept = hub.store.load(made["code"])
        assert (json.loads(record)["log"], json.loads(record)["selected"]) == (kept["log"], kept["selected"])
        unmark = {"type": "select", "cards": [], "seq": 99}
        ann.send_json({"type": "intent", "view": "p", "messages": [unmark]})
        until(ann, "state")  # the page still works afterwards


def test_too_many_messages_get_one_error_and_are_not_applied(client_for):
    client, hub = client_for(clock=lambda: 1000.0)  # time stands still: nothing refills the bucket
    made = create(client)
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        hello(ann, made["secret"])
        ann.send_json({"type": "start"})
        view = until(ann, "state", lambda m: m["view"].get("phase") == "passing")["view"]
        card = view["hand"][0]["code"]
        for number in range(1, 3 * RATE):
            message = {"type": "toggle", "card": card, "seq": number}
            ann.send_json({"type": "intent", "view": "p", "messages": [message]})
        error = until(ann, "error")
        assert f"at most {RATE} a second" in error["text"]
    seen = hub.room(made["code"]).seen[0]["p"]
    assert seen == RATE - 1  # the burst (the start took one) was applied, the rest refused


def test_another_origin_or_host_is_refused(client_for):
    client, _ = client_for()
    made = create(client)
    foreign = client.post("/rooms/api/rooms", json=SETTINGS, headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert client.get("/rooms/", headers={"host": "evil.example"}).status_code == 403
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"{WS}/rooms/ws/{made['code']}", headers={"origin": "http://evil.example"}
        ) as ws,
    ):
        ws.receive_json()


def test_bad_settings_are_refused_in_one_line(client_for):
    client, _ = client_for()
    answer = client.post("/rooms/api/rooms", json={**SETTINGS, "timer": 7, "name": "Ann"})
    assert answer.status_code == 400 and "timer: 7 is not one of 0, 15, 30, 60" in answer.json()["text"]
    answer = client.post("/rooms/api/rooms", content=b"{", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "must be JSON" in answer.json()["text"]


def test_an_idle_room_expires(client_for, tmp_path):
    client, hub = client_for(FileStore(tmp_path), idle_expiry=0.2)
    made = create(client)
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ws:
        ws.send_json({"type": "hello", "secret": None, "name": "Bob"})
        until(ws, "welcome")
    for _ in range(200):
        if hub.room(made["code"]) is None:
            break
        threading.Event().wait(0.05)
    assert hub.room(made["code"]) is None and hub.store.load(made["code"]) is None
    assert client.get(f"/rooms/r/{made['code']}").status_code == 404


def test_the_host_hands_a_gone_players_seat_to_a_bot_and_the_bot_plays_it(client_for):
    client, hub = client_for()
    made = create(client)
    url = f"{WS}/rooms/ws/{made['code']}"
    with client.websocket_connect(url) as ann:
        hello(ann, made["secret"])
        with client.websocket_connect(url) as bob:
            hello(bob, None, "Bob")
            ann.send_json({"type": "start"})
            until(bob, "state", lambda m: m["view"].get("phase") == "passing")
            # Bob's page closes, and the host hears of it before the test client's exit cancels
            # the server's side of Bob's socket (its leaving, cancelled, would never be heard).
            bob.close()
            until(ann, "state", lambda m: m["view"]["room"]["seats"][1]["connected"] is False)
        ann.send_json({"type": "bot_seat", "seat": 1})
        view = until(ann, "state", lambda m: m["view"]["room"]["seats"][1]["bot_playing"])["view"]
        assert view["room"]["notice"] == "The host handed Bob's seat to a bot until Bob comes back."
        room = hub.room(made["code"])
        until(ann, "state", lambda m: room.hand.seats_to_pass == (0,))  # Bob's pass made by the bot
        assert [entry["by"] for entry in room.log if entry.get("seat") == 1 and entry["op"] == "act"] == [
            "away"
        ]


def test_a_server_shared_on_the_network_gives_its_network_address_in_the_link(client_for):
    client, hub = client_for()
    hub.address = "http://192.168.1.20:2719"  # `host --host 0.0.0.0` sets it; the host's page is on loopback
    made = create(client)
    assert made["link"] == f"http://192.168.1.20:2719/rooms/r/{made['code']}"
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        assert hello(ann, made["secret"])["link"] == made["link"]


def test_a_bot_that_fails_once_does_not_stop_the_room(client_for):
    client, hub = client_for()
    made = create(client)
    real = hub._bot
    failed = []

    def flaky(code, seat, room):
        bot = real(code, seat, room)
        if failed:
            return bot
        failed.append(seat)

        class Broken:
            def choose_pass(self, view):
                raise RuntimeError("a bug in a bot")

        return Broken()

    hub._bot = flaky
    with client.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        hello(ann, made["secret"])
        ann.send_json({"type": "start"})
        room = hub.room(made["code"])
        until(ann, "state", lambda m: room.game is not None and room.hand.seats_to_pass == (0,))
    assert len(failed) == 1  # it failed, was logged, and the bots passed all the same


def test_an_unreadable_room_file_is_left_alone_and_the_others_play_on(client_for, tmp_path, caplog):
    client, _ = client_for(FileStore(tmp_path))
    made = create(client)
    damaged = tmp_path / "Damaged-room-code-1234.json"
    damaged.write_text('{"format": "hearts-trainer/room", "log": [{"op": "act", "payload": "Q♠ for Ann')
    again, hub = client_for(FileStore(tmp_path))
    with again.websocket_connect(f"{WS}/rooms/ws/{made['code']}") as ann:
        assert hello(ann, made["secret"])["seat"] == 0
    assert hub.room("Damaged-room-code-1234") is None
    assert damaged.read_text().endswith("Q♠ for Ann")  # kept as it was
    assert "Q♠" not in caplog.text and "cannot be restored (JSONDecodeError)" in caplog.text
