"""Hands and games as versioned JSON, loaded back exactly by replaying them through the engine.

A hand record::

    {"format": "hearts-trainer/hand", "version": 1,
     "rules": {...every option...},
     "deal": {"seed": 42} or {"hands": [["2C", "5D", ...], ...]},
     "pass_direction": "left",
     "actions": [{"pass": ["QS", "AH", "KH"], "seat": 0}, ..., {"play": "2C"}, ...,
                 {"moon": "subtract_from_shooter"}]}

A game record holds the rules, the game's seed and its hand records in order. Every field is
checked on load; the first problem is reported with its path (``hands[2].actions[17].play``)
and nothing is returned.
"""

from __future__ import annotations

import json
from typing import Any

from .cards import CardParseError, parse_card
from .deal import deal_from_seed, hand_seed
from .excerpt import clip, excerpt
from .game import Game
from .hand import DealError, HandState, MoonAction, PassAction, PlayAction, _to_mask
from .reasons import IllegalAction
from .rules import PassDirection, Rules, RulesError

__all__ = [
    "RecordError",
    "dumps",
    "game_from_record",
    "game_to_record",
    "hand_from_record",
    "hand_to_record",
    "loads",
]

HAND_FORMAT = "hearts-trainer/hand"
GAME_FORMAT = "hearts-trainer/game"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be loaded; the message starts with the field's path."""


def hand_to_record(state: HandState) -> dict[str, Any]:
    if state.seed is not None and deal_from_seed(state.seed, state.players) == state.dealt:
        deal: dict[str, Any] = {"seed": state.seed}
    else:
        deal = {"hands": [state.dealt_hand(seat).codes for seat in range(state.players)]}
    actions: list[dict[str, Any]] = []
    for action in state.history:
        if isinstance(action, PassAction):
            actions.append({"seat": action.seat, "pass": action.cards.codes})
        elif isinstance(action, PlayAction):
            actions.append({"play": action.card.code})
        elif isinstance(action, MoonAction):
            actions.append({"moon": action.choice.value})
    return {
        "format": HAND_FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "deal": deal,
        "pass_direction": state.pass_direction.value,
        "actions": actions,
    }


def game_to_record(game: Game) -> dict[str, Any]:
    """A game dealt from its seed from the first hand; a game set up part-way (``Game.is_plain``
    false) has no such record: keep its hands one by one (``hand_to_record``)."""
    if not game.is_plain:
        raise ValueError(
            "a game set up part-way or with a hand dealt again is kept hand by hand, not as a game record"
        )
    return {
        "format": GAME_FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "hands": [{k: v for k, v in hand_to_record(hand).items() if k != "rules"} for hand in game.hands],
    }


def _field(data: dict[str, Any], name: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise RecordError(f"{where}{name}: missing")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}{name}: expected {expected}, got {excerpt(value)}")
    return value


def _check_header(data: Any, expected: str, where: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"{where or 'record'}: expected a JSON object, got {type(data).__name__}")
    fmt = _field(data, "format", where, str)
    if fmt != expected:
        raise RecordError(f"{where}format: expected {expected!r}, got {excerpt(fmt)}")
    version = _field(data, "version", where, int)
    if version != VERSION:
        raise RecordError(f"{where}version: this program reads version {VERSION}, not {excerpt(version)}")


