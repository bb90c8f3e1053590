"""Who can still shoot the moon: one detector for the play-out policy, the Normal bot and the coach.

A moon is still possible while a single seat has taken every moon card taken so far (the
hearts and the Q♠, and the J♦ where the rules ask for it); that seat is the *runner*. The
strength of the threat is how many moon cards it holds:

- from the first one, the others block where it is cheap: take a point trick the runner is
  winning when it costs them little, and throw no points onto the runner's trick. The play-out
  policy (so Hard and the coach) blocks as strong players do, found by playing true deals on
  with Hard and the policy mixed at the seats (``benchmarks/DECISIONS.md``): a low heart goes onto
  the runner's trick when a later seat may still take it (that invites the cheap block, and
  points split end the moon), and it keeps its high hearts under the runner's hearts (they stop
  it later). Normal, the lessons' careful player, does not: lesson 8 teaches them;
- from ``MOON_RUN`` cards on the runner goes for it, and the others block at any price;
- a seat whose hand has no losers left (``losers``) goes for it as soon as it holds every moon
  card taken so far, or before anyone has taken one: strong hands shoot early, and the others
  see that only by the cards it takes.

The unit is moon cards taken (the Q♠ counts one), everywhere: policy, bots and coach.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import SUIT_MASKS

if TYPE_CHECKING:
    from .rules import Rules
    from .view import PlayerView

__all__ = [
    "BLOCKERS",
    "CHEAP_BLOCK",
    "IMPOSSIBLE",
    "MOON_GUARD",
    "MOON_RUN",
    "NOBODY",
    "STRONG_BLOCKERS",
    "Blocking",
    "MoonThreat",
    "has_loser",
    "losers",
    "moon_candidate",
    "moon_cards",
    "moon_threat",
    "taken_masks",
]

MOON_RUN = 5
"""Moon cards a runner must hold before it goes for the moon (sooner with a hand of no losers)."""

MOON_GUARD = 3
"""Moon cards a runner holds when the others start to block at any price."""

CHEAP_BLOCK = 3
"""A blocker takes a runner's point trick early (before ``MOON_RUN``) when the trick holds at
most this many moon cards and none but hearts."""


@dataclass(frozen=True)
class Blocking:
    """How a play-out's seats play: the moon thresholds above, a seat planned to run from the
    start, and the seats that block, duck and throw the Q♠ as the policy does, as one value to
    pass around."""

    run: int = MOON_RUN
    guard: int = MOON_GUARD
    cheap: int = CHEAP_BLOCK
    shooter: int = -1
    """A seat that goes for the moon from the start, for as long as it can still make it (-1,
    ``NOBODY``: none): the plan a searching seat weighs against playing for few points."""
    blockers: int = -1
    """The seats that block a runner, one bit a seat (-1: every seat): a searching seat that has
    read an opponent as letting runners through plays its imagined deals with that seat not
    blocking (``engine.bots.reader``)."""
    duckers: int = -1
    """The seats that duck when following suit (-1: every seat); a seat left out plays its
    highest card over the winning one where it could have ducked: read as not ducking."""
    queen_droppers: int = -1
    """The seats that throw the Q♠ at their first chance when void (-1: every seat); a seat left
    out keeps her while it has another card to throw: read as keeping her."""
    queen_leaders: int = 0
    """The seats that, holding the Q♠ on lead, lead the lowest card of their shortest suit other
    than spades (``engine.search.policy.queen_lead``; 0: none, the policy the coach's forecast
    map is fitted on; -1: every seat). Opt-in: only the master table's play-outs use it."""


BLOCKERS = Blocking()
"""The play-out model's blockers (calibrated against Hard bots: ``benchmarks/coach_calibration.py``)."""

STRONG_BLOCKERS = Blocking(guard=1)
"""Blockers at any price from the runner's first moon card: the coach's check that a moon
line's edge does not rest on blockers who let it through."""


def moon_cards(rules: Rules) -> int:
    """The cards a shooter must take, as a mask; 0 when the rules have no moon."""
    return 0 if rules.moon == "off" else rules.moon_mask


NOBODY = -1
"""``moon_candidate``'s runner when no moon card has been taken yet."""
IMPOSSIBLE = -2
"""``moon_candidate``'s runner when two seats have taken moon cards: no moon any more."""


def moon_candidate(taken: Sequence[int], moon_mask: int) -> tuple[int, int]:
    """(the runner, the moon cards it holds); (``NOBODY``, 0) when no moon card has been taken
    and (``IMPOSSIBLE``, 0) when two seats have. ``taken``: every seat's taken cards as masks."""
    if not moon_mask:
        return IMPOSSIBLE, 0
    runner = NOBODY
    cards = 0
    for seat, mask in enumerate(taken):
        held = mask & moon_mask
        if held:
            if runner >= 0:
                return IMPOSSIBLE, 0
            runner = seat
            cards = held.bit_count()
    return runner, cards


def losers(hand: int, outstanding: int, players: int) -> int:
    """Tricks ``hand`` may lose, as a shooter counts them: in each suit, the cards below the
    highest card still out, unless the cards above it draw every card still out."""
    count = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        out = outstanding & SUIT_MASKS[suit]
        if not mine or not out:
            continue
        tops = (mine >> out.bit_length()).bit_count()
        if tops * (players - 1) < out.bit_count():
            count += mine.bit_count() - tops
    return count


def has_loser(hand: int, outstanding: int, players: int) -> bool:
    """Whether ``losers`` is above 0, answered at the first suit with a loser (the play-out
    policy asks it for every card before a moon card is taken)."""
    for suit_mask in SUIT_MASKS:
        mine = hand & suit_mask
        out = outstanding & suit_mask
        if mine and out:
            tops = (mine >> out.bit_length()).bit_count()
            if tops * (players - 1) < out.bit_count() and mine.bit_count() > tops:
                return True
    return False


def taken_masks(view: PlayerView) -> list[int]:
    """Every seat's taken cards, from the tricks the view has seen."""
    taken = [0] * view.players
    for trick in view.tricks:
        for card in trick.cards:
            taken[trick.winner] |= 1 << card
    return taken


@dataclass(frozen=True)
class MoonThreat:
    seat: int
    """The runner: the one seat that has taken every moon card so far."""
    cards: int
    """Moon cards it has taken."""
    points: int
    """Points those cards are worth."""

    @property
    def guarded(self) -> bool:
        """Far enough in that the others block at any price."""
        return self.cards >= MOON_GUARD


def moon_threat(view: PlayerView, include_self: bool = False) -> MoonThreat | None:
    """The runner as ``view``'s seat sees it: another seat (or, with ``include_self``, this one)
    that has taken every moon card so far; None when there is none or no moon is possible."""
    taken = taken_masks(view)
    seat, cards = moon_candidate(taken, moon_cards(view.rules))
    if seat < 0 or (seat == view.seat and not include_self):
        return None
    return MoonThreat(seat, cards, view.rules.points_in(taken[seat]))
