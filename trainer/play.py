"""Play Hearts in the terminal against practice opponents: ``python -m trainer.play``.

You sit at seat 0. Type cards as ``QS``, ``10H`` or ``Q♠``; ``undo`` takes back your last
decision, ``quit`` leaves. Every refusal is the engine's own reason.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from engine import (
    CardParseError,
    CardSet,
    Game,
    HandState,
    IllegalAction,
    MoonChoice,
    Phase,
    PlayAction,
    Rules,
    parse_cards,
)
from engine.rules import PRESETS
from trainer.seats import seat_name

YOU = 0


def describe_table(hand: HandState) -> str:
    players = hand.players
    lines = [
        f"Pass: {hand.pass_direction.value}   Hearts broken: {'yes' if hand.hearts_broken else 'no'}",
        "Points taken: "
        + ", ".join(f"{seat_name(s, players, YOU)} {p}" for s, p in enumerate(hand.points_taken)),
    ]
    trick = hand.current_trick
    if trick.cards:
        plays = ", ".join(f"{seat_name(s, players, YOU)} {c}" for s, c in trick.plays)
        lines.append(f"Trick {hand.trick_number + 1}: {plays}")
    lines.append(f"Your hand: {hand.hand(YOU)}")
    return "\n".join(lines)


def opponents_act(hand: HandState, rng: random.Random) -> None:
    """Practice opponents: they pass and play legal cards at random."""
    for seat in hand.seats_to_pass:
        if seat != YOU:
            hand.pass_cards(seat, rng.sample(list(hand.hand(seat)), hand.rules.pass_count))
    while hand.phase is Phase.PLAYING and hand.to_move != YOU:
        legal = hand.legal_cards()
        hand.play(legal[rng.randrange(len(legal))])
    if hand.phase is Phase.MOON_CHOICE and hand.to_move != YOU:
        hand.choose_moon(MoonChoice.ADD_TO_OTHERS)


def take_back_your_last_decision(hand: HandState) -> bool:
    history = hand.history
    for index in range(len(history) - 1, -1, -1):
        if history[index].seat == YOU and isinstance(history[index], PlayAction):
            hand.take_back_to(index)
            return True
    return False


def your_turn(hand: HandState, text: str) -> str:
    """Apply what you typed; returns what to tell you."""
    if hand.phase is Phase.PASSING:
        try:
            cards = parse_cards(text)
        except CardParseError as error:
            return str(error)
        if refusal := hand.why_not_pass(YOU, cards):
            return refusal.message
        hand.pass_cards(YOU, cards)
        return f"You pass {CardSet(cards)} {hand.pass_direction.value}."
    if hand.phase is Phase.MOON_CHOICE:
        choice = {"a": MoonChoice.ADD_TO_OTHERS, "s": MoonChoice.SUBTRACT_FROM_SHOOTER}.get(text[:1].lower())
        if choice is None:
            return "Type 'a' to add the moon to everyone else, or 's' to subtract it from yourself."
        hand.choose_moon(choice)
        return "Moon scored."
    try:
        hand.play(text)
    except (CardParseError, IllegalAction) as error:
        return str(error)
    return f"You play {hand.history[-1].card}."


def play_game(
    game: Game, ask: Callable[[str], str], say: Callable[[str], None], rng: random.Random
) -> tuple[int, ...]:
    """Run a whole game; returns the winners."""
    players = game.rules.players
    while True:
        hand = game.hand
        say(f"\n=== Hand {game.hand_index + 1}: pass {hand.pass_direction.value} ===")
        while not hand.is_over:
            if not (hand.phase is Phase.PASSING and YOU in hand.seats_to_pass):
                opponents_act(hand, rng)
            if hand.is_over:
                break
            say(describe_table(hand))
            prompt = {
                Phase.PASSING: f"Pass {game.rules.pass_count} cards: ",
                Phase.MOON_CHOICE: "You shot the moon! (a)dd to others or (s)ubtract from you: ",
            }.get(hand.phase, "Your card: ")
            text = ask(prompt).strip()
            if text == "quit":
                return ()
            if text == "undo":
                say("Taken back." if take_back_your_last_decision(hand) else "Nothing to take back.")
                continue
            say(your_turn(hand, text))
        for number, row in enumerate(game.score_table, start=1):
            say(
                f"Hand {number}: "
                + "  ".join(f"{seat_name(s, players, YOU)} {p:>3}" for s, p in enumerate(row))
            )
        say("Totals: " + "  ".join(f"{seat_name(s, players, YOU)} {t:>3}" for s, t in enumerate(game.totals)))
        if game.is_over:
            say("Winner: " + ", ".join(seat_name(s, players, YOU) for s in game.winners))
            return game.winners
        game.next_hand()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=None, help="deal seed (random by default)")
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard", help="rule preset")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rules: Rules = PRESETS[args.rules]
    print(f"Hearts Trainer: a game to {rules.target}, seed {seed}. Type 'undo' or 'quit' any time.")
    try:
        play_game(Game(rules, seed), input, print, random.Random(seed))
    except (EOFError, KeyboardInterrupt):
        print()


if __name__ == "__main__":
    main()
