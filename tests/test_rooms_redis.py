"""Rooms in Redis (issue 52, item 8): the store, its update bus and its per-room lease, against a
real redis-server this module starts on a free loopback port (nothing mocked)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
import redis
import websockets

from tests.rooms_helpers import run_apart
from trainer.rooms.redis_store import (
    RedisStore,
    RedisUnavailableError,
    RoomBusyError,
    StaleRoomError,
)
from trainer.rooms.room import Room, RoomConfig
from trainer.rooms.shared import SharedRooms

ROOT = pathlib.Path(__file__).resolve().parents[1]
GRACE = 2  # seconds: short, so a player wrongly taken for gone would get a bot within the game
ALIVE = 3  # seconds a killed server's connections still count (the product's 10 s, shortened)
TARGET = 30  # the servers' short game: two hands at least (no one reaches 30 in one)
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, what: str, limit: float = 30.0):
    """Poll until ``condition()`` is true (a readiness wait, not a speed check)."""
    give_up = time.monotonic() + limit
    while not (result := condition()):
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)
    return result


@contextlib.contextmanager
def redis_server(directory: pathlib.Path):
    """Debian's redis-server on a free loopback port, nothing saved to disk; stopped afterwards."""
    if not pathlib.Path(REDIS_SERVER).exists():
        pytest.fail(
            "redis-server is missing: the Redis rooms tests need Debian's redis-server "
            "(scripts/setup.sh installs it: apt-get update && apt-get install -y redis-server)"
        )
    port = free_port()
    args = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    log = (directory / f"redis-{port}.log").open("w")
    process = subprocess.Popen([*args, "--dir", str(directory)], stdout=log, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)

    def answers() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"redis-server stopped at once: {(directory / log.name).read_text()[-500:]}")
        with contextlib.suppress(redis.ConnectionError):
            return client.ping()
        return False

    try:
        wait_for(answers, f"redis-server on port {port}")
        yield url
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def store(redis_url, request):
    """A store with its own key prefix, so tests never see each other's rooms."""
    opened = RedisStore(redis_url, prefix=f"test:{request.node.name}:")
    yield opened
    opened.close()


def other_process(store: RedisStore) -> RedisStore:
    """A second store on the same Redis and prefix: what another server process sees."""
    return RedisStore(store.url, prefix=store.prefix)


def test_a_saved_room_is_there_for_another_process(store):
    record = {"code": "abc", "log": [{"op": "act", "seat": 1, "kind": "play", "payload": "QS"}]}
    assert store.save("abc", record) == 1
    assert store.save("abc", record) == 2
    store.save("def", {"code": "def"})
    other = other_process(store)
    assert other.load("abc") == record
    assert other.load_revision("abc") == (record, 2)
    assert other.codes() == ["abc", "def"]
    assert other.revision("abc") == 2
    assert other.load("nope") is None and other.load_revision("nope") == (None, 0)
    other.delete("abc")
    assert store.load("abc") is None
    assert store.codes() == ["def"]


def test_a_save_over_a_revision_it_did_not_see_is_refused(store):
    """A process that applied an action to revision 1 while another saved revision 2 cannot save
    over it: the other's action stays."""
    store.save("room", {"log": ["a"]})
    other = other_process(store)
    assert other.save("room", {"log": ["a", "b"]}, expected=1) == 2
    with pytest.raises(StaleRoomError, match=r"it changed meanwhile \(revision 2, expected 1\)"):
        store.save("room", {"log": ["a", "c"]}, expected=1)
    assert store.load_revision("room") == ({"log": ["a", "b"]}, 2)


def test_a_record_that_is_not_json_is_reported_in_one_line(store):
    store.client.hset(store._room_key("bad"), mapping={"record": "{not json", "revision": 1})
    with pytest.raises(ValueError, match=r"room bad in Redis .*: its record is not JSON") as raised:
        store.load("bad")
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 300


