"""Lesson 8, strategy in play: ducking, managing the Q♠, counting voids, spotting a moon, and a
guided hand against Normal bots. Plays are judged by the evaluator."""

from __future__ import annotations

from functools import cache

from engine import Card, HandState, Rules, Suit, to_card

from ..coach.grading import grade
from ..data_files import PUZZLES_DIR
from ..puzzles import load_puzzle
from ..seats import seat_names
from .deals import ACROSS_MOON_DEAL, ACROSS_MOON_PLAYS, D_RIGHT_QUEEN, D_TRICK_1, S_QUEEN, D, deal, game_hand
from .from_puzzles import puzzle_step
from .steps import Context, Lesson, Step, StepVerdict, loss_words, refusal_verdict

STANDARD = Rules()
SHOOT_PUZZLE = "pass-standard-105-156-01"
"""A verified pass puzzle whose answer keeps a moon alive (against blockers)."""


@cache
def _puzzle(puzzle_id: str):
    """A shipped puzzle, read once (the moon step quotes several facts of one file)."""
    return load_puzzle(PUZZLES_DIR / f"{puzzle_id}.toml")


def _moon_percent(puzzle_id: str) -> int:
    """How often the puzzle's best pass brings the moon home, by its stored evaluation (the
    forecast: what strong players make of such hands)."""
    return round(100 * _puzzle(puzzle_id).answer.options[0].moon_for)


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _hearts(puzzle_id: str) -> list:
    """The puzzle hand's hearts, highest first."""
    hand = _puzzle(puzzle_id).view.hand
    return sorted(hand.of_suit(Suit.HEARTS), reverse=True)


def _hearts_words(puzzle_id: str) -> str:
    """ "six hearts headed by the A♥ K♥": what the moon step says of the puzzle's hand."""
    hearts = _hearts(puzzle_id)
    count = NUMBER_WORDS[len(hearts)] if len(hearts) < len(NUMBER_WORDS) else str(len(hearts))
    return f"{count} hearts headed by the {' '.join(str(card) for card in hearts[:2])}"


def _judge(card: str, context: Context) -> tuple[float, str, bool]:
    """The coach's verdict on ``card``: points lost, the best card's name, and whether the coach
    calls it best (the same tolerance as puzzles and the review)."""
    evaluation = context.evaluate(card)
    verdict = grade(evaluation, card)
    return verdict.loss, evaluation.best.option.name, verdict.correct


def check_duck(card: str, context: Context) -> StepVerdict:
    state = context.state
    if refused := refusal_verdict(state, card, context.seat, {"must_follow_suit": "Follow suit first."}):
        return refused
    loss, best, correct = _judge(card, context)
    after = state.copy()
    after.play(card, context.seat)
    if after.tricks[-1].winner == context.seat:
        return StepVerdict(
            False,
            f"Your {to_card(card).name} wins the trick and the Q♠ in it: 13 points. **Duck**: play a "
            f"diamond under the J♦ (the evaluator: {loss_words(loss)} lost).",
            "won",
        )
    if correct:
        return StepVerdict(
            True,
            f"Correct: the {to_card(card).name} ducks under the J♦; Across takes the Q♠. "
            f"(Evaluator's pick: the {best}; yours costs {loss_words(loss)}.)",
            "right",
        )
    return StepVerdict(
        False,
        f"It ducks, but it spends a card you need later: {loss_words(loss)} worse than "
        f"the {best}. Duck with the **highest** card that still loses, and keep your "
        "low cards for later tricks.",
        "wasted_low",
    )


def check_queen_under_king(card: str, context: Context) -> StepVerdict:
    state = context.state
    if refused := refusal_verdict(state, card, context.seat, {"must_follow_suit": "Spades were led."}):
        return refused
    loss, _best, _correct = _judge(card, context)
    if card == "QS":
        return StepVerdict(
            True,
            "Correct: the K♠ is winning, so the **Q♠ goes under it** and Left takes her 13 "
            "points. Holding the Q♠ with few spades, wait for the A♠ or K♠ to fall and "
            "drop her on it.",
            "right",
        )
    return StepVerdict(
        False,
        f"Keeping the Q♠ with one small spade left means she will catch you later. "
        f"The K♠ is winning now: drop her on it (the 5♠ costs {loss_words(loss)}).",
        "kept_queen",
    )


