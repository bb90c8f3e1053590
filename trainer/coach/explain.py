"""The coach: a verdict on a pass or a play, with reasons taken from the position itself.

The verdict's numbers come from the evaluator; its words come from what the position is like
(``features``): which facts about the hand and the trick separate the chosen option from the
better one, and what the better one does.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import CardSet, PlayerView, Suit
from engine.evaluator import Evaluation

from .depth import judge_pass, judge_play
from .features import PassFacts, PlayFacts, pass_facts, play_facts
from .grading import Band, Grade, grade

__all__ = ["Verdict", "coach_pass", "coach_play"]

HEADLINES = {
    Band.BEST: "Best",
    Band.GOOD: "Good",
    Band.INACCURACY: "Inaccuracy",
    Band.MISTAKE: "Mistake",
    Band.BLUNDER: "Blunder",
}


@dataclass(frozen=True)
class Verdict:
    grade: Grade
    headline: str
    reasons: tuple[str, ...]
    """Why, from the position: what made the difference."""
    numbers: str
    """The evaluator's figures in one sentence."""
    evaluation: Evaluation

    @property
    def text(self) -> str:
        return " ".join((self.headline, *self.reasons, self.numbers))


def _headline(g: Grade, chosen: str, best: str) -> str:
    if not g.decided:
        low, high = g.span
        return (
            f"Between {low.value} and {high.value}: {chosen} costs about {g.loss:.1f} points against "
            f"{best} (somewhere from {g.low:.1f} to {g.high:.1f}); a deeper look could not settle it."
        )
    if g.correct:
        if g.chosen.option == g.best.option:
            return f"{HEADLINES[g.band]}: {chosen} is the best choice here."
        return f"{HEADLINES[g.band]}: {chosen} is as good as {best} (within {g.tolerance:.1f} points)."
    return f"{HEADLINES[g.band]}: {chosen} costs about {g.loss:.1f} points; {best} was better."


def _numbers(g: Grade, kind: str) -> str:
    text = (
        f"With {_name(g.best.option)} you take {g.best.points:.1f} points on average "
        f"(the others {g.best.others:.1f})"
    )
    if g.chosen.option != g.best.option:
        text += f"; with {_name(g.chosen.option)}, {g.chosen.points:.1f} (the others {g.chosen.others:.1f})"
    place = f" It ranks {g.rank} of {g.options} {kind}." if kind == "passes" else ""
    cut = (
        " The time limit ended this look before its budget of deals: a deeper look may say otherwise."
        if g.clock_stopped
        else ""
    )
    return text + f", over {g.best.samples} imagined deals.{place}{cut}"


def _name(option: object) -> str:
    return str(option)


def _seat_name(view: PlayerView, seat: int) -> str:
    """Seats as the learner sees them: Left, Across and Right at a table of four."""
    if view.players == 4:
        return ("You", "Left", "Across", "Right")[(seat - view.seat) % 4]
    return f"Seat {seat}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


# ----- play -----


def _play_reasons(view: PlayerView, chosen: PlayFacts, best: PlayFacts, g: Grade) -> list[str]:
    reasons: list[str] = []
    c, b = chosen.card, best.card
    moon_gap = g.chosen.moon_against - g.best.moon_against
    if moon_gap > 0.05 and chosen.threat is not None:
        reasons.append(
            f"{_seat_name(view, chosen.threat)} has taken every point so far: {c} lets the moon through in "
            f"{100 * g.chosen.moon_against:.0f}% of deals, {b} in {100 * g.best.moon_against:.0f}%."
        )
    if g.best.moon_for - g.chosen.moon_for > 0.05:
        reasons.append(
            f"{b} keeps your own moon alive: you shoot it in {100 * g.best.moon_for:.0f}% of deals "
            f"against {100 * g.chosen.moon_for:.0f}%."
        )
    if best.discarding and b == best.card and b.code == "QS":
        reasons.append("You are void in the suit led: the moment to give the Q♠ (13 points) to someone else.")
    elif best.discarding and best.card.suit is Suit.HEARTS and chosen.card.suit is not Suit.HEARTS:
        reasons.append(f"You cannot follow suit, so unload a point card: {b} goes to the trick's winner.")
    elif best.discarding and b.code in ("AS", "KS") and best.queen_out:
        reasons.append(f"With the Q♠ still out, {b} is a liability: discard it while you can.")
    if chosen.following and chosen.takes_lead and chosen.could_duck and not best.takes_lead:
        pts = f", which already holds {chosen.trick_points} points" if chosen.trick_points else ""
        reasons.append(f"{c} wins the trick{pts}; {b} ducks under the {chosen.winning_card}.")
    if best.last_to_play and best.takes_lead and best.trick_points == 0 and not chosen.takes_lead:
        reasons.append(
            f"You play last and the trick holds no points: take it with your highest card, {b}, "
            "and keep your low cards for later."
        )
    if c.code in ("AS", "KS") and chosen.queen_out and not chosen.holds_queen and chosen.takes_lead:
        reasons.append(f"The Q♠ is still out: {c} may catch her.")
    if c.code == "QS" and chosen.takes_lead and not chosen.discarding:
        reasons.append("The Q♠ wins this trick: you would take your own queen.")
    if chosen.leading and chosen.voids_in_led_suit and not best.voids_in_led_suit:
        seats = ", ".join(_seat_name(view, s) for s in chosen.voids_in_led_suit)
        reasons.append(
            f"{seats} {'has' if len(chosen.voids_in_led_suit) == 1 else 'have'} shown no "
            f"{c.suit.noun}: leading them lets points be dumped on your trick."
        )
    if chosen.leading and best.leading and c.rank > b.rank + 3 and not reasons:
        reasons.append(f"Lead low: {b} is far less likely to win the trick than {c}.")
    if best.leading and b.rank >= 12 and b.suit is not Suit.HEARTS and not best.voids_in_led_suit:
        played = sum(1 for card in view.played_cards if card.suit is b.suit)
        if played <= 4 and b != c:
            reasons.append(
                f"Cash the {b} now: early in the suit everyone still follows, so it takes a trick "
                "with no points in it, and it cannot be caught later with points piled on it."
            )
    if (
        best.following
        and chosen.following
        and not best.could_duck
        and best.takes_lead
        and b.rank > c.rank
        and not reasons
    ):
        reasons.append(
            f"You cannot stay under the {best.winning_card}, so the trick is likely yours: win it with "
            f"your highest card, {b}, and keep the lower ones to duck with later."
        )
    if not reasons and g.correct:
        reasons.append(_praise_play(best))
    return reasons


