"""Why a hand's *decisions* figure passes the hand's own points, said in checked sentences.

A hand's *decisions* is the sum of its decisions' expected losses, each measured from the
position it was made in, against the best option there. After a costly choice, how the hidden
cards lie can hand the chance back (a later decision again has a good option), and losing it
again counts again; a moon moves every seat's points at once. So a 26-point hand can show
decisions of +42.5, with *luck* taking the difference back. Measured on six bot games (an Easy
learner, seeds 0-5, reviewed at 8,192 deals a play): 3 of 51 hands passed 26, each an
accumulation (largest single loss 6.6-20.9; luck -5.3 to -31.2); in one, a 25-point hand at
+51.8, trick 11 (20.9) and trick 12 (19.9) lost the same escape twice.

Each sentence declares what it asserts as claims checked against the hand's review (its
moments, figures and evaluations); a sentence whose claims do not all hold is not shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import CardSet, parse_card

from .game import HandReview, Moment

__all__ = ["HandNote", "hand_note", "hand_points"]

MOON_SHIFT = 0.10
"""How much the moon chances must differ between the best option and the choice for a loss
above a hand's points to be called a moon swing."""


def hand_points(hand: HandReview) -> int:
    """The points a hand deals out (26 under standard rules); 0 with no decision to read them from."""
    if not hand.moments:
        return 0
    return hand.moments[0].state.rules.moon_value


def _cards(text: str, kind: str) -> str:
    return " ".join(str(c) for c in CardSet(text)) if kind == "pass" else str(parse_card(text))


def _where(moment: Moment) -> str:
    return "the pass" if moment.decision.kind == "pass" else f"trick {moment.decision.trick}"


@dataclass(frozen=True)
class NoteClaim:
    def check(self, hand: HandReview) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class DecisionsAbove(NoteClaim):
    """The hand's decisions figure is above ``points``, the points the hand deals out."""

    points: int

    def check(self, hand: HandReview) -> bool:
        return hand_points(hand) == self.points and hand.decisions_loss > self.points


@dataclass(frozen=True)
class LostAt(NoteClaim):
    """The decision at ``trick`` (0: the pass) chose ``choice`` where ``best`` was best and lost
    about ``loss`` (to the tenth shown)."""

    trick: int
    choice: str
    best: str
    loss: float

    def check(self, hand: HandReview) -> bool:
        return any(
            m.decision.trick == self.trick
            and m.decision.choice == self.choice
            and m.decision.best == self.best
            and abs(m.loss - self.loss) < 0.05
            for m in hand.moments
        )


@dataclass(frozen=True)
class Share(NoteClaim):
    """The decisions listed make about ``total`` of the hand's decisions figure."""

    tricks: tuple[int, ...]
    total: float

    def check(self, hand: HandReview) -> bool:
        listed = sum(m.loss for m in hand.moments if m.decision.trick in self.tricks)
        return abs(listed - self.total) < 0.05 and listed <= hand.decisions_loss + 1e-9


@dataclass(frozen=True)
class MoonSwing(NoteClaim):
    """At ``trick`` the best option and the choice differ in someone's moon chance by at least
    ``MOON_SHIFT``: the learner shoots in ``best_for`` against ``chosen_for``, another player
    in ``best_against`` against ``chosen_against``."""

    trick: int
    best_for: float
    chosen_for: float
    best_against: float
    chosen_against: float

    def check(self, hand: HandReview) -> bool:
        for m in hand.moments:
            if m.decision.trick != self.trick:
                continue
            best, chosen = m.evaluation.best, m.evaluation.value_of(m.decision.choice)
            shift = max(abs(best.moon_for - chosen.moon_for), abs(best.moon_against - chosen.moon_against))
            figures = (best.moon_for, chosen.moon_for, best.moon_against, chosen.moon_against)
            said = (self.best_for, self.chosen_for, self.best_against, self.chosen_against)
            return shift >= MOON_SHIFT and all(abs(a - b) < 0.005 for a, b in zip(figures, said, strict=True))
        return False


