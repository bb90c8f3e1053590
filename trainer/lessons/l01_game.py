"""Lesson 1, the game: 52 cards, 13 each, the point cards, 26 points a hand, lowest score wins."""

from __future__ import annotations

from engine import CardSet, Rules, winners_if_over
from engine.cards import HEARTS_MASK, card_mask

from ..seats import seat_word
from .deals import D_TRICK_1, D, before_last_card, deal, game_hand, played_out, rows_to
from .steps import Context, Lesson, Step, StepVerdict, refusal_verdict

STANDARD = Rules()


def check_cards_each(answer: str, context: Context) -> StepVerdict:
    right = str(context.rules.hand_size)
    if answer == right:
        return StepVerdict(
            True, f"Correct: 52 cards shared by 4 players is **{right} each**, all dealt out.", "right"
        )
    messages = {
        "12": ("12 leaves four cards over: in Hearts every card is dealt, 52 ÷ 4 = 13 each.", "too_few"),
        "17": (
            "17 is what each of **three** players gets (the 2♦ is taken out first). "
            "Four players get 13 each.",
            "three_players",
        ),
        "26": (
            "26 is the number of **points** in a hand, not cards. Count the cards in your hand "
            "on the table: 13.",
            "points_not_cards",
        ),
    }
    text, code = messages.get(answer, (f"{answer} is not it: count the cards in your hand.", "other"))
    return StepVerdict(False, text, code)


POINT_OPTIONS = (
    "Every heart (1 each) and the Q♠ (13)",
    "Only the hearts",
    "The hearts, the Q♠, the K♠ and the A♠",
    "Every card above the 10",
)
_OPTION_MASKS = {
    POINT_OPTIONS[0]: HEARTS_MASK | card_mask("QS"),
    POINT_OPTIONS[1]: HEARTS_MASK,
    POINT_OPTIONS[2]: HEARTS_MASK | card_mask("QS KS AS"),
    POINT_OPTIONS[3]: sum(1 << (suit * 13 + rank) for suit in range(4) for rank in range(9, 13)),
}


def check_point_cards(answer: str, context: Context) -> StepVerdict:
    points = context.rules.point_mask
    if _OPTION_MASKS.get(answer) == points:
        return StepVerdict(
            True,
            "Correct: the 13 hearts cost **1 point each** and the Q♠ costs **13**. "
            "No other card costs anything.",
            "right",
        )
    if answer == POINT_OPTIONS[1]:
        return StepVerdict(
            False,
            "You left out the **Q♠**: she alone costs 13 points, as much as half the "
            "hearts. She is the card everyone fears.",
            "forgot_queen",
        )
    if answer == POINT_OPTIONS[2]:
        return StepVerdict(
            False,
            "The K♠ and A♠ cost points only in the **Black Maria** variant (lesson 6). "
            "In standard Hearts only the hearts and the Q♠ do.",
            "black_maria",
        )
    missing = CardSet(points & ~_OPTION_MASKS.get(answer, 0))
    return StepVerdict(
        False,
        "High cards are dangerous because they **win tricks**, but they cost nothing "
        f"themselves. The point cards are {len(missing)} others: every heart and the Q♠.",
        "high_cards",
    )


def check_points_in_hand(answer: str, context: Context) -> StepVerdict:
    total = context.rules.moon_value
    if answer == str(total):
        return StepVerdict(
            True, f"Correct: 13 hearts × 1 + the Q♠'s 13 = **{total}** points in every hand.", "right"
        )
    texts = {
        "13": ("13 is the hearts alone (or the Q♠ alone): add them together.", "half"),
        "14": ("14 counts the Q♠ as one more card: she is worth 13 on her own.", "queen_as_one"),
        "52": ("52 is the cards in the deck; most of them cost nothing.", "cards"),
    }
    text, code = texts.get(answer, ("Add the 13 hearts and the Q♠'s 13.", "other"))
    return StepVerdict(False, text, code)


def check_trick(card: str, context: Context) -> StepVerdict:
    state = context.state
    refused = refusal_verdict(
        state,
        card,
        context.seat,
        {"must_follow_suit": "Diamonds were led and you hold diamonds, so you must play one."},
    )
    if refused:
        return refused
    after = state.copy()
    after.play(card, context.seat)
    winner = after.tricks[-1].winner
    if winner == context.seat:
        return StepVerdict(
            False,
            "The A♦ is the highest diamond, so **you would take the trick** and the "
            "10♥ in it: 1 point. Play a diamond lower than the K♦.",
            "won_trick",
        )
    who = seat_word(winner, state.players, context.seat)
    return StepVerdict(
        True,
        f"Correct: the K♦ is still the highest diamond, so **{who} takes the "
        "trick** and the 10♥ (1 point). Right's heart could not win: only the suit led "
        "can.",
        "right",
    )


