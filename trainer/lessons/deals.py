"""The deals the lessons set up, card by card. You are seat 0; Left 1, Across 2, Right 3.

Each is checked by the engine as it is built (every play goes through ``HandState.play``),
so a deal that could not happen fails loudly in the tests.
"""

from __future__ import annotations

import random

from engine import HandState, PlayAction, Rules, deal_game_hand
from engine.bots import make_bot, play_hand_with_bots

from .steps import hand_with

# Deal D: you hold the 2♣; Right has no diamonds. Used in lessons 1, 3, 4 and 8.
D = {
    0: "2C 6C 7C 3D 5D 8D AD 9S 10S JS JH QH KH",
    1: "AC 9D 5C 8C 9C 10C JC QC KC 2D 4D 6D 7D",
    2: "3C KD 10D JD QD QS KS AS 6H 7H 8H 9H AH",
    3: "4C 10H 2S 3S 4S 5S 6S 7S 8S 2H 3H 4H 5H",
}
D_TRICK_1 = "2C AC 3C 4C"  # Left wins with the A♣ and leads

# Deal D with your J♠ and Across's Q♠ swapped: you hold the Q♠.
D_QUEEN = {**D, 0: D[0].replace("JS", "QS"), 2: D[2].replace("QS", "JS")}

# Deal D with Across's Q♠ and Right's 2♠ swapped: Right can throw the Q♠ on a diamond lead.
D_RIGHT_QUEEN = {**D, 2: D[2].replace("QS", "2S"), 3: D[3].replace("2S", "QS")}

# Deal E: you have no clubs, and hold the Q♠ and K♠. Left holds the 2♣.
E = {
    0: "QS KS 3S 4S 2D 3D 4D 5D 6D 2H 5H 9H JH",
    1: "2C 3C",
    2: "AC KC",
    3: "QC JC",
}
E_TRICKS = "2C AC QC 2D KC JC"  # Across wins trick 1 and leads the K♣; you are void in clubs

# Deal F: you hold the 2♣, three top diamonds and nine hearts.
F = {
    0: "2C AD KD QD 2H 3H 4H 5H 6H 7H 8H 9H 10H",
    1: "AC 2D 3D 4D",
    2: "3C 5D 6D 7D",
    3: "4C 8D 9D 10D",
}
F_TRICKS = "2C AC 3C 4C 2D 5D 8D AD KD 3D 6D 9D QD 4D 7D 10D"  # then you hold only hearts

# Deal H: you have no clubs; Left leads the 2♣ and Right takes the trick with the A♣.
H = {
    0: "QS KS 3S 2D 3D 4D 5D 6D 2H 5H 9H JH AH",
    1: "2C 5C 6C 7D 8D 9D 10D 2S 4S 5S 6S 3H 4H",
    2: "3C 7C 8C 9C JD QD KD AD 7S 8S 9S 6H 7H",
    3: "4C 10C JC QC KC AC 10S JS AS 8H 10H QH KH",
}
H_TRICK_1 = "2C 9C AC"

