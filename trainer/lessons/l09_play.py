"""Lesson 9, play a full game against Easy, Normal or Hard bots, with hints."""

from __future__ import annotations

from engine import Rules
from trainer.site import REVIEW

from ..seats import seat_word
from .deals import game_hand
from .steps import Context, Lesson, Step, StepVerdict

STANDARD = Rules()
SHORT = Rules(target=50)
LEVELS = ("easy", "normal", "hard")
# One choice per opponent level and game length: the classic game to 100, or a short one to 50.
VARIANTS = tuple(
    (f"{level.capitalize()} bots" + ("" if rules is STANDARD else ", game to 50"), rules)
    for rules in (STANDARD, SHORT)
    for level in LEVELS
)


def check_game(session, context: Context) -> StepVerdict:
    if session.winners:
        totals = session.totals
        words = [seat_word(s, len(totals), session.seat) for s in range(len(totals))]
        names = " and ".join(words[s] for s in session.winners)
        won = 0 in session.winners
        return StepVerdict(
            True,
            ("**You won!** " if won else f"**{names} won.** ")
            + f"Final totals: {', '.join(f'{words[s]} {t}' for s, t in enumerate(totals))}. "
            "Press **New hand** on the table for another game, or review this one decision by "
            f"decision on [your review page]({REVIEW}).",
            "game_over",
        )
    # Nothing here names the trick or the score: the bots play on after this text is drawn, and
    # the table itself shows the live state (and the result, with the review link, at once).
    return StepVerdict(
        False,
        "Play the game to the end: the table shows the hand, the tricks and the score as they "
        "happen. After each hand press **New hand** (or N). **Hint** shows the coach's choice and why. "
        "If you leave or reload the page, the game waits for you here.",
        "playing",
    )


LESSON = Lesson(
    number=9,
    key="l09_play",
    title="Play a full game",
    summary="A whole game to 100 (or 50) against Easy, Normal or Hard bots, with hints when you want them.",
    steps=(
        Step(
            key="game",
            facts=("tricks: 0",),
            title="Your game",
            text=(
                "Everything together: pass, play, count and watch for moons. **Easy** bots play "
                "legal cards with little thought; **Normal** bots follow sound habits (duck, dump the "
                "Q♠, block moons); **Hard** bots think with the evaluator. Choosing a level deals a "
                "new game. The game ends after the hand in which someone reaches 100 (or 50 in a "
                "short game); the lowest total wins, and a tie for lowest shares the win."
            ),
            kind="game",
            position=lambda rules: game_hand(rules, 2024, 0),
            variants=VARIANTS,
            variant_label="Opponents and game length",
            bots=LEVELS * 2,
            check=check_game,
            task="Play the game to the end.",
        ),
    ),
)
