"""The coach: a verdict on a pass or a play, with reasons taken from the position itself.

The verdict's numbers come from the evaluator; its words come from what the position is like
(``features``): which facts about the hand and the trick separate the chosen option from the
better one, and what the better one does.

A verdict is a fact we publish, so every reason is a ``CoachReason``: its sentence and, as data, the
facts about the position that sentence asserts (``facts``: "your highest heart, the J♥" declares
``HighestInSuit(J♥)``). Each fact is checked against the view before the reason is shown; a
reason whose facts do not all hold is withheld (``Verdict.withheld``, which the tests keep
empty). Numbers from the evaluation ("you shoot the moon in 40% of such hands between strong
players") are facts about the evaluation, not the position, and are not declared. They say what
they are (``among``): the forecast (``engine.search.calibration``: what strong players make of such
hands), which the coach grades by, or the play-outs' share of the imagined deals; a play solved
exactly says so, and an outcome every possible deal gives alike is said as whole points. The
figures sentence and the headline declare their figures (``figures.Points``, ``Measured``,
``Loss``), checked against the evaluation like the reasons' facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine import Card, CardSet, PlayerView, Suit, parse_card
from engine.search.evaluator import Evaluation, OptionValue

from ..seats import seat_name, starts_with_seat
from .depth import IN_BROWSER, SHALLOWER_NOTE, judge_pass, judge_play, looked_shallower
from .facts import (
    CannotDuck,
    CardOut,
    CardPoints,
    CardsOut,
    Discarding,
    DucksUnder,
    Fact,
    Following,
    Guards,
    HighestInSuit,
    HighHeart,
    Holds,
    LastToPlay,
    Leading,
    LowCard,
    LowSpades,
    MayFall,
    NoHigherOut,
    NoPointCardsOut,
    NoPointsInTrick,
    NoShownVoid,
    OutAbove,
    OutBetween,
    Outranks,
    PassContains,
    PassMakesVoid,
    PassOption,
    Playable,
    TookEveryPoint,
    TrickPoints,
    Void,
    WinsTrick,
)
from .features import PassFacts, PlayFacts, pass_facts, play_facts
from .figures import (
    LEARNER,
    BestOption,
    Figure,
    Loss,
    Measured,
    MoonChance,
    MoonsUnder,
    Points,
    SolvedLoss,
    WithinOf,
)
from .grading import TOLERANCE, Band, Grade, grade

__all__ = ["TEMPLATES", "CoachReason", "Stance", "Verdict", "coach_pass", "coach_play"]

QUEEN = parse_card("QS")
HIGH_SPADES = (parse_card("KS"), parse_card("AS"))

HEADLINES = {
    Band.BEST: "Best",
    Band.GOOD: "Good",
    Band.INACCURACY: "Inaccuracy",
    Band.MISTAKE: "Mistake",
    Band.BLUNDER: "Blunder",
}


class Stance(StrEnum):
    """Which way a sentence speaks, so that the reasons shown never argue with the verdict."""

    AGAINST = "against"
    """What the better option has over the choice: said as such when the choice lost; for a
    choice graded best it is framed as what the best has all the same, or as the choice's risk."""
    FOR = "for"
    """What speaks for the choice: said only when it is graded best."""
    CAUTION = "caution"
    """A risk the choice runs though it is graded best: said only then, framed as its risk."""


TEMPLATES: dict[str, Stance] = {
    # what the better option has over the choice
    "moon_against": Stance.AGAINST,
    "moon_for": Stance.AGAINST,
    "moon_line": Stance.AGAINST,
    "dump_queen": Stance.AGAINST,
    "dump_heart": Stance.AGAINST,
    "dump_high_spade": Stance.AGAINST,
    "duck": Stance.AGAINST,
    "take_last": Stance.AGAINST,
    "catch_queen": Stance.AGAINST,
    "own_queen": Stance.AGAINST,
    "shown_void": Stance.AGAINST,
    "lead_low": Stance.AGAINST,
    "cash": Stance.AGAINST,
    "cannot_duck": Stance.AGAINST,
    "pass_moon": Stance.AGAINST,
    "pass_queen": Stance.AGAINST,
    "keep_queen": Stance.AGAINST,
    "pass_high_spades": Stance.AGAINST,
    "pass_void": Stance.AGAINST,
    "pass_void_lost": Stance.AGAINST,
    "pass_high_hearts": Stance.AGAINST,
    "keep_low": Stance.AGAINST,
    # what speaks for a choice graded best
    "praise_duck": Stance.FOR,
    "praise_forced": Stance.FOR,
    "praise_last_clean": Stance.FOR,
    "praise_discard_points": Stance.FOR,
    "praise_discard": Stance.FOR,
    "praise_lead_under": Stance.FOR,
    "praise_pass_moon": Stance.FOR,
    "praise_pass_void": Stance.FOR,
    "praise_pass_best": Stance.FOR,
    "praise_pass_near_best": Stance.FOR,
    # the risk a choice graded best still runs
    "caution_sure_winner": Stance.CAUTION,
    "caution_takes_points": Stance.CAUTION,
}
"""Every template the coach has, and which way it speaks. A ``CoachReason`` names one of these."""

Claim = Fact | Figure
"""What a sentence asserts: a fact of the position, or a figure of the evaluation."""