def _praise_play(facts: PlayFacts) -> str:
    if facts.discarding:
        return "You are void in the suit led, and this discard leaves you safest."
    if facts.following and not facts.takes_lead:
        return f"It stays under the {facts.winning_card}: someone else takes the trick."
    if facts.leading:
        return "A lead that is unlikely to come back with points."
    return "It keeps your hand safest for the tricks to come."


def coach_play(
    view: PlayerView, card: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    evaluation = evaluation or judge_play(view, card, seed)
    g = grade(evaluation, card)
    chosen, best = play_facts(view, g.chosen.option), play_facts(view, g.best.option)
    reasons = _play_reasons(view, chosen, best, g)
    return Verdict(
        g, _headline(g, str(chosen.card), str(best.card)), tuple(reasons), _numbers(g, "cards"), evaluation
    )


# ----- pass -----


def _pass_reasons(chosen: PassFacts, best: PassFacts, g: Grade) -> list[str]:
    reasons: list[str] = []
    if g.best.moon_for - g.chosen.moon_for > 0.1:
        reasons.append(
            f"This hand can take every trick: keeping the right cards, you shoot the moon in "
            f"{100 * g.best.moon_for:.0f}% of the imagined deals, against "
            f"{100 * g.chosen.moon_for:.0f}% after passing {chosen.cards}."
        )
        return reasons
    guards = _count(best.spades_held - 1, "other spade")
    if best.passes_queen and not chosen.passes_queen:
        reasons.append(
            f"Your Q♠ has only {guards} to guard her: pass her now, or expect to be forced to take her."
        )
    if chosen.passes_queen and not best.passes_queen:
        reasons.append(
            f"With {guards} guarding her you can keep the Q♠ and control where she goes; "
            "passed, she arms the receiver."
        )
    missing_high = [c for c in best.passes_high_spades if c not in chosen.cards]
    if missing_high and not best.holds_queen:
        names = " and ".join(str(c) for c in missing_high)
        protect = "them" if len(missing_high) > 1 else "it"
        reasons.append(f"{names} with few spades to protect {protect} can catch the Q♠.")
    new_voids = [s for s in best.voids_made if s not in chosen.voids_made]
    if new_voids:
        suit = new_voids[0]
        reasons.append(
            f"Passing all your {suit.noun} leaves you void: when {suit.noun} are led you can "
            "discard the Q♠ or hearts."
        )
    lost_voids = [s for s in chosen.voids_made if s not in best.voids_made]
    if lost_voids and not new_voids:
        reasons.append(f"Emptying your {lost_voids[0].noun} is not worth what the pass gives up here.")
    high_hearts = [c for c in best.high_hearts_passed if c not in chosen.cards]
    if high_hearts:
        reasons.append(
            f"High hearts like {' '.join(str(c) for c in high_hearts)} win heart tricks late in the hand."
        )
    if chosen.low_cards_passed and not best.low_cards_passed:
        cards = " ".join(str(c) for c in chosen.low_cards_passed)
        reasons.append(f"Low cards such as {cards} are your protection: they let you duck. Keep them.")
    if not reasons and g.correct:
        if g.best.moon_for > 0.3:
            reasons.append(
                f"You keep the cards that win every trick: the moon comes in {100 * g.best.moon_for:.0f}% "
                "of the imagined deals."
            )
        else:
            reasons.append("It gets rid of the cards most likely to cost you points.")
    return reasons


def coach_pass(
    view: PlayerView, cards: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    chosen_cards = cards if isinstance(cards, CardSet) else CardSet(cards)
    evaluation = evaluation or judge_pass(view, chosen_cards, seed)
    g = grade(evaluation, chosen_cards)
    chosen, best = pass_facts(view, g.chosen.option), pass_facts(view, g.best.option)
    reasons = _pass_reasons(chosen, best, g)
    return Verdict(
        g,
        _headline(g, str(g.chosen.option), str(g.best.option)),
        tuple(reasons),
        _numbers(g, "passes"),
        evaluation,
    )
