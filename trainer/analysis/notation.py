"""Cards as people type or paste them: "AS KS 10H", "A♠ K♠ 10♥", "as,ks,th", "SA" (suit first), or
a hand written by suits ("♠ A K 5 ♥ 10 3", "S: AK5; H: T3").

Two readings, chosen for the whole text: when every word is one card (a rank and a suit, either
order) each word is a card; otherwise a suit applies to the ranks after it until the next suit.
Anything else is refused with one line naming the field and the word at fault.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import CARDS, Card
from engine.cards import SUIT_BY_TEXT, Suit
from engine.excerpt import excerpt

from .errors import PositionError

__all__ = ["LONGEST_TEXT", "format_cards", "parse_cards"]

LONGEST_TEXT = 2000
"""More text than any list of 52 cards needs, however written."""

SEPARATORS = frozenset(" \t\r\n,;:|/")
_RANKS = {
    "2": 0,
    "3": 1,
    "4": 2,
    "5": 3,
    "6": 4,
    "7": 5,
    "8": 6,
    "9": 7,
    "T": 8,
    "J": 9,
    "Q": 10,
    "K": 11,
    "A": 12,
}
_SUITS = SUIT_BY_TEXT
_INVISIBLE = str.maketrans("", "", "\ufe0e\ufe0f\u200b\u200c\u200d\u2060\ufeff")
"""Emoji and text variation selectors (a pasted ♠️) and zero-width characters."""


def _atoms(word: str, field: str) -> list[tuple[str, int]]:
    """A word as ranks and suits: ("rank", index) or ("suit", suit)."""
    atoms = []
    i = 0
    while i < len(word):
        char = word[i]
        if word.startswith("10", i):
            atoms.append(("rank", 8))
            i += 2
            continue
        if char in _RANKS:
            atoms.append(("rank", _RANKS[char]))
        elif char in _SUITS:
            atoms.append(("suit", int(_SUITS[char])))
        else:
            raise PositionError(
                field,
                f"{excerpt(word, 30)} is not a card: {excerpt(char)} is neither a rank "
                "(2-10, T, J, Q, K, A) nor a suit (C D S H or ♣ ♦ ♠ ♥)",
            )
        i += 1
    return atoms


def _words(text: str) -> list[str]:
    words, word = [], []
    for char in text:
        if char in SEPARATORS:
            if word:
                words.append("".join(word))
                word = []
        else:
            word.append(char)
    if word:
        words.append("".join(word))
    return words


def _is_card(atoms: list[tuple[str, int]]) -> bool:
    """A rank and a suit, either order."""
    return len(atoms) == 2 and {kind for kind, _ in atoms} == {"rank", "suit"}


def _card(rank: int, suit: int) -> Card:
    return CARDS[suit * 13 + rank]


def parse_cards(text: str, field: str = "cards") -> tuple[Card, ...]:
    """The cards ``text`` names, in its order. A card twice, or a word that is not a card, raises
    ``PositionError`` naming ``field``."""
    if not isinstance(text, str):
        raise PositionError(field, f"expected text such as 'AS KS 10H', got {excerpt(text)}")
    if len(text) > LONGEST_TEXT:
        raise PositionError(field, f"{len(text):,} characters is more than any list of cards needs")
    words = [(word, _atoms(word, field)) for word in _words(text.translate(_INVISIBLE).upper())]
    cards: list[Card] = []
    if all(_is_card(atoms) for _, atoms in words):
        for _, atoms in words:
            values = dict(atoms)
            cards.append(_card(values["rank"], values["suit"]))
    elif words and words[0][1][0][0] == "rank":  # no suit to read the ranks by: cards, one a word
        word = next(word for word, atoms in words if not _is_card(atoms))
        raise PositionError(
            field, f"{excerpt(word, 30)} is not one card: write each card as a rank and a suit (5♠, 10H)"
        )
    else:
        suit = None
        ranks_after_suit = 0
        for word, atoms in words:
            for kind, value in atoms:
                if kind == "suit":
                    if suit is not None and not ranks_after_suit:
                        raise PositionError(field, f"{Suit(suit).symbol} is followed by no rank")
                    suit, ranks_after_suit = value, 0
                elif suit is None:
                    raise PositionError(
                        field,
                        f"{excerpt(word, 30)}: a rank with no suit (write 5♠ or 5S, or ♠ before the ranks)",
                    )
                else:
                    cards.append(_card(value, suit))
                    ranks_after_suit += 1
        if suit is not None and not ranks_after_suit:
            raise PositionError(field, f"{Suit(suit).symbol} is followed by no rank")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise PositionError(field, f"the {card} is listed twice")
        seen.add(card)
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards the table's way: "A♠ K♠ 10♥", in the order given."""
    return " ".join(str(card) for card in cards)
