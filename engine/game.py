"""A game: hands one after another until someone reaches the target score."""

from __future__ import annotations

from collections.abc import Iterable

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
    rules' cycle. Scores are points: lower is better.

    A game can also start part-way: ``first_hand`` is any hand (a lesson's set-up position)
    and ``earlier_scores`` the score rows of hands played before it elsewhere; the hands after
    it are dealt from ``seed`` as usual."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        *,
        first_hand: HandState | None = None,
        earlier_scores: Iterable[Iterable[int]] = (),
    ) -> None:
        self.rules = first_hand.rules if first_hand is not None else rules or STANDARD
        self.seed = seed
        self.earlier_scores: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(p) for p in r) for r in earlier_scores
        )
        if any(len(row) != self.rules.players for row in self.earlier_scores):
            raise ValueError(f"every earlier score row needs {self.rules.players} numbers")
        self.redeals = 0
        """Unfinished hands thrown away and dealt again (``redeal``)."""
        self.hands: list[HandState] = [first_hand if first_hand is not None else self._deal(0)]

    @property
    def is_plain(self) -> bool:
        """Every hand dealt from the seed, from the first: what ``engine.records`` can keep."""
        return not self.earlier_scores and not self.redeals and self.hands[0].dealt == self._deal(0).dealt

    def _deal(self, index: int) -> HandState:
        return deal_game_hand(self.rules, self.seed, index)

    @property
    def hand(self) -> HandState:
        """The hand being played (or the last one, once the game is over)."""
        return self.hands[-1]

    @property
    def hand_index(self) -> int:
        """0-based number of the current hand in the game (earlier hands counted)."""
        return len(self.earlier_scores) + len(self.hands) - 1

    @property
    def score_table(self) -> list[tuple[int, ...]]:
        """Each finished hand's scores, one row per hand."""
        return [*self.earlier_scores, *(hand.result.scores for hand in self.hands if hand.is_over)]

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
        self.hands.append(self._deal(self.hand_index + 1))
        return self.hand

    def redeal(self) -> HandState:
        """Throw the unfinished hand away and deal another in its place. The game's seed moves
        on, so the hands after it are new deals too."""
        if self.hand.is_over:
            raise GameOverError("The hand is finished: deal the next one instead.")
        self.seed += 1
        self.redeals += 1
        self.hands[-1] = self._deal(self.hand_index)
        return self.hand

    def view(self, seat: int) -> PlayerView:
        """The current hand as ``seat`` sees it, with the game's totals before it."""
        before = [0] * self.rules.players
        for row in self.score_table[: self.hand_index]:
            for s, points in enumerate(row):
                before[s] += points
        return self.hand.view(seat, hand_index=self.hand_index, scores=tuple(before))
