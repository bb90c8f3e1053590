"""Lesson 3, following suit and discarding: must follow; when void, anything, and dump points;
the disputed call that a void player may discard a heart before hearts are broken."""

from __future__ import annotations

from engine import Rules, to_card

from .deals import D_TRICK_1, E_TRICKS, D, E, deal
from .steps import Context, Lesson, Step, StepVerdict, loss_words, refusal_verdict

STANDARD = Rules()

FOLLOW = {
    "must_follow_suit": "Left led a diamond and you hold diamonds: you must play one. "
    "Only a player with **no** diamonds may play another suit.",
}


def check_follow(card: str, context: Context) -> StepVerdict:
    if refused := refusal_verdict(context.state, card, context.seat, FOLLOW):
        return refused
    if card == "AD":
        return StepVerdict(
            True,
            "Legal: you followed suit. But your A♦ **wins** the trick and Right's 2♥ "
            "with it (1 point). A lower diamond would have followed just as well.",
            "right_but_won",
        )
    return StepVerdict(
        True,
        f"Correct: the {to_card(card).name} follows suit. Across's 10♦ still beats it, so "
        "Across takes Right's 2♥.",
        "right",
    )


def check_dump(card: str, context: Context) -> StepVerdict:
    state = context.state
    if refused := refusal_verdict(state, card, context.seat):
        return refused
    evaluation = context.evaluate(card)
    loss = evaluation.loss_of(card)
    note = f" (The evaluator: {loss_words(loss)} worse than its choice, the {evaluation.best.option.name}.)"
    if card == "QS":
        return StepVerdict(
            True,
            "Correct: you are void in clubs, so anything goes, and the K♣ is winning. "
            "**Across takes the Q♠**: 13 points that are not yours.",
            "right",
        )
    parsed = to_card(card)
    if parsed.suit == 3:
        return StepVerdict(
            False,
            "A heart gives Across 1 point; the **Q♠** would have given 13. When you may "
            "discard and someone else is sure to win the trick, give away your worst "
            "card." + note,
            "small_dump",
        )
    if card == "KS":
        return StepVerdict(
            False,
            "The K♠ is a fine card to be rid of, but the **Q♠** is worse to keep: "
            "dropping her now costs you nothing and gives Across 13." + note,
            "king_not_queen",
        )
    return StepVerdict(
        False,
        f"The {parsed.name} costs nobody anything: a free discard wasted. Void in the "
        "suit led, throw the card you fear most: the **Q♠**." + note,
        "wasted",
    )


def check_heart_discard(card: str, context: Context) -> StepVerdict:
    state = context.state
    if refused := refusal_verdict(state, card, context.seat):
        return refused
    if to_card(card).suit == 3:
        return StepVerdict(
            True,
            f"The engine allows it: the {to_card(card).name} is a legal discard although "
            "hearts were not broken. The break rule limits **leading** hearts, not "
            "discarding them. Now hearts **are** broken (see the table).",
            "right",
        )
    return StepVerdict(
        False,
        f"The {to_card(card).name} is legal too, but this step is about hearts: "
        "discard a **heart** and see whether the engine refuses it.",
        "not_a_heart",
    )


DISCARD_OPTIONS = (
    "Yes: the rule only stops you leading hearts",
    "No: not until hearts are broken",
    "Only if you hold nothing but hearts",
)


def check_discard_rule(answer: str, context: Context) -> StepVerdict:
    allowed = context.state.why_not_play("2H", context.seat) is None
    right = DISCARD_OPTIONS[0] if allowed else DISCARD_OPTIONS[1]
    if answer == right:
        return StepVerdict(
            True,
            "Right. Some players believe hearts must wait until they are broken, but "
            "that rule is about **leading**. A void player may throw a heart on any "
            "trick after the first (the engine agrees: the 2♥ is legal here).",
            "right",
        )
    if answer == DISCARD_OPTIONS[1]:
        return StepVerdict(
            False,
            "That is the common mistake. Discarding a heart is what **breaks** hearts; "
            "the rule only stops you from **leading** one before then.",
            "lead_rule",
        )
    return StepVerdict(
        False,
        "Holding only hearts matters when you **lead** (you may then lead one). When "
        "you are void in the suit led you may discard any card, hearts included.",
        "only_hearts",
    )


LESSON = Lesson(
    number=3,
    key="l03_following",
    title="Following suit and discarding",
    summary="You must follow suit; when you cannot, throw anything, and throw points.",
    steps=(
        Step(
            key="follow",
            facts=("leader: Left", "trick: 2D 10D 2H", "void: Right D", "turn: you"),
            title="Follow suit",
            text=(
                "When a card is led, everyone must play a card of the **same suit** if they have one. "
                "Left led the 2♦, Across played the 10♦, and Right, who has no diamonds, threw the 2♥. "
                "Cards you may not play are faded: hover one to see why."
            ),
            kind="play",
            position=lambda rules: deal(D, rules, D_TRICK_1 + " 2D 10D 2H"),
            check=check_follow,
            task="Play a card to this trick.",
        ),
        Step(
            key="dump",
            facts=("void: you C", "leader: Across", "trick: KC JC", "turn: you"),
            title="Void: throw your worst card",
            text=(
                "You have no clubs. When you cannot follow suit you may play **any** card, and it "
                "cannot win the trick. Across led the K♣ and Right played the J♣; Left will follow "
                "with a small club. So whatever you throw goes to Across."
            ),
            kind="play",
            position=lambda rules: deal(E, rules, E_TRICKS),
            check=check_dump,
            task="Choose your discard.",
        ),
        Step(
            key="heart_discard",
            facts=("broken: no", "trick: KC JC", "void: you C", "turn: you"),
            title="A heart before hearts are broken?",
            text=(
                "Same trick, hearts not yet broken (the table says so). Tables argue about this one: "
                "may a void player throw a heart before any heart has been played? Try it."
            ),
            kind="play",
            position=lambda rules: deal(E, rules, E_TRICKS),
            check=check_heart_discard,
            task="Discard a heart.",
        ),
        Step(
            key="discard_rule",
            title="The disputed call",
            text="Put the last step into a rule.",
            kind="choice",
            position=lambda rules: deal(E, rules, E_TRICKS),
            choices=DISCARD_OPTIONS,
            check=check_discard_rule,
            task="Void in the suit led, hearts not broken: may you discard a heart?",
        ),
    ),
)