@dataclass(frozen=True)
class CoachReason:
    """One sentence of a verdict and what it asserts: facts about the position and figures from
    the evaluation. A reason cannot be made without them, nor from a template not in
    ``TEMPLATES``: no sentence reaches the learner that asserts nothing checked."""

    text: str
    facts: tuple[Claim, ...]
    template: str
    """Which template said it (``TEMPLATES``)."""
    said: str = ""
    """The sentence before a frame was put on it (``_framed``); empty when it has none."""

    def __post_init__(self) -> None:
        if self.template not in TEMPLATES:
            raise ValueError(f"coach template {self.template!r} is not in TEMPLATES")
        if not self.facts:
            raise ValueError(f"coach sentence declares no fact: {self.text!r}")

    @property
    def stance(self) -> Stance:
        return TEMPLATES[self.template]

    @property
    def plain(self) -> str:
        """The sentence without its frame."""
        return self.said or self.text

    def holds(self, view: PlayerView, evaluation: Evaluation | None = None) -> bool:
        return all(
            claim.check(evaluation) if isinstance(claim, Figure) else claim.check(view)
            for claim in self.facts
        )


@dataclass(frozen=True)
class Verdict:
    grade: Grade
    headline: str
    reasons: tuple[str, ...]
    """Why, from the position: what made the difference."""
    numbers: str
    """The evaluator's figures in one sentence."""
    evaluation: Evaluation
    explained: tuple[CoachReason, ...] = ()
    """The reasons with the facts each one asserts (their texts are ``reasons``)."""
    withheld: tuple[CoachReason, ...] = field(default=(), compare=False)
    """Reasons a template produced whose facts did not hold in the position: never shown."""
    figures: tuple[Figure, ...] = ()
    """The figures ``numbers`` quotes (whose moon each chance is), checked like the reasons'."""
    headline_figures: tuple[Figure, ...] = ()
    """The figures the headline quotes beyond the verdict's own band and loss (a moon line's)."""

    @property
    def text(self) -> str:
        return " ".join((self.headline, *self.reasons, self.numbers))

    @property
    def facts(self) -> tuple[Claim, ...]:
        """Every fact and figure the shown reasons assert."""
        return tuple(fact for reason in self.explained for fact in reason.facts)


def among(measure: str) -> str:
    """What a chance is a share of: "of such hands between strong players" for the forecast,
    "of the imagined deals" for the play-outs' own figures."""
    return "of such hands between strong players" if measure == "forecast" else "of the imagined deals"


def moon_line_words(g: Grade, chosen: str, best: str) -> str:
    """What a moon line is worth against the blockers the coach expects and against blockers
    at any price ("" when the grade has no moon line)."""
    line = g.moon_line
    if line is None:
        return ""
    blockers = "" if g.measure == "forecast" else " when the others block as the coach expects"
    model = (
        f"With {best} you go for the moon: you shoot it in {_percent(line.best.moon_for)} "
        f"{among(g.measure)}{blockers}, and there {chosen} costs about {line.loss:.1f} points."
    )
    strong = (
        f" Against players who block at any price you shoot it in "
        f"{_percent(line.strong_best.moon_for)} of the imagined deals"
    )
    if line.holds:
        return model + strong + f", and {best} still saves about {line.strong_loss:.1f} points."
    if line.strong_leader is not None:  # against such blockers a third option is best
        leader = _name(line.strong_leader.option)
        cost = (
            f"{leader} is best there, and {chosen} costs about {line.strong_chosen.loss:.1f} points "
            f"against it"
        )
    elif line.strong_loss > TOLERANCE:
        cost = f"the safe line, {chosen}, costs about {line.strong_loss:.1f} points"
    else:
        cost = f"the safe line, {chosen}, is as good"
    return model + strong + f": {cost}. The moon is the greedy line here, not a must."


def moon_line_claims(g: Grade) -> tuple[Figure, ...]:
    """The figures ``moon_line_words`` quotes, to be checked against the evaluation."""
    line = g.moon_line
    if line is None:
        return ()
    chosen, best = g.chosen.option, line.best.option
    claims: list[Figure] = [
        MoonChance(best, LEARNER, line.best.moon_for),
        Loss(chosen, best, line.loss),
        MoonChance(best, LEARNER, line.strong_best.moon_for, strong=True),
    ]
    if line.holds:
        claims.append(Loss(chosen, best, line.strong_loss, strong=True))
    elif line.strong_leader is not None:
        claims.append(Loss(chosen, line.strong_leader.option, line.strong_chosen.loss, strong=True))
    else:  # the safe line's cost, or that it is as good (a strong loss within the tolerance)
        claims.append(Loss(chosen, best, line.strong_loss, strong=True))
    return tuple(claims)


def _with_moon_line(reasons: list[CoachReason], g: Grade) -> list[CoachReason]:
    """A moon line whose edge holds against strong blockers is said as the first reason, in
    place of the plain moon-chance one (a line that does not hold is the headline instead)."""
    if g.moon_line is None:
        return reasons
    rest = [r for r in reasons if r.template not in ("moon_for", "pass_moon")]
    if not g.moon_line.holds:
        return rest
    words = moon_line_words(g, _name(g.chosen.option), _name(g.best.option))
    return [CoachReason(words, moon_line_claims(g), "moon_line"), *rest]