# Deal I: you hold the Q♠ and twelve hearts (no clubs at all).
I_HAND = {0: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"}

# Deal S (strategy): Left leads the K♠; you hold the Q♠ with one small spade.
S_QUEEN = {
    0: "QS 5S 2C 3C 4C 2D 3D 4D 2H 3H 4H 5H 6H",
    1: "KS AC",
    2: "4S",
    3: "9S",
}


def deal(seats: dict[int, str], rules: Rules, plays: str = "", direction: str = "hold") -> HandState:
    return hand_with(seats, rules, plays, direction)


def game_hand(rules: Rules, seed: int, index: int) -> HandState:
    return deal_game_hand(rules, seed, index)


def played_out(rules: Rules, seed: int, index: int = 3) -> HandState:
    """A whole hand played by easy bots (seeded, so always the same)."""
    state = deal_game_hand(rules, seed, index)
    bots = {seat: make_bot("easy", seed * 10 + seat) for seat in range(rules.players)}
    play_hand_with_bots(state, bots)
    return state


# ----- finished hands and hands in play that the lessons' texts describe card by card -----
# Found by a seeded search over deals and plays; the plays go through the engine like any other.

# Left shoots the moon: every point card.
MOON_DEAL = {
    0: "8H 7D 2S 2H 3C 9S 6D 5C QC 9C 3S 4H 7S",
    1: "AH KH QH JH AS KS AC KC AD KD QS 3D 8D",
    2: "3H 9D 8S 2C 8C 4D 10C 7C 5H 4S 4C 10S JC",
    3: "JD JS 5D 7H 10H 10D 6H QD 9H 6C 5S 6S 2D",
}
MOON_PLAYS = (
    "2C 6C 5C AC AS 10S 5S 9S AD 9D 2D 7D KS 8S 6S 2S KD 4D 5D 6D KC 8C 6H QC AH 5H 7H 4H KH 3H "
    "10H 8H QH 10C 9H 2H QS 4S JS 3S JH 7C 10D 7S 8D JC QD 3C JD 9C 3D 4C"
)

# Left goes for the moon and takes every trick but the last: you win it with the 4♠, and the 2♥
# Across throws on it.
FAILED_MOON_DEAL = {
    0: "3C 4C 5C 2D 3D 4D 5D 6D 7D 4S 10H 9H 8H",
    1: "AC KC QC JC AD KD QD JD AH KH QH JH 3S",
    2: "2C 6C 7C 8C 8D 9D 10D 7H 6H 5H 4H 3H 2H",
    3: "9C 10C AS KS QS JS 10S 9S 8S 7S 6S 5S 2S",
}
FAILED_MOON_PLAYS = (
    "2C 9C 3C AC KC 6C 10C 4C QC 7C QS 5C JC 8C KS 10H AD 8D AS 2D KD 9D JS 3D QD 10D 10S 4D "
    "JD 7H 9S 5D AH 6H 8S 9H KH 5H 7S 8H QH 4H 6S 6D JH 3H 5S 7D 3S 2H 2S 4S"
)

# Your tricks hold the Q♠, K♠, J♦, A♥ and 10♥, and no other card that scores under any rule.
YOUR_POINTS_DEAL = {
    0: "QS KS JD AH 10H JH QD 3D 6H 2D 9D 5C AC",
    1: "AS KH 2C 3C 9S 6D JS QH 8D 4S 5D 8S 4C",
    2: "9C 2S 4D 5H 6S AD KD 10S 7D KC 2H 8C 9H",
    3: "7C 5S 3S JC QC 6C 7H 3H 10C 8H 4H 10D 7S",
}
YOUR_POINTS_PLAYS = (
    "2C 9C 10C 5C 6C AC 4C 8C QS JS 2S 3S KS 8S 10S 5S JD 5D 7D 10D 3D 6D AD 8H 2H 4H JH QH AS 6S "
    "7S 9D KH 5H 7H 6H 4S 9H 3H 2D 8D 4D 7C QD 10H 9S KD JC AH 3C KC QC"
)

# Nine tricks in, Across has taken every point: the Q♠ and eight hearts. Across leads the Q♥,
# Right throws the 3♠, and it is your turn: your K♥ can take the trick and break the moon.
ACROSS_MOON_DEAL = {
    0: "9S 5H 10S KH 2H 3D 2D JS JD 10D 6S 7C 5C",
    1: "5D JC 6C 4C 8D QS 3C 3H 7H 8S 2C 4D 10C",
    2: "AH 8H QH JH 10H 9H AS KS AC KC AD KD QD",
    3: "6H 6D 4H 7S 5S QC 8C 2S 3S 7D 4S 9C 9D",
}
ACROSS_MOON_PLAYS = (
    "2C AC QC 7C AS 5S 6S 8S AD 7D 10D 5D KS 2S JS QS KD 9D 2D 8D KC 8C 5C JC QD 6D JD 4D AH 6H "
    "5H 3H 8H 4H 2H 7H QH 3S"
)


def before_last_card(state: HandState, seat: int = 0) -> HandState:
    """The hand just before ``seat`` plays its last card: the end of a hand still to come, so the
    table does not announce it (a game's end) before the learner has answered."""
    state = state.copy()
    plays = [
        i for i, action in enumerate(state.history) if isinstance(action, PlayAction) and action.seat == seat
    ]
    state.take_back_to(plays[-1])
    return state


def rows_to(totals: tuple[int, ...], count: int, seed: int = 1) -> tuple[tuple[int, ...], ...]:
    """``count`` plausible hand scores (the Q♠'s 13 to one seat, 13 hearts spread; no moons) that
    add up to ``totals``; seeded, leaning towards what each seat still has to reach."""
    if sum(totals) != count * 26 or min(totals) < 0:
        raise ValueError(f"{count} hands of 26 points cannot add up to {totals}")
    rng = random.Random(seed)
    for _ in range(10_000):
        left = list(totals)
        rows = []
        for _ in range(count - 1):
            able = [s for s in range(len(left)) if left[s] >= 13]
            if not able:
                break
            queen = rng.choices(able, weights=[left[s] for s in able])[0]
            row = [13 if s == queen else 0 for s in range(len(left))]
            for _ in range(13):
                room = [s for s in range(len(left)) if row[s] < left[s]]
                row[rng.choices(room, weights=[left[s] - row[s] for s in room])[0]] += 1
            rows.append(tuple(row))
            left = [t - r for t, r in zip(left, row, strict=True)]
        if len(rows) == count - 1 and 13 <= max(left) <= 26 and min(left) >= 0:
            return (*rows, tuple(left))
    raise ValueError(f"no plausible rows found for {totals}")


THREE_HANDS = rows_to((20, 25, 18, 15), 3)
"""Score rows of three earlier hands: the table then shows hand 4 of a game."""
