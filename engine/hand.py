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
from itertools import combinations
from typing import ClassVar, NamedTuple

from .cards import (
    _CLUBS,
    _DIAMONDS,
    _HEARTS,
    _ONE_SUIT,
    _SPADES,
    CARDS,
    HEARTS_MASK,
    NO_CARDS,
    SUIT_MASKS,
    Card,
    CardSet,
    CardTuple,
    Suit,
    card_tuple,
    iter_mask,
    parse_cards,
    to_card,
)
from .deal import MAX_PLAYERS, deal_from_seed
from .kernel import breaks_hearts, exchange, first_leader, trick_taker, trick_winner
from .kernel import legal_mask as kernel_legal_mask
from .reasons import IllegalAction, Reason, Refusal
from .rules import QUEEN_OF_SPADES, STANDARD, PassDirection, Rules
from .scoring import HandResult, MoonChoice, find_shooter, score_hand

__all__ = [
    "Action",
    "ActionRecord",
    "DealError",
    "HandState",
    "MoonAction",
    "PassAction",
    "Phase",
    "PlayAction",
    "Trick",
]

_QUEEN_BIT = 1 << QUEEN_OF_SPADES
_new = object.__new__
_BITS = tuple(1 << card for card in range(52))
# The cards that break hearts when played (the kernel's rule, card by card), without and with
# the Q♠ breaking them: play() tests one bit.
_BREAKERS = tuple(sum(1 << card for card in range(52) if breaks_hearts(1 << card, queen)) for queen in (0, 1))


class Phase(StrEnum):
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"
    DONE = "done"


# The phases as plain globals: an enum member read through its class is slower, on every card.
_PASSING, _PLAYING, _MOON_CHOICE, _DONE = Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE, Phase.DONE


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
        return trick_winner(self.cards, self.leader, self.players)[0]

    def card_of(self, seat: int) -> Card | None:
        for player, card in self.plays:
            if player == seat:
                return card
        return None


@dataclass(frozen=True)
class PassAction:
    seat: int
    cards: CardSet
    kind: ClassVar[str] = "pass"

    @property
    def choice(self) -> CardSet:
        return self.cards


@dataclass(frozen=True)
class PlayAction:
    seat: int
    card: Card
    kind: ClassVar[str] = "play"

    @property
    def choice(self) -> Card:
        return self.card


@dataclass(frozen=True)
class MoonAction:
    seat: int
    choice: MoonChoice
    kind: ClassVar[str] = "moon"


Action = PassAction | PlayAction | MoonAction

# Every play as one shared value (they are frozen): a play's record costs no new action.
_PLAYS = tuple(tuple(PlayAction(seat, card) for card in CARDS) for seat in range(MAX_PLAYERS))
_NO_POINTS = tuple((0,) * players for players in range(MAX_PLAYERS + 1))
# The seat after each seat, at a table of each size.
_NEXT_SEAT = tuple(
    tuple((seat + 1) % players for seat in range(players)) for players in range(MAX_PLAYERS + 1)
)