def _strong_loss(g: Grade) -> bool:
    """The loss graded is the choice's against blockers at any price (a moon line that keeps a
    mistake's edge there, but less of it), not the difference of the figures printed."""
    return g.moon_line is not None and g.loss != g.chosen.loss


def _headline(g: Grade, chosen: str, best: str) -> str:
    if g.moon_line is not None and not g.moon_line.holds:
        band = HEADLINES[g.band] if g.decided else f"Between {g.span[0].value} and {g.span[1].value}"
        return f"{band}: {moon_line_words(g, chosen, best)}"
    if g.solved is not None:
        return _refuted_headline(g, chosen, best)
    when = " when the others block at any price" if _strong_loss(g) else ""
    if not g.decided:
        low, high = g.span
        why = (
            "a deeper look could not settle it"
            if g.looked_deeper
            else f"the {g.chosen.samples:,} imagined deals behind these figures cannot settle it"
        )
        if g.chosen.option == g.best.option:  # no loss against itself: what is open is the margin
            return (
                f"Between {low.value} and {high.value}: {chosen} comes out best, but another choice may "
                f"be up to {g.high:.1f} points better{when}; {why}."
            )
        return (
            f"Between {low.value} and {high.value}: {chosen} costs about {g.loss:.1f} points against "
            f"{best}{when} (somewhere from {g.low:.1f} to {g.high:.1f}); {why}."
        )
    if g.correct:
        if g.chosen.option == g.best.option:
            return f"{HEADLINES[g.band]}: {chosen} is the best choice here."
        return f"{HEADLINES[g.band]}: {chosen} is as good as {best} (within {g.tolerance:.1f} points)."
    return f"{HEADLINES[g.band]}: {chosen} costs about {g.loss:.1f} points{when}; {best} was better."


def _refuted_headline(g: Grade, chosen: str, best: str) -> str:
    """A play-outs' "best" that deals solved exactly refute (``grading.REFUTED``): both said."""
    solved = g.solved
    assert solved is not None
    low, high = g.span
    rated = "best" if g.chosen.option == g.best.option else f"as good as {best}"
    deals = (
        f"every one of the {solved.deals:,} deals your view allows"
        if solved.every_deal
        else f"{solved.deals:,} of the imagined deals"
    )
    return (
        f"Between {low.value} and {high.value}: played out, {chosen} looks {rated}, but on {deals}, "
        f"each solved exactly with every hand open, it costs {solved.loss:.1f} points against "
        f"{solved.best.option}."
    )


def _headline_claims(g: Grade) -> tuple[Figure, ...]:
    """The figures a headline quotes: a moon line's, when its edge does not hold (the line is
    then said in the headline, not as a reason); else the loss it names, the difference of the
    figures printed (or of those against blockers at any price, when it says so)."""
    if g.solved is not None:
        return (SolvedLoss(g.chosen.option, g.solved.best.option, g.solved.loss),)
    line = g.moon_line
    if line is not None and not line.holds:
        return moon_line_claims(g)
    if g.chosen.option == g.best.option or (g.correct and g.decided):
        return ()
    if g.chosen.samples != g.best.samples:  # a pass screened out: its loss is paired on the screen's deals
        return ()
    if _strong_loss(g) and line is not None:
        leader = line.strong_leader or line.strong_best
        return (Loss(g.chosen.option, leader.option, g.loss, strong=True),)
    return (Loss(g.chosen.option, g.best.option, g.loss),)


def _numbers(view: PlayerView, g: Grade, kind: str, evaluation: Evaluation) -> tuple[str, tuple[Figure, ...]]:
    """The figures behind the verdict: each side's expected points, the moon chances and who
    would shoot, and what "points lost" counts."""
    moons, claims = _moon_words(view, g.best)
    best = _points(g.best)
    certain = " " if g.best.certain else " on average "
    text = (
        f"With {_name(g.best.option)} you take {best} point{'' if best == '1' else 's'}{certain}"
        f"(the others {_figure(g.best.others, g.best.certain)} each){moons}"
    )
    claims += (Points(g.best.option, g.best.points, g.best.others, g.best.certain),)
    if g.chosen.option != g.best.option:
        moons, more = _moon_words(view, g.chosen)
        claims += (*more, Points(g.chosen.option, g.chosen.points, g.chosen.others, g.chosen.certain))
        text += (
            f"; with {_name(g.chosen.option)}, {_points(g.chosen)} "
            f"(the others {_figure(g.chosen.others, g.chosen.certain)}){moons}"
        )
    # what the figures are: solved values as solved, a forecast as what strong players make of it
    if evaluation.every_deal and g.best.samples == 1:
        deals, what = "the one deal the unseen cards allow, solved exactly", "every deal"
    elif evaluation.every_deal:
        deals = f"all {g.best.samples:,} deals the unseen cards allow, each solved exactly"
        what = "every deal"
    elif evaluation.method == "exact":
        deals, what = f"{g.best.samples:,} imagined deals, each solved exactly", "solved"
    else:
        deals, what = f"{g.best.samples:,} imagined deals played out", "played out"
    if g.measure == "forecast":
        text += f": what strong players make of such hands, read from {deals}."
        what = "forecast"
    else:
        text += f", over {deals}."
    claims += (Measured(what),)
    if g.loss > 0.05:
        text += (
            " Points lost count your points minus the others' average, so points you give away "
            "count as well as points you take."
        )
    total = view.rules.moon_value
    if g.loss > total:
        text += (
            f" A loss above the {total} points of a hand comes from the moon: it moves the shooter's "
            "points and everyone else's at once, and points lost count both."
        )
    if kind == "passes":
        text += f" It ranks {g.rank} of {g.options} {kind}."
    if g.clock_stopped:
        text += " The time limit ended this look before its budget of deals: a deeper look may say otherwise."
    if IN_BROWSER and looked_shallower(evaluation):
        text += " " + SHALLOWER_NOTE
    return text, claims


