"""Cards, suits and sets of cards.

A card is a small int, ``suit * 13 + rank_index``, so that a set of cards is one int bit mask
(bit ``card`` set when the card is in the set). Within a suit a higher bit is a higher card,
which makes "highest card of the led suit" a plain integer comparison.

Suits are ordered clubs, diamonds, spades, hearts: the order a hand is sorted in, colours
alternating.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from enum import IntEnum

from .excerpt import excerpt

__all__ = [
    "ALL_CARDS_MASK",
    "CARDS",
    "HEARTS_MASK",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "CardTuple",
    "Suit",
    "card_mask",
    "card_tuple",
    "parse_card",
    "parse_cards",
    "to_card",
]

RANKS_PER_SUIT = 13


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♠♥"[self]

    @property
    def noun(self) -> str:
        """Plural name, as in "you hold no diamonds"."""
        return ("clubs", "diamonds", "spades", "hearts")[self]

    def __str__(self) -> str:
        return self.symbol


_RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
_RANK_BY_TEXT = {code: i for i, code in enumerate(_RANK_CODES)} | {"T": 8}
SUIT_BY_TEXT = {  # every way a suit is written: letter, symbol, outline symbol
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
}  # fmt: skip


class Card(int):
    """One card. It is an ``int`` (0..51), so it works directly in bit masks.

    ``str(card)`` is the learner's notation (``Q♠``); ``card.code`` is the typed one (``QS``).
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise CardParseError(f"{excerpt(value)} is not a card number (0 to 51)")
        return super().__new__(cls, value)

    @property
    def suit(self) -> Suit:
        return Suit(self // RANKS_PER_SUIT)

    @property
    def rank(self) -> int:
        """2..14, where 11 is the jack and 14 the ace."""
        return self % RANKS_PER_SUIT + 2

    @property
    def code(self) -> str:
        return _RANK_CODES[self % RANKS_PER_SUIT] + "CDSH"[self // RANKS_PER_SUIT]

    @property
    def symbol(self) -> str:
        return _RANK_CODES[self % RANKS_PER_SUIT] + "♣♦♠♥"[self // RANKS_PER_SUIT]

    @property
    def name(self) -> str:
        """Spoken name: ``queen of spades``."""
        return f"{_RANK_NAMES[self % RANKS_PER_SUIT]} of {self.suit.noun}"

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Card('{self.code}')"

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        if not 2 <= rank <= 14:
            raise ValueError(f"rank {rank} is not 2..14")
        return CARDS[int(suit) * RANKS_PER_SUIT + rank - 2]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
SUIT_MASKS: tuple[int, ...] = tuple(((1 << RANKS_PER_SUIT) - 1) << (RANKS_PER_SUIT * s) for s in Suit)
HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]
ALL_CARDS_MASK = (1 << 52) - 1


class CardParseError(ValueError):
    """A text that is not a card; the message says which text and why."""


def parse_card(text: str) -> Card:
    """Read ``QS``, ``qs``, ``10H``, ``TH``, ``Q♠`` or ``10♥`` as a card."""
    if not isinstance(text, str):
        raise CardParseError(f"{excerpt(text)} is not a card: expected text such as 'QS' or 'Q♠'")
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise CardParseError(
            f"{excerpt(text)} is not a card: write a rank then a suit, such as 'QS', '10H' or 'Q♠'"
        )
    rank_text, suit_text = cleaned[:-1], cleaned[-1]
    suit = SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        raise CardParseError(
            f"{excerpt(text)} is not a card: {text.strip()[-1]!r} is not a suit (use C, D, S, H or ♣ ♦ ♠ ♥)"
        )
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise CardParseError(
            f"{excerpt(text)} is not a card: {excerpt(rank_text, 12)} is not a rank "
            "(use 2-10, T, J, Q, K or A)"
        )
    return CARDS[int(suit) * RANKS_PER_SUIT + rank]


def to_card(value: Card | int | str) -> Card:
    """Accept a Card, an int 0..51 or card text."""
    if isinstance(value, str):
        return parse_card(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
        return CARDS[value]
    raise CardParseError(f"{excerpt(value)} is not a card")


def parse_cards(cards: str | Iterable[Card | int | str]) -> list[Card]:
    """Read several cards: ``"QS 10H 2C"``, ``"QS,10H"`` or any iterable of cards."""
    if isinstance(cards, (CardSet, CardTuple)):
        return list(cards)
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [to_card(c) for c in cards]


def card_mask(cards: str | Iterable[Card | int | str]) -> int:
    if isinstance(cards, (CardSet, CardTuple)):
        return cards.mask
    mask = 0
    for card in parse_cards(cards):
        mask |= 1 << card
    return mask


class CardTuple(tuple):
    """The cards of a set as a tuple, in hand order (clubs, diamonds, spades, hearts; low to
    high): what ``HandState.legal_cards()`` returns, so that choosing, counting and iterating
    are a tuple's (``rng.choice(state.legal_cards())``, no copy). It also answers as the
    ``CardSet`` of the same cards does: ``mask``, ``in`` with a card or text, ``==`` a CardSet
    or a set, ``of_suit``, ``count(suit)``, ``codes`` and the set operators (giving CardSets)."""

    __slots__ = ()

    @property
    def mask(self) -> int:
        return sum(map(_BITS.__getitem__, self))

    def __contains__(self, card: object) -> bool:
        if type(card) is not Card:
            try:
                card = to_card(card)  # type: ignore[arg-type]
            except CardParseError:
                return False
        return tuple.__contains__(self, card)

    def __eq__(self, other: object) -> bool:  # type: ignore[override]
        if isinstance(other, (CardSet, CardTuple, set, frozenset)):
            try:
                return self.mask == card_mask(other)
            except CardParseError:
                return False
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:  # type: ignore[override]
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.mask)  # as the CardSet it equals

    def __or__(self, other: CardSet | CardTuple) -> CardSet:  # type: ignore[override]
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet | CardTuple) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet | CardTuple) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def count(self, suit: Suit) -> int:  # type: ignore[override]
        """How many of the cards are of ``suit`` (as ``CardSet.count``)."""
        return sum(1 for card in self if card // RANKS_PER_SUIT == suit)

    @property
    def codes(self) -> list[str]:
        return [card.code for card in self]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardTuple('{' '.join(self.codes)}')"


_BITS = tuple(1 << card for card in range(52))
NO_CARDS = CardTuple()

# The cards of each suit's 13-bit segment (indexed by the segment), listed when a segment is first
# met (at most 4 x 8,192 tuples), and as CardTuples by mask for the masks within one suit (half
# the legal-card masks of a play-out: the plays that follow suit). Listing the cards of a mask is
# hot (every legal_cards() a play-out asks for, every CardSet iterated): a few table lookups, no
# loop over bits. The segments are plain tuples: joined with an empty one, a tuple is not copied.
_SEGMENTS: tuple[list[tuple[Card, ...] | None], ...] = tuple([()] + [None] * 8191 for _ in range(4))
_CLUBS, _DIAMONDS, _SPADES, _HEARTS = _SEGMENTS
_ONE_SUIT: dict[int, CardTuple] = {0: NO_CARDS}


def _list_segments(mask: int) -> None:
    """Put the mask's segments not met before into the tables."""
    mask = operator.index(mask)  # a plain int key (a numpy int too), and no float
    for suit, segments in enumerate(_SEGMENTS):
        base = suit * RANKS_PER_SUIT
        segment = mask >> base & 8191
        if segments[segment] is None:
            cards = segments[segment] = tuple(
                CARDS[base + rank] for rank in range(RANKS_PER_SUIT) if segment >> rank & 1
            )
            _ONE_SUIT[segment << base] = CardTuple(cards)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, lowest first, as a tuple (``CardSet.__iter__`` inlines this)."""
    cards = _ONE_SUIT.get(mask)
    if cards is not None:
        return cards
    try:
        return (
            _CLUBS[mask & 8191]
            + _DIAMONDS[mask >> 13 & 8191]
            + _SPADES[mask >> 26 & 8191]
            + _HEARTS[mask >> 39]
        )
    except TypeError:  # a segment not listed yet (None): list it, then look again
        _list_segments(mask)
        return cards_of(mask)


def card_tuple(mask: int) -> CardTuple:
    """The cards of a mask (a valid one: 52 bits at most) as a ``CardTuple``. ``HandState.legal_cards``
    holds an inlined copy (a play-out asks it every card): change both."""
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
        return CardTuple(cards_of(mask))


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest first."""
    return iter(cards_of(mask))


class CardSet:
    """An immutable set of cards backed by one bit mask.

    Iterates in hand order (clubs, diamonds, spades, hearts; low to high), supports ``in``
    with a Card, an int or text (``"QS" in hand``), ``len``, indexing, and set operators.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: int | str | Iterable[Card | int | str] = 0) -> None:
        if isinstance(cards, int) and not isinstance(cards, bool):
            if cards < 0 or cards > ALL_CARDS_MASK:
                raise ValueError(f"{cards} is not a mask of 52 cards")
            self.mask = cards
        else:
            self.mask = card_mask(cards)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """Wrap a mask known to be valid, without checks (for hot paths)."""
        cards = object.__new__(cls)
        cards.mask = mask
        return cards

    def __contains__(self, card: object) -> bool:
        if type(card) is Card:  # always 0..51
            return self.mask >> card & 1 == 1
        if type(card) is int:
            return 0 <= card < 52 and self.mask >> card & 1 == 1
        try:
            index = to_card(card)  # type: ignore[arg-type]
        except CardParseError:
            return False
        return bool(self.mask >> index & 1)

    def __iter__(self) -> Iterator[Card]:
        # cards_of inlined: a call would cost as much as the lookups
        mask = self.mask
        cards = _ONE_SUIT.get(mask)
        if cards is None:
            try:
                cards = (
                    _CLUBS[mask & 8191]
                    + _DIAMONDS[mask >> 13 & 8191]
                    + _SPADES[mask >> 26 & 8191]
                    + _HEARTS[mask >> 39]
                )
            except TypeError:  # a segment not listed yet
                cards = cards_of(mask)
        return iter(cards)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __getitem__(self, index: int) -> Card:
        cards = cards_of(self.mask)
        if not -len(cards) <= index < len(cards):
            raise IndexError("card set index out of range")
        return cards[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset, CardTuple)):
            try:
                return self.mask == card_mask(other)
            except CardParseError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def count(self, suit: Suit) -> int:
        return (self.mask & SUIT_MASKS[suit]).bit_count()

    @property
    def codes(self) -> list[str]:
        return [card.code for card in self]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet('{' '.join(self.codes)}')"
