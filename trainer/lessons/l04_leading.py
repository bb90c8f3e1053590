"""Lesson 4, leading and breaking hearts: the 2♣ lead (3♣ with five), no heart leads before
hearts are broken unless you hold only hearts, the Q♠ any time, and the variant where she
breaks hearts."""

from __future__ import annotations

from engine import Rules, lowest_club, to_card

from .deals import D_QUEEN, D_TRICK_1, F_TRICKS, THREE_HANDS, D, F, deal, game_hand
from .steps import Context, Lesson, Step, StepVerdict, refusal_verdict

STANDARD = Rules()
QUEEN_BREAKS = Rules(queen_breaks_hearts=True)
FIVE = Rules(players=5)


def check_opening_lead(card: str, context: Context) -> StepVerdict:
    explain = {
        "must_lead_lowest_club": "The first trick always starts with the **2♣**: the player who holds it "
        "leads it, with no choice. That is you.",
    }
    if refused := refusal_verdict(context.state, card, context.seat, explain):
        return refused
    return StepVerdict(
        True,
        "Correct: the 2♣ opens every hand. Whoever holds it leads it, even if it was just passed to them.",
        "right",
    )


FIVE_OPTIONS = ("The 2♣", "The 3♣", "The 2♦", "Any club")


def check_five_players(answer: str, context: Context) -> StepVerdict:
    five = Rules(players=5)
    right = f"The {lowest_club(5).symbol}"
    if answer == right:
        return StepVerdict(
            True,
            f"Correct: with five players the 2♦ and 2♣ are taken out so that everyone "
            f"gets {five.hand_size} cards, so the **lowest club left, the 3♣**, "
            "leads.",
            "right",
        )
    texts = {
        FIVE_OPTIONS[0]: (
            "With five players the 2♣ is one of the two cards taken out of the deck (with "
            "the 2♦), so nobody holds it.",
            "removed",
        ),
        FIVE_OPTIONS[2]: ("The 2♦ is taken out too, and the opening lead is always a club.", "diamond"),
        FIVE_OPTIONS[3]: ("The lead is not free: it is the lowest club still in the deck.", "any_club"),
    }
    text, code = texts.get(answer, ("It is the lowest club left in the deck.", "other"))
    return StepVerdict(False, text, code)


UNBROKEN = {
    "hearts_not_broken": "No heart has been played yet this hand, so you may not lead one while you "
    "hold anything else. Lead a club, diamond or spade.",
}


def check_unbroken_lead(card: str, context: Context) -> StepVerdict:
    if refused := refusal_verdict(context.state, card, context.seat, UNBROKEN):
        return refused
    name = to_card(card).name
    if card == "QS":
        return StepVerdict(
            True,
            "Legal: the Q♠ may be led at any time, since she is not a heart. Whoever "
            "plays a higher spade (the K♠ or A♠) takes her 13 points; if nobody can, "
            "you do.",
            "right_queen",
        )
    return StepVerdict(
        True,
        f"Correct: the {name} is a legal lead. Hearts stay unbroken until someone who "
        "cannot follow suit throws one.",
        "right",
    )


ONLY_HEARTS_OPTIONS = (
    "Any of my hearts",
    "Nothing: I must wait for hearts to be broken",
    "Only my lowest heart",
)


def check_only_hearts(answer: str, context: Context) -> StepVerdict:
    state = context.state
    legal = state.legal_cards(context.seat)
    everything = legal == state.hand(context.seat)
    right = ONLY_HEARTS_OPTIONS[0] if everything else ONLY_HEARTS_OPTIONS[2]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: with nothing but hearts you have no other lead, so **any heart** "
            "may be led (and that breaks hearts). The table shows them all playable.",
            "right",
        )
    if answer == ONLY_HEARTS_OPTIONS[1]:
        return StepVerdict(
            False,
            "Someone must lead, and you hold only hearts: the rule gives way. You may lead any of them.",
            "must_wait",
        )
    return StepVerdict(
        False,
        "There is no lowest-card rule for leads (only the 2♣ opening is fixed). Any heart may be led.",
        "lowest",
    )


QUEEN_LEAD_OPTIONS = ("Yes, at any time", "Only once hearts are broken", "Only if she is my last spade")


def check_queen_lead(answer: str, context: Context) -> StepVerdict:
    allowed = context.state.why_not_play("QS", context.seat) is None
    right = QUEEN_LEAD_OPTIONS[0] if allowed else QUEEN_LEAD_OPTIONS[1]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: the Q♠ is a spade, not a heart, so the breaking rule never applies "
            "to her. The engine allows her lead here although hearts are unbroken.",
            "right",
        )
    if answer == QUEEN_LEAD_OPTIONS[1]:
        return StepVerdict(
            False,
            "Breaking only limits **hearts**. The Q♠ costs points, but she is a spade "
            "and may be led whenever spades may.",
            "breaking",
        )
    return StepVerdict(False, "There is no such rule: she may be led like any other spade.", "last_spade")


def _queen_fell(rules: Rules):
    # Left leads the 8♣; Across throws the Q♠, Right the 2♠; Left wins. Then you win a diamond.
    return deal(D, rules, D_TRICK_1 + " 8C QS 2S 6C 2D 10D 3S AD")


