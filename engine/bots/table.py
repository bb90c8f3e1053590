"""Let bots act at a hand: each is shown its own seat's view and nothing more."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping

from ..game import Game
from ..hand import Action, ActionRecord, HandState, MoonAction, PassAction, Phase, PlayAction
from ..view import PlayerView
from .base import Bot, Steps, finish

__all__ = ["bot_action", "bot_action_steps", "bot_acts", "bot_turn", "play_hand_with_bots", "recall_game"]


def bot_action(bot: Bot, view: PlayerView) -> Action:
    """``bot``'s decision for ``view``'s seat as an action: its pass, its card or its moon
    choice, whichever the hand waits for (its ``choose_*`` method, in one part)."""
    seat = view.seat
    if view.phase is Phase.PASSING:
        return PassAction(seat, bot.choose_pass(view))
    if view.phase is Phase.MOON_CHOICE:
        return MoonAction(seat, bot.choose_moon(view))
    return PlayAction(seat, bot.choose_play(view))


def bot_action_steps(bot: Bot, view: PlayerView) -> Generator[None, None, Action]:
    """``bot_action`` in parts: a bot with ``pass_steps`` or ``play_steps`` (``Steps``) yields
    between its parts."""
    seat = view.seat
    if view.phase is Phase.PASSING:
        return PassAction(seat, (yield from _decision(bot, "pass", view)))
    if view.phase is Phase.MOON_CHOICE:
        return MoonAction(seat, bot.choose_moon(view))
    return PlayAction(seat, (yield from _decision(bot, "play", view)))


def bot_acts(
    state: HandState, seat: int, bot: Bot, view_of: Callable[[int], PlayerView] | None = None
) -> ActionRecord:
    """``bot`` makes ``seat``'s next decision (its pass, its card or its moon choice)."""
    return finish(bot_turn(state, seat, bot, view_of))


def bot_turn(
    state: HandState, seat: int, bot: Bot, view_of: Callable[[int], PlayerView] | None = None
) -> Generator[None, None, ActionRecord]:
    """``bot_acts`` in parts: a bot with ``pass_steps`` or ``play_steps`` (``Steps``) yields
    between its parts; the decision is made on the hand at the end. The hand must not change
    meanwhile (the caller drops a turn whose hand moved on)."""
    view = view_of(seat) if view_of else state.view(seat)
    return state.apply((yield from bot_action_steps(bot, view)))


def _decision(bot: Bot, kind: str, view: PlayerView) -> Steps:
    steps = getattr(bot, f"{kind}_steps", None)
    if steps is None:
        return getattr(bot, f"choose_{kind}")(view)
    return (yield from steps(view))


def play_hand_with_bots(state: HandState, bots: Mapping[int, Bot]) -> None:
    """Play ``state`` to its end with a bot in every seat."""
    while (seat := state.seat_to_act) is not None:
        bot_acts(state, seat, bots[seat])


def recall_game(bot: Bot, game: Game, seat: int) -> None:
    """A bot that keeps what it has seen (an ``observe(view)`` method, as the master table's
    reader) and joins a game part-way (a table resumed after a reload) is shown the game's hands
    so far from its own seat, as it would have seen them; other bots are left alone."""
    observe = getattr(bot, "observe", None)
    if observe is None:
        return
    first = len(game.earlier_scores)
    for index, hand in enumerate(game.hands):
        observe(hand.view(seat, hand_index=first + index))
