"""Reading the opponents: what one seat has seen the others do, counted as evidence per seat.

Only the seat's own views go in (``PlayerView``: this hand's tricks), and, since the same bot
plays every hand of a game at a table, the hands it saw before. Three habits are counted:

- **blocking moons**: a *chance* is a trick an opponent played to while another seat was the
  runner (it had taken every moon card so far, ``engine.moon``) and was winning the trick, with
  a block worth making (moon cards in the trick, only hearts and at most ``CHEAP_BLOCK`` of
  them, or a runner holding ``MOON_GUARD`` cards: where Normal and the play-out policy block)
  and a choice that shows: it followed over the runner while it held (played later) a card
  under it, a block; or under while it held a card over it (not the Q♠), a runner let through.
  Void, it threw a moon card onto the runner's trick while it held (played later) a card that
  is none: fed the runner, a runner let through;
- **ducking**: following suit with a card over the winning one (not the Q♠) and a card under it
  (both seen), no runner winning the trick, it played under: a duck; over: no duck;
- **the Q♠ early**: void in the led suit while holding the Q♠ (it played her later) where she
  was legal (not on a first trick that bars points) and no runner was winning the trick (she
  would feed its moon), it threw her at the first such chance or kept her.

A read is a rate with a prior (``Rate``: a Beta mean), the prior leaning to what the play-out
policy does (blocks, ducks, throws her); the master table's bot plays its imagined deals with a
seat otherwise once the evidence says so (``Read.lets_runners_through``: ``Blocking.blockers``;
with ``MasterBot.READS``, also ``Read.plays_over`` and ``Read.keeps_queen``: ``duckers`` and
``queen_droppers``). What is unseen is unknown: a card an opponent never played is never counted
as held.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import HEARTS_MASK, SUIT_MASKS
from ..moon import CHEAP_BLOCK, MOON_GUARD, moon_candidate, moon_cards
from ..rules import QUEEN_OF_SPADES
from ..view import PlayerView

__all__ = ["BLOCK_PRIOR", "DUCK_PRIOR", "QUEEN_PRIOR", "OpponentReader", "Rate", "Read", "hand_evidence"]

_QUEEN_BIT = 1 << QUEEN_OF_SPADES


@dataclass(frozen=True)
class Rate:
    """``yes`` of ``yes + no`` chances, read with a prior of ``prior_yes`` and ``prior_no``."""

    yes: int = 0
    no: int = 0
    prior_yes: float = 1.0
    prior_no: float = 1.0

    @property
    def chances(self) -> int:
        return self.yes + self.no

    @property
    def mean(self) -> float:
        """The Beta posterior mean: the prior's alone with no chance seen."""
        return (self.yes + self.prior_yes) / (self.chances + self.prior_yes + self.prior_no)

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.yes + other.yes, self.no + other.no, self.prior_yes, self.prior_no)


BLOCK_PRIOR = (2.0, 1.0)
"""Every seat blocks until seen otherwise, as the play-out model has it (``engine.moon``): with
this prior two runners let through and no block read as not blocking (2 / 5 below one half);
one let through, or one block for each, does not."""

DUCK_PRIOR = (2.0, 1.0)
"""Every seat ducks until seen otherwise, as the play-out policy does: two plays over the winning
card with no duck read it as not ducking, a duck for each play over does not."""

QUEEN_PRIOR = (2.0, 1.0)
"""Every seat throws the Q♠ at its first chance until seen otherwise, as the policy does: one
chance a hand at most, so it takes two hands of keeping her (and none of throwing her)."""


@dataclass(frozen=True)
class Read:
    """One opponent's habits as counted: ``blocks`` (yes: blocked, no: let a runner through),
    ``ducks`` (yes: ducked) and ``queen_early`` (yes: threw the Q♠ at its first chance)."""

    blocks: Rate = field(default_factory=lambda: Rate(0, 0, *BLOCK_PRIOR))
    ducks: Rate = field(default_factory=lambda: Rate(0, 0, *DUCK_PRIOR))
    queen_early: Rate = field(default_factory=lambda: Rate(0, 0, *QUEEN_PRIOR))

    @property
    def lets_runners_through(self) -> bool:
        """Read as a seat that does not block moons: more likely than not, by the evidence."""
        return self.blocks.mean < 0.5

    @property
    def plays_over(self) -> bool:
        """Read as a seat that plays over the winning card where it could duck."""
        return self.ducks.mean < 0.5

    @property
    def keeps_queen(self) -> bool:
        """Read as a seat that keeps the Q♠ when it could throw her."""
        return self.queen_early.mean < 0.5

    def __add__(self, other: Read) -> Read:
        return Read(
            self.blocks + other.blocks, self.ducks + other.ducks, self.queen_early + other.queen_early
        )


