"""The rule-of-thumb pass: what the lessons teach, as a score per card.

Pass the Q♠ unless enough spades guard her, the A♠ and K♠ when spades are short, high hearts,
and high cards of a short side suit, preferring to empty that suit altogether (a void lets you
discard the queen and hearts later). Keep low cards, above all low spades.

That is what the lessons teach, and what Normal passes. The evaluator imagines the other seats
passing as strong players do (``imagined_pass``): the same, except that a hand a shooter could
run keeps its high cards and passes its losers.
"""

from __future__ import annotations

from .cards import SUIT_MASKS, Suit, iter_mask
from .moon import losers
from .rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES

__all__ = ["KEEP_MOON", "best_discards", "card_danger", "imagined_pass", "rule_of_thumb_pass"]

KEEP_MOON = 6
"""A hand left with at most this many losers after its best discards (``best_discards``) keeps
them and passes those discards. Fitted (``benchmarks/pass_read.py``) on the 180 passing hands of
ten kept calibration runs: after the passes imagined so, the play-out policy at every seat shoots
in 13 of them; after Hard's own passes in 14, after the rule of thumb's in 3 (5 gives 9, 7
gives 17)."""

_FULL_DECK = (1 << 52) - 1

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


def best_discards(hand: int, count: int, deck: int = _FULL_DECK, players: int = 4) -> tuple[int, int]:
    """(losers left, the cards discarded) when ``hand`` gives away ``count`` cards the way a
    shooter would: each time the card whose loss leaves the fewest losers (``engine.moon.losers``,
    against every card of ``deck`` it does not hold), the lowest-ranked such card."""
    discarded = 0
    for _ in range(count):
        best, fewest = -1, 1 << 30
        for card in iter_mask(hand):  # lowest first; a card of lower rank wins a tie
            left = losers(hand & ~(1 << card), deck & ~(hand & ~(1 << card)), players)
            if left < fewest or (left == fewest and card % 13 < best % 13):
                best, fewest = card, left
        hand &= ~(1 << best)
        discarded |= 1 << best
    return losers(hand, deck & ~hand, players), discarded


def imagined_pass(
    hand: int, count: int = 3, deck: int = _FULL_DECK, players: int = 4, moon: bool = True
) -> int:
    """The pass the evaluator imagines another seat makes, as a mask: the rule of thumb, unless
    the rules have a moon and the hand could run for it (at most ``KEEP_MOON`` losers after
    its best discards): then those discards."""
    if moon:
        left, discarded = best_discards(hand, count, deck, players)
        if left <= KEEP_MOON:
            return discarded
    return rule_of_thumb_pass(hand, count)
