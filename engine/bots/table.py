"""Let bots act at a hand: each is shown its own seat's view and nothing more."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping

from ..hand import HandState, Phase
from ..view import PlayerView
from .base import Bot, Steps, finish

__all__ = ["bot_acts", "bot_turn", "play_hand_with_bots"]


def bot_acts(
    state: HandState, seat: int, bot: Bot, view_of: Callable[[int], PlayerView] | None = None
) -> None:
    """``bot`` makes ``seat``'s next decision (its pass, its card or its moon choice)."""
    finish(bot_turn(state, seat, bot, view_of))


def bot_turn(
    state: HandState, seat: int, bot: Bot, view_of: Callable[[int], PlayerView] | None = None
) -> Generator[None, None, None]:
    """``bot_acts`` in parts: a bot with ``pass_steps`` or ``play_steps`` (``Steps``) yields
    between its parts; the decision is made on the hand at the end. The hand must not change
    meanwhile (the caller drops a turn whose hand moved on)."""
    view = view_of(seat) if view_of else state.view(seat)
    if state.phase is Phase.PASSING:
        state.pass_cards(seat, (yield from _decision(bot, "pass", view)))
    elif state.phase is Phase.MOON_CHOICE:
        state.choose_moon(bot.choose_moon(view), seat)
    else:
        state.play((yield from _decision(bot, "play", view)), seat)


def _decision(bot: Bot, kind: str, view: PlayerView) -> Steps:
    steps = getattr(bot, f"{kind}_steps", None)
    if steps is None:
        return getattr(bot, f"choose_{kind}")(view)
    return (yield from steps(view))


def play_hand_with_bots(state: HandState, bots: Mapping[int, Bot]) -> None:
    """Play ``state`` to its end with a bot in every seat."""
    while state.phase is Phase.PASSING:
        bot_acts(state, state.seats_to_pass[0], bots[state.seats_to_pass[0]])
    while not state.is_over:
        bot_acts(state, state.to_move, bots[state.to_move])
