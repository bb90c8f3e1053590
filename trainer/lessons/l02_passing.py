"""Lesson 2, passing: choosing three, the direction cycle, what to pass and why, what you receive."""

from __future__ import annotations

from engine import CardSet, HandState, PassDirection, Rules, parse_cards

from .deals import THREE_HANDS, game_hand, hand_with
from .steps import Context, Lesson, Step, StepVerdict, card_names, loss_words

STANDARD = Rules()
NO_HOLD = Rules(hold_hand=False)

DIRECTIONS = ("Left", "Right", "Across", "No pass (hold hand)")
_DIRECTION_OF = {
    "left": DIRECTIONS[0],
    "right": DIRECTIONS[1],
    "across": DIRECTIONS[2],
    "hold": DIRECTIONS[3],
}


def check_direction(answer: str, context: Context) -> StepVerdict:
    direction = context.rules.pass_direction(3)
    right = _DIRECTION_OF[direction.value]
    cycle = ", ".join(d.value for d in context.rules.pass_cycle)
    if answer == right:
        if direction is PassDirection.HOLD:
            return StepVerdict(
                True,
                "Correct: the cycle is left, right, across, then a **hold hand**: "
                "everyone plays the cards they were dealt.",
                "right",
            )
        return StepVerdict(
            True,
            f"Correct: without the hold hand the cycle is {cycle}, so hand 4 starts it again: **left**.",
            "right",
        )
    if answer == DIRECTIONS[3]:
        return StepVerdict(
            False,
            f"Under this house rule there is no hold hand: the cycle is only {cycle}, "
            "so hand 4 passes left again. (Switch the rule off to see the hold hand.)",
            "no_hold_variant",
        )
    texts = {
        DIRECTIONS[0]: ("Left is hand 1 (and hand 5). ", "left"),
        DIRECTIONS[1]: ("Right is hand 2. ", "right_is_second"),
        DIRECTIONS[2]: ("Across is hand 3. ", "across_is_third"),
    }
    text, code = texts.get(answer, ("", "other"))
    return StepVerdict(
        False,
        text + f"The cycle is {cycle}: hand 4 is the **{direction.value}** hand. "
        "The table shows the direction at the top (“Pass: …”).",
        code,
    )


QUEEN_HAND = {0: "QS 4S AH KH 2C 3C 5C 9C 2D 4D 7D 8D JD"}
VOID_HAND = {0: "2C 4C 6C 8C 10C 2S 3S 5S 2H 4H KD QD 6D"}


def _codes(answer: object) -> list[str]:
    return [card.code for card in parse_cards(list(answer))]


def _evaluator_note(context: Context, cards: list[str]) -> str:
    evaluation = context.evaluate(cards)
    best = evaluation.best.option
    mine = evaluation.value_of(cards)
    if mine.option == best:
        return " The evaluator agrees: this is its favourite pass."
    against = " against strong players" if evaluation.measure == "forecast" else ""
    return (
        f" The evaluator's favourite is the {card_names(list(best))}; yours costs "
        f"{loss_words(mine.loss)} more than that{against}, judged on {evaluation.samples:,} imagined deals."
    )


def _pass_refusal(state: HandState, cards: list[str]) -> StepVerdict | None:
    refusal = state.why_not_pass(0, cards)
    if refusal:
        return StepVerdict(False, f"The engine refuses that pass: *{refusal.message}*", refusal.reason.value)
    return None


def check_queen_pass(answer: object, context: Context) -> StepVerdict:
    state = context.state
    cards = _codes(answer)
    if refused := _pass_refusal(state, cards):
        return refused
    note = _evaluator_note(context, cards)
    low = [c for c in cards if c[:-1] in ("2", "3", "4", "5")]
    if "QS" not in cards:
        return StepVerdict(
            False,
            "You kept the **Q♠** with only the 4♠ to hide behind. When someone leads "
            "the A♠ or K♠ you will have to play her, or win her yourself: 13 points. "
            "With so few spades, pass her." + note,
            "kept_queen",
        )
    if low:
        return StepVerdict(
            False,
            f"You passed the {card_names(low)}: low cards are your **safety**, they let "
            "you duck under other players all hand. Pass the dangerous high cards "
            "instead: the A♥ and K♥ win tricks full of hearts." + note,
            "passed_low",
        )
    return StepVerdict(
        True,
        f"Good pass: the Q♠ goes, and with her the {card_names(c for c in cards if c != 'QS')}. "
        "Remember where she went: you know who holds her now." + note,
        "right",
    )


