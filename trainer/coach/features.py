"""What a position and an option are like, in the terms a Hearts player thinks in.

The coach explains verdicts from these facts, and the puzzle miner tags puzzles with the
themes they imply. Everything here reads a player view only.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Card, CardSet, PlayerView, Suit, parse_card
from engine.moon import moon_threat

__all__ = ["PassFacts", "PlayFacts", "pass_facts", "play_facts"]

QUEEN = parse_card("QS")
HIGH_SPADES = {parse_card("KS"), parse_card("AS")}


@dataclass(frozen=True)
class PlayFacts:
    """Facts about playing ``card`` now."""

    card: Card
    leading: bool
    following: bool
    discarding: bool
    last_to_play: bool
    first_trick: bool
    winning_card: Card | None
    """The card winning the trick before this one is played."""
    takes_lead: bool
    """The card would be winning the trick once played."""
    could_duck: bool
    """A legal card of the led suit stays under the winning card."""
    trick_points: int
    """Points already in the trick."""
    holds_queen: bool
    queen_out: bool
    """The Q♠ has not been played."""
    spades_held: int
    threat: int | None
    """Another seat that has taken every point so far (a moon attempt)."""
    voids_in_led_suit: tuple[int, ...]
    """Seats still to play that have shown they hold none of the suit led (or led now)."""
    tricks_left: int
    highest_held: bool
    """No card of its suit in the hand is higher."""
    unbeatable: bool
    """No other seat can hold a higher card of its suit: each is played or in this hand."""
    point_cards_in_trick: tuple[Card, ...]
    """Cards in the trick so far that are worth something (points, or a bonus)."""


def _threat_seat(view: PlayerView) -> int | None:
    threat = moon_threat(view)
    return None if threat is None else threat.seat


def play_facts(view: PlayerView, card: Card | str) -> PlayFacts:
    card = card if isinstance(card, Card) else parse_card(card)
    trick = view.current_trick
    cards = trick.cards
    leading = not cards
    led = card.suit if leading else trick.led_suit
    in_suit = [c for c in cards if c.suit == led]
    winning = max(in_suit) if in_suit else None
    legal = view.legal_cards
    following = not leading and card.suit == led
    players = view.players
    still_to_play = [(view.seat + k) % players for k in range(1, players - len(cards))]
    rules = view.rules
    return PlayFacts(
        card=card,
        leading=leading,
        following=following,
        discarding=not leading and not following,
        last_to_play=len(cards) == players - 1,
        first_trick=not view.tricks,
        winning_card=winning,
        takes_lead=leading or (following and (winning is None or card > winning)),
        could_duck=bool(winning is not None and any(c.suit == led and c < winning for c in legal)),
        trick_points=sum(rules.card_values[c] for c in cards),
        holds_queen=QUEEN in view.hand,
        queen_out=QUEEN not in view.played_cards,
        spades_held=view.hand.count(Suit.SPADES),
        threat=_threat_seat(view),
        voids_in_led_suit=tuple(s for s in still_to_play if led in view.shown_void(s)),
        tricks_left=len(view.hand),
        highest_held=not any(c.suit == card.suit and c > card for c in view.hand),
        unbeatable=not any(c.suit == card.suit and c > card for c in view.unseen_cards),
        point_cards_in_trick=tuple(c for c in cards if rules.card_values[c]),
    )


@dataclass(frozen=True)
class PassFacts:
    """Facts about passing ``cards`` from this hand."""

    cards: CardSet
    passes_queen: bool
    holds_queen: bool
    spades_held: int
    """Spades in the hand before passing, the queen included."""
    passes_high_spades: tuple[Card, ...]
    high_spades_held: tuple[Card, ...]
    high_hearts_passed: tuple[Card, ...]
    """Hearts from the jack up."""
    voids_made: tuple[Suit, ...]
    """Clubs, diamonds or hearts the hand holds none of after the pass (when that suit is led, it
    discards); spades are the queen's guard, not a void to make."""
    low_cards_passed: tuple[Card, ...]
    """Cards from the 2 to the 5: the ones that let you duck."""


def pass_facts(view: PlayerView, cards: CardSet | str) -> PassFacts:
    chosen = cards if isinstance(cards, CardSet) else CardSet(cards)
    hand = view.hand
    after = hand - chosen
    return PassFacts(
        cards=chosen,
        passes_queen=QUEEN in chosen,
        holds_queen=QUEEN in hand,
        spades_held=hand.count(Suit.SPADES),
        passes_high_spades=tuple(c for c in chosen if c in HIGH_SPADES),
        high_spades_held=tuple(c for c in hand if c in HIGH_SPADES),
        high_hearts_passed=tuple(c for c in chosen if c.suit == Suit.HEARTS and c.rank >= 11),
        voids_made=tuple(
            s for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS) if hand.count(s) and not after.count(s)
        ),
        low_cards_passed=tuple(c for c in chosen if c.rank <= 5),
    )
