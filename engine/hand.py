"""One hand of Hearts: the deal, the pass, thirteen tricks (or fewer with more players), the score.

The state is a phase machine (passing, playing, the shooter's moon choice, done). Every action
has ``why_not_x`` (the refusal, or None), ``can_x``, ``verify_x`` (raises ``IllegalAction``)
and ``x`` itself, which refuses an illegal action without changing anything. Every action can
be taken back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import (
    CARDS,
    HEARTS_MASK,
    SUIT_MASKS,
    Card,
    CardSet,
    Suit,
    iter_mask,
    parse_cards,
    to_card,
    trick_taker,
)
from .deal import deal_from_seed
from .reasons import IllegalAction, Reason, Refusal
from .rules import QUEEN_OF_SPADES, STANDARD, PassDirection, Rules
from .scoring import HandResult, MoonChoice, find_shooter, score_hand

__all__ = [
    "DealError",
    "HandState",
    "MoonAction",
    "PassAction",
    "Phase",
    "PlayAction",
    "Trick",
]

_CLUBS = SUIT_MASKS[Suit.CLUBS]
_QUEEN_BIT = 1 << QUEEN_OF_SPADES
_FIRST_HEART = Suit.HEARTS * 13  # hearts are the highest-numbered suit

# Internal history entries: (kind, seat, payload, hearts_broken_before)
_PASS, _PLAY, _MOON = 0, 1, 2


class Phase(StrEnum):
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"
    DONE = "done"


class DealError(ValueError):
    """A deal or position that cannot happen; the message says what is wrong."""


@dataclass(frozen=True)
class Trick:
    """A trick, complete or in progress. ``cards`` are in the order they were played."""

    leader: int
    cards: tuple[Card, ...]
    players: int

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) for each card played."""
        return tuple(((self.leader + i) % self.players, card) for i, card in enumerate(self.cards))

    @property
    def led_suit(self) -> Suit | None:
        return self.cards[0].suit if self.cards else None

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == self.players

    @property
    def winner(self) -> int | None:
        """The seat taking the trick so far (the highest card of the led suit)."""
        if not self.cards:
            return None
        return (self.leader + trick_taker(self.cards)[0]) % self.players

    def card_of(self, seat: int) -> Card | None:
        for player, card in self.plays:
            if player == seat:
                return card
        return None


@dataclass(frozen=True)
class PassAction:
    seat: int
    cards: CardSet


@dataclass(frozen=True)
class PlayAction:
    seat: int
    card: Card


@dataclass(frozen=True)
class MoonAction:
    seat: int
    choice: MoonChoice


def _check_deal(rules: Rules, hands: Sequence[int]) -> None:
    players = rules.players
    if len(hands) != players:
        raise DealError(f"the deal has {len(hands)} hands; these rules seat {players} players")
    for seat, mask in enumerate(hands):
        if not isinstance(mask, int) or not 0 <= mask < 1 << 52:
            raise DealError(f"seat {seat}: {mask!r} is not a set of the 52 cards")
    seen = 0
    size = rules.hand_size
    for mask in hands:
        if seen & mask or mask.bit_count() != size:
            break
        seen |= mask
    else:
        if not seen & ~rules.deck_mask:
            return
    # Something is wrong: find the first problem and say it plainly.
    owner: dict[int, int] = {}
    for seat, mask in enumerate(hands):
        for card in iter_mask(mask):
            if card in owner:
                raise DealError(f"{card} is dealt twice: to seat {owner[card]} and seat {seat}")
            owner[card] = seat
            if not rules.deck_mask >> card & 1:
                raise DealError(f"{card} is not in play with {players} players (seat {seat} holds it)")
    for seat, mask in enumerate(hands):
        if mask.bit_count() != size:
            raise DealError(
                f"seat {seat} holds {mask.bit_count()} cards; with {players} players every seat holds {size}"
            )