def check_queen_breaks(card: str, context: Context) -> StepVerdict:
    state = context.state
    breaks = context.rules.queen_breaks_hearts
    explain = {
        "hearts_not_broken": "The Q♠ has been played, but under the **standard** rule only a heart "
        "breaks hearts. Switch on “the Q♠ breaks hearts” to see the other rule.",
    }
    if refused := refusal_verdict(state, card, context.seat, explain):
        return refused
    heart = to_card(card).suit == 3
    if heart:
        return StepVerdict(
            True,
            "Correct: under this rule the Q♠ falling **broke hearts**, so your heart lead is legal.",
            "right_heart",
        )
    if breaks:
        return StepVerdict(
            False,
            "Legal, but with this rule on hearts **are** broken (the Q♠ fell): lead the "
            "J♥ to see it allowed.",
            "missed_heart",
        )
    return StepVerdict(
        True,
        "Correct: under the standard rule hearts are still unbroken although the Q♠ "
        "fell, so a non-heart it is.",
        "right",
    )


LESSON = Lesson(
    number=4,
    key="l04_leading",
    title="Leading and breaking hearts",
    summary="The 2♣ opens; no heart leads until hearts are broken; the Q♠ any time; the variant.",
    steps=(
        Step(
            key="two_of_clubs",
            facts=("holds: you 2C", "tricks: 0", "turn: you", "pass: hold", "hand_number: 4"),
            title="The 2♣ leads",
            text="A hold hand has just been dealt (no passing). Whoever holds the **2♣** leads it to the "
            "first trick. After that, whoever wins a trick leads the next.",
            kind="play",
            position=lambda rules: deal(D, rules),
            score_rows=THREE_HANDS,  # hand 4 of a game: the hold hand
            check=check_opening_lead,
            task="Lead the first trick.",
        ),
        Step(
            key="five_players",
            facts=("players: 5", "cards: seat 0 10", "phase: passing", "pass: left", "played: none"),
            title="With five players",
            text="With three, five, six or seven players some low cards are taken out so that the deck "
            "divides evenly. With **five**, the 2♦ and the 2♣ go: the table seats five, 10 cards each, "
            "before the first pass.",
            kind="choice",
            rules=FIVE,
            position=lambda rules: game_hand(rules, 1, 0),
            choices=FIVE_OPTIONS,
            check=check_five_players,
            task="With five players, which card leads the first trick?",
        ),
        Step(
            key="unbroken",
            facts=("won: you AD", "turn: you", "trick: none", "broken: no"),
            title="Hearts must be broken",
            text=(
                "You won the A♦ trick, so you lead. No heart has been played yet: hearts are **not "
                "broken**, and you may not lead one while you hold anything else. Try a heart, then "
                "lead something allowed."
            ),
            kind="play",
            position=lambda rules: deal(D_QUEEN, rules, D_TRICK_1 + " 2D 10D 2S AD"),
            check=check_unbroken_lead,
            task="Lead a card.",
        ),
        Step(
            key="queen_lead",
            facts=("holds: you QS", "broken: no", "turn: you", "trick: none"),
            title="The Q♠ is a spade",
            text="Same position: you hold the Q♠, hearts unbroken.",
            kind="choice",
            position=lambda rules: deal(D_QUEEN, rules, D_TRICK_1 + " 2D 10D 2S AD"),
            choices=QUEEN_LEAD_OPTIONS,
            check=check_queen_lead,
            task="May you lead the Q♠ now?",
        ),
        Step(
            key="only_hearts",
            facts=(
                "tricks: 4",
                "hand: you 2H 3H 4H 5H 6H 7H 8H 9H 10H",
                "broken: no",
                "tricks_won: you 3",
                "won: you AD KD QD",
                "turn: you",
            ),
            title="Nothing but hearts",
            text="Four tricks in, you have won three diamond tricks and hold **only hearts**; nobody has "
            "played a heart yet.",
            kind="choice",
            position=lambda rules: deal(F, rules, F_TRICKS),
            choices=ONLY_HEARTS_OPTIONS,
            check=check_only_hearts,
            task="What may you lead?",
        ),
        Step(
            key="queen_breaks",
            facts=("played: QS", "won: Left QS", "holds: you JH", "turn: you", "trick: none"),
            title="Variant: the Q♠ breaks hearts",
            text=(
                "Across threw the **Q♠** on a club trick, but no heart has been played. Do hearts count "
                "as broken? Under the standard rule, no. Some tables (and OpenSpiel) say the Q♠ breaks "
                "them too. Flip the switch: the same position, under the other rule."
            ),
            kind="play",
            position=_queen_fell,
            variants=(
                ("Standard: only a heart breaks hearts", STANDARD),
                ("Variant: the Q♠ breaks hearts", QUEEN_BREAKS),
            ),
            variant_label="The Q♠ breaks hearts",
            check=check_queen_breaks,
            task="Lead the J♥ if the rules on the table allow it; otherwise lead something else.",
        ),
    ),
)