def _figure(points: float, certain: bool) -> str:
    """Points as a sentence shows them: to the tenth, or whole when the outcome is certain and
    whole (a certain 17 is "17", not "17.0")."""
    whole = round(points)
    return str(whole) if certain and abs(points - whole) < 1e-9 else f"{points:.1f}"


def _points(value: OptionValue) -> str:
    return _figure(value.points, value.certain)


def _moon_words(view: PlayerView, value: OptionValue) -> tuple[str, tuple[Figure, ...]]:
    """ ", you shoot the moon in 12%, Right in 3%": the moon chances worth naming (1% or more),
    each with the seat whose moon it is; and the figures that says."""
    if value.moon_by_seat:
        chances = list(enumerate(value.moon_by_seat))
    else:  # only the learner's own chance and the others' together are known
        chances = [(view.seat, value.moon_for), (None, value.moon_against)]
    named = [(chance, seat) for seat, chance in chances if chance >= 0.01]
    if not named:
        words = ", and no player (you included) shoots the moon in 1% or more"
        return words, (MoonsUnder(value.option, 0.01),)
    named.sort(key=lambda pair: -pair[0])
    words, claims = [], []
    for chance, seat in named:
        who = "you" if seat == view.seat else "another player" if seat is None else _seat_name(view, seat)
        words.append(f"{who} in {_percent(chance)}")
        claims.append(MoonChance(value.option, LEARNER if seat == view.seat else seat, chance))
    first = words[0].split(" in ", 1)
    verb = "shoot" if first[0] == "you" else "shoots"
    words[0] = f"{first[0]} {verb} the moon in {first[1]}"
    return f", and {', '.join(words)}", tuple(claims)


def _name(option: object) -> str:
    return str(option)


def _seat_name(view: PlayerView, seat: int) -> str:
    """A seat as the table names it for the learner (``trainer.seats``): Left, Across, Right..."""
    return seat_name(seat, view.players, view.seat)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _one(suit: Suit) -> str:
    """The suit's name for one card: "club", "heart"."""
    return suit.noun[:-1]


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _either(cards: list[Card]) -> str:
    return " or ".join(f"the {c}" for c in cards)


def _both(cards: list[Card]) -> str:
    return " and ".join(f"the {c}" for c in cards)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _with_card(card: Card, facts: PlayFacts) -> tuple[str, tuple[Fact, ...]]:
    """ "your highest heart, the J♥" when it is, else "the J♥"; with the fact that says so."""
    if facts.highest_held:
        return f"your highest {_one(card.suit)}, the {card}", (HighestInSuit(card),)
    return f"the {card}", ()


def _checked(
    view: PlayerView, reasons: list[CoachReason], evaluation: Evaluation | None = None
) -> tuple[tuple[CoachReason, ...], tuple[CoachReason, ...]]:
    shown = tuple(r for r in reasons if r.holds(view, evaluation))
    return shown, tuple(r for r in reasons if r not in shown)


# ----- play -----


