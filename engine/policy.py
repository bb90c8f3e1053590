"""The play-out policy: a fast, deterministic rule of thumb for every seat in a simulation.

Search plays thousands of imagined hands to their end; how well those imagined players play
decides how good the search's verdicts are. This policy plays the way a sound club player does
by reflex, using only its own hand and the cards already played:

- following suit: duck under the winning card with the highest card that still ducks; if it
  cannot duck, play its highest card when it is last to play (the trick is its anyway), else
  its lowest (someone may still overtake), and never win with the Q♠ when it has another card;
- discarding: the Q♠, then the A♠/K♠ while the queen is out, then its highest heart, then its
  highest card;
- leading: a low spade to flush the queen when it holds no spade above the J♠, else its lowest
  card.

And it knows the moon. A seat that has taken every point card taken so far, at least
``MOON_RUN`` of them, goes for the moon: it wins every trick it can (its highest card) and
discards its lowest non-point card. The others then block: following suit, they take a trick
the shooter is winning when it holds points, with their lowest card that beats the shooter's;
discarding, they keep their hearts.

``choose_card`` is the reference; ``engine.batch`` applies the same rules to many hands at once
and is tested to agree card for card.
"""

from __future__ import annotations

from .cards import HEARTS_MASK, SUIT_MASKS, Suit
from .rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES

__all__ = ["MOON_RUN", "choose_card", "discard", "highest_by_rank", "lowest_by_rank", "moon_runner"]

MOON_RUN = 5
"""Point cards one seat must hold, and nobody else any, for the policy to go for the moon."""

_SPADES = SUIT_MASKS[Suit.SPADES]
_QUEEN_BIT = 1 << QUEEN_OF_SPADES
_HIGH_SPADES = (1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES)
_LOW_SPADES = _SPADES & ((1 << QUEEN_OF_SPADES) - 1)  # 2♠..J♠
_SEGMENT = (1 << 13) - 1


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _bottom(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def lowest_by_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask; among equal ranks, the first suit
    (clubs, diamonds, spades, hearts)."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SEGMENT
    rank = _bottom(ranks)
    for suit in range(4):
        if mask >> (13 * suit + rank) & 1:
            return 13 * suit + rank
    raise ValueError("empty mask")


def highest_by_rank(mask: int) -> int:
    """The highest-ranked card of a non-empty mask; among equal ranks, the last suit
    (hearts first, as they cost points)."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SEGMENT
    rank = _top(ranks)
    for suit in (3, 2, 1, 0):
        if mask >> (13 * suit + rank) & 1:
            return 13 * suit + rank
    raise ValueError("empty mask")


def moon_runner(taken: list[int], point_mask: int) -> int:
    """The seat going for the moon: it has taken every point card taken so far, and at least
    ``MOON_RUN`` of them; -1 when there is none."""
    runner = -1
    for seat, mask in enumerate(taken):
        if mask & point_mask:
            if runner >= 0:
                return -1
            runner = seat
    if runner >= 0 and (taken[runner] & point_mask).bit_count() >= MOON_RUN:
        return runner
    return -1


def choose_card(
    hand: int,
    legal: int,
    trick: list[int],
    players: int,
    queen_out: bool,
    seat: int = 0,
    leader: int = 0,
    runner: int = -1,
    point_mask: int = 0,
) -> int:
    """The policy's card. ``queen_out``: the Q♠ has not been played yet; ``runner``: the seat
    going for the moon (see ``moon_runner``), -1 for none."""
    if runner == seat:
        return _shoot(legal, trick, point_mask)
    if not trick:
        low_spades = legal & _LOW_SPADES
        if queen_out and low_spades and not hand & (_QUEEN_BIT | _HIGH_SPADES):
            return _bottom(low_spades)
        return lowest_by_rank(legal)
    led = trick[0] // 13
    led_mask = SUIT_MASKS[led]
    if legal & led_mask:
        winning = max(card for card in trick if card // 13 == led)
        if runner >= 0 and (leader + trick.index(winning)) % players == runner:
            over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
            trick_mask = 0
            for card in trick:
                trick_mask |= 1 << card
            if over and trick_mask & point_mask:
                return _bottom(over)
        under = legal & ((1 << winning) - 1)
        if under:
            return _top(under)
        if len(trick) == players - 1:
            if legal != _QUEEN_BIT:
                return _top(legal & ~_QUEEN_BIT)
            return QUEEN_OF_SPADES
        return _bottom(legal)
    if runner >= 0:
        non_hearts = legal & ~HEARTS_MASK
        if non_hearts:
            return highest_by_rank(non_hearts)
    return discard(legal, queen_out)


def discard(legal: int, queen_out: bool) -> int:
    """What to throw when void: the Q♠, then the A♠/K♠ while she is out, then the highest
    heart, then the highest card."""
    if legal & _QUEEN_BIT:
        return QUEEN_OF_SPADES
    if queen_out and legal & _HIGH_SPADES:
        return _top(legal & _HIGH_SPADES)
    if legal & HEARTS_MASK:
        return _top(legal & HEARTS_MASK)
    return highest_by_rank(legal)


def _shoot(legal: int, trick: list[int], point_mask: int) -> int:
    if not trick:
        return highest_by_rank(legal)
    led = trick[0] // 13
    if legal & SUIT_MASKS[led]:
        winning = max(card for card in trick if card // 13 == led)
        top = _top(legal)
        return top if top > winning else _bottom(legal)
    quiet = legal & ~point_mask
    return lowest_by_rank(quiet or legal)
