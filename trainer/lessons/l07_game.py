"""Lesson 7, a game to 100 (or 50): the running score, the hold hand, how a game ends, ties."""

from __future__ import annotations

from engine import Rules, TieRule, winners_if_over

from ..seats import seat_word
from .deals import THREE_HANDS, before_last_card, played_out, rows_to
from .steps import Context, Lesson, Step, StepVerdict

STANDARD = Rules()
SHORT = Rules(target=50)
PLAY_OFF = Rules(ties=TieRule.PLAY_OFF)

# Four earlier hands, then the finished hand on the table (its scores are added by the table).
EARLIER = ((6, 13, 4, 3), (2, 5, 16, 3), (20, 1, 3, 2), (13, 3, 6, 4))


def _last_hand(rules: Rules):
    """Hand 5 of a game (and, after twelve earlier rows, hand 13): both pass left in the cycle."""
    return played_out(rules, 6, 4)


def _before_the_end(rules: Rules):
    """The last hand with your last card to play: the table does not end the game before you answer."""
    return before_last_card(_last_hand(rules))


def _totals(rules: Rules) -> tuple[int, ...]:
    last = _last_hand(rules).result.scores
    return tuple(sum(row[s] for row in EARLIER) + last[s] for s in range(4))


def _tie_rows() -> tuple[tuple[int, ...], ...]:
    """Twelve earlier hands that, with the hand on the table, make ``TIE_TOTALS``."""
    last = _last_hand(STANDARD).result.scores
    return rows_to(tuple(t - p for t, p in zip(TIE_TOTALS, last, strict=True)), 12)


END_OPTIONS = ("The game goes on", "The lowest total wins now", "The highest total wins now")


def check_game_end(answer: str, context: Context) -> StepVerdict:
    totals = _totals(context.rules)
    winners = winners_if_over(context.rules, totals)
    target = context.rules.target
    right = END_OPTIONS[1] if winners else END_OPTIONS[0]
    names = " and ".join(seat_word(s, context.rules.players) for s in winners)
    if answer == right:
        if winners:
            return StepVerdict(
                True,
                f"Correct: {max(totals)} reached the target of {target}, so the game ends "
                f"with this hand, and **{names}** (lowest, {min(totals)}) "
                + ("wins." if len(winners) == 1 and winners[0] != 0 else "win."),
                "right_over",
            )
        return StepVerdict(
            True,
            f"Correct: the highest total is {max(totals)}, short of {target}, so another hand is dealt.",
            "right_goes_on",
        )
    if answer == END_OPTIONS[2]:
        return StepVerdict(False, "Points are bad: the **lowest** total wins, never the highest.", "highest")
    if winners:
        return StepVerdict(
            False,
            f"Someone has {max(totals)}, at or past the target of {target}: the game ends after this hand.",
            "missed_end",
        )
    return StepVerdict(
        False,
        f"Nobody has reached {target} yet (highest {max(totals)}), so the game goes on. "
        "Switch to the short game to see it end.",
        "too_early",
    )


HOLD_OPTIONS = ("Pass left", "Pass across", "No passing: play the cards dealt")


def check_hold(answer: str, context: Context) -> StepVerdict:
    direction = context.rules.pass_direction(3).value
    right = {"left": HOLD_OPTIONS[0], "across": HOLD_OPTIONS[1], "hold": HOLD_OPTIONS[2]}[direction]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: hand 4 of every cycle is a **hold hand**. No cards move, so your "
            "hand is exactly what you were dealt: no escape for a bad Q♠.",
            "right",
        )
    hand = "1" if answer == HOLD_OPTIONS[0] else "3"
    return StepVerdict(
        False,
        f"{answer} is hand {hand}'s pass. Hands 1, 2 and 3 pass left, right and across; "
        "hand 4 is the **hold hand**, "
        "with no passing (press **New hand**: hand 4 comes with no Pass button).",
        "wrong_direction",
    )


TIE_TOTALS = (71, 104, 71, 92)
"""After the finished hand on the table."""
TIE_OPTIONS = (
    "You and Across share the win",
    "Another hand is played to break the tie",
    "Left wins: the game ended on Left's score",
)


def check_tie(answer: str, context: Context) -> StepVerdict:
    winners = winners_if_over(context.rules, TIE_TOTALS)
    right = TIE_OPTIONS[0] if winners else TIE_OPTIONS[1]
    if answer == right:
        if winners:
            return StepVerdict(
                True,
                "Correct: under the shared rule everyone tied on the lowest score wins together.",
                "right_shared",
            )
        return StepVerdict(
            True,
            "Correct: under the play-off rule more hands are dealt until one player alone is lowest.",
            "right_play_off",
        )
    if answer == TIE_OPTIONS[2]:
        return StepVerdict(
            False, "Left reached 100 and ended the game, so Left **lost**: the lowest total wins.", "ender"
        )
    if winners:
        return StepVerdict(
            False,
            "That is the play-off rule; the rule on the table now is the **shared** win.",
            "play_off_not_set",
        )
    return StepVerdict(
        False,
        "That is the shared rule; with the play-off switched on, the tie is broken by playing on.",
        "shared_not_set",
    )


LESSON = Lesson(
    number=7,
    key="l07_game",
    title="A game to 100",
    summary="The running score, the hold hand, how a game ends and what happens on a tie.",
    steps=(
        Step(
            key="end",
            facts=("hand_number: 5", "pass: left", "cards: you 1", "turn: you"),
            title="The running score",
            text=(
                "Each hand's points are added to a running total (the score table on the table). After "
                "a hand, if anyone has reached the **target**, the game is over: 100 in the classic "
                "game, 50 in a short one. Switch between them. The table shows hand 5 with one card "
                "left to play: yours."
            ),
            kind="choice",
            position=_before_the_end,
            score_rows=EARLIER,
            variants=(("Classic game: to 100", STANDARD), ("Short game: to 50", SHORT)),
            variant_label="Short game (to 50)",
            choices=END_OPTIONS,
            check=check_game_end,
            task="Once your last card is played, five hands are done. What happens then?",
        ),
        Step(
            key="hold",
            facts=("hand_number: 3", "pass: across", "phase: done"),
            title="The hold hand",
            text=(
                "The passes go round left, right, across, and then... The table shows hand 3, passed "
                "across, just finished. Answer, then press **New hand** to see hand 4."
            ),
            kind="choice",
            position=lambda rules: played_out(rules, 5, 2),  # hand 3 of a game: it passed across
            score_rows=THREE_HANDS[:2],
            choices=HOLD_OPTIONS,
            check=check_hold,
            task="What happens on hand 4?",
        ),
        Step(
            key="tie",
            facts=("totals_after: 71 104 71 92", "pass: left", "cards: you 1", "turn: you"),
            title="Ties",
            text=(
                "Your last card ends this hand, and then the totals are: you 71, Left 104, Across 71, "
                "Right 92. Most tables "
                "let tied players **share** the win; some play on until one is alone at the bottom."
            ),
            kind="choice",
            position=_before_the_end,
            score_rows=_tie_rows(),
            variants=(("Ties share the win", STANDARD), ("Ties play on", PLAY_OFF)),
            variant_label="Play off ties",
            choices=TIE_OPTIONS,
            check=check_tie,
            task="Who wins, under the rule on the table?",
        ),
    ),
)