def _cards(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list of cards, got {excerpt(value)}")
    cards = []
    for i, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardParseError as error:
            raise RecordError(f"{where}[{i}]: {error}") from None
    return cards


def _rules(data: Any, where: str) -> Rules:
    try:
        return Rules.from_dict(data, where=where)
    except RulesError as error:
        raise RecordError(str(error)) from None


def _hand(
    data: dict[str, Any],
    rules: Rules,
    where: str,
    expected_seed: int | None = None,
    expected_direction: PassDirection | None = None,
    hand_number: int = 0,
) -> HandState:
    """A hand from its record; in a game, its seed and pass direction must be the game's."""
    deal = _field(data, "deal", where, dict)
    direction_text = _field(data, "pass_direction", where, str)
    try:
        direction = PassDirection(direction_text)
        direction.offset(rules.players)
    except (ValueError, RulesError):
        allowed = ", ".join(d.value for d in PassDirection)
        raise RecordError(
            f"{where}pass_direction: {excerpt(direction_text)} is not one of {allowed} here"
        ) from None
    if expected_direction is not None and direction is not expected_direction:
        raise RecordError(
            f"{where}pass_direction: hand {hand_number + 1} passes {expected_direction.value}, "
            f"not {direction.value}"
        )
    try:
        if "seed" in deal:
            seed = _field(deal, "seed", f"{where}deal.", int)
            if expected_seed is not None and seed != expected_seed:
                raise RecordError(
                    f"{where}deal.seed: the game's seed gives {expected_seed}, not {excerpt(seed)}"
                )
            state = HandState(rules, deal_from_seed(seed, rules.players), direction, seed=seed)
        elif "hands" in deal:
            hands = _field(deal, "hands", f"{where}deal.", list)
            masks = [
                _to_mask(_cards(hand, f"{where}deal.hands[{i}]"), f"{where}deal.hands[{i}]")
                for i, hand in enumerate(hands)
            ]
            if expected_seed is not None and tuple(masks) != deal_from_seed(expected_seed, rules.players):
                raise RecordError(f"{where}deal: these hands are not the deal the game's seed gives")
            state = HandState(rules, masks, direction, seed=expected_seed)
        else:
            raise RecordError(f"{where}deal: needs a 'seed' or 'hands'")
    except DealError as error:
        message = str(error)
        raise RecordError(
            message if message.startswith(where + "deal") else f"{where}deal: {message}"
        ) from None
    actions = _field(data, "actions", where, list)
    for i, action in enumerate(actions):
        at = f"{where}actions[{i}]"
        if not isinstance(action, dict):
            raise RecordError(f"{at}: expected an object, got {excerpt(action)}")
        try:
            if "pass" in action:
                seat = _field(action, "seat", f"{at}.", int)
                if not 0 <= seat < rules.players:
                    raise RecordError(
                        f"{at}.seat: there is no seat {excerpt(seat)} at a table of {rules.players}"
                    )
                state.pass_cards(seat, _cards(action["pass"], f"{at}.pass"))
            elif "play" in action:
                card = action["play"]
                try:
                    card = parse_card(card)
                except CardParseError as error:
                    raise RecordError(f"{at}.play: {error}") from None
                state.play(card)
            elif "moon" in action:
                state.choose_moon(_field(action, "moon", f"{at}.", str))
            else:
                raise RecordError(f"{at}: expected 'pass', 'play' or 'moon'")
        except IllegalAction as error:
            kind = next(k for k in ("pass", "play", "moon") if k in action)
            raise RecordError(f"{at}.{kind}: not allowed here: {error}") from None
        except ValueError as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(f"{at}: {clip(str(error))}") from None
    return state


def hand_from_record(data: Any) -> HandState:
    _check_header(data, HAND_FORMAT, "")
    return _hand(data, _rules(_field(data, "rules", "", dict), "rules"), "")


def game_from_record(data: Any) -> Game:
    _check_header(data, GAME_FORMAT, "")
    rules = _rules(_field(data, "rules", "", dict), "rules")
    seed = _field(data, "seed", "", int)
    hands = _field(data, "hands", "", list)
    if not hands:
        raise RecordError("hands: a game has at least one hand")
    game = Game(rules, seed)
    game.hands = []
    for index, hand_data in enumerate(hands):
        where = f"hands[{index}]."
        if not isinstance(hand_data, dict):
            raise RecordError(f"hands[{index}]: expected an object")
        if game.hands and not game.hand.is_over:
            raise RecordError(f"hands[{index}]: hand {index} is not finished, so no hand can follow it")
        if game.hands and game.is_over:
            raise RecordError(f"hands[{index}]: the game was already over")
        state = _hand(
            hand_data, rules, where, hand_seed(seed, index), rules.pass_direction(index), hand_number=index
        )
        game.hands.append(state)
    return game


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1)


def loads(text: str) -> dict[str, Any]:
    if not isinstance(text, str | bytes | bytearray):
        raise RecordError(f"record: expected JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError("record: not JSON: nested too deeply") from None
    except ValueError as error:  # bad syntax, or a number of more digits than Python converts
        raise RecordError(f"record: not JSON: {clip(str(error), 120)}") from None