class ActionRecord(NamedTuple):
    """One action as it was made (``HandState.apply``); the hand keeps them as its history."""

    seat: int
    action: Action
    phase: Phase
    """The phase the action was made in."""
    trick: Trick | None
    """The trick the play completed, if it did."""
    winner: int | None
    """Who took that trick."""
    points: tuple[int, ...]
    """Each seat's change of score: the points of a trick it took, and when the hand ends,
    the moon and bonuses of the hand's result (the score is the points taken until then)."""
    broke_hearts: bool
    """The play broke hearts."""


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
    next seat (the one that plays after you).

    ``is_over`` and ``legal_mask`` (the cards the seat to move may play, as a bit mask; 0 unless
    a card is to be played) are plain attributes, kept up to date by every action: read them,
    never set them (a play-out reads both every card, and a property costs a call)."""

    __slots__ = (
        "_breakers",
        "_broken_at",
        "_hands",
        "_hearts_broken",
        "_leader",
        "_next_seat",
        "_passes",
        "_phase",
        "_play_rules",
        "_records",
        "_result",
        "_start",
        "_taken",
        "_to_move",
        "_trick",
        "_tricks",
        "_won",
        "dealt",
        "is_over",
        "legal_mask",
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
        _check_deal(rules, dealt)
        self._deal(rules, tuple(dealt), pass_direction, seed)

    def _deal(
        self, rules: Rules, dealt: tuple[int, ...], pass_direction: PassDirection | str, seed: int | None
    ) -> None:
        """Start the hand on a deal known to be sound."""
        direction = pass_direction if type(pass_direction) is PassDirection else PassDirection(pass_direction)
        direction.offset(rules.players)  # refuses "across" at an odd table
        if rules.pass_count == 0:
            direction = PassDirection.HOLD
        self.rules = rules
        self.players = rules.players
        self._next_seat = _NEXT_SEAT[rules.players]
        self.pass_direction = direction
        self.seed = seed
        self.dealt = dealt
        self._hands = list(dealt)
        self._passes: list[int | None] = [None] * self.players
        self._trick: list[int] = []
        # (leader, cards, winner) of each complete trick; its cards list is never changed again
        self._tricks: list[tuple[int, Sequence[int], int]] = []
        self._taken = [0] * self.players
        self._won = [0] * self.players
        self._hearts_broken = False
        # The history: a record per pass and moon choice; the plays are the tricks' cards from
        # play number ``_start`` on, made into records when asked for (a play-out plays many cards
        # per record read). Hearts broken is settled when a trick completes (only a lead reads
        # it): ``_hearts_broken`` and ``_broken_at`` (the number of the play that broke them, or
        # -1) are as of the last complete trick; the trick in play is looked at when asked.
        self._records: list[ActionRecord] = []
        self._start = 0
        self._broken_at = -1
        self._result: HandResult | None = None
        self._leader = -1
        self._to_move = -1
        self._play_rules = rules.play_rules
        # The cards that would break hearts if played now (none once they are broken).
        self._breakers = _BREAKERS[self._play_rules.queen_breaks]
        # The legal-card mask of the seat to move, kept up to date by every change (0 unless
        # playing): a play needs it to be checked, and the next play is the next seat's.
        self.legal_mask = 0
        self.is_over = False
        if direction is PassDirection.HOLD:
            self._start_play()
        else:
            self._phase = _PASSING

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
        state = cls.__new__(cls)
        state._deal(rules, deal_from_seed(seed, rules.players), direction, seed)  # a sound deal
        return state

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
    def imagined(
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
        state._next_seat = _NEXT_SEAT[players]
        state.pass_direction = PassDirection.HOLD
        state.seed = None
        state._hands = list(hands)
        state.dealt = tuple(hands)
        state._passes = [None] * players
        state._phase = _PLAYING
        state.is_over = False
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
        state._records = []
        state._start = len(tricks) * players + len(trick)  # the history starts here
        state._broken_at = -1
        state._result = None
        state._play_rules = rules.play_rules
        state._breakers = 0 if hearts_broken else _BREAKERS[state._play_rules.queen_breaks]
        state.legal_mask = state._legal_mask()
        return state

    # ----- what anyone can see -----

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_move(self) -> int | None:
        """The seat to play (or to choose what to do with a moon); None while passing or done."""
        return self._to_move if self._phase in (_PLAYING, _MOON_CHOICE) else None

    @property
    def seat_to_act(self) -> int | None:
        """The seat whose decision the hand waits for, whatever the phase: the first seat yet
        to pass, the seat to play, the shooter choosing; None once the hand is over."""
        if self._phase is _PASSING:
            return self._passes.index(None)
        return self._to_move if self._phase is not _DONE else None

    @property
    def seats_to_pass(self) -> tuple[int, ...]:
        if self._phase is not _PASSING:
            return ()
        return tuple(seat for seat, chosen in enumerate(self._passes) if chosen is None)

    def hand(self, seat: int) -> CardSet:
        """The cards the seat holds now (before the exchange, the cards it was dealt)."""
        cards = _new(CardSet)
        cards.mask = self._hands[seat]  # a sound mask: no check
        return cards

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
        if self.pass_direction is PassDirection.HOLD or self._phase is _PASSING:
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
        return self._hearts_broken or self._broken_play() >= 0

    def _broken_play(self) -> int:
        """The number of the play that broke hearts (one in the trick in play too), or -1."""
        if self._broken_at >= 0 or not self._breakers:
            return self._broken_at
        breakers = self._breakers
        for place, card in enumerate(self._trick):
            if breakers >> card & 1:
                return len(self._tricks) * self.players + place
        return -1

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
        if self._phase is not _DONE:
            return None
        if self._result is None:  # scored when first asked for (a play-out may never ask)
            self._result = score_hand(self.rules, self._taken, self._won)
        return self._result

    @property
    def moon_shooter(self) -> int | None:
        """Who took every point card, once the last trick is played."""
        if self._phase in (_MOON_CHOICE, _DONE):
            return find_shooter(self.rules, self._taken)
        return None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action made, in order."""
        players = self.players
        plays = [
            _PLAYS[(leader + place) % players][card]
            for leader, cards, _ in (*self._tricks, (self._leader, self._trick, None))
            for place, card in enumerate(cards)
        ]
        records = self._records
        moon = records[-1:] if self._moon_chosen else []
        passes = records[: len(records) - len(moon)]
        return (*(record.action for record in passes), *plays[self._start :], *(r.action for r in moon))

    @property
    def records(self) -> tuple[ActionRecord, ...]:
        """Every action's record (``apply``), in order."""
        return tuple(
            entry if type(entry) is ActionRecord else self._play_record(entry) for entry in self._entries()
        )

    def _entries(self) -> list[ActionRecord | int]:
        """Every action in order: the passes' records, the plays' numbers, the moon's record."""
        records = self._records
        moon = records[-1:] if records and records[-1].phase is _MOON_CHOICE else []
        return [*records[: len(records) - len(moon)], *range(self._start, self.cards_played), *moon]

    def _play(self, number: int) -> tuple[PlayAction, tuple[int, tuple[int, ...], int] | None]:
        """Play ``number`` of the hand (0 is the first card): the action, and the trick (leader,
        cards, winner) when the play completed it."""
        index, place = divmod(number, self.players)
        if index < len(self._tricks):
            trick = self._tricks[index]
            leader, cards = trick[0], trick[1]
        else:
            trick, leader, cards = None, self._leader, self._trick
        seat = (leader + place) % self.players
        return _PLAYS[seat][cards[place]], trick if place == self.players - 1 else None

    def _play_record(self, number: int) -> ActionRecord:
        action, done = self._play(number)
        players = self.players
        broke = number == self._broken_play()
        if done is None:
            return ActionRecord(action.seat, action, _PLAYING, None, None, _NO_POINTS[players], broke)
        leader, cards, winner = done
        moved = [0] * players
        moved[winner] = self.rules.points_in(sum(1 << c for c in cards))
        result = self.result
        if number == self.rules.hand_size * players - 1 and result is not None and not self._moon_chosen:
            # The hand's last play also scored the hand: the result's changes beyond the cards.
            for seat, (score, taken) in enumerate(zip(result.scores, result.points_taken, strict=True)):
                moved[seat] += score - taken
        trick = Trick(leader, tuple(CARDS[c] for c in cards), players)
        return ActionRecord(action.seat, action, _PLAYING, trick, winner, tuple(moved), broke)

    @property
    def _moon_chosen(self) -> bool:
        return bool(self._records) and self._records[-1].phase is _MOON_CHOICE

    # ----- the position as plain ints, for search and play-outs -----

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Every seat's cards now, as masks."""
        return tuple(self._hands)

    @property
    def taken_masks(self) -> tuple[int, ...]:
        """The cards each seat has taken, as masks."""
        return tuple(self._taken)

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the trick in play, as ints, in the order they were played."""
        return tuple(self._trick)

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the trick in play; -1 while passing."""
        return self._leader

    def view(self, seat: int, **context: object):  # -> PlayerView
        """What ``seat`` may know, and nothing else."""
        from .view import PlayerView

        return PlayerView.of(self, seat, **context)

    # ----- passing -----

    def why_not_pass(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> Refusal | None:
        if self.pass_direction is PassDirection.HOLD:
            return Refusal(Reason.NO_PASS_THIS_HAND, "There is no passing on this hand: it is a hold hand.")
        if self._phase is not _PASSING:
            return Refusal(Reason.WRONG_PHASE, "Passing is over: the cards have been exchanged.")
        if refusal := self._check_seat(seat):
            return refusal
        if self._passes[seat] is not None:
            return Refusal(Reason.ALREADY_PASSED, "You have already passed your cards for this hand.")
        return self._pass_refusal(seat, parse_cards(cards))

    def _pass_refusal(self, seat: int, chosen: list[Card]) -> Refusal | None:
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

    def pass_cards(self, seat: int, cards: CardSet | str | Iterable[Card | int | str]) -> ActionRecord:
        """Choose the cards ``seat`` passes. Cards change hands when every seat has chosen."""
        if (
            self._phase is not _PASSING
            or type(seat) is not int
            or not 0 <= seat < self.players
            or self._passes[seat] is not None
        ):
            self.verify_pass(seat, cards)  # raises, saying why
        # A list of Cards is what parse_cards would make of it: read as it is.
        chosen = cards if type(cards) is list else None
        mask = 0
        if chosen is not None:
            for card in chosen:
                if type(card) is not Card:
                    chosen = None
                    break
                mask |= 1 << card
        if chosen is None:
            chosen, mask = parse_cards(cards), 0
            for card in chosen:
                mask |= 1 << card
        count = self.rules.pass_count
        # Sound when the cards are as many as the rule says, all different and all held.
        if len(chosen) != count or mask.bit_count() != count or mask & ~self._hands[seat]:
            raise IllegalAction(self._pass_refusal(seat, chosen))
        self._passes[seat] = mask
        passed = _new(CardSet)
        passed.mask = mask
        record = ActionRecord(
            seat, PassAction(seat, passed), _PASSING, None, None, _NO_POINTS[self.players], False
        )
        self._records.append(record)
        if None not in self._passes:
            self._hands = exchange(self.dealt, self._passes, self.pass_direction.offset(self.players))
            self._start_play()
        return record

    def _start_play(self) -> None:
        self._phase = _PLAYING
        self._to_move = self._leader = first_leader(self._hands, self.rules.lowest_club)
        self.legal_mask = self._legal_mask()

    # ----- playing -----

    def legal_cards(self, seat: int | None = None) -> CardTuple:
        """The cards ``seat`` (by default the seat to move) may play now, in hand order, as a
        tuple that also answers as a CardSet (``CardTuple``); empty when it is not that seat's
        turn. ``legal_mask`` is the same cards as a bit mask."""
        if seat is not None and seat != self._to_move:
            return NO_CARDS
        # engine.cards.card_tuple inlined (a play-out asks this every card): change both
        mask = self.legal_mask
        cards = _ONE_SUIT.get(mask)
        if cards is not None:
            return cards
        try:
            return CardTuple(
                _CLUBS[mask & 8191]
                + _DIAMONDS[mask >> 13 & 8191]
                + _SPADES[mask >> 26 & 8191]
                + _HEARTS[mask >> 39]
            )
        except TypeError:  # a segment not listed yet
            return card_tuple(mask)

    def _legal_mask(self) -> int:
        """The legal-card mask of the seat to move, worked out afresh (0 unless playing)."""
        if self._phase is not _PLAYING:
            return 0
        trick = self._trick
        led = trick[0] // 13 if trick else -1
        return kernel_legal_mask(
            self._hands[self._to_move], led, not self._tricks, self._hearts_broken, self._play_rules
        )

    def why_not_play(self, card: Card | int | str, seat: int | None = None) -> Refusal | None:
        """None if ``seat`` (by default the seat to move) may play ``card`` now, else why not."""
        card = to_card(card)
        if self._phase is _PASSING:
            return Refusal(
                Reason.WRONG_PHASE, "Cards are still being passed: play starts after the exchange."
            )
        if self._phase is not _PLAYING:
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
        if self.legal_mask >> card & 1:
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
        """Play ``card`` for the seat to move (``seat``, when given, must be that seat);
        ``apply(PlayAction(...))`` does the same and returns the play's record."""
        # A play-out runs this every card: the usual case (a Card, no seat named, legal) is
        # told by one bit test, and a play that completes no trick does little more.
        if type(card) is not Card or seat is not None or not self.legal_mask & _BITS[card]:
            card = self._checked(card, seat)
        seat = self._to_move
        hands = self._hands
        hands[seat] ^= _BITS[card]
        trick = self._trick
        trick.append(card)
        seat = self._next_seat[seat]
        if seat != self._leader:  # the trick goes on
            self._to_move = seat
            # (hearts broken as of the last trick: the rule reads it only for a lead)
            self.legal_mask = kernel_legal_mask(
                hands[seat], trick[0] // 13, not self._tricks, self._hearts_broken, self._play_rules
            )
            return
        players = self.players
        leader = self._leader
        taker, mask = trick_taker(trick)
        winner = leader + taker
        if winner >= players:
            winner -= players
        tricks = self._tricks
        if mask & self._breakers:
            self._break_hearts(len(tricks) * players)
        self._taken[winner] |= mask
        self._won[winner] += 1
        tricks.append((leader, trick, winner))  # the list itself: no play changes it again
        self._trick = []
        self._leader = self._to_move = winner
        if hands[winner]:  # every seat holds as many cards: none left is the hand's end
            self.legal_mask = kernel_legal_mask(
                hands[winner], -1, False, self._hearts_broken, self._play_rules
            )
            return
        self.legal_mask = 0
        self._finish()

    def _break_hearts(self, first: int) -> None:
        """The trick in play (its first play number ``first``) broke hearts."""
        breakers = self._breakers
        self._broken_at = first + next(
            place for place, card in enumerate(self._trick) if breakers >> card & 1
        )
        self._hearts_broken = True
        self._breakers = 0

    def _checked(self, card: Card | int | str, seat: int | None) -> Card:
        """``card`` as a Card, when the seat to move (``seat``, if named) may play it now;
        else the refusal is raised."""
        if type(card) is not Card:
            card = to_card(card)
        if not self.legal_mask >> card & 1 or (seat is not None and seat != self._to_move):
            raise IllegalAction(self.why_not_play(card, seat))
        return card

    def _finish(self) -> None:
        if (
            self.rules.moon == "shooters_choice"
            and (shooter := find_shooter(self.rules, self._taken)) is not None
        ):
            self._phase = _MOON_CHOICE
            self._to_move = shooter
            return
        self._phase = _DONE  # the result is worked out when asked for
        self.is_over = True

    # ----- the shooter's choice -----

    def why_not_choose_moon(self, choice: MoonChoice | str, seat: int | None = None) -> Refusal | None:
        if self._phase is not _MOON_CHOICE:
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

    def choose_moon(self, choice: MoonChoice | str, seat: int | None = None) -> ActionRecord:
        """The shooter's choice: add the moon to every other score, or subtract it from theirs."""
        self.verify_moon_choice(choice, seat)
        choice = MoonChoice(choice)
        before = self.points_taken
        self._result = score_hand(self.rules, self._taken, self._won, choice)
        self._phase = _DONE
        self.is_over = True
        shooter = self._to_move
        points = tuple(now - then for now, then in zip(self._result.scores, before, strict=True))
        record = ActionRecord(shooter, MoonAction(shooter, choice), _MOON_CHOICE, None, None, points, False)
        self._records.append(record)
        return record

    # ----- any action -----

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every action that may be made now (by ``seat``, when given): each seat yet to pass
        its possible passes, the seat to move its legal cards, the shooter its moon choices."""
        phase = self._phase
        if phase is _PLAYING:
            if seat is not None and seat != self._to_move:
                return ()
            plays = _PLAYS[self._to_move]
            return tuple(plays[card] for card in iter_mask(self.legal_mask))
        if phase is _PASSING:
            seats = self.seats_to_pass if seat is None else (seat,) * (seat in self.seats_to_pass)
            count = self.rules.pass_count
            return tuple(
                PassAction(chooser, CardSet(sum(1 << card for card in chosen)))
                for chooser in seats
                for chosen in combinations(iter_mask(self._hands[chooser]), count)
            )
        if phase is _MOON_CHOICE and (seat is None or seat == self._to_move):
            return tuple(MoonAction(self._to_move, choice) for choice in MoonChoice)
        return ()

    def why_not(self, action: Action) -> Refusal | None:
        """None if ``action`` may be made now, else why not."""
        if isinstance(action, PlayAction):
            return self.why_not_play(action.card, action.seat)
        if isinstance(action, PassAction):
            return self.why_not_pass(action.seat, action.cards)
        if isinstance(action, MoonAction):
            return self.why_not_choose_moon(action.choice, action.seat)
        raise TypeError(f"{action!r} is not an action: expected a PassAction, PlayAction or MoonAction")

    def can(self, action: Action) -> bool:
        return self.why_not(action) is None

    def verify(self, action: Action) -> None:
        if refusal := self.why_not(action):
            raise IllegalAction(refusal)

    def apply(self, action: Action) -> ActionRecord:
        """Make ``action`` (refused, changing nothing, when it is not legal now) and return its
        record."""
        kind = type(action)
        if kind is PlayAction:
            self.play(action.card, action.seat)
            return self._play_record(self.cards_played - 1)
        if kind is PassAction:
            return self.pass_cards(action.seat, action.cards)
        if kind is MoonAction:
            return self.choose_moon(action.choice, action.seat)
        self.why_not(action)  # raises TypeError naming what it was given
        raise TypeError(f"{action!r} is not an action")

    # ----- taking back -----

    def take_back(self, count: int = 1) -> None:
        """Undo the last ``count`` actions (passes, plays, a moon choice)."""
        if not 0 <= count <= self.actions_made:
            raise IllegalAction(
                Refusal(
                    Reason.NOTHING_TO_TAKE_BACK,
                    f"Cannot take back {count} actions: {self.actions_made} have been made.",
                )
            )
        for _ in range(count):
            self._undo()

    def take_back_to(self, actions: int) -> None:
        """Return to the point when ``actions`` actions had been made (0 is the deal)."""
        self.take_back(self.actions_made - actions)

    def _undo(self) -> None:
        if self._moon_chosen:
            self._records.pop()
            self._phase = _MOON_CHOICE
            self._result = None
        elif self.cards_played > self._start:
            self._undo_play()
        else:  # a pass
            self._passes[self._records.pop().seat] = None
            self._hands = list(self.dealt)
            self._phase = _PASSING
            self._to_move = self._leader = -1
        self.is_over = False
        self.legal_mask = self._legal_mask()

    def _undo_play(self) -> None:
        if self._phase is not _PLAYING:
            self._phase = _PLAYING
            self._result = None
        if not self._trick:
            leader, cards, winner = self._tricks.pop()
            for c in cards:
                self._taken[winner] ^= 1 << c
            self._won[winner] -= 1
            self._trick = list(cards)
            self._leader = leader
            if self._broken_at >= len(self._tricks) * self.players:  # broken in this trick
                self._hearts_broken = False
                self._breakers = _BREAKERS[self._play_rules.queen_breaks]
                self._broken_at = -1
        card = self._trick.pop()
        seat = (self._leader + len(self._trick)) % self.players
        self._hands[seat] |= 1 << card
        self._to_move = seat

    @property
    def actions_made(self) -> int:
        return len(self._records) + self.cards_played - self._start

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
        other._next_seat = self._next_seat
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
        other._records = self._records[:]
        other._start = self._start
        other._broken_at = self._broken_at
        other._result = self._result
        other._play_rules = self._play_rules
        other._breakers = self._breakers
        other.legal_mask = self.legal_mask
        other.is_over = self.is_over
        return other

    def __repr__(self) -> str:
        return (
            f"<HandState {self._phase.value} players={self.players} pass={self.pass_direction.value} "
            f"trick={len(self._tricks) + 1} to_move={self.to_move}>"
        )