def test_an_unreachable_or_wrong_address_is_one_clear_line():
    url = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(RedisUnavailableError, match=f"Redis at {url} cannot be reached") as raised:
        RedisStore(url)
    assert "start redis-server or check --redis" in str(raised.value)
    with pytest.raises(RedisUnavailableError, match=r"'http://example\.org' is not a Redis address"):
        RedisStore("http://example.org")
    hidden = f"redis://ann:s3cret@127.0.0.1:{free_port()}/0"
    with pytest.raises(RedisUnavailableError) as raised:
        RedisStore(hidden)
    assert "s3cret" not in str(raised.value) and "redis://ann:***@127.0.0.1:" in str(raised.value)


def test_the_lease_lets_one_process_at_a_time_apply_actions(store):
    """Two processes each apply 40 actions to one room, every one as load, apply, save under the
    room's lease: none is lost (without the lease, two would load the same version)."""
    store.save("room", {"actions": []})

    def player(name: str) -> None:
        mine = other_process(store)
        for n in range(40):
            with mine.lock("room") as lease:
                record = mine.load("room")
                record["actions"].append(f"{name}{n}")
                mine.save("room", record, lease=lease)
        mine.close()

    threads = [threading.Thread(target=player, args=(name,)) for name in "AB"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    record, revision = store.load_revision("room")
    assert revision == 81
    assert sorted(record["actions"]) == sorted(f"{name}{n}" for name in "AB" for n in range(40))
    assert store.try_lock("room") is not None  # released after the last one


def test_a_lease_held_elsewhere_makes_a_waiter_give_up_clearly(store):
    held = other_process(store).try_lock("room", seconds=60)
    assert held is not None and store.try_lock("room") is None
    busy = "room room is busy in another server process"
    with pytest.raises(RoomBusyError, match=busy), store.lock("room", wait=0.2):
        pass
    held.release()
    with store.lock("room"):
        pass


def test_a_lost_lease_cannot_save_and_a_killed_holder_frees_the_room(store):
    """A process that stops (killed, or stalled past its lease) frees the room by itself; its late
    save is refused, so what the process that took over saved stays."""
    store.save("room", {"actions": ["a"]})
    stalled = store.try_lock("room", seconds=0.1)
    assert stalled is not None
    other = other_process(store)
    taken = wait_for(lambda: other.try_lock("room"), "the stalled lease to expire")
    other.save("room", {"actions": ["a", "b"]}, lease=taken)
    with pytest.raises(StaleRoomError, match="the lease on this room was lost"):
        store.save("room", {"actions": ["a", "c"]}, lease=stalled)
    assert store.load("room") == {"actions": ["a", "b"]}
    assert not stalled.extend()
    stalled.release()  # releasing a lost lease leaves the new holder's alone
    assert store.try_lock("room") is None
    taken.release()


async def _collect(store: RedisStore, count: int, during) -> list[tuple[str, int]]:
    """The first ``count`` updates this store's bus yields while ``during(…)`` runs elsewhere."""
    received: list[tuple[str, int]] = []

    async def listen():
        async for update in store.updates():
            received.append(update)
            if len(received) == count:
                return

    listener = asyncio.create_task(listen())
    channel = store._channel()
    while store.client.pubsub_numsub(channel)[0][1] == 0:  # subscribed before anything is sent
        await asyncio.sleep(0.01)
    await asyncio.to_thread(during)
    await asyncio.wait_for(listener, 30)
    return received


def test_every_save_and_publish_reaches_the_other_processes(store):
    other = other_process(store)

    def changes():
        other.save("r1", {"n": 1})
        other.save("r1", {"n": 2})
        other.publish("r2", 7)
        other.save("r3", {"n": 1})

    received = run_apart(_collect(store, 4, changes))
    assert received == [("r1", 1), ("r1", 2), ("r2", 7), ("r3", 1)]


def test_the_bus_subscribes_again_and_catches_up_after_losing_redis(store, caplog):
    """When Redis drops the subscription, the listener comes back and first reports every kept
    room's current revision, so a change made meanwhile still reaches its players."""
    store.save("kept", {"n": 1})
    other = other_process(store)

    def cut_and_change():
        other.client.client_kill_filter(_type="pubsub")
        other.save("kept", {"n": 2})

    received = run_apart(_collect(store, 1, cut_and_change))
    assert "cut" in caplog.text and "subscribing again" in caplog.text
    assert received == [("kept", 2)]
    # and it goes on listening: a later change arrives
    received = run_apart(_collect(store, 1, lambda: other.save("kept", {"n": 3})))
    assert received == [("kept", 3)]


def test_seats_count_as_connected_while_their_process_runs(store):
    """Pages of a seat open in any running process keep it connected; a process that stops
    saying it runs (killed) stops counting, so the grace period can start for its players."""
    store.save("room", {})
    other = other_process(store)
    store.alive(60)
    other.alive(60)
    store.set_connections("room", 0, 2)
    other.set_connections("room", 1, 1)
    other.set_connections("room", 0, 1)
    assert store.connected_seats("room") == other.connected_seats("room") == {0, 1}
    other.alive(0.05)  # its last word: it stops here
    wait_for(lambda: store.connected_seats("room") == {0}, "the stopped process's pages to stop counting")
    store.set_connections("room", 0, 0)
    assert store.connected_seats("room") == set()
    assert store.client.hgetall(store._presence_key("room")) == {}  # the stopped process's are swept


def test_waiting_for_a_room_in_the_event_loop_lets_other_rooms_go_on(store):
    """``async with store.lock(code)`` waits for another process's lease without blocking the
    server's event loop: other work runs meanwhile, and the room is ours once released."""
    held = other_process(store).try_lock("room", seconds=60)
    order: list[str] = []

    async def main():
        async def waiter():
            async with store.lock("room") as lease:
                order.append("got the room")
                store.save("room", {"n": 1}, lease=lease)

        task = asyncio.create_task(waiter())
        for _ in range(3):
            await asyncio.sleep(0.01)
            order.append("other work")
        held.release()
        await asyncio.wait_for(task, 30)

    run_apart(main())
    assert order == ["other work"] * 3 + ["got the room"]
    assert store.load("room") == {"n": 1} and store.try_lock("room") is not None


# ----- the hub's hook (SharedRooms), one process against another ----------------------------


def test_a_room_changed_elsewhere_is_rebuilt_with_everyone_s_connections(store):
    """Process B loads a room made by A (as the hub does when its page is opened); a change B
    saves reaches A's copy on its next refresh, with the seats connected through either."""
    a, b = SharedRooms(store), SharedRooms(other_process(store))
    room, _ = Room.create(RoomConfig(), "Ann", now=100.0)
    a.save(room.code, room.to_record())
    a.pages(room.code, 0, 1)
    mine = Room.from_record(b.load(room.code))
    mine.resumed(101.0)
    mine = b.refresh(room.code, mine, now=101.0)
    assert mine.seats[0].connected and mine.seats[0].away_since is None
    seat, _ = mine.join("Bob", 102.0)
    b.pages(room.code, seat, 1)
    b.save(room.code, mine.to_record())
    fresh = a.refresh(room.code, room, now=103.0)
    assert [place.name for place in fresh.seats[:2]] == ["Ann", "Bob"]
    assert fresh.seats[1].connected and fresh.version > room.version
    assert a.refresh(room.code, fresh, now=104.0) is fresh  # nothing new: the same room
    b.pages(room.code, seat, 0)
    gone = a.refresh(room.code, fresh, now=105.0)
    assert not gone.seats[1].connected and gone.seats[1].away_since == 105.0


def test_an_idle_room_is_not_deleted_while_another_process_uses_it(store):
    a, b = SharedRooms(store), SharedRooms(other_process(store))
    room, _ = Room.create(RoomConfig(), "Ann", now=100.0)
    a.save(room.code, room.to_record())
    b.load(room.code)
    b.pages(room.code, 0, 1)
    a.delete(room.code)  # A's copy is idle, but Ann's page is open through B
    assert store.load(room.code) is not None
    b.pages(room.code, 0, 0)
    b.delete(room.code)
    assert store.load(room.code) is None and room.code not in store.codes()


# ----- two real server processes sharing rooms through Redis -----------------------------------


class Server:
    """`python -m trainer.rooms.server --redis URL` on a free loopback port, bots without delay,
    a game to ``TARGET`` offered, and a killed process's connections expiring after ``ALIVE``."""

    def __init__(self, redis_url: str, home: pathlib.Path, name: str, grace: float = GRACE):
        self.port, self.redis_url = free_port(), redis_url
        self.log = home / f"server-{name}.log"
        command = [sys.executable, "-m", "trainer.rooms.server", "--port", str(self.port)]
        command += ["--redis", redis_url, "--bot-delay", "0", "--hand-pause", "60", "--grace", str(grace)]
        command += ["--alive-seconds", str(ALIVE), "--short-target", str(TARGET)]
        environment = {**os.environ, "HEARTS_TRAINER_HOME": str(home), "PYTHONPATH": str(ROOT)}
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT
            )
        self.name = name

    def ready(self) -> Server:
        """Wait until it answers (started apart, so that two servers start side by side)."""
        wait_for(self._answers, f"the rooms server {self.name} on port {self.port}", limit=60)
        return self

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the rooms server stopped: {self.log.read_text()[-2000:]}")
        address = f"http://127.0.0.1:{self.port}/rooms/"
        with contextlib.suppress(OSError), urllib.request.urlopen(address, timeout=5) as reply:
            return reply.status == 200
        return False

    def create(self, name: str, **settings) -> dict:
        settings = {"preset": "standard", "target": TARGET, "bot_level": "easy", "timer": 0, **settings}
        body = json.dumps({**settings, "name": name})
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/rooms/api/rooms",
            data=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture
