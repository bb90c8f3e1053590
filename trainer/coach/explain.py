"""The coach: a verdict on a pass or a play, with reasons taken from the position itself.

The verdict's numbers come from the evaluator; its words come from what the position is like
(``features``): which facts about the hand and the trick separate the chosen option from the
better one, and what the better one does.

A verdict is a fact we publish, so every reason is a ``Reason``: its sentence and, as data, the
facts about the position that sentence asserts (``facts``: "your highest heart, the J♥" declares
``HighestInSuit(J♥)``). Each fact is checked against the view before the reason is shown; a
reason whose facts do not all hold is withheld (``Verdict.withheld``, which the tests keep
empty). Numbers from the evaluation ("you shoot the moon in 40% of such hands between strong
players") are facts about the evaluation, not the position, and are not declared. They say what
they are (``among``): the forecast (``engine.calibration``: what strong players make of such
hands), which the coach grades by, or the play-outs' share of the imagined deals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, CardSet, PlayerView, Suit, parse_card
from engine.evaluator import Evaluation, OptionValue

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
    NoHigherOut,
    NoPointCardsOut,
    NoPointsInTrick,
    NoShownVoid,
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
from .grading import TOLERANCE, Band, Grade, grade

__all__ = ["Reason", "Verdict", "coach_pass", "coach_play"]

QUEEN = parse_card("QS")
HIGH_SPADES = (parse_card("KS"), parse_card("AS"))

HEADLINES = {
    Band.BEST: "Best",
    Band.GOOD: "Good",
    Band.INACCURACY: "Inaccuracy",
    Band.MISTAKE: "Mistake",
    Band.BLUNDER: "Blunder",
}


@dataclass(frozen=True)
class Reason:
    """One sentence of a verdict and the facts about the position it asserts."""

    text: str
    facts: tuple[Fact, ...] = ()
    template: str = ""
    """Which template said it (for tests and coverage)."""

    def holds(self, view: PlayerView) -> bool:
        return all(fact.check(view) for fact in self.facts)


@dataclass(frozen=True)
class Verdict:
    grade: Grade
    headline: str
    reasons: tuple[str, ...]
    """Why, from the position: what made the difference."""
    numbers: str
    """The evaluator's figures in one sentence."""
    evaluation: Evaluation
    explained: tuple[Reason, ...] = ()
    """The reasons with the facts each one asserts (their texts are ``reasons``)."""
    withheld: tuple[Reason, ...] = field(default=(), compare=False)
    """Reasons a template produced whose facts did not hold in the position: never shown."""

    @property
    def text(self) -> str:
        return " ".join((self.headline, *self.reasons, self.numbers))

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Every fact the shown reasons assert about the position."""
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
        f" Against players who block at any price the moon comes home in "
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


def _with_moon_line(reasons: list[Reason], g: Grade) -> list[Reason]:
    """A moon line whose edge holds against strong blockers is said as the first reason, in
    place of the plain moon-chance one (a line that does not hold is the headline instead)."""
    if g.moon_line is None:
        return reasons
    rest = [r for r in reasons if r.template not in ("moon_for", "pass_moon")]
    if not g.moon_line.holds:
        return rest
    words = moon_line_words(g, _name(g.chosen.option), _name(g.best.option))
    return [Reason(words, (), "moon_line"), *rest]


def _headline(g: Grade, chosen: str, best: str) -> str:
    if g.moon_line is not None and not g.moon_line.holds:
        band = HEADLINES[g.band] if g.decided else f"Between {g.span[0].value} and {g.span[1].value}"
        return f"{band}: {moon_line_words(g, chosen, best)}"
    if not g.decided:
        low, high = g.span
        why = (
            "a deeper look could not settle it"
            if g.looked_deeper
            else f"the {g.chosen.samples:,} imagined deals behind these figures cannot settle it"
        )
        return (
            f"Between {low.value} and {high.value}: {chosen} costs about {g.loss:.1f} points against "
            f"{best} (somewhere from {g.low:.1f} to {g.high:.1f}); {why}."
        )
    if g.correct:
        if g.chosen.option == g.best.option:
            return f"{HEADLINES[g.band]}: {chosen} is the best choice here."
        return f"{HEADLINES[g.band]}: {chosen} is as good as {best} (within {g.tolerance:.1f} points)."
    return f"{HEADLINES[g.band]}: {chosen} costs about {g.loss:.1f} points; {best} was better."


def _numbers(view: PlayerView, g: Grade, kind: str, evaluation: Evaluation) -> str:
    """The figures behind the verdict: each side's expected points, the moon chances and who
    would shoot, and what "points lost" counts."""
    text = (
        f"With {_name(g.best.option)} you take {g.best.points:.1f} points on average "
        f"(the others {g.best.others:.1f} each){_moon_words(view, g.best)}"
    )
    if g.chosen.option != g.best.option:
        text += (
            f"; with {_name(g.chosen.option)}, {g.chosen.points:.1f} (the others {g.chosen.others:.1f})"
            f"{_moon_words(view, g.chosen)}"
        )
    if evaluation.every_deal:
        deals = f"all {g.best.samples:,} deals the unseen cards allow, each solved exactly"
    else:
        deals = f"{g.best.samples:,} imagined deals played out"
    if g.measure == "forecast":
        text += f": what strong players make of such hands, read from {deals}."
    else:
        text += f", over {deals}."
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
    return text


def _moon_words(view: PlayerView, value: OptionValue) -> str:
    """ ", you shoot the moon in 12%, Right in 3%": the moon chances worth naming (1% or more)."""
    chances = value.moon_by_seat or tuple(
        value.moon_for if seat == view.seat else 0.0 for seat in range(view.players)
    )
    named = [
        (chance, "you" if seat == view.seat else _seat_name(view, seat))
        for seat, chance in enumerate(chances)
        if chance >= 0.01
    ]
    if not named:
        return ", and a moon in under 1%"
    named.sort(key=lambda pair: -pair[0])
    first, *rest = named
    words = f"{first[1]} {'shoot' if first[1] == 'you' else 'shoots'} the moon in {_percent(first[0])}"
    for chance, who in rest:
        words += f", {who} in {_percent(chance)}"
    return f", and {words}"


def _name(option: object) -> str:
    return str(option)


def _seat_name(view: PlayerView, seat: int) -> str:
    """Seats as the learner sees them: Left, Across and Right at a table of four."""
    if view.players == 4:
        return ("You", "Left", "Across", "Right")[(seat - view.seat) % 4]
    return f"Seat {seat}"


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


def _checked(view: PlayerView, reasons: list[Reason]) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    shown = tuple(r for r in reasons if r.holds(view))
    return shown, tuple(r for r in reasons if r not in shown)


# ----- play -----


def _play_reasons(view: PlayerView, chosen: PlayFacts, best: PlayFacts, g: Grade) -> list[Reason]:
    reasons: list[Reason] = []
    c, b = chosen.card, best.card
    values = view.rules.card_values
    moon_gap = g.chosen.moon_against - g.best.moon_against
    if moon_gap > 0.05 and chosen.threat is not None:
        reasons.append(
            Reason(
                f"{_seat_name(view, chosen.threat)} has taken every penalty card so far, a moon attempt: "
                f"with {c} someone else shoots the moon in {_percent(g.chosen.moon_against)} "
                f"{among(g.measure)}, with {b} in {_percent(g.best.moon_against)}.",
                (TookEveryPoint(chosen.threat), Playable(c), Playable(b)),
                "moon_against",
            )
        )
    if g.best.moon_for - g.chosen.moon_for > 0.05:
        reasons.append(
            Reason(
                f"{b} gives you a better chance to shoot the moon: {_percent(g.best.moon_for)} "
                f"{among(g.measure)}, against {_percent(g.chosen.moon_for)} with {c}.",
                (Playable(b), Playable(c)),
                "moon_for",
            )
        )
    if best.discarding and b == QUEEN:
        worth = values[QUEEN]
        reasons.append(
            Reason(
                "You are void in the suit led: the moment to give the Q♠ "
                f"({_count(worth, 'point')}) to someone else.",
                (Discarding(), Playable(QUEEN), CardPoints(QUEEN, worth)),
                "dump_queen",
            )
        )
    elif best.discarding and b.suit is Suit.HEARTS and c.suit is not Suit.HEARTS and values[c] == 0:
        reasons.append(
            Reason(
                f"You cannot follow suit, so unload a point card: the {b} ({_count(values[b], 'point')}) "
                f"goes to the trick's winner, where the {c} gives away nothing.",
                (Discarding(), Playable(b), Playable(c), CardPoints(b, values[b]), CardPoints(c, 0)),
                "dump_heart",
            )
        )
    elif best.discarding and b in HIGH_SPADES and best.queen_out and not best.holds_queen:
        reasons.append(
            Reason(
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
        reasons.append(Reason(text, tuple(facts), "duck"))
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
            Reason(
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
    if c in HIGH_SPADES and chosen.queen_out and not chosen.holds_queen and chosen.takes_lead:
        reasons.append(
            Reason(
                f"The Q♠ is still out: {c} may catch her.",
                (CardOut(QUEEN), Playable(c), Outranks(c, QUEEN)),
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
            Reason(
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
                Reason(
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
                Reason(
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
            Reason(
                f"You cannot stay under the {w}, so the trick is {likely}: win it with {which}, and keep "
                f"the {c} to duck with later.",
                (Following(), CannotDuck(w), Playable(b), Holds(c), Outranks(b, c), *extra, *last),
                "cannot_duck",
            )
        )
    if not reasons and g.correct:
        reasons.append(_praise_play(chosen))
    return reasons


def _own_queen(view: PlayerView, facts: PlayFacts) -> Reason:
    """The learner's Q♠ would be winning the trick."""
    higher = [c for c in HIGH_SPADES if c in view.unseen_cards]
    playable = Playable(QUEEN)
    if facts.leading:
        if not higher:
            return Reason(
                "Nobody else holds a higher spade: lead the Q♠ and you take your own queen.",
                (Leading(), playable, NoHigherOut(QUEEN)),
                "own_queen",
            )
        return Reason(
            f"Lead the Q♠ and you take her yourself unless someone plays {_either(higher)} on her.",
            (Leading(), playable, *(CardOut(c) for c in higher)),
            "own_queen",
        )
    if facts.last_to_play:
        return Reason(
            "The Q♠ wins this trick: you would take your own queen.",
            (LastToPlay(), playable, WinsTrick(QUEEN)),
            "own_queen",
        )
    if not higher:
        return Reason(
            "The Q♠ wins this trick, as nobody else holds a higher spade: you would take your own queen.",
            (playable, WinsTrick(QUEEN), NoHigherOut(QUEEN)),
            "own_queen",
        )
    return Reason(
        "The Q♠ would be winning this trick: you take your own queen unless a later player "
        f"beats her with {_either(higher)}.",
        (playable, WinsTrick(QUEEN), *(CardOut(c) for c in higher)),
        "own_queen",
    )


