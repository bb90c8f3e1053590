"""The terminal game: a whole game can be played, and mistakes get the engine's reasons."""

import random

from engine import Game, Phase, Rules
from trainer.play import play_game


def test_a_whole_game_can_be_played_in_the_terminal_with_reasons_for_mistakes():
    game = Game(Rules(), seed=4)
    said: list[str] = []
    mistakes = iter(["QX", "2C 3C", "undo"])

    def ask(prompt: str) -> str:
        hand = game.hand
        mistake = next(mistakes, None)
        if mistake:
            return mistake
        if hand.phase is Phase.PASSING:
            return " ".join(card.code for card in list(hand.hand(0))[-3:])
        if hand.phase is Phase.MOON_CHOICE:
            return "a"
        illegal = [card for card in hand.hand(0) if card not in hand.legal_cards()]
        if illegal and len(said) % 7 == 0:
            return illegal[0].code
        return hand.legal_cards()[0].code

    winners = play_game(game, ask, said.append, random.Random(4))
    assert game.is_over and winners == game.winners
    assert any("'X' is not a suit" in line for line in said)
    assert any("Pass exactly 3 cards: you chose 2." in line or "You do not hold" in line for line in said)
    assert any(line.startswith("You must follow suit") or "not broken" in line for line in said)
    assert any(line.startswith("Totals:") for line in said)