@dataclass(frozen=True)
class AddsUp(NoteClaim):
    """Cards, decisions and luck, as shown, add up to the result shown (to the tenth)."""

    cards: float
    decisions: float
    luck: float
    result: float

    def check(self, hand: HandReview) -> bool:
        shown = (hand.cards, hand.decisions_loss, hand.luck, hand.result)
        said = (self.cards, self.decisions, self.luck, self.result)
        return (
            all(abs(a - b) < 0.05 for a, b in zip(shown, said, strict=True))
            and abs(hand.cards + hand.decisions_loss + hand.luck - hand.result) < 1e-6
        )


@dataclass(frozen=True)
class Sentence:
    text: str
    claims: tuple[NoteClaim, ...]

    def holds(self, hand: HandReview) -> bool:
        return bool(self.claims) and all(claim.check(hand) for claim in self.claims)


@dataclass(frozen=True)
class HandNote:
    """The sentences said about one hand: those whose claims held."""

    hand: int
    sentences: tuple[Sentence, ...]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


def _largest(hand: HandReview) -> list[Moment]:
    """The costliest decisions, largest first, until they make half the figure (three at most)."""
    ranked = sorted(hand.moments, key=lambda m: -m.loss)
    chosen: list[Moment] = []
    for m in ranked[:3]:
        chosen.append(m)
        if sum(x.loss for x in chosen) >= hand.decisions_loss / 2:
            break
    return chosen


def _sentences(hand: HandReview) -> list[Sentence]:
    points = hand_points(hand)
    said = [
        Sentence(
            f"**Hand {hand.index + 1}: decisions {hand.decisions_loss:+.1f} in a hand of {points} points.** "
            "Each decision's loss is counted from the position it was made in, against the best "
            "option there: when the cards give a lost chance back and it is lost again, it counts "
            "again.",
            (DecisionsAbove(points),),
        )
    ]
    largest = _largest(hand)
    parts = [
        f"{_where(m)} ({_cards(m.decision.choice, m.decision.kind)} where "
        f"{_cards(m.decision.best, m.decision.kind)} was best, {m.loss:.1f} lost)"
        for m in largest
    ]
    listed = sum(m.loss for m in largest)
    said.append(
        Sentence(
            f"The largest: {', '.join(parts)}, {listed:.1f} together.",
            (
                *(LostAt(m.decision.trick, m.decision.choice, m.decision.best, m.loss) for m in largest),
                Share(tuple(m.decision.trick for m in largest), listed),
            ),
        )
    )
    for m in largest:
        if m.loss <= points:
            continue
        best, chosen = m.evaluation.best, m.evaluation.value_of(m.decision.choice)
        said.append(
            Sentence(
                f"The loss at {_where(m)} alone passes {points} points: a moon moves every seat's points "
                f"at once. With {_cards(m.decision.best, m.decision.kind)} you shoot the moon in "
                f"{100 * best.moon_for:.0f}% and another player in {100 * best.moon_against:.0f}%; with "
                f"{_cards(m.decision.choice, m.decision.kind)}, you in {100 * chosen.moon_for:.0f}% and "
                f"another player in {100 * chosen.moon_against:.0f}%.",
                (
                    MoonSwing(
                        m.decision.trick,
                        best.moon_for,
                        chosen.moon_for,
                        best.moon_against,
                        chosen.moon_against,
                    ),
                ),
            )
        )
    said.append(
        Sentence(
            f"Luck, {hand.luck:+.1f}, is the rest: cards {hand.cards:+.1f}, decisions "
            f"{hand.decisions_loss:+.1f} and luck add up to the result, {hand.result:+.1f}.",
            (AddsUp(hand.cards, hand.decisions_loss, hand.luck, hand.result),),
        )
    )
    return said


def hand_note(hand: HandReview) -> HandNote | None:
    """Why this hand's decisions figure passes the hand's points, or None when it does not (or
    the opening sentence's claim does not hold)."""
    if not hand.moments or hand.decisions_loss <= hand_points(hand):
        return None
    sentences = _sentences(hand)
    if not sentences[0].holds(hand):
        return None
    return HandNote(hand.index, tuple(s for s in sentences if s.holds(hand)))