def hand_evidence(view: PlayerView) -> dict[int, Read]:
    """Every other seat's evidence from the tricks of ``view``'s hand (the complete ones and the
    one under way)."""
    players = view.players
    moon_mask = moon_cards(view.rules)
    tricks = [*view.tricks, view.current_trick] if view.current_trick.cards else list(view.tricks)
    # What each seat played from each trick on: cards it is seen to have held then.
    later = [[0] * players for _ in range(len(tricks) + 1)]
    for index in range(len(tricks) - 1, -1, -1):
        later[index] = list(later[index + 1])
        for seat, card in tricks[index].plays:
            later[index][seat] |= 1 << card
    counts = {seat: [0, 0, 0, 0, 0, 0] for seat in range(players) if seat != view.seat}
    taken = [0] * players
    queen_kept = set()  # seats seen keeping the Q♠ when void (their first chance passed)
    queen_barred = view.rules.no_points_on_first_trick and view.rules.point_mask & _QUEEN_BIT
    for index, trick in enumerate(tricks):
        runner, runner_cards = moon_candidate(taken, moon_mask)
        cards = [int(card) for card in trick.cards]
        led = cards[0] // 13
        suit = SUIT_MASKS[led]
        for position in range(1, len(cards)):
            seat = (trick.leader + position) % players
            if seat == view.seat:
                continue
            before = cards[:position]
            winning = max(card for card in before if card // 13 == led)
            winner = (trick.leader + before.index(winning)) % players
            card = cards[position]
            held = later[index][seat]  # includes this card
            tally = counts[seat]
            in_trick = sum(1 << c for c in before) & moon_mask
            cheap = in_trick and not in_trick & ~HEARTS_MASK and in_trick.bit_count() <= CHEAP_BLOCK
            runner_wins = runner >= 0 and runner != seat and winner == runner
            chance = runner_wins and (cheap or runner_cards >= MOON_GUARD)
            if card // 13 == led:
                over = held & suit & ~((1 << winning) - 1) & ~_QUEEN_BIT
                under = held & suit & ((1 << winning) - 1)
                if chance and card > winning and under:
                    tally[0] += 1
                elif chance and card < winning and over:
                    tally[1] += 1
                if over and under and not runner_wins:
                    tally[2 if card < winning else 3] += 1
            else:
                if chance and (1 << card) & moon_mask and held & ~moon_mask & ~(1 << card):
                    tally[1] += 1
                barred = runner_wins or (index == 0 and queen_barred)
                if held & _QUEEN_BIT and seat not in queen_kept and not barred:
                    if card == QUEEN_OF_SPADES:
                        tally[4] += 1
                    else:
                        tally[5] += 1
                        queen_kept.add(seat)
        if trick.is_complete:
            taken[trick.winner] |= sum(1 << c for c in cards)
    return {
        seat: Read(
            Rate(t[0], t[1], *BLOCK_PRIOR), Rate(t[2], t[3], *DUCK_PRIOR), Rate(t[4], t[5], *QUEEN_PRIOR)
        )
        for seat, t in counts.items()
    }


class OpponentReader:
    """Evidence per opponent over the hands one bot has seen at its table: the hands finished
    (kept when a view of a new hand arrives) and the one under way (from its latest view)."""

    def __init__(self) -> None:
        self._before: dict[int, Read] = {}
        self._current: dict[int, Read] = {}
        self._hand: tuple[int, int, int] | None = None

    def observe(self, view: PlayerView) -> None:
        """Take in a view of the seat this reader plays for; a view of another hand than the last
        one seen closes that hand (its evidence as last seen is kept)."""
        hand = (view.seat, view.hand_index, view.dealt.mask)
        if hand != self._hand:
            for seat, read in self._current.items():
                self._before[seat] = self._before.get(seat, Read()) + read
            self._hand = hand
        self._current = hand_evidence(view)

    def read(self, seat: int) -> Read:
        """What is known of ``seat``: the hands before and this one so far."""
        return self._before.get(seat, Read()) + self._current.get(seat, Read())

    def blockers(self, view: PlayerView) -> int:
        """The seats to play imagined deals with as blocking, one bit a seat (-1: all of them, as
        before any evidence): every seat but those read as letting runners through."""
        return self._seats(view, "lets_runners_through")

    def duckers(self, view: PlayerView) -> int:
        """The seats to play imagined deals with as ducking (-1: all): every seat but those read
        as playing over."""
        return self._seats(view, "plays_over")

    def queen_droppers(self, view: PlayerView) -> int:
        """The seats to play imagined deals with as throwing the Q♠ at their first chance (-1:
        all): every seat but those read as keeping her."""
        return self._seats(view, "keeps_queen")

    def _seats(self, view: PlayerView, left_out: str) -> int:
        out = 0
        for seat in range(view.players):
            if seat != view.seat and getattr(self.read(seat), left_out):
                out |= 1 << seat
        return -1 if not out else ((1 << view.players) - 1) & ~out
