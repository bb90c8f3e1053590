"""The facts the coach's sentences assert, each one checkable against the player's view.

Every reason the coach gives declares, next to its sentence, the facts that sentence states
about the position: "your highest heart, the J♥" declares ``HighestInSuit(J♥)``, "Right has
taken every penalty card so far" declares ``TookEveryPoint(right)``. Each fact's ``check(view)``
says whether it holds, computed from the ``PlayerView`` alone (hand, legal cards, tricks, the
trick in progress). The checks are a second opinion: they do not reuse ``features.py``, which
decides when a sentence is said; they recompute what the sentence claims from the raw view, so
a template whose condition and words drift apart is caught.

A number from the evaluation ("you shoot the moon in 40% of the imagined deals") is a fact
about the evaluation, not the position, and is not declared here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine import Card, CardSet, Phase, PlayerView, Suit, Trick, parse_card
from engine.moon import moon_threat

__all__ = [
    "CannotDuck",
    "CardOut",
    "CardPoints",
    "CardsOut",
    "Discarding",
    "DucksUnder",
    "Fact",
    "Following",
    "Guards",
    "HighHeart",
    "HighestInSuit",
    "Holds",
    "LastToPlay",
    "Leading",
    "LowCard",
    "LowSpades",
    "MayFall",
    "NoHigherOut",
    "NoPointCardsOut",
    "NoPointsInTrick",
    "NoShownVoid",
    "OutAbove",
    "OutBetween",
    "Outranks",
    "PassContains",
    "PassMakesVoid",
    "PassOption",
    "Playable",
    "TookEveryPoint",
    "TrickPoints",
    "Void",
    "WinsTrick",
]

QUEEN = parse_card("QS")


# ----- the view, read afresh -----


def _my_turn_to_play(view: PlayerView) -> bool:
    return view.phase is Phase.PLAYING and view.to_move == view.seat


def _played(view: PlayerView) -> int:
    mask = 0
    for trick in (*view.tricks, view.current_trick):
        for card in trick.cards:
            mask |= 1 << int(card)
    return mask


def _others_hold(view: PlayerView) -> int:
    """Cards in other seats' hands: in the deck, not played, not in this hand."""
    return view.rules.deck_mask & ~_played(view) & ~view.hand.mask


def _suit_cards(mask: int, suit: Suit) -> list[Card]:
    return [Card(i) for i in range(52) if mask >> i & 1 and i // 13 == int(suit)]


def _led(view: PlayerView) -> Suit | None:
    cards = view.current_trick.cards
    return Card(cards[0]).suit if cards else None


def _winning(view: PlayerView) -> Card | None:
    """The card now winning the trick in progress: the highest of the suit led."""
    led = _led(view)
    if led is None:
        return None
    return max((Card(c) for c in view.current_trick.cards if Card(c).suit == led), key=lambda c: c.rank)


def _players_of(trick: Trick) -> list[tuple[int, Card]]:
    return [((trick.leader + i) % trick.players, Card(card)) for i, card in enumerate(trick.cards)]


def _taken(view: PlayerView) -> list[int]:
    """Every seat's taken cards, each finished trick's winner worked out from its cards."""
    taken = [0] * view.players
    for trick in view.tricks:
        plays = _players_of(trick)
        led = plays[0][1].suit
        winner = max((p for p in plays if p[1].suit == led), key=lambda p: p[1].rank)[0]
        for _, card in plays:
            taken[winner] |= 1 << int(card)
    return taken


# ----- facts -----


@dataclass(frozen=True)
class Fact:
    """One claim about the position. ``about_cards`` and ``about_seats`` are what it is about."""

    def check(self, view: PlayerView) -> bool:
        raise NotImplementedError

    @property
    def about_cards(self) -> tuple[Card, ...]:
        found: list[Card] = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Card):
                found.append(value)
            elif isinstance(value, CardSet):
                found.extend(value)
        return tuple(found)

    @property
    def about_seats(self) -> tuple[int, ...]:
        seat = getattr(self, "seat", None)
        return () if seat is None else (seat,)


@dataclass(frozen=True)
class Holds(Fact):
    """The learner holds ``card``."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        return bool(view.hand.mask >> int(self.card) & 1)


@dataclass(frozen=True)
class Playable(Fact):
    """It is the learner's turn and ``card`` is one of the cards the rules allow now."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        return _my_turn_to_play(view) and self.card in view.legal_cards and self.card in view.hand


@dataclass(frozen=True)
class CardOut(Fact):
    """``card`` is still out: unplayed and in another seat's hand (not the learner's)."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        return bool(_others_hold(view) >> int(self.card) & 1)


@dataclass(frozen=True)
class HighestInSuit(Fact):
    """``card`` is the highest card of its suit in the learner's hand."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        mine = _suit_cards(view.hand.mask, self.card.suit)
        return self.card in mine and all(other.rank <= self.card.rank for other in mine)


