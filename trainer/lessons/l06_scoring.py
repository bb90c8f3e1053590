"""Lesson 6, scoring and the moon: hand totals, shooting the moon, the failed moon, new moon and
shooter's choice, Omnibus, Spot Hearts and Black Maria, with a calculator."""

from __future__ import annotations

from collections.abc import Sequence

from engine import CardParseError, CardSet, MoonChoice, MoonRule, Rules, parse_cards, score_hand
from engine.cards import HEARTS_MASK, card_mask

from ..seats import seat_names, seat_word
from .deals import (
    FAILED_MOON_DEAL,
    FAILED_MOON_PLAYS,
    MOON_DEAL,
    MOON_PLAYS,
    YOUR_POINTS_DEAL,
    YOUR_POINTS_PLAYS,
    before_last_card,
    hand_with,
    played_out,
)
from .steps import Context, Lesson, Step, StepVerdict

STANDARD = Rules()
SCORING_VARIANTS = (
    ("Standard", STANDARD),
    ("New moon (shooter −26)", Rules(moon=MoonRule.SUBTRACT_FROM_SHOOTER)),
    ("Shooter's choice", Rules(moon=MoonRule.SHOOTERS_CHOICE)),
    ("Omnibus (J♦ −10)", Rules(jack_of_diamonds_points=-10)),
    ("Spot Hearts (hearts by rank)", Rules(heart_values="spot")),
    ("Black Maria (K♠ 10, A♠ 7)", Rules(black_maria=True)),
)
SEATS = seat_names(4)  # the calculator's boxes, one a seat of its table of four


def _finished(rules: Rules):
    return played_out(rules, 21)


# The hands whose score a step asks for stop before your last card: the table shows the score
# once you play it, after you have answered.


def _failed_moon(rules: Rules):
    return before_last_card(hand_with(FAILED_MOON_DEAL, rules, FAILED_MOON_PLAYS))


def _left_moon(rules: Rules):
    return before_last_card(hand_with(MOON_DEAL, rules, MOON_PLAYS))


def _your_points(rules: Rules):
    return before_last_card(hand_with(YOUR_POINTS_DEAL, rules, YOUR_POINTS_PLAYS))


# ----- worked totals -----

MARK_CARDS = "QS 2H 7H 9H KH"
TOTAL_OPTIONS = ("17", "5", "4", "26")


def check_worked_total(answer: str, context: Context) -> StepVerdict:
    total = context.rules.points_in(card_mask(MARK_CARDS))
    if answer == str(total):
        return StepVerdict(
            True, f"Correct: four hearts at 1 each and the Q♠ at 13: 4 + 13 = **{total}**.", "right"
        )
    texts = {
        "5": ("You counted the Q♠ as 1, like a heart. She is worth **13** on her own.", "queen_as_one"),
        "4": ("You left out the Q♠: she is in the pile too, and costs 13.", "forgot_queen"),
        "26": ("26 is everything in the hand: only the cards **in your tricks** count.", "whole_hand"),
    }
    text, code = texts.get(answer, ("Count 1 per heart and 13 for the Q♠.", "other"))
    return StepVerdict(False, text, code)


# ----- the calculator -----


def parse_taken(boxes: Sequence[str]) -> list[int]:
    """Each seat's box of cards ("QS AH 10H") as masks; a CardParseError or ValueError names the box."""
    masks = []
    seen: dict[int, str] = {}
    for seat, text in enumerate(boxes):
        try:
            cards = parse_cards(str(text).replace(",", " ").split())
        except CardParseError as error:
            raise ValueError(f"{SEATS[seat]}'s box: {error}") from None
        for card in cards:
            if card in seen:
                raise ValueError(
                    f"The {card.name} is in {seen[card]}'s box and {SEATS[seat]}'s: a card is "
                    "taken only once."
                )
            seen[card] = SEATS[seat]
        masks.append(card_mask(cards))
    return masks


def score_markdown(rules: Rules, masks: Sequence[int]) -> str:
    """A score table for the cards each seat took, under ``rules``."""
    tricks = [1] * len(masks)
    rows = ["| | " + " | ".join(SEATS) + " |", "|---|" + "---|" * len(SEATS)]
    points = [rules.points_in(mask) for mask in masks]
    rows.append("| points in the cards | " + " | ".join(str(p) for p in points) + " |")
    result = score_hand(rules, masks, tricks, MoonChoice.ADD_TO_OTHERS)
    if result.shooter is not None and rules.moon is MoonRule.SHOOTERS_CHOICE:
        other = score_hand(rules, masks, tricks, MoonChoice.SUBTRACT_FROM_SHOOTER)
        rows.append("| moon: add to the others | " + " | ".join(str(s) for s in result.scores) + " |")
        rows.append("| moon: subtract from shooter | " + " | ".join(str(s) for s in other.scores) + " |")
    else:
        rows.append("| **score for the hand** | " + " | ".join(f"**{s}**" for s in result.scores) + " |")
    return "\n".join(rows)


