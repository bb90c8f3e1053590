"""Each player of a room receives only its own seat's view: never another hand, never the cards it
will receive before the pass is over, never the deal's seed or another seat's secret.

The checker (``tests/rooms_leaks.py``) is tested first on the table's own snapshots and on
deliberate leaks; then whole games are played over WebSockets at 4 and 5 players, every message
each scripted client received is recorded, and the room's own record says what each seat held.
"""

from __future__ import annotations

import copy

import pytest

from engine import PRESETS
from tests.rooms_leaks import cards_in, leaks
from tests.table_moves import next_move
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
