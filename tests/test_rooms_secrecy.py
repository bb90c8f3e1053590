"""Each player of a room receives only its own seat's view: never another hand, never the cards it
will receive before the pass is over, never the deal's seed or another seat's secret.

The checker (``tests/rooms_leaks.py``) is tested first on the table's own snapshots and on
deliberate leaks; then whole games are played over WebSockets at 4 and 5 players, every message
each scripted client received is recorded, and the room's own record says what each seat held.
The four-player game goes to 50, as people play it; the five-player one to the test server's short
target (30: still two deals at least, its passes and plays over several hands).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import socket
import threading

import pytest
import uvicorn

from benchmarks.room_client import RoomClient, create_room
from engine import PRESETS
from tests.rooms_helpers import run_apart
from tests.rooms_leaks import cards_in, leaks
from tests.table_moves import next_move
from trainer.rooms.hub import Hub
from trainer.rooms.room import Room
from trainer.rooms.server import build_app
from trainer.rooms.store import MemoryStore
from trainer.table import TableSession
from trainer.table.snapshot import snapshot


def played_session(preset: str, seed: int, seat: int) -> tuple[TableSession, list[dict]]:
    """A whole hand at the table, the seat's snapshot after every move."""
    session = TableSession(PRESETS[preset], seed=seed, seat=seat, hints=None)
    views = [{"type": "state", "version": 0, "view": snapshot(session)}]
    while not session.hand.is_over:
        next_move(session)
        views.append({"type": "state", "version": len(views), "view": snapshot(session)})
    return session, views


def test_cards_are_found_in_every_notation_and_only_there() -> None:
    message = {
        "a": "QS",
        "b": ["10H", {"7♣": "the jack of Diamonds"}],
        "c": "Time ran out: a bot played A♥ for Ann.",
        "d": "qs-AS7C_x2H",  # a room code or secret: letters next to letters are no card
    }
    assert {card.code for card in cards_in(message)} == {"QS", "10H", "7C", "JD", "AH"}


@pytest.mark.parametrize("preset", ["standard", "five_players"])
def test_the_tables_own_views_show_nothing_beyond_the_seat(preset: str) -> None:
    session, views = played_session(preset, seed=11, seat=1)
    assert leaks(views, 1, session.game.hands) == []


