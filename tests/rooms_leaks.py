"""What a room's message may show a seat, and what it showed beyond that (tests' helper).

A seat may see, in hand ``h``: the cards it was dealt, the cards it received once every seat
has passed, and the cards played so far. A message's moment is the one its own view draws
(hand number, phase, tricks done, the trick on the table), and the plays it shows must be the
game's own first plays of that hand: so a message cannot claim a later moment to excuse a card.
Every text in the message (keys and values, anywhere) is read for cards in any notation: a code
standing alone ("QS"), a symbol ("Q♠") or a name ("queen of spades").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence

from engine import HandState, PlayAction, parse_card
from engine.cards import Card

__all__ = ["Moment", "cards_in", "leaks"]

_RANK = r"(?:10|[2-9TJQKA])"
_CODE = re.compile(rf"{_RANK}[CDSH]")
_SYMBOL = re.compile(rf"(?<![0-9A-Za-z]){_RANK}[♣♦♠♥♧♢♤♡]")
_RANK_OF = dict(
    two="2", three="3", four="4", five="5", six="6", seven="7", eight="8",
    nine="9", ten="10", jack="J", queen="Q", king="K", ace="A",
)  # fmt: skip
_NAME = re.compile(rf"\b({'|'.join(_RANK_OF)}) of (clubs|diamonds|spades|hearts)\b", re.IGNORECASE)
_SUIT_OF = {"clubs": "C", "diamonds": "D", "spades": "S", "hearts": "H"}


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def cards_in(message: object) -> set[Card]:
    """Every card a message names, in any notation, anywhere in it."""
    found: set[Card] = set()
    for text in _texts(message):
        if _CODE.fullmatch(text.strip()):
            found.add(parse_card(text))
        found.update(parse_card(symbol) for symbol in _SYMBOL.findall(text))
        for rank, suit in _NAME.findall(text):
            found.add(parse_card(_RANK_OF[rank.lower()] + _SUIT_OF[suit.lower()]))
    return found


def _plays(hand: HandState) -> list[tuple[int, Card]]:
    return [(r.action.seat, r.action.card) for r in hand.records if isinstance(r.action, PlayAction)]


class Moment:
    """Where a seat's view stands: ``hand`` (0-based), whether the pass is over, and ``plays``
    (how many cards of the hand have been played), read from a state message's view."""

    def __init__(self, hand: int, passed: bool, plays: int) -> None:
        self.hand, self.passed, self.plays = hand, passed, plays

    @classmethod
    def of(cls, view: dict) -> Moment | None:
        """None for a view with no hand dealt yet (the lobby)."""
        if view.get("hand_number") is None or view.get("phase") is None:
            return None
        plays = view["tricks_done"] * view["players"] + len(view.get("trick") or ())
        return cls(view["hand_number"] - 1, view["phase"] != "passing", plays)

    def key(self) -> tuple[int, int, int]:
        return (self.hand, int(self.passed), self.plays)


def allowed(hands: Sequence[HandState], seat: int, moment: Moment | None) -> set[Card]:
    """The cards ``seat`` may know at ``moment`` of the game whose hands are ``hands``."""
    if moment is None:
        return set()
    hand = hands[moment.hand]
    known = set(hand.dealt_hand(seat))
    if moment.passed and (received := hand.received(seat)) is not None:
        known |= set(received)
    known |= {card for _, card in _plays(hand)[: moment.plays]}
    return known


def _shown_plays(view: dict, hand: HandState, moment: Moment) -> list[str]:
    """Where the plays the view draws differ from the game's at the moment it claims."""
    plays = _plays(hand)
    players = view["players"]
    problems = []
    trick = view.get("trick") or ()
    start = moment.plays - len(trick)
    expected = [(s, c.code) for s, c in plays[start : moment.plays]]
    if [(p["seat"], p["code"]) for p in trick] != expected:
        problems.append(f"its trick {trick} is not plays {start}..{moment.plays} of the hand: {expected}")
    last = view.get("last_trick")
    if last is not None:
        done = view["tricks_done"]
        expected = [(s, c.code) for s, c in plays[(done - 1) * players : done * players]]
        if [(p["seat"], p["code"]) for p in last["plays"]] != expected:
            problems.append(f"its last trick {last['plays']} is not trick {done} of the hand: {expected}")
    return problems


def leaks(
    messages: Iterable[dict | str],
    seat: int,
    hands: Sequence[HandState],
    secrets: Iterable[str] = (),
) -> list[str]:
    """Everything the messages one seat received (in order) show beyond what it may know:
    cards outside its view at each message's moment, plays other than the game's, and any of
    ``secrets`` (the game's seeds, other seats' secrets and their hashes) anywhere in the text.
    Messages other than states take the moment of the last state before them."""
    found: list[str] = []
    moment: Moment | None = None
    secrets = [s for s in secrets if s]
    for number, message in enumerate(messages):
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        decoded = json.loads(message) if isinstance(message, str) else message
        where = f"message {number} ({decoded.get('type')}) to seat {seat}"
        found.extend(f"{where} carries a secret: {secret[:12]}…" for secret in secrets if secret in text)
        if decoded.get("type") == "state":
            claimed = Moment.of(decoded["view"])
            if claimed is not None:
                if moment is not None and claimed.key() < moment.key():
                    found.append(f"{where} goes back in time: {claimed.key()} after {moment.key()}")
                if claimed.hand >= len(hands):
                    found.append(f"{where} shows hand {claimed.hand + 1}, which the game never dealt")
                    continue
                found.extend(
                    f"{where}: {p}" for p in _shown_plays(decoded["view"], hands[claimed.hand], claimed)
                )
            moment = claimed
        extra = cards_in(decoded) - allowed(hands, seat, moment)
        if extra:
            named = " ".join(sorted(card.code for card in extra))
            found.append(f"{where} shows {named}, outside its view")
    return found
