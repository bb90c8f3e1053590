"""A player's view: exactly what one seat may know. Bots and the coach only ever see these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import SUIT_MASKS, CardSet, Suit
from .rules import PassDirection, Rules
from .scoring import HandResult

if TYPE_CHECKING:
    from .hand import HandState, Phase, Trick

__all__ = ["PlayerView"]


@dataclass(frozen=True)
class PlayerView:
    """Everything ``seat`` knows at this moment of the hand.

    It holds its own hand, what it passed and to whom, what it received and from whom, every
    card played and by whom, and public counts. It holds no other seat's cards: it is a copy
    of facts, with no reference back to the game.
    """

    rules: Rules
    seat: int
    phase: Phase
    pass_direction: PassDirection
    hand: CardSet
    dealt: CardSet
    passed: CardSet | None
    passed_to: int | None
    received: CardSet | None
    received_from: int | None
    tricks: tuple[Trick, ...]
    current_trick: Trick
    to_move: int | None
    legal_cards: CardSet
    hearts_broken: bool
    points_taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    result: HandResult | None
    moon_shooter: int | None
    hand_index: int = 0
    scores: tuple[int, ...] = field(default=())
    """Game totals before this hand."""

    @classmethod
    def of(
        cls, state: HandState, seat: int, *, hand_index: int = 0, scores: tuple[int, ...] = ()
    ) -> PlayerView:
        players = state.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat!r} at a table of {players}")
        holding = state.pass_direction is not PassDirection.HOLD
        passed = state.passed(seat)
        return cls(
            rules=state.rules,
            seat=seat,
            phase=state.phase,
            pass_direction=state.pass_direction,
            hand=state.hand(seat),
            dealt=state.dealt_hand(seat),
            passed=passed,
            passed_to=state.pass_target(seat) if holding else None,
            received=state.received(seat),
            received_from=state.pass_source(seat) if holding else None,
            tricks=state.tricks,
            current_trick=state.current_trick,
            to_move=state.to_move,
            legal_cards=CardSet(state.legal_cards(seat).mask),
            hearts_broken=state.hearts_broken,
            points_taken=state.points_taken,
            tricks_won=state.tricks_won,
            hand_sizes=tuple(len(state.hand(s)) for s in range(players)),
            result=state.result,
            moon_shooter=state.moon_shooter,
            hand_index=hand_index,
            scores=scores or (0,) * players,
        )

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def played_cards(self) -> CardSet:
        mask = 0
        for trick in (*self.tricks, self.current_trick):
            for card in trick.cards:
                mask |= 1 << card
        return CardSet(mask)

    @property
    def unseen_cards(self) -> CardSet:
        """Cards in play that this seat neither holds nor has seen played: the others' hands."""
        return CardSet(self.rules.deck_mask & ~self.hand.mask & ~self.played_cards.mask)

    def shown_void(self, seat: int) -> frozenset[Suit]:
        """Suits ``seat`` has shown it does not hold, by not following when they were led."""
        voids: set[Suit] = set()
        for trick in (*self.tricks, self.current_trick):
            led = trick.led_suit
            for player, card in trick.plays:
                if player == seat and card.suit != led:
                    voids.add(led)
        return frozenset(voids)

    def known_cards(self, seat: int) -> CardSet:
        """Cards this seat knows ``seat`` still holds: the ones it passed to them, unplayed."""
        if seat == self.seat:
            return self.hand
        if self.passed is None or self.passed_to != seat or self.received is None:
            return CardSet(0)
        return CardSet(self.passed.mask & ~self.played_cards.mask)

    def suit_count(self, suit: Suit) -> int:
        return (self.hand.mask & SUIT_MASKS[suit]).bit_count()