def check_void_pass(answer: object, context: Context) -> StepVerdict:
    state = context.state
    cards = _codes(answer)
    if refused := _pass_refusal(state, cards):
        return refused
    note = _evaluator_note(context, cards)
    hand = state.hand(0)
    diamonds = {c.code for c in hand if c.suit == 1}
    if set(cards) == diamonds:
        return StepVerdict(
            True,
            "Correct: all three diamonds go and you are **void** in diamonds. When "
            "diamonds are led you may throw away anything, a heart or even the Q♠ if "
            "she comes to you." + note,
            "right",
        )
    kept = sorted(diamonds - set(cards))
    spades = [c for c in cards if c.endswith("S")]
    if spades:
        return StepVerdict(
            False,
            f"You passed the {card_names(spades)}: with no high spades, low spades "
            "**protect** you when the Q♠ is hunted. Pass the three diamonds instead, "
            "and make a void." + note,
            "passed_low_spades",
        )
    return StepVerdict(
        False,
        f"You still hold the {card_names(kept)}: with one diamond left you must follow "
        "suit when diamonds are led, so there is no void. Pass **all three** "
        "diamonds." + note,
        "no_void",
    )


RECEIVE_OPTIONS = ("Left holds her", "Right holds her", "Across holds her", "Anyone might")


def _received_position(rules: Rules) -> HandState:
    state = hand_with(QUEEN_HAND, rules, direction="left")
    state.pass_cards(0, ["QS", "AH", "KH"])
    for seat in (1, 2, 3):
        state.pass_cards(seat, list(state.hand(seat))[-3:])
    return state


def check_queen_holder(answer: str, context: Context) -> StepVerdict:
    state = context.state
    holder = next(seat for seat in range(4) if "QS" in state.hand(seat).codes)
    right = RECEIVE_OPTIONS[{1: 0, 3: 1, 2: 2}[holder]]
    received = state.received(0)
    if answer == right:
        return StepVerdict(
            True,
            "Correct: you passed her to Left, and passed cards cannot be passed on, so "
            f"**Left holds the Q♠**. You received the {card_names(list(received))} from "
            "Right (they glow on the table): Right did not want them.",
            "right",
        )
    if answer == RECEIVE_OPTIONS[3]:
        return StepVerdict(
            False,
            "You know more than that: you passed her to Left yourself this hand, and a "
            "card you receive is yours to play.",
            "forgot_pass",
        )
    who = answer.split()[0]
    return StepVerdict(
        False,
        f"{who} never saw her: you passed her **left**. Cards only move once, at the pass, so she is in "
        "Left's hand. Use that: when spades are led, watch Left.",
        "wrong_seat",
    )


LESSON = Lesson(
    number=2,
    key="l02_passing",
    title="Passing",
    summary="Choosing three cards, the direction cycle, what to pass and why, and reading what you get.",
    steps=(
        Step(
            key="direction",
            facts=("hand_number: 4",),
            variant_facts=(("pass: hold",), ("pass: left",)),
            title="Left, right, across, hold",
            text=(
                "Before each hand is played, everyone passes **three cards** at once. The direction "
                "turns hand by hand: **left**, then **right**, then **across**, then a **hold hand** "
                "with no pass, and round again. Some tables drop the hold hand: switch that house rule "
                "on and watch the table change."
            ),
            kind="choice",
            position=lambda rules: game_hand(rules, 5, 3),
            score_rows=THREE_HANDS,
            variants=(("Standard cycle (with a hold hand)", STANDARD), ("House rule: no hold hand", NO_HOLD)),
            variant_label="No hold hand",
            conceal=("pass",),
            choices=DIRECTIONS,
            check=check_direction,
            task="The table shows the **4th** hand of a game. Which way do you pass?",
        ),
        Step(
            key="queen",
            facts=("phase: passing", "suit: you 4S QS", "holds: you AH KH"),
            title="Pass the danger",
            text=(
                "You hold the **Q♠** with just one small spade, and the **A♥ K♥**. Spades are led often "
                "to hunt the queen, and with one spade to follow you cannot hide her. High hearts take "
                "tricks late in the hand, when everyone is throwing hearts."
            ),
            kind="pass",
            position=lambda rules: hand_with(QUEEN_HAND, rules, direction="left"),
            check=check_queen_pass,
            task="Choose three cards and press **Pass**.",
        ),
        Step(
            key="void",
            facts=("phase: passing", "lacks: you QS", "suit: you 6D QD KD", "suit: you 2S 3S 5S"),
            title="Build a void",
            text=(
                "No Q♠ this time, and your spades are low and safe. Your diamonds are the K♦ Q♦ 6♦: "
                "three cards in one suit. Passing a **whole short suit** leaves you void in it, free "
                "to throw points whenever it is led."
            ),
            kind="pass",
            position=lambda rules: hand_with(VOID_HAND, rules, direction="right"),
            check=check_void_pass,
            task="Choose three cards and press **Pass**.",
        ),
        Step(
            key="receive",
            facts=("holds: Left QS AH KH", "received: 10H JH QH", "pass: left"),
            title="Reading what you receive",
            text=(
                "You passed the Q♠, A♥ and K♥ to Left, and Right passed you three cards: they glow on "
                "the table. What others pass tells you what they feared, and what you passed tells you "
                "where those cards are."
            ),
            kind="choice",
            position=_received_position,
            choices=RECEIVE_OPTIONS,
            check=check_queen_holder,
            task="Where is the Q♠ now?",
        ),
    ),
)

__all__ = ["LESSON", "CardSet"]
