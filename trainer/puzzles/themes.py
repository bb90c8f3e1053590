"""Which themes a decision teaches, from the facts of its position and its best answer."""

from __future__ import annotations

from engine import CardSet, PlayerView, Suit
from engine.search.evaluator import Evaluation

from ..coach.features import pass_facts, play_facts
from .format import THEMES

__all__ = ["EDGE_TRICKS", "QUESTIONS", "pass_themes", "phase_of", "play_themes", "title_of"]

QUESTIONS = {"pass": "What would you pass?", "play": "What would you play?"}

EDGE_TRICKS = 4
"""Tricks counted as early (the first four) and as late (the last four)."""


def phase_of(kind: str, trick: int, tricks: int = 13) -> str:
    """The phase of a decision: ``pass``, or the 1-based ``trick`` of ``tricks`` as early,
    middle or late."""
    if kind == "pass":
        return "pass"
    if trick <= EDGE_TRICKS:
        return "early"
    if trick > tricks - EDGE_TRICKS:
        return "late"
    return "middle"


MOON_GAP = 0.05
"""Moon chances further apart than this between the answer and the natural choice: the moon decides."""


def pass_themes(view: PlayerView, evaluation: Evaluation, natural: object) -> list[str]:
    """What the answer does that the natural-looking pass does not: the themes that decide it."""
    best = pass_facts(view, evaluation.best.option)
    other = pass_facts(view, natural)
    themes = []
    if best.passes_queen != other.passes_queen:
        themes.append("queen_of_spades")
    if set(best.passes_high_spades) != set(other.passes_high_spades):
        themes.append("spade_control")
    if set(best.voids_made) != set(other.voids_made):
        themes.append("voids")
    if set(best.high_hearts_passed) != set(other.high_hearts_passed):
        themes.append("high_hearts")
    value = evaluation.value_of(natural)
    if evaluation.best.moon_for - value.moon_for > MOON_GAP:
        themes.append("moon_shooting")
    if value.moon_against - evaluation.best.moon_against > MOON_GAP:
        themes.append("moon_defence")
    return themes or [_shape_theme(view.hand - best.cards, view.hand - other.cards)]


def _shape_theme(kept: CardSet, other_kept: CardSet) -> str:
    """When none of the facts above tells the passes apart: whether the hands they keep differ in
    a suit's length, or only in which cards of the same suits they keep."""
    if any(kept.count(suit) != other_kept.count(suit) for suit in Suit):
        return "short_suits"
    return "high_or_low"


def play_themes(view: PlayerView, evaluation: Evaluation, natural: object) -> list[str]:
    best = play_facts(view, evaluation.best.option)
    other = play_facts(view, natural)
    themes = []
    cards = {best.card.code, other.card.code}
    if "QS" in cards or (best.holds_queen and best.card.suit is Suit.SPADES):
        themes.append("queen_of_spades")
    if (best.card.suit is Suit.SPADES and cards & {"AS", "KS"}) or (
        best.leading and best.card.suit is Suit.SPADES
    ):
        themes.append("spade_control")
    if best.discarding:
        themes.append("dumping")
    if best.following and (best.could_duck or other.could_duck):
        themes.append("ducking")
    elif best.following:  # every card it may play goes over the winning one
        themes.append("cannot_duck")
    if best.leading:
        themes.append("leading")
        if best.card.suit is Suit.HEARTS or other.card.suit is Suit.HEARTS:
            themes.append("breaking_hearts")
    # Counting decides only where someone has shown a void in a suit the choice is about.
    suits = {best.card.suit, other.card.suit}
    if view.current_trick.cards:
        suits.add(view.current_trick.led_suit)
    if any(view.shown_void(seat) & suits for seat in range(view.players) if seat != view.seat):
        themes.append("counting")
    value = evaluation.value_of(natural)
    if value.moon_against - evaluation.best.moon_against > MOON_GAP:
        themes.append("moon_defence")
    if evaluation.best.moon_for - value.moon_for > MOON_GAP:
        themes.append("moon_shooting")
    if best.tricks_left <= 4:
        themes.append("endgame")
    return themes  # a card is led, follows suit or is discarded: one of those themes always holds


def title_of(kind: str, themes: list[str]) -> str:
    """A puzzle's title: its question and its first theme."""
    return f"{QUESTIONS[kind]} {THEMES[themes[0]]}"
