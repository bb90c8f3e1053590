"""The deals the lessons set up, card by card. You are seat 0; Left 1, Across 2, Right 3.

Each is checked by the engine as it is built (every play goes through ``HandState.play``),
so a deal that could not happen fails loudly in the tests.
"""

from __future__ import annotations

from engine import HandState, Rules, deal_game_hand
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
