"""Seat names as the learner sees them: "You", then the others by where they sit from the learner,
going round to the left. The one source of seat names: the table, the coach's sentences, the
lessons, the review and the terminal game all name seats from here, so a seat is called the same
everywhere (a coach sentence says "Far left" where the table shows "Far left").
"""

from __future__ import annotations

from engine.deal import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["AROUND", "YOU", "seat_called", "seat_name", "seat_names", "seat_word", "starts_with_seat"]

YOU = "You"

AROUND: dict[int, tuple[str, ...]] = {
    3: ("Left", "Right"),
    4: ("Left", "Across", "Right"),
    5: ("Left", "Far left", "Far right", "Right"),
    6: ("Left", "Far left", "Across", "Far right", "Right"),
    7: ("Left", "Far left", "Top left", "Top right", "Far right", "Right"),
}
"""The other seats at each table size (``MIN_PLAYERS`` to ``MAX_PLAYERS``), from the learner's left."""


def seat_names(players: int, learner: int = 0) -> tuple[str, ...]:
    """Every seat's name, by seat number, at a table of ``players`` where ``learner`` sits."""
    if players not in AROUND:
        raise ValueError(f"no seat names for a table of {players} (Hearts is {MIN_PLAYERS} to {MAX_PLAYERS})")
    names = [""] * players
    names[learner % players] = YOU
    for offset, name in enumerate(AROUND[players], start=1):
        names[(learner + offset) % players] = name
    return tuple(names)


def seat_name(seat: int, players: int, learner: int = 0) -> str:
    """One seat's name, capitalised (to start a sentence or label a seat)."""
    return seat_names(players, learner)[seat]


def seat_word(seat: int, players: int, learner: int = 0) -> str:
    """One seat's name inside a sentence: "you" for the learner, the others as named."""
    return "you" if seat == learner else seat_name(seat, players, learner)


def seat_called(name: str, players: int, learner: int = 0) -> int | None:
    """The seat ``name`` names at this table ("you" or "You" for the learner), or None."""
    names = seat_names(players, learner)
    for seat, each in enumerate(names):
        if name == each or (each == YOU and name == "you"):
            return seat
    return None


def starts_with_seat(text: str) -> bool:
    """Whether ``text`` starts with another seat's name (it keeps its capital after a colon)."""
    return any(
        text == name or text.startswith(name + " ") or text.startswith(name + "'")
        for names in AROUND.values()
        for name in names
    )