def test_another_seats_card_is_a_leak() -> None:
    session, views = played_session("standard", seed=12, seat=0)
    hand = session.game.hands[0]
    last = hand.records[-1].action.card  # played last: unseen until the very end
    middle = copy.deepcopy(views[len(views) // 2])
    assert last.code not in {c["code"] for c in middle["view"]["hand"]}
    middle["view"]["seats"][3]["cards"] = [last.code]
    found = leaks([*views[: len(views) // 2], middle], 0, session.game.hands)
    assert found and f"shows {last.code}, outside its view" in found[-1]


def test_a_card_received_before_every_seat_has_passed_is_a_leak() -> None:
    session, views = played_session("standard", seed=13, seat=0)
    received = session.game.hands[0].received(0)
    first = copy.deepcopy(views[0])
    assert first["view"]["phase"] == "passing"
    first["view"]["status"] = f"You will receive the {next(iter(received)).name}."
    assert leaks([first], 0, session.game.hands)
    # once the pass is over the same sentence is the seat's own knowledge
    after = next(v for v in views if v["view"]["phase"] == "playing")
    told = copy.deepcopy(after)
    told["view"]["status"] = first["view"]["status"]
    assert leaks([told], 0, session.game.hands) == []


def test_a_view_that_claims_a_later_moment_is_caught() -> None:
    session, views = played_session("standard", seed=14, seat=2)
    playing = next(v for v in views if v["view"]["phase"] == "playing" and v["view"]["trick"])
    forged = copy.deepcopy(playing)
    seat, other = session.game.hands[0].records[-1].action.seat, session.game.hands[0].records[-1].action.card
    forged["view"]["trick"][0] = {
        "seat": seat,
        "code": other.code,
        "name": other.name,
        "symbol": other.symbol,
    }
    assert any("is not plays" in line for line in leaks([forged], 2, session.game.hands))


def test_the_seed_anywhere_is_a_leak() -> None:
    session, views = played_session("standard", seed=15, seat=0)
    secret = "4611686018427387904"
    told = copy.deepcopy(views[1])
    told["view"]["deal"] = f"game {secret}"
    assert leaks([told], 0, session.game.hands, secrets=[secret])
    assert leaks(views, 0, session.game.hands, secrets=[secret]) == []


# ----- whole games over WebSockets -----

QUICK = {"bot_delay": 0.0, "trick_pause": 0.0, "hand_pause": 600.0}  # people press New hand
SHORT = 30  # a target the test server adds: no one reaches 30 in one hand


@pytest.fixture
def room_server():
    """The rooms app on a loopback port in a thread of its own (its own event loop), as
    `hearts-trainer host` serves it; yields its address and its hub."""
    hub = Hub(MemoryStore(), timing=QUICK, targets=(50, 100, SHORT))
    # log_config None: the server's log lines reach the root logger, where the test reads them
    server = uvicorn.Server(uvicorn.Config(build_app(hub), log_config=None, log_level="info"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the rooms server did not start"
        thread.join(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", hub
    server.should_exit = True
    thread.join(30)
    sock.close()


async def play_game(base: str, preset: str, people: int, target: int) -> tuple[str, list[RoomClient]]:
    """A room to ``target`` with ``people`` scripted players (the rest bots), played to its end;
    every message each player received is kept."""
    made = await asyncio.to_thread(
        create_room, base, preset=preset, target=target, bot_level="easy", timer=0, name="Host"
    )
    clients = [
        RoomClient(base, made["code"], f"Player {k}", made["secret"] if k == 0 else None, seed=k, record=True)
        for k in range(people)
    ]
    games = [asyncio.ensure_future(client.play()) for client in clients]
    for client in clients:
        await asyncio.wait_for(client.welcomed.wait(), 30)
    await clients[0].send({"type": "start"})
    try:
        await asyncio.wait_for(asyncio.gather(*games), 120)
    except TimeoutError:
        stuck = [(c.seat, (c.view or {}).get("status"), c.errors[-3:]) for c in clients]
        raise AssertionError(f"the game did not end within 120 s: {stuck}") from None
    return made["code"], clients


@pytest.mark.parametrize(("preset", "people", "target"), [("standard", 3, 50), ("five_players", 4, SHORT)])
def test_every_message_of_whole_games_shows_only_the_players_own_seat(
    room_server, preset, people, target, caplog
) -> None:
    caplog.set_level(logging.INFO)
    base, hub = room_server
    code, clients = run_apart(play_game(base, preset, people, target))
    record = hub.store.load(code)
    room = Room.from_record(record)
    assert room.status == "over" and len(room.game.hands) >= 2  # passes and plays of several deals
    assert room.rules.target == target and max(room.game.totals) >= target  # played to its end
    assert [seat.kind for seat in room.seats].count("bot") == room.rules.players - people
    hands = room.game.hands
    seeds = [str(record["seed"]), f"{record['seed']:x}", *(str(hand.seed) for hand in hands)]
    hashes = [seat.secret_hash for seat in room.seats if seat.secret_hash]
    for client in clients:
        assert client.errors == [], client.errors  # every decision came from the view alone
        states = [text for text in client.received if '"type":"state"' in text.replace(" ", "")]
        assert len(states) > 20 * len(hands)
        others = [other.secret for other in clients if other is not client]
        assert leaks(client.received, client.seat, hands, secrets=[*seeds, *others, *hashes]) == []
    logged = "\n".join(record.getMessage() for record in caplog.records)
    secrets = [*seeds, *hashes, *(client.secret for client in clients)]
    assert not [secret for secret in secrets if secret in logged]  # nor in the server's log
