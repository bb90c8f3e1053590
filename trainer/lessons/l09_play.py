"""Lesson 9, play a full game against Easy, Normal or Hard bots, with hints."""

from __future__ import annotations

from engine import Rules

from .deals import game_hand
from .steps import Context, Lesson, Step, Verdict, seat_word

STANDARD = Rules()


def check_game(session, context: Context) -> Verdict:
    totals = session.totals
    if session.winners:
        names = " and ".join(seat_word(s) for s in session.winners)
        won = 0 in session.winners
        return Verdict(
            True,
            ("**You won!** " if won else f"**{names} won.** ")
            + f"Final totals: {', '.join(f'{seat_word(s)} {t}' for s, t in enumerate(totals))}. "
            "Press **New hand** on the table for another game.",
            "game_over",
        )
    hand = session.hand
    where = "passing" if hand.phase.value == "passing" else f"trick {min(hand.trick_number, 13)} of 13"
    return Verdict(
        False,
        f"Hand {session.hand_index + 1}, {where}. Totals so far: "
        f"{', '.join(f'{seat_word(s)} {t}' for s, t in enumerate(totals))}. After each "
        "hand press **New hand** (or N). **Hint** shows the Hard bot's choice.",
        "playing",
    )


LESSON = Lesson(
    number=9,
    key="l09_play",
    title="Play a full game",
    summary="A whole game to 100 against Easy, Normal or Hard bots, with hints when you want them.",
    steps=(
        Step(
            key="game",
            title="Your game",
            text=(
                "Everything together: pass, play, count and watch for moons. **Easy** bots play "
                "legal cards with little thought; **Normal** bots follow sound habits (duck, dump the "
                "Q♠, block moons); **Hard** bots think with the evaluator. Choosing a level deals a "
                "new game. The game ends after the hand in which someone reaches 100."
            ),
            kind="game",
            position=lambda rules: game_hand(rules, 2024, 0),
            variants=(("Easy bots", STANDARD), ("Normal bots", STANDARD), ("Hard bots", STANDARD)),
            variant_label="Opponents",
            bots=("easy", "normal", "hard"),
            check=check_game,
            task="Play the game to the end.",
        ),
    ),
)
