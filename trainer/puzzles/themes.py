"""Which themes a decision teaches, from the facts of its position and its best answer."""

from __future__ import annotations

from engine import CardSet, PlayerView, Suit
from engine.evaluator import Evaluation

from ..coach.features import pass_facts, play_facts

__all__ = ["pass_themes", "play_themes"]

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
    return themes or [_suit_theme((best.cards - other.cards) | (other.cards - best.cards))]


def _suit_theme(differing: CardSet) -> str:
    """When no single fact tells the passes apart: the theme of the suits they differ in."""
    suits = {card.suit for card in differing}
    if Suit.SPADES in suits:
        return "spade_control"
    if Suit.HEARTS in suits:
        return "high_hearts"
    return "voids"


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
    return themes or ["ducking"]