def _praise_play(facts: PlayFacts) -> Reason:
    """For a correct choice: what the learner's own card does."""
    if facts.discarding:
        return Reason(
            "You are void in the suit led, and this discard leaves you safest.", (Discarding(),), "praise"
        )
    if facts.following and not facts.takes_lead:
        w = facts.winning_card
        assert w is not None
        return Reason(
            f"It stays under the {w}: someone else takes the trick.",
            (Playable(facts.card), DucksUnder(facts.card, w)),
            "praise",
        )
    if facts.leading:
        return Reason("A lead that is unlikely to come back with points.", (Leading(),), "praise")
    return Reason("It keeps your hand safest for the tricks to come.", (), "praise")


def coach_play(
    view: PlayerView, card: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    evaluation = evaluation or judge_play(view, card, seed)
    g = grade(evaluation, card)
    chosen, best = play_facts(view, g.chosen.option), play_facts(view, g.best.option)
    shown, withheld = _checked(view, _with_moon_line(_play_reasons(view, chosen, best, g), g))
    return Verdict(
        g,
        _headline(g, str(chosen.card), str(best.card)),
        tuple(r.text for r in shown),
        _numbers(view, g, "cards", evaluation),
        evaluation,
        shown,
        withheld,
    )


# ----- pass -----


def _cards(cards: list[Card] | CardSet) -> str:
    return " ".join(str(c) for c in cards)


def _void_made(passed: CardSet, suit: Suit, template: str) -> Reason:
    """Passing every card of ``suit``: the void it makes and what it is for."""
    gone = [c for c in passed if c.suit is suit]
    return Reason(
        f"Passing all your {suit.noun} ({_cards(gone)}) leaves you void in them unless the pass "
        f"brings you some: when {suit.noun} are led you can discard your dangerous cards.",
        (PassMakesVoid(passed, suit), *(PassContains(passed, c) for c in gone)),
        template,
    )


def _pass_reasons(view: PlayerView, chosen: PassFacts, best: PassFacts, g: Grade) -> list[Reason]:
    reasons: list[Reason] = []
    mine, better = chosen.cards, best.cards
    if g.best.moon_for - g.chosen.moon_for > 0.1:
        reasons.append(
            Reason(
                f"Keeping the right cards (passing {better}), you shoot the moon in "
                f"{_percent(g.best.moon_for)} {among(g.measure)}, against {_percent(g.chosen.moon_for)} "
                f"after passing {mine}.",
                (PassOption(better), PassOption(mine)),
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
        reasons.append(Reason(text, facts, "pass_queen"))
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
        reasons.append(Reason(text, facts, "keep_queen"))
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
            Reason(
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
            Reason(
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
            Reason(
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
            Reason(
                text,
                tuple(f for c in low_cards for f in (LowCard(c), PassContains(mine, c))),
                "keep_low",
            )
        )
    if not reasons and g.correct:
        if g.best.moon_for > 0.3:
            reasons.append(
                Reason(
                    f"It keeps a moon possible: you shoot it in {_percent(g.best.moon_for)} "
                    f"{among(g.measure)}.",
                    (),
                    "praise",
                )
            )
        elif chosen.voids_made:
            reasons.append(_void_made(mine, chosen.voids_made[0], "praise"))
        elif g.chosen.option == g.best.option:
            reasons.append(
                Reason("Of every pass, it leaves you the fewest points against the table.", (), "praise")
            )
        else:
            reasons.append(
                Reason("It leaves you about as few points against the table as the best pass.", (), "praise")
            )
    return reasons


def coach_pass(
    view: PlayerView, cards: object, evaluation: Evaluation | None = None, seed: int = 0
) -> Verdict:
    chosen_cards = cards if isinstance(cards, CardSet) else CardSet(cards)
    evaluation = evaluation or judge_pass(view, chosen_cards, seed)
    g = grade(evaluation, chosen_cards)
    chosen, best = pass_facts(view, g.chosen.option), pass_facts(view, g.best.option)
    shown, withheld = _checked(view, _with_moon_line(_pass_reasons(view, chosen, best, g), g))
    return Verdict(
        g,
        _headline(g, str(g.chosen.option), str(g.best.option)),
        tuple(r.text for r in shown),
        _numbers(view, g, "passes", evaluation),
        evaluation,
        shown,
        withheld,
    )
