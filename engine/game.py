"""A game: hands one after another until someone reaches the target score."""

from __future__ import annotations

from .deal import deal_from_seed, hand_seed
from .hand import HandState
from .rules import STANDARD, Rules, TieRule
from .view import PlayerView

__all__ = ["Game", "GameOverError", "deal_game_hand", "winners_if_over"]


class GameOverError(RuntimeError):
    """Asked for another hand when the game is over, or before the current hand has ended."""


def deal_game_hand(rules: Rules, seed: int, index: int) -> HandState:
    """Hand ``index`` (0-based) of a game dealt from ``seed``: its own seed, in the pass cycle."""
    hand_seed_ = hand_seed(seed, index)
    return HandState(
        rules, deal_from_seed(hand_seed_, rules.players), rules.pass_direction(index), seed=hand_seed_
    )


def winners_if_over(rules: Rules, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The winning seats if a game with these totals after a finished hand is over, else ()."""
    if max(totals) < rules.target:
        return ()
    low = min(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == low)
    if rules.ties is TieRule.PLAY_OFF and len(winners) > 1:
        return ()
    return winners


class Game:
    """Hands are dealt from ``seed`` (hand ``k`` from ``hand_seed(seed, k)``) and pass in the
    rules' cycle. Scores are points: lower is better."""

    def __init__(self, rules: Rules | None = None, seed: int = 0) -> None:
        self.rules = rules or STANDARD
        self.seed = seed
        self.hands: list[HandState] = [self._deal(0)]

    def _deal(self, index: int) -> HandState:
        return deal_game_hand(self.rules, self.seed, index)

    @property
    def hand(self) -> HandState:
        """The hand being played (or the last one, once the game is over)."""
        return self.hands[-1]

    @property
    def hand_index(self) -> int:
        """0-based number of the current hand."""
        return len(self.hands) - 1

    @property
    def score_table(self) -> list[tuple[int, ...]]:
        """Each finished hand's scores, one row per hand."""
        return [hand.result.scores for hand in self.hands if hand.is_over]

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals over the finished hands."""
        totals = [0] * self.rules.players
        for row in self.score_table:
            for seat, points in enumerate(row):
                totals[seat] += points
        return tuple(totals)

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total once the game is over; empty before."""
        return winners_if_over(self.rules, self.totals) if self.hand.is_over else ()

    def next_hand(self) -> HandState:
        """Deal the next hand, once the current one is over."""
        if self.is_over:
            raise GameOverError(f"The game is over: the winner is seat {', '.join(map(str, self.winners))}.")
        if not self.hand.is_over:
            raise GameOverError("The current hand is still being played.")
        self.hands.append(self._deal(len(self.hands)))
        return self.hand

    def view(self, seat: int) -> PlayerView:
        """The current hand as ``seat`` sees it, with the game's totals before it."""
        before = [0] * self.rules.players
        for hand in self.hands[:-1]:
            for s, points in enumerate(hand.result.scores):
                before[s] += points
        return self.hand.view(seat, hand_index=self.hand_index, scores=tuple(before))
