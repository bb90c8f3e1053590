"""Let bots act at a hand: each is shown its own seat's view and nothing more."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..hand import HandState, Phase
from ..view import PlayerView
from .base import Bot

__all__ = ["bot_acts", "play_hand_with_bots"]


def bot_acts(
    state: HandState, seat: int, bot: Bot, view_of: Callable[[int], PlayerView] | None = None
) -> None:
    """``bot`` makes ``seat``'s next decision (its pass, its card or its moon choice)."""
    view = view_of(seat) if view_of else state.view(seat)
    if state.phase is Phase.PASSING:
        state.pass_cards(seat, bot.choose_pass(view))
    elif state.phase is Phase.MOON_CHOICE:
        state.choose_moon(bot.choose_moon(view), seat)
    else:
        state.play(bot.choose_play(view), seat)


def play_hand_with_bots(state: HandState, bots: Mapping[int, Bot]) -> None:
    """Play ``state`` to its end with a bot in every seat."""
    while state.phase is Phase.PASSING:
        bot_acts(state, state.seats_to_pass[0], bots[state.seats_to_pass[0]])
    while not state.is_over:
        bot_acts(state, state.to_move, bots[state.to_move])