LOW_SPADES_PLAYS = "2C QC 4C 5C 3D 4D 7C 2D"
"""Seeded deal 35, two tricks in: you win the second and lead, holding 4♠ 5♠ 7♠ and the Q♠ is out."""


def low_spades_position(rules: Rules) -> HandState:
    state = HandState.from_seed(35, rules, "hold")
    for card in LOW_SPADES_PLAYS.split():
        state.play(card)
    return state


def check_low_spades(card: str, context: Context) -> StepVerdict:
    state = context.state
    explain = {"hearts_not_broken": "No heart has been played yet, so a heart cannot be led."}
    if refused := refusal_verdict(state, card, context.seat, explain):
        return refused
    loss, best, correct = _judge(card, context)
    played = to_card(card)
    if played.suit is Suit.SPADES and correct:
        return StepVerdict(
            True,
            f"Correct: the {played.name} cannot win against the Q♠, K♠ or A♠. Lead spades while "
            f"you are safe in them and whoever holds the queen may have to play her, or hold "
            f"her till the end. (Evaluator's pick: the {best}.)",
            "right",
        )
    if played.rank >= 12:
        return StepVerdict(
            False,
            f"The {played.name} wins this trick and keeps the lead with you: {loss_words(loss)} "
            "lost. Lead a **low spade** instead: it cannot win against the queen's friends, and it "
            "forces out the spades of whoever holds her.",
            "high_lead",
        )
    return StepVerdict(
        False,
        f"The {played.name} is safe enough, but it wastes the chance: {loss_words(loss)} lost. "
        "Your **low spades** are the weapon against the Q♠: lead them to make her holder follow.",
        "missed_spades",
    )


COUNT_PLAYS = "4S 3S 2S JS 6D 8D 8C 5D 5S 6S 8S QS KS"
"""From the low-spades position: two spade leads later the Q♠ has fallen, and Right leads the
K♠ (played here, so that the table waits for the learner: the count includes it)."""
COUNT_OPTIONS = ("3", "4", "9", "You cannot tell")


def count_position(rules: Rules) -> HandState:
    state = low_spades_position(rules)
    for card in COUNT_PLAYS.split():
        state.play(card)
    return state


def check_count(answer: str, context: Context) -> StepVerdict:
    view = context.state.view(context.seat)
    played = sum(1 for card in view.played_cards if card.suit is Suit.SPADES)
    mine = view.hand.count(Suit.SPADES)
    out = 13 - played - mine
    if answer == str(out):
        return StepVerdict(
            True,
            f"Correct: {played} spades have been played and you hold {mine}, so the others have "
            f"**{out}** between them. Counting a suit tells you when your low card is safe and "
            "when a high one will be the last standing.",
            "right",
        )
    if answer == str(13 - played):
        return StepVerdict(
            False,
            f"That counts your own {mine} spade{'s' if mine != 1 else ''} too. The question is the "
            "others': take away the spades you hold.",
            "counted_mine",
        )
    if answer == str(played):
        return StepVerdict(
            False,
            f"{played} spades have been **played**. The others hold what is neither played nor in your hand.",
            "counted_played",
        )
    return StepVerdict(
        False,
        f"You can: every card played is on the record. 13 spades, {played} played, {mine} in your "
        "hand: the rest are out.",
        "gave_up",
    )


VOID_OPTIONS = (*seat_names(4)[1:], "Nobody yet")  # the other seats, then none


def check_void(answer: str, context: Context) -> StepVerdict:
    view = context.state.view(context.seat)
    void = [seat for seat in (1, 2, 3) if Suit.DIAMONDS in view.shown_void(seat)]
    right = VOID_OPTIONS[void[0] - 1] if void else VOID_OPTIONS[3]
    if answer == right:
        return StepVerdict(
            True,
            "Correct: Right threw the 10♥ on a diamond lead, so **Right has no diamonds**. "
            "Remember it: if you lead diamonds, Right can throw anything on it, the Q♠ "
            "included.",
            "right",
        )
    if answer == VOID_OPTIONS[3]:
        return StepVerdict(
            False,
            "Look at the trick: Right did not follow the diamond lead. Only a player with "
            "no diamonds may do that.",
            "missed",
        )
    return StepVerdict(
        False,
        f"{answer} followed suit with a diamond. The player who played a heart on a "
        "diamond lead is the one who is void.",
        "followed",
    )