def check_calculator(boxes: Sequence[str], context: Context) -> StepVerdict:
    rules = context.rules
    try:
        masks = parse_taken(list(boxes) + [""] * (4 - len(boxes)))
    except ValueError as error:
        return StepVerdict(False, f"{error} Type cards like `QS AH 10H` (or `Q♠`).", "bad_input")
    table = score_markdown(rules, masks)
    result = score_hand(rules, masks, [1] * 4, MoonChoice.ADD_TO_OTHERS)
    if result.shooter == 1:
        return StepVerdict(True, f"That is a moon for Left under *{context.variant}*:\n\n{table}", "right")
    if result.shooter is not None:
        shooter = seat_word(result.shooter, rules.players)
        return StepVerdict(
            False,
            f"That is a moon, but for **{shooter}**: give the cards to Left.\n\n{table}",
            "wrong_shooter",
        )
    missing = CardSet(rules.moon_mask & ~masks[1])
    return StepVerdict(
        False,
        f"No moon yet: Left still needs the {missing} ({len(missing)} cards). A moon "
        f"takes **every** card that scores.\n\n{table}",
        "no_moon",
    )


# ----- the failed moon -----

FAILED_OPTIONS = ("Left 25, you 1", "Left 0, everyone else 26", "Left 26, you 0", "Left 0, you 27")


def check_failed_moon(answer: str, context: Context) -> StepVerdict:
    rules = context.rules
    left = (HEARTS_MASK & ~card_mask("2H")) | card_mask("QS")
    result = score_hand(rules, [card_mask("2H"), left, 0, 0], [1, 10, 1, 1])
    right = f"Left {result.scores[1]}, you {result.scores[0]}"
    if answer == right:
        return StepVerdict(
            True,
            "Correct: one heart missing and there is **no moon**: Left scores every point "
            "taken, 25, and you 1. That is the risk of shooting.",
            "right",
        )
    texts = {
        FAILED_OPTIONS[1]: (
            "That would be a moon, but Left missed the 2♥: a moon needs **every** point card.",
            "counted_moon",
        ),
        FAILED_OPTIONS[2]: ("Left took 12 hearts and the Q♠, not all 13 hearts: count again.", "miscount"),
        FAILED_OPTIONS[3]: ("There is no moon to turn against you: you took one heart, 1 point.", "reversed"),
    }
    text, code = texts.get(answer, ("A failed moon scores like any other hand.", "other"))
    return StepVerdict(False, text, code)


# ----- moon variants -----

MOON_OPTIONS = (
    "Left scores 0 and everyone else 26",
    "Left scores −26 and nobody else anything",
    "Left chooses one of those two",
)


def check_moon_rule(answer: str, context: Context) -> StepVerdict:
    moon = context.rules.moon
    right = {
        MoonRule.ADD_TO_OTHERS: MOON_OPTIONS[0],
        MoonRule.SUBTRACT_FROM_SHOOTER: MOON_OPTIONS[1],
        MoonRule.SHOOTERS_CHOICE: MOON_OPTIONS[2],
    }.get(moon)
    if answer == right:
        return StepVerdict(
            True,
            f"Right, under *{context.variant}*. Every rule page agrees on the moon itself; "
            "they differ on what it is worth. Shooter's choice lets Left pick whichever "
            "helps more, e.g. −26 when adding 26 would push someone over 100 and end "
            "the game with Left behind.",
            "right",
        )
    texts = {
        MOON_OPTIONS[0]: (
            "That is the **standard** moon. The rule set on the table now is different: read the dropdown.",
            "standard_moon",
        ),
        MOON_OPTIONS[1]: (
            "That is the **new moon** variant; the rule on the table now is another.",
            "new_moon",
        ),
        MOON_OPTIONS[2]: (
            "That is **shooter's choice**; under the rule set now the moon's score is fixed.",
            "choice",
        ),
    }
    text, code = texts.get(answer, ("Read the rule in the dropdown.", "other"))
    return StepVerdict(False, text, code)


# ----- Omnibus, Spot Hearts, Black Maria -----

MY_CARDS = "QS KS JD AH 10H"
VARIANT_SCORING = SCORING_VARIANTS[:1] + SCORING_VARIANTS[3:]


def _count_options() -> tuple[str, ...]:
    return tuple(str(rules.points_in(card_mask(MY_CARDS))) for _, rules in VARIANT_SCORING)