def _to_mask(cards: int | CardSet | str | Iterable[Card | int | str], where: str = "cards") -> int:
    """Cards as a mask; a card listed twice, or a mask that is not a set of the 52 cards, is
    refused naming ``where``."""
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, int) and not isinstance(cards, bool):
        if not 0 <= cards < 1 << 52:
            raise DealError(f"{where}: {cards} is not a set of the 52 cards")
        return cards
    mask = 0
    for card in parse_cards(cards):
        if mask >> card & 1:
            raise DealError(f"{where}: {card} is listed twice")
        mask |= 1 << card
    return mask


class HandState:
    """The state of one hand. Seats are numbered 0..players-1 in playing order; "left" is the
    next seat (the one that plays after you)."""

    __slots__ = (
        "_hands",
        "_hearts_broken",
        "_history",
        "_leader",
        "_legal",
        "_passes",
        "_phase",
        "_result",
        "_taken",
        "_to_move",
        "_trick",
        "_tricks",
        "_won",
        "dealt",
        "pass_direction",
        "players",
        "rules",
        "seed",
    )

    def __init__(
        self,
        rules: Rules,
        dealt: Sequence[int],
        pass_direction: PassDirection | str = PassDirection.HOLD,
        *,
        seed: int | None = None,
    ) -> None:
        """Prefer ``from_seed`` or ``from_deal``. ``dealt`` is one card mask per seat."""
        direction = PassDirection(pass_direction)
        direction.offset(rules.players)  # refuses "across" at an odd table
        if rules.pass_count == 0:
            direction = PassDirection.HOLD
        _check_deal(rules, dealt)
        self.rules = rules
        self.players = rules.players
        self.pass_direction = direction
        self.seed = seed
        self.dealt = tuple(dealt)
        self._hands = list(dealt)
        self._passes: list[int | None] = [None] * self.players
        self._trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._taken = [0] * self.players
        self._won = [0] * self.players
        self._hearts_broken = False
        self._history: list[tuple] = []
        self._result: HandResult | None = None
        self._leader = -1
        self._to_move = -1
        self._legal = -1  # the legal-card mask of the seat to move, or -1 when not yet worked out
        if direction is PassDirection.HOLD:
            self._start_play()
        else:
            self._phase = Phase.PASSING

    @classmethod
    def from_seed(
        cls,
        seed: int,
        rules: Rules | None = None,
        pass_direction: PassDirection | str | None = None,
    ) -> HandState:
        """A seeded deal; the pass direction defaults to the first of the rules' cycle."""
        rules = rules or STANDARD
        direction = rules.pass_direction(0) if pass_direction is None else pass_direction
        return cls(rules, deal_from_seed(seed, rules.players), direction, seed=seed)

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[int | CardSet | str | Iterable[Card | int | str]],
        rules: Rules | None = None,
        pass_direction: PassDirection | str = PassDirection.HOLD,
    ) -> HandState:
        """A deal given card by card, one hand per seat: ``["2C 5D ...", ...]``."""
        masks = [_to_mask(hand, f"seat {seat}") for seat, hand in enumerate(hands)]
        return cls(rules or STANDARD, masks, pass_direction)

    @classmethod
    def _imagined(
        cls,
        rules: Rules,
        hands: Sequence[int],
        tricks: Sequence[tuple[int, tuple[int, ...], int]],
        trick: Sequence[int],
        leader: int,
        hearts_broken: bool,
    ) -> HandState:
        """A hand in play built straight from its parts, without checks or history: the worlds
        a search imagines. Taken cards and tricks won are worked out from ``tricks``."""
        state = cls.__new__(cls)
        state.rules = rules
        state.players = players = rules.players
        state.pass_direction = PassDirection.HOLD
        state.seed = None
        state._hands = list(hands)
        state.dealt = tuple(hands)
        state._passes = [None] * players
        state._phase = Phase.PLAYING
        state._tricks = list(tricks)
        state._trick = list(trick)
        state._leader = leader
        state._to_move = (leader + len(trick)) % players
        state._hearts_broken = hearts_broken
        state._taken = [0] * players
        state._won = [0] * players
        for _, cards, winner in tricks:
            state._won[winner] += 1
            for card in cards:
                state._taken[winner] |= 1 << card
        state._history = []
        state._result = None
        state._legal = -1
        return state

    # ----- what anyone can see -----

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.DONE

    @property
    def to_move(self) -> int | None:
        """The seat to play (or to choose what to do with a moon); None while passing or done."""
        return self._to_move if self._phase in (Phase.PLAYING, Phase.MOON_CHOICE) else None

    @property
    def seats_to_pass(self) -> tuple[int, ...]:
        if self._phase is not Phase.PASSING:
            return ()
        return tuple(seat for seat, chosen in enumerate(self._passes) if chosen is None)

    def hand(self, seat: int) -> CardSet:
        """The cards the seat holds now (before the exchange, the cards it was dealt)."""
        return CardSet(self._hands[seat])

    def dealt_hand(self, seat: int) -> CardSet:
        return CardSet(self.dealt[seat])

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_direction.offset(self.players)) % self.players

    def pass_source(self, seat: int) -> int:
        return (seat - self.pass_direction.offset(self.players)) % self.players

    def passed(self, seat: int) -> CardSet | None:
        """The cards the seat chose to pass, once it has chosen."""
        chosen = self._passes[seat]
        return None if chosen is None else CardSet(chosen)

    def received(self, seat: int) -> CardSet | None:
        """The cards the seat received; None until every seat has passed."""
        if self.pass_direction is PassDirection.HOLD or self._phase is Phase.PASSING:
            return None
        return CardSet(self._passes[self.pass_source(seat)])

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(
            Trick(leader, tuple(CARDS[c] for c in cards), self.players) for leader, cards, _ in self._tricks
        )

    @property
    def current_trick(self) -> Trick:
        return Trick(self._leader, tuple(CARDS[c] for c in self._trick), self.players)

    @property
    def trick_number(self) -> int:
        """0-based index of the trick being played."""
        return len(self._tricks)

    @property
    def is_first_trick(self) -> bool:
        return not self._tricks

    @property
    def hearts_broken(self) -> bool:
        return self._hearts_broken

    @property
    def cards_played(self) -> int:
        return len(self._tricks) * self.players + len(self._trick)

    def taken(self, seat: int) -> CardSet:
        """The cards in the tricks the seat has won."""
        return CardSet(self._taken[seat])

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Points of the cards each seat has taken so far (before any moon)."""
        return tuple(self.rules.points_in(mask) for mask in self._taken)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    @property
    def result(self) -> HandResult | None:
        """The hand's score, once it is over."""
        return self._result if self._phase is Phase.DONE else None

    @property
    def moon_shooter(self) -> int | None:
        """Who took every point card, once the last trick is played."""
        if self._phase in (Phase.MOON_CHOICE, Phase.DONE):
            return find_shooter(self.rules, self._taken)
        return None

    @property
    def history(self) -> tuple[PassAction | PlayAction | MoonAction, ...]:
        actions: list[PassAction | PlayAction | MoonAction] = []
        for kind, seat, payload, _ in self._history:
            if kind == _PASS:
                actions.append(PassAction(seat, CardSet(payload)))
            elif kind == _PLAY:
                actions.append(PlayAction(seat, CARDS[payload]))
            else:
                actions.append(MoonAction(seat, payload))
        return tuple(actions)

    def view(self, seat: int, **context: object):  # -> PlayerView
        """What ``seat`` may know, and nothing else."""
        from .view import PlayerView

        return PlayerView.of(self, seat, **context)

    # ----- passing -----

    def why_not_pass(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> Refusal | None:
        if self.pass_direction is PassDirection.HOLD:
            return Refusal(Reason.NO_PASS_THIS_HAND, "There is no passing on this hand: it is a hold hand.")
        if self._phase is not Phase.PASSING:
            return Refusal(Reason.WRONG_PHASE, "Passing is over: the cards have been exchanged.")
        if refusal := self._check_seat(seat):
            return refusal
        if self._passes[seat] is not None:
            return Refusal(Reason.ALREADY_PASSED, "You have already passed your cards for this hand.")
        chosen = parse_cards(cards)
        seen: set[int] = set()
        for card in chosen:
            if card in seen:
                return Refusal(Reason.CARD_REPEATED, f"You chose {card} twice.")
            seen.add(card)
        for card in chosen:
            if not self._hands[seat] >> card & 1:
                return Refusal(Reason.NOT_IN_HAND, f"You do not hold the {card}.")
        count = self.rules.pass_count
        if len(chosen) != count:
            return Refusal(Reason.WRONG_PASS_COUNT, f"Pass exactly {count} cards: you chose {len(chosen)}.")
        return None

    def can_pass(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> bool:
        return self.why_not_pass(seat, cards) is None

    def verify_pass(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> None:
        if refusal := self.why_not_pass(seat, cards):
            raise IllegalAction(refusal)

    def pass_cards(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> None:
        """Choose the cards ``seat`` passes. Cards change hands when every seat has chosen."""
        self.verify_pass(seat, cards)
        mask = _to_mask(cards)
        self._passes[seat] = mask
        self._history.append((_PASS, seat, mask, self._hearts_broken))
        if all(chosen is not None for chosen in self._passes):
            self._exchange()

    def _exchange(self) -> None:
        offset = self.pass_direction.offset(self.players)
        n = self.players
        self._hands = [
            (self.dealt[seat] & ~self._passes[seat]) | self._passes[(seat - offset) % n] for seat in range(n)
        ]
        self._start_play()

    def _start_play(self) -> None:
        self._phase = Phase.PLAYING
        self._legal = -1
        lowest = self.rules.lowest_club
        self._to_move = next(seat for seat, mask in enumerate(self._hands) if mask >> lowest & 1)
        self._leader = self._to_move

    # ----- playing -----

    def legal_cards(self, seat: int | None = None) -> CardSet:
        """The cards ``seat`` (by default the seat to move) may play now; empty when it is not
        that seat's turn."""
        if self._phase is not Phase.PLAYING or (seat is not None and seat != self._to_move):
            return CardSet.from_mask(0)
        legal = self._legal
        if legal < 0:
            legal = self._legal = self._legal_mask()
        return CardSet.from_mask(legal)

    @property
    def legal_mask(self) -> int:
        """``legal_cards()`` as a bit mask, for fast loops."""
        if self._phase is not Phase.PLAYING:
            return 0
        legal = self._legal
        if legal < 0:
            legal = self._legal = self._legal_mask()
        return legal

    def _legal_mask(self) -> int:
        hand = self._hands[self._to_move]
        rules = self.rules
        trick = self._trick
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            if follow:
                return follow
            if not self._tricks and rules.no_points_on_first_trick:
                safe = hand & ~rules.point_mask
                if safe:
                    return safe
            return hand
        if not self._tricks:
            return hand & _CLUBS if rules.lead_any_club else 1 << rules.lowest_club
        if self._hearts_broken or not rules.must_break_hearts:
            return hand
        others = hand & ~HEARTS_MASK
        if not others or (others == _QUEEN_BIT and rules.hearts_instead_of_queen):
            return hand
        return others

    def why_not_play(self, card: Card | int | str, seat: int | None = None) -> Refusal | None:
        """None if ``seat`` (by default the seat to move) may play ``card`` now, else why not."""
        card = to_card(card)
        if self._phase is Phase.PASSING:
            return Refusal(
                Reason.WRONG_PHASE, "Cards are still being passed: play starts after the exchange."
            )
        if self._phase is not Phase.PLAYING:
            return Refusal(Reason.WRONG_PHASE, "The hand is over: every card has been played.")
        if seat is None:
            seat = self._to_move
        if refusal := self._check_seat(seat):
            return refusal
        hand = self._hands[seat]
        if not hand >> card & 1:
            return Refusal(Reason.NOT_IN_HAND, f"You do not hold the {card}.")
        if seat != self._to_move:
            return Refusal(Reason.NOT_YOUR_TURN, f"It is not your turn: seat {self._to_move} plays next.")
        if self._legal_mask() >> card & 1:
            return None
        return self._rule_refusal(card, hand)

    def _rule_refusal(self, card: Card, hand: int) -> Refusal:
        rules = self.rules
        if self._trick:
            led = Suit(self._trick[0] // 13)
            if hand & SUIT_MASKS[led]:
                return Refusal(Reason.MUST_FOLLOW_SUIT, f"You must follow suit: you hold {led.symbol}.")
            safe = next(iter_mask(hand & ~rules.point_mask))
            return Refusal(
                Reason.NO_POINTS_ON_FIRST_TRICK,
                f"No points on the first trick while you hold a card worth nothing, such as the {safe}.",
            )
        if not self._tricks:
            if rules.lead_any_club:
                return Refusal(Reason.MUST_LEAD_A_CLUB, "The first trick must be led with a club.")
            lowest = rules.lowest_club
            return Refusal(
                Reason.MUST_LEAD_LOWEST_CLUB, f"The {lowest} leads the first trick: you must play it."
            )
        if hand & ~HEARTS_MASK == _QUEEN_BIT:
            return Refusal(
                Reason.HEARTS_NOT_BROKEN,
                "Hearts are not broken yet, and the Q♠ is your only other card: you must lead her.",
            )
        return Refusal(Reason.HEARTS_NOT_BROKEN, "Hearts are not broken yet: lead another suit.")

    def can_play(self, card: Card | int | str, seat: int | None = None) -> bool:
        return self.why_not_play(card, seat) is None

    def verify_play(self, card: Card | int | str, seat: int | None = None) -> None:
        if refusal := self.why_not_play(card, seat):
            raise IllegalAction(refusal)

    def play(self, card: Card | int | str, seat: int | None = None) -> None:
        """Play ``card`` for the seat to move (``seat``, when given, must be that seat)."""
        if type(card) is not Card:
            card = to_card(card)
        legal = self._legal
        if legal < 0 and self._phase is Phase.PLAYING:
            legal = self._legal = self._legal_mask()
        if (
            self._phase is not Phase.PLAYING
            or (seat is not None and seat != self._to_move)
            or not legal >> card & 1
        ):
            raise IllegalAction(self.why_not_play(card, seat))
        # Apply it.
        seat = self._to_move
        self._hands[seat] ^= 1 << card
        self._history.append((_PLAY, seat, card, self._hearts_broken))
        self._legal = -1
        if card >= _FIRST_HEART or (card == QUEEN_OF_SPADES and self.rules.queen_breaks_hearts):
            self._hearts_broken = True
        trick = self._trick
        trick.append(card)
        if len(trick) < self.players:
            self._to_move = (seat + 1) % self.players
            return
        best, mask = trick_taker(trick)
        winner = (self._leader + best) % self.players
        self._taken[winner] |= mask
        self._won[winner] += 1
        self._tricks.append((self._leader, tuple(trick), winner))
        self._trick = []
        self._leader = self._to_move = winner
        if len(self._tricks) == self.rules.hand_size:
            self._finish()

    def _finish(self) -> None:
        shooter = find_shooter(self.rules, self._taken)
        if shooter is not None and self.rules.moon == "shooters_choice":
            self._phase = Phase.MOON_CHOICE
            self._to_move = shooter
            return
        self._result = score_hand(self.rules, self._taken, self._won)
        self._phase = Phase.DONE

    # ----- the shooter's choice -----

    def why_not_choose_moon(self, choice: MoonChoice | str, seat: int | None = None) -> Refusal | None:
        if self._phase is not Phase.MOON_CHOICE:
            return Refusal(Reason.WRONG_PHASE, "There is no moon to score now.")
        if seat is not None and seat != self._to_move:
            return Refusal(Reason.NOT_THE_SHOOTER, f"Only the shooter, seat {self._to_move}, chooses.")
        if choice not in tuple(MoonChoice):
            allowed = " or ".join(repr(c.value) for c in MoonChoice)
            return Refusal(Reason.NOT_A_MOON_CHOICE, f"{choice!r} is not a moon choice: choose {allowed}.")
        return None

    def can_choose_moon(self, choice: MoonChoice | str, seat: int | None = None) -> bool:
        return self.why_not_choose_moon(choice, seat) is None

    def verify_moon_choice(self, choice: MoonChoice | str, seat: int | None = None) -> None:
        if refusal := self.why_not_choose_moon(choice, seat):
            raise IllegalAction(refusal)

    def choose_moon(self, choice: MoonChoice | str, seat: int | None = None) -> None:
        """The shooter's choice: add the moon to every other score, or subtract it from theirs."""
        self.verify_moon_choice(choice, seat)
        choice = MoonChoice(choice)
        self._history.append((_MOON, self._to_move, choice, self._hearts_broken))
        self._result = score_hand(self.rules, self._taken, self._won, choice)
        self._phase = Phase.DONE

    # ----- taking back -----

    def take_back(self, count: int = 1) -> None:
        """Undo the last ``count`` actions (passes, plays, a moon choice)."""
        if not 0 <= count <= len(self._history):
            raise IllegalAction(
                Refusal(
                    Reason.NOTHING_TO_TAKE_BACK,
                    f"Cannot take back {count} actions: {len(self._history)} have been made.",
                )
            )
        for _ in range(count):
            self._undo()

    def take_back_to(self, actions: int) -> None:
        """Return to the point when ``actions`` actions had been made (0 is the deal)."""
        self.take_back(len(self._history) - actions)

    def _undo(self) -> None:
        kind, seat, payload, hearts_broken = self._history.pop()
        self._legal = -1
        if kind == _MOON:
            self._phase = Phase.MOON_CHOICE
            self._result = None
            return
        if kind == _PASS:
            self._passes[seat] = None
            self._hands = list(self.dealt)
            self._phase = Phase.PASSING
            self._to_move = self._leader = -1
            return
        if self._phase is not Phase.PLAYING:
            self._phase = Phase.PLAYING
            self._result = None
        if not self._trick:
            leader, cards, winner = self._tricks.pop()
            for c in cards:
                self._taken[winner] ^= 1 << c
            self._won[winner] -= 1
            self._trick = list(cards)
            self._leader = leader
        self._trick.pop()
        self._hands[seat] |= 1 << payload
        self._hearts_broken = hearts_broken
        self._to_move = seat

    @property
    def actions_made(self) -> int:
        return len(self._history)

    # ----- helpers -----

    def _check_seat(self, seat: object) -> Refusal | None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            return Refusal(Reason.NO_SUCH_SEAT, f"There is no seat {seat!r} at a table of {self.players}.")
        return None

    def copy(self) -> HandState:
        """An independent copy (for "what if" without touching this hand)."""
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.players = self.players
        other.pass_direction = self.pass_direction
        other.seed = self.seed
        other.dealt = self.dealt
        other._hands = self._hands[:]
        other._passes = self._passes[:]
        other._phase = self._phase
        other._trick = self._trick[:]
        other._leader = self._leader
        other._tricks = self._tricks[:]
        other._taken = self._taken[:]
        other._won = self._won[:]
        other._to_move = self._to_move
        other._hearts_broken = self._hearts_broken
        other._history = self._history[:]
        other._result = self._result
        other._legal = self._legal
        return other

    def __repr__(self) -> str:
        return (
            f"<HandState {self._phase.value} players={self.players} pass={self.pass_direction.value} "
            f"trick={len(self._tricks) + 1} to_move={self.to_move}>"
        )