def servers(redis_url, tmp_path):
    """Two server processes on one Redis (emptied first: each test's rooms are its own)."""
    redis.Redis.from_url(redis_url).flushdb()
    started = [Server(redis_url, tmp_path, name) for name in "AB"]
    try:
        yield [server.ready() for server in started]
    finally:
        for server in started:
            server.stop()


class Player:
    """A scripted page: joins a seat, keeps every state it receives, and makes its seat's
    decisions (the first cards it may pass or play) until the game is over."""

    def __init__(self, name: str, code: str, secret: str | None = None):
        self.name, self.code, self.secret = name, code, secret
        self.seat: int | None = None
        self.states: list[dict] = []
        self.errors: list[str] = []
        self.played: list[tuple[int, str]] = []  # (hand number, card) of each play it made
        self.seq = 0
        self.decided: set[tuple] = set()
        self.socket = None
        self.last_sent = 0.0

    async def connect(self, server: Server) -> None:
        self.socket = await websockets.connect(f"ws://127.0.0.1:{server.port}/rooms/ws/{self.code}")
        await self.send({"type": "hello", "secret": self.secret, "name": self.name})
        welcome = await self.receive_until("welcome")
        self.seat, self.secret = welcome["seat"], welcome["secret"]

    async def send(self, message: dict) -> None:
        # No faster than a quick person (the server refuses more than 20 messages a second).
        await asyncio.sleep(max(0.0, self.last_sent + 0.07 - time.monotonic()))
        self.last_sent = time.monotonic()
        await self.socket.send(json.dumps(message))

    async def receive_until(self, kind: str) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), 120))
            if message["type"] == "state":
                self.states.append(message["view"])
            elif message["type"] == "error":
                self.errors.append(message["text"])
            if message["type"] == kind:
                return message

    @property
    def view(self) -> dict:
        return self.states[-1]

    def over(self) -> bool:
        return bool(self.states) and self.view["room"]["status"] == "over"

    async def intent(self, message: dict) -> None:
        self.seq += 1
        await self.send(
            {"type": "intent", "view": f"test-{self.name}", "messages": [{**message, "seq": self.seq}]}
        )

    async def decide(self) -> None:
        """One decision if the newest state asks this seat for one (each position once)."""
        view = self.view
        if "hand" not in view or view["room"]["status"] != "playing":
            return
        where = (
            view["hand_number"],
            view["phase"],
            view["tricks_done"],
            len(view["trick"]),
            view["hand_over"],
        )
        if where in self.decided:
            return
        cards = [card["code"] for card in view["hand"]]
        if view["passing"]:
            await self.intent({"type": "pass", "cards": cards[: view["pass_count"]]})
        elif view["moon_choice"]:
            await self.intent({"type": "moon", "choice": "add_to_others"})
        elif view["my_turn"]:
            card = next(card["code"] for card in view["hand"] if card["legal"])
            self.played.append((view["hand_number"], card))
            await self.intent({"type": "play", "card": card})
        elif view["hand_over"]:
            await self.intent({"type": "new_hand"})
        else:
            return
        self.decided.add(where)

    async def play(self, until=lambda player: False) -> None:
        """Decide and receive until the game is over (or ``until(self)``)."""
        while not self.over() and not until(self):
            if self.states:
                await self.decide()
            await self.receive_until("state")

    def seen_plays(self) -> set[tuple[int, str]]:
        """(hand number, card) of every card this page saw on the table."""
        seen = set()
        for view in self.states:
            if "trick" not in view:
                continue
            shown = [*view["trick"], *((view["last_trick"] or {}).get("plays", []))]
            seen |= {(view["hand_number"], play["code"]) for play in shown}
        return seen