def check_variant_count(answer: str, context: Context) -> StepVerdict:
    total = context.rules.points_in(card_mask(MY_CARDS))
    if answer == str(total):
        return StepVerdict(
            True, f"Correct: under *{context.variant}* your Q♠ K♠ J♦ A♥ 10♥ come to **{total}**.", "right"
        )
    for label, rules in VARIANT_SCORING:
        if answer == str(rules.points_in(card_mask(MY_CARDS))):
            why = {
                "Standard": "only the Q♠ (13) and hearts at 1 each",
                "Omnibus (J♦ −10)": "the J♦ taking 10 off",
                "Spot Hearts (hearts by rank)": "hearts by rank: A♥ 14, 10♥ 10",
                "Black Maria (K♠ 10, A♠ 7)": "the K♠ costing 10 besides the Q♠",
            }[label]
            return StepVerdict(
                False,
                f"{answer} is the count under **{label}**, with {why}. The table's rule is "
                f"*{context.variant}*.",
                f"count_{label.split()[0].lower()}",
            )
    return StepVerdict(False, "Count each card under the rule on the table.", "other")


LESSON = Lesson(
    number=6,
    key="l06_scoring",
    title="Scoring and the moon",
    summary="Hand totals, shooting the moon, the failed moon, and the scoring variants, with a calculator.",
    steps=(
        Step(
            key="totals",
            facts=("phase: done",),
            title="Counting a hand",
            text=(
                "When the last trick is gathered, everyone counts the point cards in their tricks. The "
                "table shows a finished hand and its scores. Now a worked example: Mark's tricks hold "
                "the Q♠, 2♥, 7♥, 9♥ and K♥."
            ),
            kind="choice",
            position=_finished,
            choices=TOTAL_OPTIONS,
            check=check_worked_total,
            task="How many points does Mark score?",
        ),
        Step(
            key="calculator",
            facts=("phase: done",),  # the table shows a finished hand; the question is your entry
            title="The calculator: shoot the moon",
            text=(
                "Take **every** point card in one hand and you have **shot the moon**: instead of 26 "
                "for you, 26 for each of the others. Type the cards each seat took (e.g. `QS AH 10H`; "
                "cards that score nothing may be left out) and pick a scoring rule: the table below "
                "your entry scores it with the engine."
            ),
            kind="calc",
            position=_finished,
            variants=SCORING_VARIANTS,
            variant_label="Scoring rule",
            check=check_calculator,
            task="Enter a hand in which **Left** shoots the moon, under any scoring rule.",
        ),
        Step(
            key="failed_moon",
            facts=(
                "tricks_won: Left 12",
                "points: Left 25",
                "won: Left QS",
                "leader: Left",
                "trick: 3S 2H 2S",
                "hand: you 4S",
                "result_after: 1 25 0 0",
            ),
            title="The failed moon",
            text=(
                "On the table, Left went for the moon and took 12 hearts and the Q♠, every trick so "
                "far. But on the last trick Left led the 3♠, Across threw the 2♥, and your last card, "
                "the 4♠, wins it."
            ),
            kind="choice",
            position=_failed_moon,
            choices=FAILED_OPTIONS,
            check=check_failed_moon,
            task="What does the hand score? (Then play your 4♠ to see.)",
        ),
        Step(
            key="moon_rules",
            facts=("moon: Left", "points: Left 26", "tricks: 12", "turn: you", "cards: you 1"),
            title="New moon and shooter's choice",
            text=(
                "Tables score a moon in one of three ways: the standard (26 to everyone else), the "
                "**new moon** (the shooter takes 26 off their own score) or **shooter's choice** "
                "(the shooter picks, each time). On the table Left has taken all 26 points. Change the "
                "rule and answer for each."
            ),
            kind="choice",
            position=_left_moon,
            variants=SCORING_VARIANTS[:3],
            variant_label="Moon rule",
            choices=MOON_OPTIONS,
            check=check_moon_rule,
            task="Left takes all 26 points. What happens, under the rule chosen? (Then play your last "
            "card to see.)",
        ),
        Step(
            key="variants",
            facts=(
                "took: you QS KS JD 10H",
                "hand: you AH",
                "turn: you",
                "trick: none",
                "void: Left H",
                "void: Across H",
                "void: Right H",
            ),
            title="Omnibus, Spot Hearts and Black Maria",
            text=(
                "**Omnibus**: the J♦ is worth −10 to whoever takes it. **Spot Hearts**: each heart "
                "costs its rank (2 to 10, J 11, Q 12, K 13, A 14). **Black Maria**: the K♠ costs 10 "
                "and the A♠ 7, besides the Q♠. Your tricks hold the Q♠, K♠, J♦ and 10♥, and you lead "
                "your last card, the A♥: nobody else has a heart, so it takes the last trick too."
            ),
            kind="choice",
            position=_your_points,
            conceal=("points",),
            variants=VARIANT_SCORING,
            variant_label="Scoring rule",
            choices=_count_options(),
            check=check_variant_count,
            task="Your Q♠, K♠, J♦, A♥ and 10♥: how many points are they worth under the rule chosen? "
            "(Then play your A♥ to see.)",
        ),
    ),
)