MOON_OPTIONS = (
    "Win a trick with a heart in it, even at a cost",
    "Keep ducking: every point I avoid is good",
    "Let Across have my hearts: they cost me nothing there",
)


def _cheapest_win(context: Context) -> tuple[Card, int] | None:
    """The learner's legal card that takes the trick on the table at the least cost, and that
    cost (the trick's points and the card's own; a later player may add more), or None."""
    state = context.state
    if state is None or state.to_move != context.seat or not state.current_trick.cards:
        return None
    trick, values = state.current_trick, state.rules.card_values
    top = max(c.rank for c in trick.cards if c.suit == trick.led_suit)
    points = sum(values[c] for c in trick.cards)
    wins = [c for c in state.legal_cards(context.seat) if c.suit == trick.led_suit and c.rank > top]
    return min(((c, points + values[c]) for c in wins), key=lambda x: (x[1], x[0].rank), default=None)


def check_moon_stop(answer: str, context: Context) -> StepVerdict:
    if answer == MOON_OPTIONS[0]:
        # the cost is read from the table: the trick that stops the moon holds its hearts too
        win = _cheapest_win(context)
        cost = (
            f"taking this trick with the {win[0]} costs you at least {win[1]} "
            f"point{'s' if win[1] != 1 else ''}"
            if win
            else "each heart you take costs you a point"
        )
        return StepVerdict(
            True,
            f"Correct: {cost} but breaks the moon, which would cost you **26**.",
            "right",
        )
    if answer == MOON_OPTIONS[1]:
        return StepVerdict(
            False,
            "If Across takes every point card you score 26 instead of nothing. Ducking "
            "helps the shooter: win a trick with a heart in it.",
            "ducking",
        )
    return StepVerdict(
        False,
        "Every heart Across takes is one more the moon needs: if Across gets them all you "
        "score 26. Keep a heart out of Across's pile: take one yourself.",
        "feeding",
    )


def check_guided(session, context: Context) -> StepVerdict:
    hand = session.hand
    if not hand.is_over:
        # No trick number: the bots play on after this text is drawn; the table shows the trick.
        return StepVerdict(
            False,
            "Play the hand to the end. Use **Hint** when unsure: it is the coach's choice from your "
            "own view, and why.",
            "playing",
        )
    mine = hand.result.scores[0]
    return StepVerdict(
        True,
        f"Hand over: you scored **{mine}**; the others {', '.join(str(s) for s in hand.result.scores[1:])}.",
        "done",
    )