async def _seat_everyone(host: Server, others: list[tuple[str, Server]]) -> tuple[str, list[Player]]:
    """A room made on ``host``'s process by Ann, joined by the others each through their server."""
    made = host.create("Ann")
    players = [Player("Ann", made["code"], made["secret"])]
    await players[0].connect(host)
    for name, server in others:
        player = Player(name, made["code"])
        await player.connect(server)
        players.append(player)
    await players[0].send({"type": "start"})
    return made["code"], players


def test_two_processes_share_a_room_and_every_move_reaches_the_other(servers):
    """Ann and Bob play through process A, Cat through B, a bot in the fourth seat: a whole game
    (to ``TARGET``). Each can only play when its own process shows the others' cards, and every card played
    through one process is seen by the pages of the other."""
    a, b = servers

    async def game():
        code, players = await _seat_everyone(a, [("Bob", a), ("Cat", b)])
        await asyncio.gather(*(player.play() for player in players))
        return code, players

    code, players = run_apart(game())
    ann, bob, cat = players
    assert [player.seat for player in players] == [0, 1, 2]
    for player in players:  # connected through one process or the other, never taken for gone
        for view in player.states:
            if view["room"]["status"] == "playing":
                people = view["room"]["seats"][:3]
                assert all(seat["connected"] and not seat["bot_playing"] for seat in people), view["room"]
    for player in players:
        assert player.over() and player.errors == []
        assert player.view["room"]["seats"][3]["kind"] == "bot"
        assert max(player.view["totals"]) >= TARGET
    assert ann.view["totals"] == bob.view["totals"] == cat.view["totals"]
    assert len({hand for hand, _ in cat.played}) >= 2  # more than one hand was played
    assert set(ann.played) | set(bob.played) <= cat.seen_plays()
    assert set(cat.played) <= ann.seen_plays() and set(cat.played) <= bob.seen_plays()
    record = RedisStore(a.redis_url).load(code)
    plays = [entry for entry in record["log"] if entry["op"] == "act" and entry["kind"] == "play"]
    assert len(plays) == 52 * len({hand for hand, _ in cat.played})  # each card played once a hand


