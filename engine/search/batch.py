"""Many play-outs at once with numpy: the search's fast path.

Every game in a batch is at the same point of its hand (the same number of cards played), as
the worlds a search imagines from one position are; seats to move, tricks taken and hands
differ per game. One numpy operation advances every game by one card. The rules applied are
those of ``HandState`` and the policies those of ``engine.search.policy`` (heuristic) or uniform
random; the tests hold both to that card for card.

numpy is optional for the engine: without it, search falls back to ``engine.search.playout``'s
pure-Python loop (slower, same answers for the heuristic policy).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import SUIT_MASKS, Suit
from ..hand import HandState, Phase
from ..kernel_compiled import broken_rows, legal_rows, winner_rows
from ..moon import BLOCKERS, Blocking
from ..rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES, MoonRule, Rules
from . import threads
from .compiled import RulesCode, card_points, run_policy

__all__ = ["Batch"]

_HIGH_SPADES = np.int64((1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES))
_LOW_SPADES = np.int64(SUIT_MASKS[Suit.SPADES] & ((1 << QUEEN_OF_SPADES) - 1))
_SEGMENT = np.int64((1 << 13) - 1)
_ONE = np.int64(1)


def _top(mask: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each (positive) mask. Masks are below 2**52, so the
    conversion to float64 is exact and frexp's exponent is the bit length."""
    return np.frexp(mask.astype(np.float64))[1].astype(np.int64) - 1


def _bottom(mask: np.ndarray) -> np.ndarray:
    return _top(mask & -mask)


def _nonzero(mask: np.ndarray) -> np.ndarray:
    """The mask with empty entries set to one card, so bit helpers never see 0 (those entries'
    answers are discarded by the caller's np.where)."""
    return np.where(mask != 0, mask, 1)


def _pick_suit(mask: np.ndarray, rank: np.ndarray, suits: Sequence[int]) -> np.ndarray:
    """Card of ``rank`` in the first of ``suits`` where ``mask`` holds it."""
    card = 13 * suits[-1] + rank
    for suit in reversed(suits[:-1]):
        card = np.where((mask >> (13 * suit + rank)) & 1 != 0, 13 * suit + rank, card)
    return card


