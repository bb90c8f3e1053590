"""Normal: the strategy the lessons teach, as rules, with card counting and void memory."""

from __future__ import annotations

from ..cards import HEARTS_MASK, SUIT_MASKS, Card, CardSet, Suit
from ..moon import CHEAP_BLOCK, MoonThreat, moon_cards, moon_threat
from ..passing import rule_of_thumb_pass
from ..rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES
from ..scoring import MoonChoice
from ..search.policy import discard, highest_by_rank, lowest_by_rank
from ..view import PlayerView

__all__ = ["NormalBot"]

_QUEEN_BIT = 1 << QUEEN_OF_SPADES
_HIGH_SPADES = (1 << ACE_OF_SPADES) | (1 << KING_OF_SPADES)
_SPADES = SUIT_MASKS[Suit.SPADES]


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _bottom(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class NormalBot:
    """Passes by the rule of thumb; plays by the rules a careful learner follows:

    follow low and duck under the winning card; when void, dump the Q♠, then the A♠/K♠ while
    the queen is out, then high hearts; lead low, from a suit nobody has shown void in; lead
    low spades to flush the queen when that is safe; and block a moon as ``engine.moon`` and the
    play-out policy do: when one opponent has taken every moon card so far, take a point trick
    it is winning where that is cheap, and throw no points onto a trick it wins; once it is
    running, take any trick from it, lead high hearts, and keep points while it may still win.
    """

    name = "normal"

    def __init__(self, seed: int = 0, *, block_moons: bool = True) -> None:
        """``block_moons`` False: never sees a moon coming (as most beginners), so never blocks one."""
        self.seed = seed  # the rules are deterministic; the seed keeps one interface for all bots
        self.block_moons = block_moons

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(rule_of_thumb_pass(view.hand.mask, view.rules.pass_count))

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return choose_moon_by_totals(view)

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards.mask
        if legal & (legal - 1) == 0:
            return Card(_bottom(legal))
        trick = [int(card) for card in view.current_trick.cards]
        queen_out = not view.played_cards.mask & _QUEEN_BIT
        threat = moon_threat(view) if self.block_moons else None
        if not trick:
            if threat is not None and threat.guarded and legal & HEARTS_MASK:
                return Card(_top(legal & HEARTS_MASK))  # a heart the shooter may not beat
            return Card(self._lead(view, legal, queen_out))
        led = trick[0] // 13
        if legal & SUIT_MASKS[led]:
            return Card(self._follow(view, legal, trick, led, queen_out, threat))
        return Card(self._discard(view, legal, trick, queen_out, threat))

    def _lead(self, view: PlayerView, legal: int, queen_out: bool) -> int:
        hand = view.hand.mask
        low_spades = legal & _SPADES & ((1 << QUEEN_OF_SPADES) - 1)
        if queen_out and low_spades and not hand & (_QUEEN_BIT | _HIGH_SPADES):
            return _top(low_spades)  # highest spade that still cannot win against the queen
        # Prefer suits in which no opponent has shown a void: nobody can dump points on them.
        safe = legal
        for seat in range(view.players):
            if seat != view.seat:
                for suit in view.shown_void(seat):
                    safe &= ~SUIT_MASKS[suit]
        non_hearts = (safe or legal) & ~HEARTS_MASK
        return lowest_by_rank(non_hearts or safe or legal)

    def _follow(
        self,
        view: PlayerView,
        legal: int,
        trick: list[int],
        led: int,
        queen_out: bool,
        threat: MoonThreat | None,
    ) -> int:
        winning = max(card for card in trick if card // 13 == led)
        trick_mask = sum(1 << card for card in trick)
        has_points = bool(trick_mask & view.rules.point_mask)
        last = len(trick) == view.players - 1
        leader_seat = view.current_trick.winner
        if threat is not None and leader_seat == threat.seat:
            moon_taken = trick_mask & moon_cards(view.rules)
            cheap = moon_taken and not moon_taken & ~HEARTS_MASK and moon_taken.bit_count() <= CHEAP_BLOCK
            over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
            if over and (threat.guarded or cheap):
                return _bottom(over)  # take the trick (and the lead) from the shooter
        under = legal & ((1 << winning) - 1)
        runner_wins = threat is not None and leader_seat == threat.seat
        if runner_wins and under & ~_QUEEN_BIT:
            under &= ~_QUEEN_BIT  # the queen would feed the runner's moon
        elif led == Suit.SPADES and legal & _QUEEN_BIT and winning in (KING_OF_SPADES, ACE_OF_SPADES):
            return QUEEN_OF_SPADES  # the king or ace is out: give her to its owner
        if under:
            return _top(under)
        if last and not has_points:
            safe = legal & ~_QUEEN_BIT
            if safe:
                return _top(safe)  # the trick is ours and costs nothing: shed the highest
        if led == Suit.SPADES and queen_out and legal & ~_HIGH_SPADES & ~_QUEEN_BIT:
            return _bottom(legal)
        return _bottom(legal) if not last else _top(legal & ~_QUEEN_BIT or legal)

    def _discard(
        self, view: PlayerView, legal: int, trick: list[int], queen_out: bool, threat: MoonThreat | None
    ) -> int:
        if threat is not None:
            winner = view.current_trick.winner
            to_play = (threat.seat - view.current_trick.leader) % view.players > len(trick)
            if winner == threat.seat or (threat.guarded and to_play):
                # The runner would collect what is thrown: shed high cards that are no points.
                quiet = legal & ~moon_cards(view.rules)
                if quiet:
                    return highest_by_rank(quiet)
        return discard(legal, queen_out)


def choose_moon_by_totals(view: PlayerView) -> MoonChoice:
    """Pick the moon scoring that leaves this seat best placed in the game: adding to the others
    unless that ends the game with someone else ahead, or subtracting helps more."""
    value = view.rules.moon_value
    totals = list(view.scores) or [0] * view.players
    me = view.seat

    def standing(choice: MoonChoice) -> tuple[int, int]:
        after = list(totals)
        if choice is MoonChoice.ADD_TO_OTHERS:
            after = [t + (value if s != me else 0) for s, t in enumerate(after)]
        else:
            after[me] -= value
        best_other = min(t for s, t in enumerate(after) if s != me)
        game_ends = max(after) >= view.rules.target
        lost = game_ends and best_other < after[me]
        return (1 if lost else 0, after[me] - best_other)

    return min(MoonChoice, key=standing)
