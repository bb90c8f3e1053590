"""The rule-of-thumb pass: what the lessons teach, as a score per card.

Pass the Q♠ unless enough spades guard her, the A♠ and K♠ when spades are short, high hearts,
and high cards of a short side suit, preferring to empty that suit altogether (a void lets you
discard the queen and hearts later). Keep low cards, above all low spades.
"""

from __future__ import annotations

from .cards import SUIT_MASKS, Suit, iter_mask
from .rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES

__all__ = ["card_danger", "rule_of_thumb_pass"]

_SPADES = SUIT_MASKS[Suit.SPADES]


def card_danger(card: int, hand: int) -> float:
    """How much keeping ``card`` is likely to cost, given the rest of ``hand`` (higher: pass it)."""
    suit, rank = divmod(card, 13)  # rank 0 is the two, 12 the ace
    spades = (hand & _SPADES).bit_count()
    if card == QUEEN_OF_SPADES:
        return 40.0 if spades <= 4 else 4.0
    if card in (ACE_OF_SPADES, KING_OF_SPADES):
        guarded = spades >= 5 or (hand >> QUEEN_OF_SPADES & 1 and spades >= 4)
        return 3.0 if guarded else 30.0 + rank
    if suit == Suit.SPADES:
        return rank / 4 - 3  # low spades flush the queen out: keep them
    if suit == Suit.HEARTS:
        return rank * 1.6 - 6
    return rank * 1.2 - 5


def rule_of_thumb_pass(hand: int, count: int = 3) -> int:
    """The cards to pass, as a mask."""
    danger = {card: card_danger(card, hand) for card in iter_mask(hand)}
    # Emptying a short club or diamond suit is worth more than its cards' ranks say.
    for suit in (Suit.CLUBS, Suit.DIAMONDS):
        held = list(iter_mask(hand & SUIT_MASKS[suit]))
        if 0 < len(held) <= count:
            for card in held:
                danger[card] += 6.0 - 2.0 * len(held)
    chosen = sorted(danger, key=lambda card: (danger[card], card), reverse=True)[:count]
    mask = 0
    for card in chosen:
        mask |= 1 << card
    return mask
