"""A puzzle's answers and options checked against its position.

Each answer, included pass and stored option must be a play or a pass the solver could make in
the position, and the stored evaluation must value every one the learner could choose: the
coach grades a learner's choice by looking it up there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from engine import Card, CardParseError, CardSet, HandState, parse_cards
from engine.excerpt import excerpt

from .errors import PuzzleError

__all__ = ["Choices", "check_options", "read_choice"]

Fail = Callable[[str, str], PuzzleError]


def read_choice(fail: Fail, state: HandState, seat: int, kind: str, text: Any, where: str) -> Card | CardSet:
    """The card (a play puzzle) or cards (a pass puzzle) ``text`` names, if ``seat`` may
    play or pass them in ``state``; else ``fail(where, why)`` is raised."""
    if not isinstance(text, str):
        raise fail(where, f"expected cards as text such as 'QS 10H 2C', got {excerpt(text)}")
    try:
        cards = parse_cards(text)
    except CardParseError as error:
        raise fail(where, str(error)) from None
    wanted = "one card" if kind == "play" else f"{state.rules.pass_count} cards"
    if not cards:
        raise fail(where, f"empty: a {kind} answer is {wanted}")
    for index, card in enumerate(cards):
        if card in cards[:index]:
            raise fail(where, f"{card} is named twice in {excerpt(text)}")
    if kind == "play":
        if len(cards) != 1:
            raise fail(where, f"{excerpt(text)} names {len(cards)} cards: a play is one card")
        if refusal := state.why_not_play(cards[0], seat):
            raise fail(where, f"{cards[0]} cannot be played here by seat {seat}: {refusal}")
        return cards[0]
    if len(cards) != state.rules.pass_count:
        raise fail(where, f"{excerpt(text)} names {len(cards)} cards: these rules pass {wanted}")
    if refusal := state.why_not_pass(seat, cards):
        raise fail(where, f"{excerpt(text)} cannot be passed here by seat {seat}: {refusal}")
    return CardSet(cards)


class Choices:
    """The choices open to ``seat``, listed once for a whole file: a pass puzzle names hundreds
    of passes, and each is read as ``read_choice`` reads it, without parsing its cards and asking
    the engine again when its text is a pass open to the seat written as the writer writes it
    (card codes in hand order, one space apart); any other text is read by ``read_choice``."""

    def __init__(self, fail: Fail, state: HandState, seat: int, kind: str) -> None:
        self.fail, self.state, self.seat, self.kind = fail, state, seat, kind
        self.possible = _possible(state, seat, kind)
        self.by_text: dict[str, CardSet] = {}
        # Whether this seat may pass at all here (a hold hand, passing over...) is the same for
        # every pass; the cards are then all that can be wrong, and every pass below is valid.
        if kind == "pass" and self.possible and state.why_not_pass(seat, self.possible[0]) is None:
            self.by_text = {" ".join([card.code for card in option]): option for option in self.possible}

    def read(self, text: Any, where: str) -> Card | CardSet:
        """``read_choice``'s answer."""
        found = self.by_text.get(text) if type(text) is str else None
        if found is not None:
            return found
        return read_choice(self.fail, self.state, self.seat, self.kind, text, where)

    def check(self, options: Sequence[Card | CardSet], where: str) -> None:
        check_options(self.fail, self.state, self.seat, self.kind, options, where, self.possible)


def check_options(
    fail: Fail,
    state: HandState,
    seat: int,
    kind: str,
    options: Sequence[Card | CardSet],
    where: str,
    possible: Sequence[Card | CardSet] | None = None,
) -> None:
    """Every choice open to ``seat`` (``possible``, when already listed) is valued exactly once
    among ``options`` (each already read with ``read_choice``)."""
    if not options:
        raise fail(where, "empty: the stored evaluation must value every option the learner could choose")
    first_row: dict[Card | CardSet, int] = {}
    for index, option in enumerate(options):
        if option in first_row:
            also = f"{where}[{first_row[option]}]"
            raise fail(f"{where}[{index}]", f"{option} is valued twice (also in {also})")
        first_row[option] = index
    if possible is None:
        possible = _possible(state, seat, kind)
    missing = [option for option in possible if option not in first_row]
    if missing:
        shown = ", ".join(str(option) for option in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise fail(where, f"not valued, so the coach could not grade them: {shown}{more}")


def _possible(state: HandState, seat: int, kind: str) -> list[Card | CardSet]:
    if kind == "play":
        return list(state.legal_cards(seat))
    hand = list(state.hand(seat))
    return [
        CardSet.from_mask(sum(1 << card for card in combo))
        for combo in itertools.combinations(hand, state.rules.pass_count)
    ]
