"""Playing a room in tests: the message a page sends for an engine action, and a seat's first
legal decision (so whole hands are played without guessing)."""

from __future__ import annotations

import asyncio
import concurrent.futures

from engine import MoonAction, PassAction, PlayAction
from trainer.rooms.room import Room


def message_for(action) -> dict:
    """The table intent (as table.js sends it) that makes ``action``."""
    if isinstance(action, PassAction):
        return {"type": "pass", "cards": [card.code for card in action.cards]}
    if isinstance(action, PlayAction):
        return {"type": "play", "card": action.card.code}
    assert isinstance(action, MoonAction)
    return {"type": "moon", "choice": action.choice.value}


def first_legal(room: Room, seat: int):
    return room.hand.legal_actions(seat)[0]


def drive(room: Room, now: float, bots_only: bool = False) -> float:
    """Make every decision the room waits for (humans: their first legal one; bots: theirs, as
    the hub would) until the hand is over; returns the clock after it."""
    from engine.bots import bot_action, make_bot

    bots = {seat: make_bot("easy", seat) for seat in range(len(room.seats))}
    while room.status == "playing" and not room.hand.is_over:
        now += 1.0
        moved = False
        for seat, reason in room.due(now):
            moved |= bool(room.bot_decides(seat, reason, bot_action(bots[seat], room.game.view(seat)), now))
        if not bots_only:
            for seat in room.awaiting():
                if not room.played_by_bot(seat):
                    room.act(seat, message_for(first_legal(room, seat)), now)
                    moved = True
        assert moved or bots_only, "nothing moved the room on"
    return now


def is_hand_score(cells: list) -> bool:
    """A standard hand's score row: its 26 points shared, or a moon (26 to each of the others)."""
    points = sorted(int(cell) for cell in cells)
    return sum(points) == 26 or points == [0] + [26] * (len(points) - 1)


def run_apart(coroutine):
    """``asyncio.run`` in a thread of its own: a test worker that has run a browser test keeps
    Playwright's event loop running in its main thread, where ``asyncio.run`` is refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