def _ranks(mask: np.ndarray) -> np.ndarray:
    return (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SEGMENT


def lowest_by_rank(mask: np.ndarray) -> np.ndarray:
    return _pick_suit(mask, _bottom(_ranks(mask)), (0, 1, 2, 3))


def highest_by_rank(mask: np.ndarray) -> np.ndarray:
    return _pick_suit(mask, _top(_ranks(mask)), (3, 2, 1, 0))


class Batch:
    """The state of many games at one point of a hand, played out together."""

    def __init__(
        self,
        rules: Rules,
        hands: np.ndarray,
        trick: np.ndarray,
        trick_length: int,
        leader: np.ndarray,
        tricks_done: int,
        broken: np.ndarray,
        taken: np.ndarray,
        won: np.ndarray,
    ) -> None:
        # The batch plays in these arrays: every caller hands over arrays of its own making, so
        # those of the right type are taken as they are (a pass's finals pass millions of rows).
        self.rules = rules
        self.players = rules.players
        self.hands = hands.astype(np.int64, copy=False)
        self.trick = trick.astype(np.int64, copy=False)
        self.trick_length = trick_length
        self.leader = leader.astype(np.int64, copy=False)
        self.tricks_done = tricks_done
        self.broken = broken.astype(bool, copy=False)
        self.taken = taken.astype(np.int64, copy=False)
        self.won = won.astype(np.int64, copy=False)
        self.size = len(self.hands)
        self.rows = np.arange(self.size)

    @classmethod
    def from_states(cls, states: Sequence[HandState]) -> Batch:
        """Games from hand states, all at the same point of play."""
        first = states[0]
        if first.phase is not Phase.PLAYING:
            raise ValueError("a batch starts during the play of a hand")
        played = first.cards_played
        if any(state.cards_played != played or state.phase is not Phase.PLAYING for state in states):
            raise ValueError("every game in a batch must be at the same point of the hand")
        players = first.players
        trick = np.zeros((len(states), players), dtype=np.int64)
        for row, state in enumerate(states):
            cards = state.trick_cards
            trick[row, : len(cards)] = cards
        return cls(
            first.rules,
            np.array([state.hand_masks for state in states], dtype=np.int64),
            trick,
            len(first.trick_cards),
            np.array([state.leader for state in states]),
            first.trick_number,
            np.array([state.hearts_broken for state in states]),
            np.array([state.taken_masks for state in states], dtype=np.int64),
            np.array([state.tricks_won for state in states], dtype=np.int64),
        )

    def tile(self, times: int) -> Batch:
        """``times`` copies of every game, copy-major: row ``k * size + g`` is copy k of game g."""
        return Batch(
            self.rules,
            np.tile(self.hands, (times, 1)),
            np.tile(self.trick, (times, 1)),
            self.trick_length,
            np.tile(self.leader, times),
            self.tricks_done,
            np.tile(self.broken, times),
            np.tile(self.taken, (times, 1)),
            np.tile(self.won, (times, 1)),
        )

    # ----- one card for every game -----

    @property
    def to_move(self) -> np.ndarray:
        return (self.leader + self.trick_length) % self.players

    def legal(self) -> np.ndarray:
        """Every game's legal cards (``engine.kernel.legal_mask``)."""
        code = self.rules.play_rules
        hand = self.hands[self.rows, self.to_move]
        led = self.trick[:, 0] // 13 if self.trick_length else np.full(self.size, -1, dtype=np.int64)
        return legal_rows(hand, led, self.tricks_done == 0, self.broken, tuple(code))

    def random_cards(self, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal card for every game."""
        skip = (rng.random(self.size) * np.bitwise_count(legal)).astype(np.int64)
        for step in range(int(skip.max(initial=0))):
            legal = np.where(skip > step, legal & (legal - 1), legal)
        return _bottom(legal)

    def play(self, cards: np.ndarray) -> None:
        """Every game's seat to move plays its card (assumed legal)."""
        seats = self.to_move
        bits = _ONE << cards
        self.hands[self.rows, seats] ^= bits
        self.broken[:] = broken_rows(self.broken, cards, self.rules.queen_breaks_hearts)
        self.trick[:, self.trick_length] = cards
        self.trick_length += 1
        if self.trick_length < self.players:
            return
        winner, mask = winner_rows(self.trick, self.leader, self.players)
        self.taken[self.rows, winner] |= mask
        self.won[self.rows, winner] += 1
        self.leader = winner
        self.trick_length = 0
        self.tricks_done += 1

    # ----- whole play-outs -----

    @property
    def is_over(self) -> bool:
        return self.tricks_done == self.rules.hand_size

    def run(
        self,
        policy: str = "heuristic",
        rng: np.random.Generator | None = None,
        blocking: Blocking = BLOCKERS,
    ) -> np.ndarray:
        """Play every game to its end; returns the scores, shape (games, players). The
        heuristic plays the moon by ``blocking``."""
        if policy == "random" and rng is None:
            raise ValueError("random play-outs need an rng")
        if policy == "heuristic":
            self._run_heuristic(blocking)
            return self.scores()
        while not self.is_over:
            self.play(self.random_cards(self.legal(), rng))
        return self.scores()

    def _run_heuristic(self, blocking: Blocking = BLOCKERS) -> None:
        """Every game to its end with ``engine.search.policy``, compiled (``engine.search.compiled``)."""
        if self.is_over:
            return
        rules = self.rules
        code = RulesCode.of(rules, blocking)

        def play(rows: tuple[int, int]) -> None:
            part = slice(*rows)
            run_policy(
                self.hands[part],
                self.trick[part],
                self.trick_length,
                self.leader[part],
                self.tricks_done,
                self.broken[part],
                self.taken[part],
                self.won[part],
                code,
            )

        threads.run_parts(play, threads.parts(self.size))
        self.trick_length = 0
        self.tricks_done = rules.hand_size

    def shooters(self) -> np.ndarray:
        """The seat that took every point card in each game, or -1."""
        if self.rules.moon is MoonRule.OFF:
            return np.full(self.size, -1)
        moon_mask = np.int64(self.rules.moon_mask)
        shooter = (self.taken & moon_mask) == moon_mask
        return np.where(shooter.any(axis=1), shooter.argmax(axis=1), -1)

    def points(self) -> np.ndarray:
        groups: dict[int, int] = {}  # value -> the cards worth it
        for card, value in self.rules.scored_cards:
            groups[value] = groups.get(value, 0) | 1 << card
        masks = np.array(list(groups.values()), dtype=np.int64)
        return card_points(self.taken, masks, np.array(list(groups), dtype=np.int64))

    def scores(self) -> np.ndarray:
        """``score_hand`` for every game; a shooter's-choice moon adds to the others."""
        rules = self.rules
        scores = self.points()
        if rules.moon is not MoonRule.OFF:
            moon_mask = np.int64(rules.moon_mask)
            shooter = (self.taken & moon_mask) == moon_mask
            someone = shooter.any(axis=1, keepdims=True)
            value = rules.moon_value
            scores -= shooter * value
            if rules.moon is MoonRule.SUBTRACT_FROM_SHOOTER:
                scores -= shooter * value
            else:
                scores += (someone & ~shooter) * value
        else:
            someone = np.zeros((self.size, 1), dtype=bool)
        if rules.no_tricks_bonus:
            scores += ((self.won == 0) & ~someone) * rules.no_tricks_bonus
        return scores