LESSON = Lesson(
    number=8,
    key="l08_strategy",
    title="Strategy in play",
    summary="Duck, low spades and the Q♠, count cards and voids, stop and shoot moons, then a guided hand.",
    bots={1: "normal", 2: "normal", 3: "normal"},
    steps=(
        Step(
            key="duck",
            facts=("leader: Left", "trick: 9D JD QS", "void: Right D", "suit: you 3D 5D 8D AD", "turn: you"),
            title="Duck",
            text=(
                "Left led the 9♦, Across played the J♦ and Right, out of diamonds, threw the **Q♠**. "
                "You hold the A♦, 8♦, 5♦ and 3♦. **Ducking** means playing under the winning card "
                "so someone else takes the "
                "trick; the evaluator judges your choice by playing the rest out in many imagined deals."
            ),
            kind="play",
            position=lambda rules: deal(D_RIGHT_QUEEN, rules, D_TRICK_1 + " 9D JD QS"),
            check=check_duck,
            task="Play your diamond.",
        ),
        Step(
            key="queen",
            facts=("tricks: 1", "leader: Left", "trick: KS 2S 9S", "suit: you 5S QS", "turn: you"),
            title="Drop the Q♠ on the king",
            text="Left won the first trick and leads the **K♠**. You hold the Q♠ and the 5♠ and nothing "
            "else in spades. Across and Right followed low.",
            kind="play",
            position=lambda rules: deal(S_QUEEN, rules, "2C AC 7D 8S KS 2S 9S"),
            check=check_queen_under_king,
            task="Play your spade.",
        ),
        Step(
            key="low_spades",
            facts=("trick: none", "turn: you", "out: QS", "suit: you 4S 5S 7S"),
            title="Lead low spades to flush the queen",
            text=(
                "You won the trick and lead. The **Q♠ is still out** and you hold the 4♠, 5♠ and 7♠, "
                "none of which can win against the Q♠, K♠ or A♠. Keeping low spades is what makes "
                "you safe in spades; leading them makes the others spend theirs."
            ),
            kind="play",
            position=low_spades_position,
            check=check_low_spades,
            task="Lead a card.",
        ),
        Step(
            key="count",
            facts=("tricks: 5", "played: QS", "leader: Right", "trick: KS", "turn: you"),
            title="Count the cards",
            text=(
                "Three tricks later the **Q♠ has fallen**, and Right leads the K♠. Good players keep "
                "count of each suit: "
                "13 cards, minus those played, minus your own, are in the other hands."
            ),
            kind="choice",
            position=count_position,
            choices=COUNT_OPTIONS,
            check=check_count,
            task="How many spades do the other three players hold between them?",
        ),
        Step(
            key="voids",
            facts=("trick: 9D KD 10H", "void: Right D"),
            title="Count the voids",
            text="Good players track who has run out of which suit. Look at the trick on the table.",
            kind="choice",
            position=lambda rules: deal(D, rules, D_TRICK_1 + " 9D KD 10H"),
            choices=VOID_OPTIONS,
            check=check_void,
            task="Who has shown that they have no diamonds?",
        ),
        Step(
            key="moon",
            facts=(
                "tricks: 9",
                "moon: Across",
                "won: Across QS",
                "points: Across 21",
                "leader: Across",
                "trick: QH 3S",
                "turn: you",
                "beats: you KH",
            ),
            title="Spot and stop a moon",
            text=(
                "Nine tricks in, Across has won every trick with points in it: the Q♠ and eight "
                "hearts, and nobody else has a point. Across leads another high heart, the Q♥. Shooting the "
                "moon is worth trying only with long, high hearts and control of the other suits; "
                "stopping one is worth a point or two."
            ),
            kind="choice",
            position=lambda rules: deal(ACROSS_MOON_DEAL, rules, ACROSS_MOON_PLAYS),
            choices=MOON_OPTIONS,
            check=check_moon_stop,
            task="What should you do?",
        ),
        puzzle_step(
            "play-011",
            key="stop_moon",
            facts=(
                "moon: Right",
                "points: Right 14",
                "leader: Right",
                "trick: 5D",
                "void: you D",
                "turn: you",
            ),
            title="Stop a moon at the table",
            text=(
                "A real hand: **Right has taken every point so far** (14 of them) and leads a "
                "diamond. You have no diamonds, so you may throw anything. A heart that someone "
                "other than Right takes breaks the moon; a heart Right takes feeds it."
            ),
            task="Play your card.",
        ),
        puzzle_step(
            SHOOT_PUZZLE,
            key="shoot",
            facts=("phase: passing", "suit: you " + " ".join(card.code for card in _hearts(SHOOT_PUZZLE))),
            title="When to shoot the moon",
            text=(
                "A moon needs **long, high hearts and control of the other suits**, so that you "
                f"win every trick once you start. This hand has {_hearts_words(SHOOT_PUZZLE)}. "
                "The usual pass (your highest cards) throws the moon away; keep the right cards "
                f"and you shoot it in about {_moon_percent(SHOOT_PUZZLE)}% of such hands between "
                "strong players, who block, which is worth more than the safe pass."
            ),
            task="Choose three cards and press **Pass**.",
        ),
        Step(
            key="guided",
            facts=("tricks: 0",),
            title="A guided hand",
            text="Now a whole hand against three **Normal** bots. Pass, play, and press **Hint** for the "
            "coach's suggestion whenever you like.",
            kind="game",
            position=lambda rules: game_hand(rules, 8, 0),
            check=check_guided,
            task="Play the hand to the end.",
        ),
    ),
)