def _play_reasons(view: PlayerView, chosen: PlayFacts, best: PlayFacts, g: Grade) -> list[CoachReason]:
    reasons: list[CoachReason] = []
    c, b = chosen.card, best.card
    values = view.rules.card_values
    moon_gap = g.chosen.moon_against - g.best.moon_against
    if moon_gap > 0.05 and chosen.threat is not None:
        reasons.append(
            CoachReason(
                f"{_seat_name(view, chosen.threat)} has taken every penalty card so far, a moon attempt: "
                f"with {c} another player shoots the moon in {_percent(g.chosen.moon_against)} "
                f"{among(g.measure)}, with {b} in {_percent(g.best.moon_against)}.",
                (
                    TookEveryPoint(chosen.threat),
                    Playable(c),
                    Playable(b),
                    MoonChance(c, None, g.chosen.moon_against),
                    MoonChance(b, None, g.best.moon_against),
                ),
                "moon_against",
            )
        )
    if g.best.moon_for - g.chosen.moon_for > 0.05:
        reasons.append(
            CoachReason(
                f"{b} gives you a better chance to shoot the moon: you shoot it in "
                f"{_percent(g.best.moon_for)} {among(g.measure)}, against {_percent(g.chosen.moon_for)} "
                f"with {c}.",
                (
                    Playable(b),
                    Playable(c),
                    MoonChance(b, LEARNER, g.best.moon_for),
                    MoonChance(c, LEARNER, g.chosen.moon_for),
                ),
                "moon_for",
            )
        )
    if best.discarding and b == QUEEN:
        worth = values[QUEEN]
        reasons.append(
            CoachReason(
                "You are void in the suit led: the moment to give the Q♠ "
                f"({_count(worth, 'point')}) to someone else.",
                (Discarding(), Playable(QUEEN), CardPoints(QUEEN, worth)),
                "dump_queen",
            )
        )
    elif best.discarding and b.suit is Suit.HEARTS and c.suit is not Suit.HEARTS and values[c] == 0:
        reasons.append(
            CoachReason(
                f"You cannot follow suit, so unload a point card: the {b} ({_count(values[b], 'point')}) "
                f"goes to the trick's winner, where the {c} gives away nothing.",
                (Discarding(), Playable(b), Playable(c), CardPoints(b, values[b]), CardPoints(c, 0)),
                "dump_heart",
            )
        )
    elif best.discarding and b in HIGH_SPADES and best.queen_out and not best.holds_queen:
        reasons.append(
            CoachReason(
                f"With the Q♠ still out, the {b} could catch her: discard it while you can.",
                (Discarding(), Playable(b), CardOut(QUEEN), Outranks(b, QUEEN)),
                "dump_high_spade",
            )
        )
    if chosen.following and chosen.takes_lead and chosen.could_duck and not best.takes_lead:
        w = chosen.winning_card
        assert w is not None
        facts: list[Fact] = [Following(), Playable(c), Playable(b), WinsTrick(c), DucksUnder(b, w)]
        points = ""
        if chosen.trick_points > 0:
            points = f", which already holds {_count(chosen.trick_points, 'point')}"
            facts.append(TrickPoints(chosen.trick_points))
        if chosen.last_to_play:
            text = f"{c} wins the trick{points}; {b} ducks under the {w}."
            facts.append(LastToPlay())
        elif chosen.unbeatable:
            text = (
                f"{c} wins the trick{points}, as nobody else holds a higher {_one(c.suit)}; "
                f"{b} ducks under the {w}."
            )
            facts.append(NoHigherOut(c))
        else:
            text = (
                f"{c} beats the {w}, so the trick{points} is yours unless a later player beats it; "
                f"{b} ducks under the {w}."
            )
        reasons.append(CoachReason(text, tuple(facts), "duck"))
    if (
        best.last_to_play
        and best.takes_lead
        and best.following
        and not best.point_cards_in_trick
        and not chosen.takes_lead
        and chosen.following
    ):
        which, extra = _with_card(b, best)
        reasons.append(
            CoachReason(
                f"You play last and the trick holds no points: take it with {which}, and keep the {c} "
                "for later.",
                (
                    LastToPlay(),
                    NoPointsInTrick(),
                    Playable(b),
                    WinsTrick(b),
                    Holds(c),
                    Outranks(b, c),
                    *extra,
                ),
                "take_last",
            )
        )
    if (
        c in HIGH_SPADES
        and chosen.queen_out
        and not chosen.holds_queen
        and chosen.takes_lead
        and MayFall(QUEEN).check(view)
    ):
        reasons.append(
            CoachReason(
                f"The Q♠ is still out, so the {c} may catch her.",
                (CardOut(QUEEN), MayFall(QUEEN), Playable(c), Outranks(c, QUEEN)),
                "catch_queen",
            )
        )
    if c == QUEEN and chosen.takes_lead and not chosen.discarding:
        reasons.append(_own_queen(view, chosen))
    if chosen.leading and chosen.voids_in_led_suit and not best.voids_in_led_suit:
        voids = chosen.voids_in_led_suit
        names = [_seat_name(view, s) for s in voids]
        seats = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        reasons.append(
            CoachReason(
                f"{seats} {'has' if len(voids) == 1 else 'have'} shown no {c.suit.noun}: on your {c} lead "
                f"{'that player' if len(voids) == 1 else 'they'} can discard points onto the trick.",
                (Leading(), Playable(c), *(Void(s, c.suit) for s in voids)),
                "shown_void",
            )
        )
    if chosen.leading and best.leading and b.suit == c.suit and c.rank > b.rank and not reasons:
        between = sum(1 for x in view.unseen_cards if x.suit == b.suit and b.rank < x.rank < c.rank)
        if between >= 2:
            reasons.append(
                CoachReason(
                    f"Lead low: {between} {b.suit.noun} still out beat the {b} but not the {c}, so the "
                    f"{b} is less likely to win the trick.",
                    (Leading(), Playable(b), Playable(c), OutBetween(b, c, between)),
                    "lead_low",
                )
            )
    if best.leading and b != c and b.rank >= 12 and b.suit is not Suit.HEARTS and values[b] == 0:
        suit = b.suit
        out = [x for x in view.unseen_cards if x.suit == suit]
        if (
            best.unbeatable
            and not best.voids_in_led_suit
            and len(out) >= view.players - 1
            and all(values[x] == 0 for x in out)
        ):
            reasons.append(
                CoachReason(
                    f"Cash the {b} now: nobody else holds a higher {_one(suit)}, so it wins this trick, "
                    f"and with {len(out)} {suit.noun} still out and no void in them shown, the trick is "
                    "likely to hold no points. Kept for later, it may win a trick with points piled on it.",
                    (
                        Leading(),
                        Playable(b),
                        NoHigherOut(b),
                        CardsOut(suit, len(out)),
                        NoShownVoid(suit),
                        NoPointCardsOut(suit),
                        CardPoints(b, 0),
                    ),
                    "cash",
                )
            )
    if (
        best.following
        and chosen.following
        and not best.could_duck
        and best.takes_lead
        and b.rank > c.rank
        and not reasons
    ):
        w = best.winning_card
        assert w is not None
        which, extra = _with_card(b, best)
        likely, last = ("yours", (LastToPlay(),)) if best.last_to_play else ("likely yours", ())
        reasons.append(
            CoachReason(
                f"You cannot stay under the {w}, so the trick is {likely}: win it with {which}, and keep "
                f"the {c} to duck with later.",
                (Following(), CannotDuck(w), Playable(b), Holds(c), Outranks(b, c), *extra, *last),
                "cannot_duck",
            )
        )
    if g.correct:
        reasons += _praise_play(view, chosen)
    return reasons


