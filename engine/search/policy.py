"""The play-out policy: a fast, deterministic rule of thumb for every seat in a simulation.

Search plays thousands of imagined hands to their end; how well those imagined players play
decides how good the search's verdicts are. This policy plays the way a sound club player does
by reflex, using only its own hand, the cards already played and who took them:

- following suit: duck under the winning card with the highest card that still ducks; if it
  cannot duck, play its highest card when it is last to play (the trick is its anyway), else
  its lowest (someone may still overtake), and never win with the Q♠ when it has another card;
- discarding: the Q♠, then the A♠/K♠ while the queen is out, then its highest heart, then its
  highest card;
- leading: a low spade to flush the queen when it holds no spade above the J♠, else its lowest
  card (a seat in ``Blocking.queen_leaders``, opt-in, holding the Q♠: the lowest card of its
  shortest suit other than spades, ``queen_lead``).

And it plays the moon on both sides (``engine.moon`` says who is running and how far):

- blockers: from the runner's first moon card, a seat takes a point trick the runner is winning
  when that is cheap (``CHEAP_BLOCK``), with its lowest card that beats the runner's (never the
  Q♠), and never discards points onto the runner's trick unless a later seat may still take
  it (then it throws its lowest heart, which invites that cheap block: points split end the
  moon); following a heart the runner is winning, it keeps its high hearts (they stop the
  runner later); once the runner holds ``MOON_GUARD`` moon cards it blocks at any price: it
  takes any trick the runner is winning (the lead is
  worth having), leads its highest heart, and keeps its points while the runner is still to
  play; discarding onto a trick someone else wins once the runner has played, it throws points
  as usual: points with another player end the moon. A seat left out of ``Blocking.blockers``
  (a searching seat has read it as letting runners through) plays as if no other seat were running.
- seats read otherwise (``Blocking.duckers``, ``Blocking.queen_droppers``): a seat read as not
  ducking plays its highest card over the winning one (never the Q♠) where it could duck; a seat
  read as keeping the Q♠ throws another card while it has one.
- the runner, from ``MOON_RUN`` moon cards (or sooner, when its hand has no losers left, or
  from the start for a seat the search plans a moon for: ``Blocking.shooter``), wins
  every trick it can (its highest card) and discards its lowest card that is no point, for as
  long as the moon can still be made; once it must let a trick with points go, it plays the
  ordinary policy again.

``choose_card`` is the reference; ``engine.search.batch`` applies the same rules to many hands at once
and is tested to agree card for card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import HEARTS_MASK, SUIT_MASKS, Suit
from ..kernel import trick_taker
from ..moon import BLOCKERS, NOBODY, Blocking, has_loser, moon_cards
from ..rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES

if TYPE_CHECKING:
    from ..view import PlayerView

__all__ = ["choose_card", "discard", "highest_by_rank", "lowest_by_rank", "queen_lead", "view_card"]

_SPADES = SUIT_MASKS[Suit.SPADES]
_QUEEN_BIT = 1 << QUEEN_OF_SPADES
_HIGH_SPADES = (1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES)
_LOW_SPADES = _SPADES & ((1 << QUEEN_OF_SPADES) - 1)  # 2♠..J♠
_SEGMENT = (1 << 13) - 1
_SIDE_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)  # a queen lead's tie order


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


def choose_card(
    hand: int,
    legal: int,
    trick: list[int],
    players: int,
    queen_out: bool,
    seat: int = 0,
    leader: int = 0,
    runner: int = -1,
    moon_mask: int = 0,
    runner_cards: int = 0,
    outstanding: int = 0,
    blocking: Blocking = BLOCKERS,
) -> int:
    """The policy's card. ``queen_out``: the Q♠ has not been played yet; ``runner`` and
    ``runner_cards``: the seat that has taken every moon card so far and how many it holds
    (``engine.moon.moon_candidate``); ``moon_mask``: the moon cards; ``outstanding``: the
    cards neither played nor in this hand; ``blocking``: the moon thresholds and who blocks."""
    running = runner_cards >= blocking.run
    guarding = runner_cards >= blocking.guard
    if (runner == seat and running) or (
        moon_mask
        and runner in (seat, NOBODY)
        and (seat == blocking.shooter or not has_loser(hand, outstanding, players))
    ):
        card = _shoot(legal, trick, moon_mask)
        if card >= 0:
            return card
    blocker = runner >= 0 and runner != seat and blocking.blockers >> seat & 1
    if not trick:
        if blocker and guarding and legal & HEARTS_MASK:
            return _top(legal & HEARTS_MASK)  # a heart the runner may not be able to beat
        low_spades = legal & _LOW_SPADES
        if queen_out and low_spades and not hand & (_QUEEN_BIT | _HIGH_SPADES):
            return _bottom(low_spades)
        if hand & _QUEEN_BIT and blocking.queen_leaders >> seat & 1:
            card = queen_lead(hand, legal)
            if card >= 0:
                return card
        return lowest_by_rank(legal)
    led = trick[0] // 13
    position, trick_mask = trick_taker(trick)
    winning = trick[position]
    runner_winning = blocker and (leader + position) % players == runner
    if legal & SUIT_MASKS[led]:
        if runner_winning:
            over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
            taken = trick_mask & moon_mask
            cheap = taken and not taken & ~HEARTS_MASK and taken.bit_count() <= blocking.cheap
            if over and (guarding or cheap):
                return _bottom(over)  # take the trick (and the lead) from the runner
        under = legal & ((1 << winning) - 1)
        if runner_winning and under & ~_QUEEN_BIT:
            under &= ~_QUEEN_BIT  # the queen would feed the runner's moon
        if under:
            if runner_winning and led == Suit.HEARTS:
                return _bottom(under)  # keep the high hearts: they stop the runner later
            if not runner_winning and not blocking.duckers >> seat & 1:
                over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
                if over:
                    return _top(over)  # read as not ducking: it plays over
            return _top(under)
        if len(trick) == players - 1:
            if legal != _QUEEN_BIT:
                return _top(legal & ~_QUEEN_BIT)
            return QUEEN_OF_SPADES
        return _bottom(legal)
    beatable = outstanding & SUIT_MASKS[led] & ~((2 << winning) - 1)
    later = len(trick) < players - 1
    if blocker and runner_winning and not guarding and later and beatable and legal & HEARTS_MASK:
        # A heart a later seat may take from the runner (cheaply): points split end the moon.
        return _bottom(legal & HEARTS_MASK)
    if blocker and (runner_winning or (guarding and (runner - leader) % players > len(trick))):
        # The runner would collect what is thrown (it wins the trick, or is still to play).
        quiet = legal & ~moon_mask
        if quiet:
            return highest_by_rank(quiet)
    if legal & ~_QUEEN_BIT and not blocking.queen_droppers >> seat & 1:
        legal &= ~_QUEEN_BIT  # read as keeping her while it has another card to throw
    return discard(legal, queen_out)


def view_card(view: PlayerView, runner: int = NOBODY, runner_cards: int = 0, moon: bool = True) -> int:
    """The policy's card for the seat of ``view``, with ``runner`` (and the moon cards it
    holds) as the seat running for the moon, and with no thought of the moon at all unless
    ``moon``: the play-out's player seated at a real table."""
    played = view.played_cards.mask
    return choose_card(
        view.hand.mask,
        view.legal_cards.mask,
        [int(card) for card in view.current_trick.cards],
        view.players,
        not played >> QUEEN_OF_SPADES & 1,
        view.seat,
        view.current_trick.leader,
        runner,
        moon_cards(view.rules) if moon else 0,
        runner_cards,
        view.unseen_cards.mask,
    )