@dataclass(frozen=True)
class Outranks(Fact):
    """``high`` and ``low`` are of one suit and ``high`` is the higher: it beats ``low``."""

    high: Card
    low: Card

    def check(self, view: PlayerView) -> bool:
        return self.high.suit == self.low.suit and self.high.rank > self.low.rank


@dataclass(frozen=True)
class NoHigherOut(Fact):
    """No other seat holds a card of ``card``'s suit above it: each is played or the learner's."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        out = _suit_cards(_others_hold(view), self.card.suit)
        return all(other.rank < self.card.rank for other in out)


@dataclass(frozen=True)
class OutBetween(Fact):
    """Exactly ``count`` cards still out (in other hands) rank between ``low`` and ``high``,
    both of one suit."""

    low: Card
    high: Card
    count: int

    def check(self, view: PlayerView) -> bool:
        if self.low.suit != self.high.suit:
            return False
        out = _suit_cards(_others_hold(view), self.low.suit)
        return sum(1 for c in out if self.low.rank < c.rank < self.high.rank) == self.count


@dataclass(frozen=True)
class OutAbove(Fact):
    """Exactly ``count`` cards of ``card``'s suit still out (in other hands) rank above it."""

    card: Card
    count: int

    def check(self, view: PlayerView) -> bool:
        out = _suit_cards(_others_hold(view), self.card.suit)
        return sum(1 for c in out if c.rank > self.card.rank) == self.count


@dataclass(frozen=True)
class CardsOut(Fact):
    """Exactly ``count`` cards of ``suit`` are still out, in other hands."""

    suit: Suit
    count: int

    def check(self, view: PlayerView) -> bool:
        return len(_suit_cards(_others_hold(view), self.suit)) == self.count


@dataclass(frozen=True)
class NoPointCardsOut(Fact):
    """No card of ``suit`` still in another hand is worth points (or a bonus)."""

    suit: Suit

    def check(self, view: PlayerView) -> bool:
        values = view.rules.card_values
        return all(values[c] == 0 for c in _suit_cards(_others_hold(view), self.suit))


@dataclass(frozen=True)
class CardPoints(Fact):
    """Taking ``card`` scores ``points`` under these rules."""

    card: Card
    points: int

    def check(self, view: PlayerView) -> bool:
        return view.rules.card_values[int(self.card)] == self.points


@dataclass(frozen=True)
class Void(Fact):
    """``seat`` holds no ``suit``: the learner's own hand, or another seat that has shown it by
    not following when the suit was led."""

    seat: int
    suit: Suit

    def check(self, view: PlayerView) -> bool:
        if self.seat == view.seat:
            return not _suit_cards(view.hand.mask, self.suit)
        for trick in (*view.tricks, view.current_trick):
            plays = _players_of(trick)
            if not plays or plays[0][1].suit != self.suit:
                continue
            if any(seat == self.seat and card.suit != self.suit for seat, card in plays):
                return True
        return False


@dataclass(frozen=True)
class NoShownVoid(Fact):
    """No other seat has shown a void in ``suit`` yet."""

    suit: Suit

    def check(self, view: PlayerView) -> bool:
        return not any(Void(seat, self.suit).check(view) for seat in range(view.players) if seat != view.seat)


@dataclass(frozen=True)
class TookEveryPoint(Fact):
    """``seat`` has taken every penalty card taken so far, at least one: the moon detector's
    runner (``engine.moon.moon_threat``), confirmed from the finished tricks."""

    seat: int

    def check(self, view: PlayerView) -> bool:
        threat = moon_threat(view, include_self=True)
        if threat is None or threat.seat != self.seat:
            return False
        values = view.rules.card_values
        penalty = sum(1 << c for c in range(52) if values[c] > 0)
        taken = _taken(view)
        return bool(taken[self.seat] & penalty) and not any(
            taken[seat] & penalty for seat in range(view.players) if seat != self.seat
        )


@dataclass(frozen=True)
class MayFall(Fact):
    """``card`` is still out and may yet be played to this trick: a seat still to play after
    the learner has not shown a void in its suit (a seat void in spades holds no Q♠)."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        if not _my_turn_to_play(view) or not _others_hold(view) >> int(self.card) & 1:
            return False
        after = range(len(view.current_trick.cards) + 1, view.players)
        seats = [(view.seat + k - len(view.current_trick.cards)) % view.players for k in after]
        return any(not Void(seat, self.card.suit).check(view) for seat in seats)


@dataclass(frozen=True)
class Leading(Fact):
    """The learner is to lead the trick."""

    def check(self, view: PlayerView) -> bool:
        return _my_turn_to_play(view) and not view.current_trick.cards


@dataclass(frozen=True)
class Following(Fact):
    """A trick is under way and the learner holds the suit led, so must follow it."""

    def check(self, view: PlayerView) -> bool:
        led = _led(view)
        return _my_turn_to_play(view) and led is not None and bool(_suit_cards(view.hand.mask, led))


@dataclass(frozen=True)
class Discarding(Fact):
    """A trick is under way and the learner holds none of the suit led: any card may go."""

    def check(self, view: PlayerView) -> bool:
        led = _led(view)
        return _my_turn_to_play(view) and led is not None and not _suit_cards(view.hand.mask, led)


@dataclass(frozen=True)
class LastToPlay(Fact):
    """Every other seat has played to this trick: the learner's card ends it."""

    def check(self, view: PlayerView) -> bool:
        return _my_turn_to_play(view) and len(view.current_trick.cards) == view.players - 1