def _own_queen(view: PlayerView, facts: PlayFacts) -> CoachReason:
    """The learner's Q♠ would be winning the trick."""
    higher = [c for c in HIGH_SPADES if c in view.unseen_cards]
    playable = Playable(QUEEN)
    if facts.leading:
        if not higher:
            return CoachReason(
                "Nobody else holds a higher spade: lead the Q♠ and you take your own queen.",
                (Leading(), playable, NoHigherOut(QUEEN)),
                "own_queen",
            )
        return CoachReason(
            f"Lead the Q♠ and you take her yourself unless someone plays {_either(higher)} on her.",
            (Leading(), playable, *(CardOut(c) for c in higher)),
            "own_queen",
        )
    if facts.last_to_play:
        return CoachReason(
            "The Q♠ wins this trick: you would take your own queen.",
            (LastToPlay(), playable, WinsTrick(QUEEN)),
            "own_queen",
        )
    if not higher:
        return CoachReason(
            "The Q♠ wins this trick, as nobody else holds a higher spade: you would take your own queen.",
            (playable, WinsTrick(QUEEN), NoHigherOut(QUEEN)),
            "own_queen",
        )
    return CoachReason(
        "The Q♠ would be winning this trick: you take your own queen unless a later player "
        f"beats her with {_either(higher)}.",
        (playable, WinsTrick(QUEEN), *(CardOut(c) for c in higher)),
        "own_queen",
    )


def _praise_play(view: PlayerView, facts: PlayFacts) -> list[CoachReason]:
    """For a choice graded best: what its card does, each a fact checked in the position; a
    lead that is sure to win its trick, or a card that takes points, is said as its risk. Nothing
    when no such fact applies (the figures still say why it is best)."""
    c, values = facts.card, view.rules.card_values
    w = facts.winning_card
    if facts.discarding:
        if values[c]:
            return [
                CoachReason(
                    f"You cannot follow suit: the {c} ({_count(values[c], 'point')}) goes to whoever "
                    "wins the trick, and that is not you.",
                    (Discarding(), Playable(c), CardPoints(c, values[c])),
                    "praise_discard_points",
                )
            ]
        return [
            CoachReason(
                f"You cannot follow suit, so the {c} cannot win this trick.",
                (Discarding(), Playable(c)),
                "praise_discard",
            )
        ]
    if facts.following and not facts.takes_lead:
        assert w is not None
        return [
            CoachReason(
                f"It stays under the {w}: someone else takes the trick.",
                (Following(), Playable(c), DucksUnder(c, w)),
                "praise_duck",
            )
        ]
    if facts.following:  # it would be winning the trick
        assert w is not None
        said: list[CoachReason] = []
        if not facts.could_duck:
            said.append(
                CoachReason(
                    f"Every card you may play beats the {w}: you cannot stay under it.",
                    (Following(), CannotDuck(w), Playable(c)),
                    "praise_forced",
                )
            )
        if facts.last_to_play and not facts.point_cards_in_trick and not values[c]:
            said.append(
                CoachReason(
                    f"You play last and the trick holds no points: the {c} takes it clean.",
                    (LastToPlay(), NoPointsInTrick(), Playable(c), WinsTrick(c), CardPoints(c, 0)),
                    "praise_last_clean",
                )
            )
        elif facts.last_to_play or facts.unbeatable:
            points = facts.trick_points + values[c]
            if points:
                sure = (LastToPlay(),) if facts.last_to_play else (NoHigherOut(c),)
                least = "" if facts.last_to_play else "at least "
                own = f", the {c}'s own included" if values[c] else ""
                said.append(
                    CoachReason(
                        f"The {c} wins this trick, and you take {least}{_count(points, 'point')} "
                        f"with it{own}.",
                        (
                            Playable(c),
                            WinsTrick(c),
                            *sure,
                            TrickPoints(facts.trick_points),
                            CardPoints(c, values[c]),
                        ),
                        "caution_takes_points",
                    )
                )
        return said
    # leading
    out = [x for x in view.unseen_cards if x.suit == c.suit]
    above = [x for x in out if x.rank > c.rank]
    if above:
        return [
            CoachReason(
                f"{_count(len(above), _one(c.suit))} still out "
                f"{'outranks' if len(above) == 1 else 'outrank'} the {c}: it wins the trick only if "
                f"{'that card is' if len(above) == 1 else 'none of them is'} played on it.",
                (Leading(), Playable(c), OutAbove(c, len(above))),
                "praise_lead_under",
            )
        ]
    facts_: list[Fact] = [Leading(), Playable(c), NoHigherOut(c), CardPoints(c, values[c])]
    own = f"you take the {c}'s own {_count(values[c], 'point')}" if values[c] else ""
    if not out:
        facts_.append(CardsOut(c.suit, 0))
        text = f"No other player holds a {_one(c.suit)}, so the {c} wins this trick"
        text += f", {own}, and" if own else " and"
        text += " every other player may discard points on it"
    else:
        text = f"No other player holds a higher {_one(c.suit)}, so the {c} wins this trick"
        text += f" and {own}" if own else ""
    if QUEEN in view.unseen_cards:
        facts_.append(CardOut(QUEEN))
        text += ", the Q♠ among them" if not out else "; the Q♠ is still out"
    return [CoachReason(text + ".", tuple(facts_), "caution_sure_winner")]