TOTALS = (64, 101, 58, 89)
"""After the finished hand on the table (its scores are added by the table)."""
WINNER_OPTIONS = ("Across, with 58", "Left, with 101", "You, with 64", "Nobody yet: play another hand")


def check_winner(answer: str, context: Context) -> StepVerdict:
    winners = winners_if_over(context.rules, TOTALS)
    right = {2: WINNER_OPTIONS[0]}.get(winners[0]) if len(winners) == 1 else WINNER_OPTIONS[3]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: Left passed 100, so the game is over, and the **lowest** score, Across's 58, wins.",
            "right",
        )
    texts = {
        WINNER_OPTIONS[1]: (
            "101 is the **highest** score: points are bad in Hearts. Left ended the game "
            "by passing 100, and lost it.",
            "highest",
        ),
        WINNER_OPTIONS[2]: ("64 is low, but Across's 58 is lower.", "not_lowest"),
        WINNER_OPTIONS[3]: ("Left reached 100, so the game ends after this hand.", "not_over"),
    }
    text, code = texts.get(answer, ("Find the lowest total.", "other"))
    return StepVerdict(False, text, code)


def _first_hand(rules: Rules):
    """A hold hand in which you hold the 2♣: the table waits for your lead, all 13 cards in hand."""
    return game_hand(rules, 1, 3)


def _last_hand(rules: Rules):
    return played_out(rules, 21)


def _before_the_end(rules: Rules):
    """The last hand with your last card still to play: the table does not say who won yet."""
    return before_last_card(_last_hand(rules))


def _rows() -> tuple[tuple[int, ...], ...]:
    """Eleven earlier hands that, with the hand on the table, make ``TOTALS``."""
    last = _last_hand(Rules()).result.scores
    return rows_to(tuple(t - p for t, p in zip(TOTALS, last, strict=True)), 11)


LESSON = Lesson(
    number=1,
    key="l01_game",
    title="The game",
    summary="52 cards, 13 each; hearts and the Q♠ cost points; 26 a hand; the lowest score wins.",
    steps=(
        Step(
            key="cards",
            facts=(
                "cards: you 13",
                "cards: Left 13",
                "cards: Across 13",
                "cards: Right 13",
                "tricks: 0",
                "turn: you",
            ),
            title="Fifty-two cards, thirteen each",
            text=(
                "Hearts is played with an ordinary deck of 52 cards and no jokers. Four players each "
                "play for themselves, and every card is dealt. Your hand is at the bottom of the table; "
                "the other three seats are bots called **Left**, **Across** and **Right**."
            ),
            kind="choice",
            position=_first_hand,
            choices=("12", "13", "17", "26"),
            check=check_cards_each,
            task="How many cards does each player hold?",
        ),
        Step(
            key="points",
            title="The point cards",
            text=(
                "Hearts is a game of **avoiding** cards. Whoever wins a trick keeps its cards, and a few "
                "of them cost points. Points are bad: at the end, the lowest score wins."
            ),
            kind="choice",
            position=_first_hand,
            choices=POINT_OPTIONS,
            check=check_point_cards,
            task="Which cards cost points?",
        ),
        Step(
            key="total",
            title="26 points in every hand",
            text="Every hand is played until all 52 cards are gone, so all the point cards are taken.",
            kind="choice",
            position=_first_hand,
            choices=("13", "14", "26", "52"),
            check=check_points_in_hand,
            task="How many points are taken in one hand, by everyone together?",
        ),
        Step(
            key="trick",
            facts=("leader: Left", "trick: 9D KD 10H", "void: Right D", "turn: you"),
            title="A trick",
            text=(
                "Each trick, one player **leads** a card and the others play one each, going left. "
                "You must **follow suit** if you can. The highest card of the suit led wins the trick "
                "and everything in it. Here Left led the 9♦, Across played the K♦ and Right, who has "
                "no diamonds, threw in the 10♥."
            ),
            kind="play",
            position=lambda rules: deal(D, rules, D_TRICK_1 + " 9D KD 10H"),
            check=check_trick,
            task="Play a card that does **not** win this trick (click a card, then click it again).",
        ),
        Step(
            key="winner",
            facts=("totals_after: 64 101 58 89", "cards: you 1", "turn: you", "hand_number: 12"),
            title="Lowest score wins",
            text=(
                "Scores add up hand after hand. When someone reaches **100** at the end of a hand, the "
                "game is over and the player with the **lowest** total wins. The table shows the last "
                "hand of a game, with one card left to play, yours; the score table has the hands "
                "before it. Once your card is played the totals are you 64, Left 101, Across 58, "
                "Right 89."
            ),
            kind="choice",
            position=_before_the_end,
            score_rows=_rows(),
            choices=WINNER_OPTIONS,
            check=check_winner,
            task="Who wins the game? (Then play your last card to see.)",
        ),
    ),
)