@dataclass(frozen=True)
class TrickPoints(Fact):
    """The cards in the trick so far are worth ``points`` together."""

    points: int

    def check(self, view: PlayerView) -> bool:
        values = view.rules.card_values
        return sum(values[int(c)] for c in view.current_trick.cards) == self.points


@dataclass(frozen=True)
class NoPointsInTrick(Fact):
    """No card in the trick so far is worth anything (points or bonus)."""

    def check(self, view: PlayerView) -> bool:
        values = view.rules.card_values
        return all(values[int(c)] == 0 for c in view.current_trick.cards)


@dataclass(frozen=True)
class WinsTrick(Fact):
    """Played now, ``card`` would be winning the trick under way: it follows the suit led and
    beats every card of that suit played so far. (Whether it stays the winner depends on the
    seats still to play; sentences say so, or add ``LastToPlay`` or ``NoHigherOut``.)"""

    card: Card

    def check(self, view: PlayerView) -> bool:
        winning = _winning(view)
        return winning is not None and self.card.suit == winning.suit and self.card.rank > winning.rank


@dataclass(frozen=True)
class DucksUnder(Fact):
    """``winning`` is the card now winning the trick and ``card``, of its suit, is lower."""

    card: Card
    winning: Card

    def check(self, view: PlayerView) -> bool:
        return (
            _winning(view) == self.winning
            and self.card.suit == self.winning.suit
            and self.card.rank < self.winning.rank
        )


@dataclass(frozen=True)
class CannotDuck(Fact):
    """``winning`` is the card now winning the trick and every card the learner may play beats it."""

    winning: Card

    def check(self, view: PlayerView) -> bool:
        if not _my_turn_to_play(view) or _winning(view) != self.winning:
            return False
        legal = list(view.legal_cards)
        return bool(legal) and all(c.suit == self.winning.suit and c.rank > self.winning.rank for c in legal)


# ----- passes -----


@dataclass(frozen=True)
class PassOption(Fact):
    """``cards`` is a pass the learner may make now: cards of the hand, as many as the rules say."""

    cards: CardSet

    def check(self, view: PlayerView) -> bool:
        return (
            view.phase is Phase.PASSING
            and view.passed is None
            and len(self.cards) == view.rules.pass_count
            and self.cards.mask & ~view.hand.mask == 0
        )


@dataclass(frozen=True)
class PassContains(Fact):
    """The pass ``cards`` (a pass the learner may make) gives away ``card``."""

    cards: CardSet
    card: Card

    def check(self, view: PlayerView) -> bool:
        return PassOption(self.cards).check(view) and bool(self.cards.mask >> int(self.card) & 1)


@dataclass(frozen=True)
class PassMakesVoid(Fact):
    """The learner holds some ``suit`` and the pass ``cards`` gives every one of them away."""

    cards: CardSet
    suit: Suit

    def check(self, view: PlayerView) -> bool:
        mine = _suit_cards(view.hand.mask, self.suit)
        return PassOption(self.cards).check(view) and bool(mine) and all(c in self.cards for c in mine)


@dataclass(frozen=True)
class Guards(Fact):
    """The learner holds the Q♠ and, keeping her, ``count`` other spades once ``passing`` is
    gone (an empty set: the hand as it is)."""

    count: int
    passing: CardSet

    def check(self, view: PlayerView) -> bool:
        kept = view.hand.mask & ~self.passing.mask
        if not view.hand.mask >> int(QUEEN) & 1:
            return False
        others = [c for c in _suit_cards(kept, Suit.SPADES) if c != QUEEN]
        return len(others) == self.count

    @property
    def about_cards(self) -> tuple[Card, ...]:
        return (QUEEN, *self.passing)


@dataclass(frozen=True)
class LowSpades(Fact):
    """The learner keeps ``count`` spades below the Q♠ once ``passing`` is gone."""

    count: int
    passing: CardSet

    def check(self, view: PlayerView) -> bool:
        kept = view.hand.mask & ~self.passing.mask
        return sum(1 for c in _suit_cards(kept, Suit.SPADES) if c.rank < QUEEN.rank) == self.count

    @property
    def about_cards(self) -> tuple[Card, ...]:
        return (QUEEN, *self.passing)


@dataclass(frozen=True)
class HighHeart(Fact):
    """``card`` is a heart from the jack up."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        return self.card.suit is Suit.HEARTS and self.card.rank >= 11


@dataclass(frozen=True)
class LowCard(Fact):
    """``card`` is a low card: a 2 to 5."""

    card: Card

    def check(self, view: PlayerView) -> bool:
        return self.card.rank <= 5