def test_a_process_killed_mid_game_loses_nothing(servers):
    """Mid-trick in the second hand, process A (where the room was made, with Ann and Bob) is
    killed. Ann and Bob reconnect with their seat secrets through B: every card they had played
    is still played, their seats are theirs, and the game goes on to its end."""
    a, b = servers

    async def game():
        code, players = await _seat_everyone(a, [("Bob", a), ("Cat", b)])
        ann, bob, _ = players

        def mid_second_hand(player: Player) -> bool:
            """From the fourth trick's first card of hand 2 on (true from then on, so every page
            stops at the same place: somebody's turn mid-trick)."""
            if not player.states or "trick" not in player.view:
                return False
            view = player.view
            now = (view["hand_number"], view["tricks_done"], len(view["trick"]))
            return now >= (2, 3, 1)

        await asyncio.gather(*(player.play(until=mid_second_hand) for player in players))
        a.process.kill()
        a.process.wait(timeout=30)

        def held(player: Player) -> tuple:
            return [card["code"] for card in player.view["hand"]], player.view["tricks_done"]

        before = {player.name: held(player) for player in (ann, bob)}
        for player in (ann, bob):
            with contextlib.suppress(Exception):
                await player.socket.close()
            await player.connect(b)
            await player.receive_until("state")
        after = {player.name: held(player) for player in (ann, bob)}
        await asyncio.gather(*(player.play() for player in players))
        return code, players, before, after

    code, players, before, after = run_apart(game())
    ann, bob, cat = players
    assert [ann.seat, bob.seat] == [0, 1]
    assert after == before  # nothing they played came back, nothing was played for them
    for player in players:
        assert player.over() and player.errors == []
    assert ann.view["totals"] == bob.view["totals"] == cat.view["totals"]
    record = RedisStore(b.redis_url).load(code)
    logged = {(entry["seat"], entry["payload"]) for entry in record["log"] if entry.get("kind") == "play"}
    for player in players:
        assert {(player.seat, card) for _, card in player.played} <= logged


