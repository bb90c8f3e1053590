"""Lesson 5, the first trick: no points unless you hold nothing else, the variant that allows
them, and the disputed call of the Q♠ on the first trick."""

from __future__ import annotations

from engine import Rules, to_card

from .deals import H_TRICK_1, I_HAND, H, deal
from .steps import Context, Lesson, Step, StepVerdict, loss_words, refusal_verdict

STANDARD = Rules()
POINTS_ALLOWED = Rules(no_points_on_first_trick=False)
VARIANTS = (
    ("Standard: no points on the first trick", STANDARD),
    ("Variant: points allowed on the first trick", POINTS_ALLOWED),
)

FIRST = {
    "no_points_on_first_trick": "You have no clubs, but on the **first trick** no heart and not the Q♠ "
    "may be thrown while you hold anything else. You hold diamonds and other spades: throw one of those.",
}


def check_first_discard(card: str, context: Context) -> StepVerdict:
    state = context.state
    if refused := refusal_verdict(state, card, context.seat, FIRST):
        return refused
    evaluation = context.evaluate(card)
    loss = evaluation.loss_of(card)
    best = evaluation.best.option
    name = to_card(card).name
    if context.rules.no_points_on_first_trick:
        if best == to_card(card):
            return StepVerdict(
                True,
                f"Correct: the {name} is no point card, so it is allowed, and it is the "
                "evaluator's choice too.",
                "right",
            )
        return StepVerdict(
            True,
            f"Correct: the {name} is no point card, so it is allowed. (The evaluator "
            f"prefers the {best.name}, by {loss_words(loss)}.)",
            "right",
        )
    if card == "QS":
        return StepVerdict(
            True,
            "Correct: with points allowed, you drop the **Q♠** on Right's A♣: 13 points "
            "for Right on the very first trick.",
            "right_queen",
        )
    return StepVerdict(
        False,
        f"Legal under this rule, but the Q♠ is allowed now: throwing her on Right's A♣ "
        f"gets rid of 13 points at once. The {name} costs you {loss_words(loss)} against "
        "that.",
        "missed_queen",
    )


QUEEN_OPTIONS = ("Yes", "No")


def check_queen_first_trick(answer: str, context: Context) -> StepVerdict:
    refusal = context.state.why_not_play("QS", context.seat)
    right = QUEEN_OPTIONS[0] if refusal is None else QUEEN_OPTIONS[1]
    rule = "the rules on the table now"
    if answer == right:
        if refusal is None:
            return StepVerdict(
                True,
                f"Correct: under {rule} (points allowed) she may be thrown on the first trick.",
                "right_allowed",
            )
        return StepVerdict(
            True,
            f"Correct: under {rule} she may not. The engine says: *{refusal.message}* "
            "Some players argue that only the 2♣ lead is fixed on the first trick, so a "
            "void player may throw anything; that is the variant, not the standard "
            "rule.",
            "right_refused",
        )
    if refusal is None:
        return StepVerdict(
            False,
            "With this variant switched on, points are allowed on the first trick, "
            "the Q♠ included: the engine lets her be played.",
            "variant_allows",
        )
    return StepVerdict(
        False,
        f"The engine refuses her: *{refusal.message}* Being void in clubs lets you "
        "throw anything **except** points on the first trick. (Flip the switch for the "
        "variant where she is allowed.)",
        "standard_refuses",
    )


NOTHING_ELSE_OPTIONS = ("Any of my cards", "Only a heart, not the Q♠", "Nothing: I cannot play")


def check_nothing_else(answer: str, context: Context) -> StepVerdict:
    state = context.state
    legal = state.legal_cards(context.seat)
    hand = state.hand(context.seat)
    right = NOTHING_ELSE_OPTIONS[0] if legal == hand else NOTHING_ELSE_OPTIONS[1]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: you hold nothing but point cards, so the first-trick rule gives way: "
            "**any** of them may be played, the Q♠ included.",
            "right",
        )
    if answer == NOTHING_ELSE_OPTIONS[1]:
        return StepVerdict(
            False,
            "The Q♠ is a point card just like the hearts; when you hold nothing else, "
            "the rule allows every one of them.",
            "hearts_only",
        )
    return StepVerdict(
        False,
        "Everyone must play a card to every trick. When every card you hold is a point "
        "card, the rule lets you play any of them.",
        "cannot_play",
    )


LESSON = Lesson(
    number=5,
    key="l05_first_trick",
    title="The first trick",
    summary="No points on the first trick unless you hold nothing else; the variants and the dispute.",
    steps=(
        Step(
            key="no_points",
            facts=("leader: Left", "trick: 2C 9C AC", "void: you C", "tricks: 0", "turn: you"),
            title="No points on the first trick",
            text=(
                "Left led the 2♣, Across played the 9♣ and Right the A♣. You have **no clubs**. On any "
                "other trick you could throw anything; on the first, points are not allowed. Try a heart "
                "or the Q♠, then flip the switch to the variant that allows points and try again."
            ),
            kind="play",
            position=lambda rules: deal(H, rules, H_TRICK_1),
            variants=VARIANTS,
            variant_label="Points allowed on the first trick",
            check=check_first_discard,
            task="Throw a card on the first trick.",
        ),
        Step(
            key="queen_dispute",
            facts=("holds: you QS", "tricks: 0", "void: you C", "turn: you"),
            title="The disputed call: the Q♠ on the first trick",
            text=(
                "Some rule pages say a player with no clubs may throw the Q♠ on the first trick, "
                "because only the opening lead is restricted. Others (and our standard) say no points "
                "at all. Look at the table, and at the switch."
            ),
            kind="choice",
            position=lambda rules: deal(H, rules, H_TRICK_1),
            variants=VARIANTS,
            variant_label="Points allowed on the first trick",
            choices=QUEEN_OPTIONS,
            check=check_queen_first_trick,
            task="Under the rules on the table now, may you play the Q♠ here?",
        ),
        Step(
            key="nothing_else",
            facts=(
                "hand: you QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
                "trick: 2C 2D 2S",
                "tricks: 0",
                "turn: you",
            ),
            title="Unless you hold nothing else",
            text="A strange deal: you hold the Q♠ and twelve hearts, and clubs were led to the first trick.",
            kind="choice",
            position=lambda rules: deal(I_HAND, rules, "2C 2D 2S"),
            choices=NOTHING_ELSE_OPTIONS,
            check=check_nothing_else,
            task="What may you play?",
        ),
    ),
)