def queen_lead(hand: int, legal: int) -> int:
    """The Q♠ holder's lead for a seat in ``Blocking.queen_leaders``: the lowest card of the suit
    other than spades it holds fewest of (a void to throw her on, and no lead handed to a flush),
    among the suits it may lead (``legal``: no hearts before they are broken, only the 2♣ on the
    first trick); equally short suits go clubs, diamonds, hearts. -1 when it may lead nothing
    but spades."""
    best = -1
    fewest = 14
    for suit in _SIDE_SUITS:
        mask = legal & SUIT_MASKS[suit]
        if mask:
            count = (hand & SUIT_MASKS[suit]).bit_count()
            if count < fewest:
                best, fewest = _bottom(mask), count
    return best


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


def _shoot(legal: int, trick: list[int], moon_mask: int) -> int:
    """The runner's card, or -1 when this trick ends the moon (it cannot win a trick with
    points in it) and ordinary play should take over."""
    if not trick:
        return highest_by_rank(legal)
    led = trick[0] // 13
    winning = max(card for card in trick if card // 13 == led)
    points = any(moon_mask >> card & 1 for card in trick)
    if legal & SUIT_MASKS[led]:
        top = _top(legal)
        if top > winning:
            return top
        return -1 if points else _bottom(legal)
    if points:
        return -1
    quiet = legal & ~moon_mask
    return lowest_by_rank(quiet or legal)