def lower_first(text: str) -> str:
    """The sentence's first word in lower case, to follow a frame's colon (not a card's or a
    seat's name)."""
    first = text.split(" ", 1)[0]
    if not first.isalpha() or starts_with_seat(text):
        return text
    return text[:1].lower() + text[1:]


def _framed(reasons: list[CoachReason], g: Grade, best_is: Fact) -> list[CoachReason]:
    """The reasons in the verdict's own direction. For a choice that lost, what the better option
    has over it. For a choice graded best, what speaks for it comes first; what the best option
    has over it (when another option is the best, within the tolerance) is said as the best's,
    and a risk the choice runs as its risk: never as a reason against the verdict."""
    if not g.correct:
        return [r for r in reasons if r.stance is Stance.AGAINST]
    best = _name(g.best.option)
    same = g.chosen.option == g.best.option
    support = [r for r in reasons if r.stance is Stance.FOR]
    rest = []
    for r in reasons:
        if r.stance is Stance.FOR:
            continue
        if r.stance is Stance.CAUTION or same:
            rest.append(replace(r, text=f"Its risk, all the same: {lower_first(r.text)}", said=r.text))
        else:
            frame = f"What speaks for {best} all the same: {lower_first(r.text)}"
            rest.append(replace(r, text=frame, said=r.text, facts=(*r.facts, best_is)))
    return support + rest


