"""Play Hearts in the terminal against practice opponents: ``python -m trainer.play``.

You sit at seat 0. Type cards as ``QS``, ``10H`` or ``Q♠``; ``undo`` takes back your last
decision, ``quit`` leaves. Every refusal is the engine's own reason.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from engine import (
    Action,
    Card,
    CardParseError,
    CardSet,
    Game,
    HandState,
    IllegalAction,
    MoonAction,
    MoonChoice,
    PassAction,
    Phase,
    PlayAction,
    PlayerView,
    Rules,
    parse_cards,
    to_card,
)
from engine.bots import bot_action
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


class RandomOpponent:
    """A practice opponent: it passes and plays legal cards at random, and adds a moon it
    shoots to the others' scores."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(self.rng.sample(list(view.hand), view.rules.pass_count))

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards
        return legal[self.rng.randrange(len(legal))]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return MoonChoice.ADD_TO_OTHERS


def opponents_act(hand: HandState, rng: random.Random) -> None:
    """Practice opponents act until the hand waits for you (or is over)."""
    opponent = RandomOpponent(rng)
    while (seat := hand.seat_to_act) is not None and seat != YOU:
        hand.apply(bot_action(opponent, hand.view(seat)))


def take_back_your_last_decision(hand: HandState) -> bool:
    history = hand.history
    for index in range(len(history) - 1, -1, -1):
        if history[index].seat == YOU and isinstance(history[index], PlayAction):
            hand.take_back_to(index)
            return True
    return False


def typed_action(hand: HandState, text: str) -> Action:
    """What you typed, read as the decision the hand waits for (raises ``CardParseError``, or
    ``ValueError`` for a moon choice that is neither 'a' nor 's')."""
    if hand.phase is Phase.PASSING:
        cards = parse_cards(text)
        if len(set(cards)) < len(cards):  # the hand refuses it, naming the card chosen twice
            hand.verify_pass(YOU, cards)
        return PassAction(YOU, CardSet(cards))
    if hand.phase is Phase.MOON_CHOICE:
        choice = {"a": MoonChoice.ADD_TO_OTHERS, "s": MoonChoice.SUBTRACT_FROM_SHOOTER}.get(text[:1].lower())
        if choice is None:
            raise ValueError(
                "Type 'a' to add the moon to everyone else, or 's' to subtract it from yourself."
            )
        return MoonAction(YOU, choice)
    return PlayAction(YOU, to_card(text))


def your_turn(hand: HandState, text: str) -> str:
    """Apply what you typed; returns what to tell you."""
    try:
        action = typed_action(hand, text)
        record = hand.apply(action)
    except (CardParseError, IllegalAction, ValueError) as error:
        return str(error)
    if isinstance(action, PassAction):
        return f"You pass {action.cards} {hand.pass_direction.value}."
    if isinstance(action, MoonAction):
        return "Moon scored."
    return f"You play {record.action.card}."


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
