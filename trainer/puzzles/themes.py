"""Which themes a decision teaches, from the facts of its position and its best answer."""

from __future__ import annotations

from engine import PlayerView, Suit
from engine.evaluator import Evaluation

from ..coach.features import pass_facts, play_facts

__all__ = ["pass_themes", "play_themes"]


def pass_themes(view: PlayerView, evaluation: Evaluation, natural: object) -> list[str]:
    best = pass_facts(view, evaluation.best.option)
    other = pass_facts(view, natural)
    themes = []
    if best.passes_queen != other.passes_queen or best.holds_queen:
        themes.append("queen_of_spades")
    if best.passes_high_spades != other.passes_high_spades or best.high_spades_held:
        themes.append("spade_control")
    if best.voids_made or other.voids_made:
        themes.append("voids")
    if best.high_hearts_passed or other.high_hearts_passed:
        themes.append("high_hearts")
    if evaluation.best.moon_for > 0.1:
        themes.append("moon_shooting")
    return themes or ["voids"]


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
    if any(view.shown_void(seat) for seat in range(view.players) if seat != view.seat):
        themes.append("counting")
    value = evaluation.value_of(natural)
    if best.threat is not None or value.moon_against - evaluation.best.moon_against > 0.05:
        themes.append("moon_defence")
    if evaluation.best.moon_for - value.moon_for > 0.05:
        themes.append("moon_shooting")
    if best.tricks_left <= 4:
        themes.append("endgame")
    return themes or ["ducking"]
