"""What one seat of a room may see: the table as `trainer/table/table.js` draws it (the lessons'
own ``snapshot``), with people's names, plus the room around it (seats, turn and time left, the
last timer or takeover, the score sheet). Never another hand, the deal's seed or a bot's guesses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import parse_cards, to_card

from ..seats import YOU
from ..table.snapshot import announce, snapshot
from .room import Notice, Room, rules_title

__all__ = ["seat_view"]

VERBS = {"pass": "passed three cards", "play": "played", "moon": "chose the moon scoring"}


@dataclass
class _RoomTable:
    """The few things ``snapshot`` reads from a table, taken from a room for one seat."""

    room: Room
    seat: int

    @property
    def game(self):
        return self.room.game

    @property
    def hand(self):
        return self.room.game.hand

    @property
    def rules(self):
        return self.room.rules

    @property
    def hand_index(self) -> int:
        return self.room.game.hand_index

    @property
    def game_key(self) -> str:
        return self.room.code

    @property
    def score_rows(self):
        return self.room.game.score_table

    @property
    def totals(self):
        return self.room.game.totals

    @property
    def winners(self):
        return self.room.game.winners

    @property
    def game_hands(self):
        return [hand for hand in self.room.game.hands if hand.is_over]

    @property
    def bot_to_act(self) -> int | None:
        return next((s for s in self.room.awaiting() if self.room.played_by_bot(s)), None)

    hand_in_progress = False  # a room's hand is never thrown away: New hand asks for the next
    totals_carried = False  # a room's score sheet has every hand of its game
    can_take_back = False  # a room's moves are final
    review_href = None
    hint: tuple[str, ...] = ()
    hint_text = ""
    practice = False

    @property
    def selected(self) -> tuple[str, ...]:
        return tuple(self.room.selected.get(self.seat, ()))


def _names(room: Room, seat: int) -> list[str]:
    return [YOU if k == seat else place.name for k, place in enumerate(room.seats)]


def _notices(room: Room, seat: int) -> str:
    return " ".join(_notice(notice, room, seat) for notice in room.notices)


def _notice(notice: Notice, room: Room, seat: int) -> str:
    name = room.seats[notice.seat].name
    if notice.kind == "away":
        return f"{name} is away: a bot plays for {name} until they come back."
    if notice.kind == "handed":
        return f"The host handed {name}'s seat to a bot until {name} comes back."
    if notice.kind == "back":
        return f"{name} is back and plays their own seat again."
    mine = notice.seat == seat
    who = "you" if mine else name
    if notice.action == "play":
        return f"Time ran out: a bot played the {to_card(notice.cards[0]).name} for {who}."
    if notice.action == "pass" and mine:
        names = [f"the {card.name}" for card in parse_cards(notice.cards)]
        cards = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return f"Time ran out: a bot passed {cards} for you."
    return f"Time ran out: a bot {VERBS[notice.action]} for {who}."


def _spoken(room: Room, seat: int) -> str:
    """The last card played (and the trick it completed), for a screen reader, as the lessons'
    table says it."""
    entry = room.log[-1] if room.log else None
    if entry is None or entry["op"] != "act" or entry["kind"] != "play" or room.game is None:
        return ""
    names = _names(room, seat)
    card = to_card(entry["payload"])
    said = [announce({"type": "play", "seat": entry["seat"], "name": card.name}, names)]
    hand = room.game.hand
    if not hand.current_trick.cards and hand.tricks:
        said.append(announce({"type": "trick", "winner": hand.tricks[-1].winner}, names))
    return " ".join(said)


def _room_part(room: Room, seat: int, now: float) -> dict:
    awaiting = room.awaiting()
    seconds_left = None
    for waiting in awaiting:
        if (deadline := room.deadline(waiting)) is not None:
            seconds_left = max(0, math.ceil(deadline - now))
    next_hand_in = None
    if room.hand_ended is not None:
        next_hand_in = max(0, math.ceil(room.hand_ended + room.config.hand_pause - now))
    game = room.game
    return {
        "code": room.code,
        "status": room.status,
        "you": seat,
        "preset": room.config.preset,
        "rules": rules_title(room.config.preset),
        "target": room.config.target,
        "timer": room.config.timer,
        "bot_level": room.config.bot_level,
        "seats": [
            {
                "seat": k,
                "name": place.name,
                "kind": place.kind,
                "connected": place.connected if place.kind == "human" else None,
                "bot_playing": place.bot_playing,
                "is_you": k == seat,
                "is_host": k == 0,
            }
            for k, place in enumerate(room.seats)
        ],
        "turn": awaiting,
        "phase": None if game is None else game.hand.phase.value,
        "seconds_left": seconds_left,
        "notice": _notices(room, seat),
        "spoken": _spoken(room, seat),
        "ready": sorted(room.ready),
        "next_hand_in": next_hand_in,
        "score_sheet": None
        if game is None
        else {
            "names": [place.name for place in room.seats],
            "rows": [list(row) for row in game.score_table],
            "totals": list(game.totals),
            "winners": list(game.winners),
        },
    }


def seat_view(room: Room, seat: int, now: float) -> dict:
    """Exactly what ``seat`` may see now. In the lobby there is no table yet: only ``room``."""
    part = _room_part(room, seat, now)
    if room.game is None:
        return {"room": part}
    levels = [room.config.bot_level if room.played_by_bot(k) else "" for k in range(len(room.seats))]
    table = snapshot(_RoomTable(room, seat), levels=levels, names=_names(room, seat))
    table["hints"] = False  # no hint button: at a room's table each plays on their own
    table["deal_mid_hand"] = False  # a room's hand is played to its end (Room refuses it anyway)
    if room.status == "over":
        table["deals"] = False  # no New hand: the room's game is over (a new room is the next game)
    table["room"] = part
    return table