def test_a_killed_process_s_player_gets_a_bot_after_the_grace_and_the_seat_back(servers):
    """Ann plays through process A, Cat through B, two bots. A is killed and Ann stays away: once
    A's connections stop counting and the grace period has passed, a bot plays Ann's seat (Cat's
    table says so) and the game goes on; Ann comes back through B and plays her seat again."""
    a, b = servers

    async def game():
        code, (ann, cat) = await _seat_everyone(a, [("Cat", b)])
        await asyncio.gather(
            *(
                player.play(until=lambda p: p.states and p.view.get("tricks_done", 0) >= 2)
                for player in (ann, cat)
            )
        )
        a.process.kill()
        a.process.wait(timeout=30)

        def ann_away(player: Player) -> bool:
            return player.view["room"]["seats"][0]["bot_playing"]

        await cat.play(until=ann_away)
        away_at = cat.view["tricks_done"], cat.view["hand_number"]
        await cat.play(
            until=lambda p: (p.view["hand_number"], p.view["tricks_done"]) > (away_at[1], away_at[0] + 1)
        )
        with contextlib.suppress(Exception):
            await ann.socket.close()
        await ann.connect(b)
        await ann.receive_until("state")
        back = ann.view["room"]["seats"][0]
        await asyncio.gather(*(player.play() for player in (ann, cat)))
        return code, ann, cat, back

    code, ann, cat, back = run_apart(game())
    notices = {view["room"]["notice"] for view in cat.states}
    assert "Ann is away: a bot plays for Ann until they come back." in notices
    assert "Ann is back and plays their own seat again." in notices
    assert ann.seat == 0 and back["connected"] and not back["bot_playing"]
    assert ann.over() and cat.over() and ann.errors == cat.errors == []
    assert ann.view["totals"] == cat.view["totals"]
    record = RedisStore(b.redis_url).load(code)
    by = [entry["by"] for entry in record["log"] if entry["op"] == "act" and entry["seat"] == 0]
    assert "away" in by and by[-1] == "player"  # the bot played for her, then she played again