def coach_play(
    view: PlayerView, card: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    evaluation = evaluation or judge_play(view, card, seed)
    g = grade(evaluation, card)
    chosen, best = play_facts(view, g.chosen.option), play_facts(view, g.best.option)
    reasons = _framed(_with_moon_line(_play_reasons(view, chosen, best, g), g), g, Playable(best.card))
    shown, withheld = _checked(view, reasons, evaluation)
    numbers, figures = _numbers(view, g, "cards", evaluation)
    return Verdict(
        g,
        _headline(g, str(chosen.card), str(best.card)),
        tuple(r.text for r in shown),
        numbers,
        evaluation,
        shown,
        withheld,
        figures,
        _headline_claims(g),
    )


# ----- pass -----


def _cards(cards: list[Card] | CardSet) -> str:
    return " ".join(str(c) for c in cards)


def _void_made(passed: CardSet, suit: Suit, template: str) -> CoachReason:
    """Passing every card of ``suit``: the void it makes and what it is for."""
    gone = [c for c in passed if c.suit is suit]
    return CoachReason(
        f"Passing all your {suit.noun} ({_cards(gone)}) leaves you void in them unless the pass "
        f"brings you some: when {suit.noun} are led you can discard your dangerous cards.",
        (PassMakesVoid(passed, suit), *(PassContains(passed, c) for c in gone)),
        template,
    )


def _pass_reasons(view: PlayerView, chosen: PassFacts, best: PassFacts, g: Grade) -> list[CoachReason]:
    reasons: list[CoachReason] = []
    mine, better = chosen.cards, best.cards
    if g.best.moon_for - g.chosen.moon_for > 0.1:
        reasons.append(
            CoachReason(
                f"Keeping the right cards (passing {better}), you shoot the moon in "
                f"{_percent(g.best.moon_for)} {among(g.measure)}, against {_percent(g.chosen.moon_for)} "
                f"after passing {mine}.",
                (
                    PassOption(better),
                    PassOption(mine),
                    MoonChance(better, LEARNER, g.best.moon_for),
                    MoonChance(mine, LEARNER, g.chosen.moon_for),
                ),
                "pass_moon",
            )
        )
        return reasons
    if best.passes_queen and not chosen.passes_queen:
        guards = sum(1 for c in view.hand if c.suit is Suit.SPADES and c != QUEEN and c not in mine)
        after = " after your pass" if any(c.suit is Suit.SPADES for c in mine) else ""
        facts = (Holds(QUEEN), PassContains(better, QUEEN), Guards(guards, mine))
        if guards == 0:
            text = (
                f"Your Q♠ has no other spade to guard her{after}: pass her now, or expect to be forced "
                "to take her."
            )
        elif guards <= 3:
            text = (
                f"Your Q♠ has only {_count(guards, 'other spade')} to guard her{after}: pass her now, "
                "or expect to be forced to take her."
            )
        else:
            text = (
                f"Even with {_count(guards, 'other spade')} to guard her{after}, your Q♠ is better "
                "passed here."
            )
        reasons.append(CoachReason(text, facts, "pass_queen"))
    if chosen.passes_queen and not best.passes_queen:
        guards = sum(1 for c in view.hand if c.suit is Suit.SPADES and c != QUEEN and c not in better)
        facts = (Holds(QUEEN), PassContains(mine, QUEEN), Guards(guards, better))
        if guards:
            after = f" after passing {better}" if any(c.suit is Suit.SPADES for c in better) else ""
            text = (
                f"With {_count(guards, 'other spade')} to guard her{after}, you can keep the Q♠ and choose "
                "where she goes; passed, the player who receives her chooses instead."
            )
        else:
            text = (
                "Keeping the Q♠ is worth more here than passing her: passed, the player who receives "
                "her chooses where she goes."
            )
        reasons.append(CoachReason(text, facts, "keep_queen"))
    missing_high = [c for c in best.passes_high_spades if c not in mine]
    if missing_high and not best.holds_queen:
        low = sum(1 for c in view.hand if c.suit is Suit.SPADES and c.rank < QUEEN.rank and c not in mine)
        facts = [CardOut(QUEEN)]
        for c in missing_high:
            facts += [PassContains(better, c), Outranks(c, QUEEN)]
        few = ""
        if low <= 2:
            facts.append(LowSpades(low, mine))
            few = (
                ", and after your pass you would keep "
                f"{'no lower spade' if low == 0 else 'only ' + _count(low, 'lower spade')} to play instead"
            )
        reasons.append(
            CoachReason(
                f"{_capital(_both(missing_high))} can catch the Q♠{few}.",
                tuple(facts),
                "pass_high_spades",
            )
        )
    new_voids = [s for s in best.voids_made if s not in chosen.voids_made]
    if new_voids:
        reasons.append(_void_made(better, new_voids[0], "pass_void"))
    lost_voids = [s for s in chosen.voids_made if s not in best.voids_made]
    if lost_voids and not new_voids:
        suit = lost_voids[0]
        gone = [c for c in mine if c.suit is suit]
        reasons.append(
            CoachReason(
                f"Emptying your {suit.noun} ({_cards(gone)}) is not worth what your pass gives up here.",
                (PassMakesVoid(mine, suit), *(PassContains(mine, c) for c in gone)),
                "pass_void_lost",
            )
        )
    high_hearts = [c for c in best.high_hearts_passed if c not in mine]
    if high_hearts:
        if len(high_hearts) == 1:
            text = (
                f"The {high_hearts[0]} is a high heart: kept, it can win heart tricks, points and all, "
                "late in the hand."
            )
        else:
            text = (
                f"{_capital(_both(high_hearts))} are high hearts: kept, they can "
                "win heart tricks, points and all, late in the hand."
            )
        reasons.append(
            CoachReason(
                text,
                tuple(f for c in high_hearts for f in (HighHeart(c), Holds(c), PassContains(better, c))),
                "pass_high_hearts",
            )
        )
    if chosen.low_cards_passed and not best.low_cards_passed:
        low_cards = list(chosen.low_cards_passed)
        if len(low_cards) == 1:
            text = f"A low card such as the {low_cards[0]} is your protection: it lets you duck. Keep it."
        else:
            text = f"Low cards such as {_cards(low_cards)} are your protection: they let you duck. Keep them."
        reasons.append(
            CoachReason(
                text,
                tuple(f for c in low_cards for f in (LowCard(c), PassContains(mine, c))),
                "keep_low",
            )
        )
    if g.correct:
        reasons += _praise_pass(chosen, g)
    return reasons


def _praise_pass(chosen: PassFacts, g: Grade) -> list[CoachReason]:
    """For a pass graded best: what it keeps or makes, each said with the fact or figure it
    rests on."""
    mine = chosen.cards
    if g.chosen.moon_for > 0.3:
        return [
            CoachReason(
                f"It keeps a moon possible: you shoot it in {_percent(g.chosen.moon_for)} "
                f"{among(g.measure)}.",
                (PassOption(mine), MoonChance(mine, LEARNER, g.chosen.moon_for)),
                "praise_pass_moon",
            )
        ]
    if chosen.voids_made:
        return [_void_made(mine, chosen.voids_made[0], "praise_pass_void")]
    if g.chosen.option == g.best.option:
        return [
            CoachReason(
                "Of every pass the coach valued, it leaves you the fewest points against the table.",
                (PassOption(mine), BestOption(mine)),
                "praise_pass_best",
            )
        ]
    if g.chosen.loss > TOLERANCE:  # graded best against strong blockers only: the moon line says why
        return []
    return [
        CoachReason(
            "It leaves you about as few points against the table as the best pass, within "
            f"{TOLERANCE:.1f} points.",
            (PassOption(mine), WithinOf(mine, TOLERANCE)),
            "praise_pass_near_best",
        )
    ]


def coach_pass(
    view: PlayerView, cards: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    chosen_cards = cards if isinstance(cards, CardSet) else CardSet(cards)
    evaluation = evaluation or judge_pass(view, chosen_cards, seed)
    g = grade(evaluation, chosen_cards)
    chosen, best = pass_facts(view, g.chosen.option), pass_facts(view, g.best.option)
    reasons = _framed(_with_moon_line(_pass_reasons(view, chosen, best, g), g), g, PassOption(best.cards))
    shown, withheld = _checked(view, reasons, evaluation)
    numbers, figures = _numbers(view, g, "passes", evaluation)
    return Verdict(
        g,
        _headline(g, str(g.chosen.option), str(g.best.option)),
        tuple(r.text for r in shown),
        numbers,
        evaluation,
        shown,
        withheld,
        figures,
        _headline_claims(g),
    )
