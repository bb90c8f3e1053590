"""Our bots against OpenSpiel's ISMCTSBot at the same table, with duplicate rotation.

    PYTHONPATH=. .venv/bin/python benchmarks/vs_openspiel.py hard ismcts ismcts ismcts --deals 250

ISMCTS (information-set Monte Carlo tree search, OpenSpiel's ``ISMCTSBot`` with random
roll-outs) plays the card play with ``--simulations`` per decision. Two of its limits, from
../shared/notes/openspiel-hearts.md, shape the set-up: its resampling of hidden hands crashes
during the pass phase, so our Normal bot's rule-of-thumb pass chooses its passes; and it cannot
take a player view, so the adapter rebuilds the real OpenSpiel state and ISMCTS resamples the
hidden cards from that state's information set itself (ignoring voids, as it always does).
The rules are OpenSpiel's with the Q♠ not breaking hearts, i.e. our standard rules.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import pyspiel

from engine import HandState, Phase, PlayAction, Rules
from engine.bots import make_bot
from engine.bots.base import Bot
from engine.tournament import format_table, run_tournament, summarize

GAME_STRING = "hearts(qs_breaks_hearts=false)"
DIRECTION_ACTION = {"hold": 0, "left": 1, "across": 2, "right": 3}


def openspiel_card(card: int) -> int:
    suit, rank = divmod(card, 13)
    return rank * 4 + (0, 1, 3, 2)[suit]


OURS_FROM_OPENSPIEL = {openspiel_card(card): card for card in range(52)}


def openspiel_state(game: pyspiel.Game, state: HandState) -> pyspiel.State:
    """The same hand in OpenSpiel, from the deal, the passes and the plays so far."""
    their = game.new_initial_state()
    their.apply_action(DIRECTION_ACTION[state.pass_direction.value])
    hands = [list(state.dealt_hand(seat)) for seat in range(4)]
    for round_cards in zip(*hands, strict=True):
        for card in round_cards:
            their.apply_action(openspiel_card(card))
    if state.pass_direction.value != "hold":
        for seat in range(4):
            for card in state.passed(seat):
                their.apply_action(openspiel_card(card))
    for action in state.history:
        if isinstance(action, PlayAction):
            their.apply_action(openspiel_card(action.card))
    return their


class OpenSpielISMCTS:
    """OpenSpiel's ISMCTSBot in one of our seats; our Normal bot passes for it."""

    name = "ismcts"
    needs_state = True

    def __init__(self, seed: int, simulations: int) -> None:
        self.game = pyspiel.load_game(GAME_STRING)
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)  # the bot keeps no reference
        self.bot = pyspiel.ISMCTSBot(
            seed,
            self.evaluator,
            2.0,
            simulations,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        self.passer = make_bot("normal", seed)

    def act(self, state: HandState, seat: int) -> None:
        if state.phase is Phase.PASSING:
            state.pass_cards(seat, self.passer.choose_pass(state.view(seat)))
        elif state.phase is Phase.MOON_CHOICE:
            state.choose_moon("add_to_others", seat)
        else:
            their = openspiel_state(self.game, state)
            assert their.current_player() == seat
            state.play(OURS_FROM_OPENSPIEL[self.bot.step(their)], seat)


SIMULATIONS = 1000


def factory(name: str, seed: int) -> Bot:
    if name == "ismcts":
        return OpenSpielISMCTS(seed % 2**31, SIMULATIONS)
    return make_bot(name, seed)


def main() -> None:
    global SIMULATIONS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "bots",
        nargs=4,
        help="four seats: ismcts, or any bot make_bot seats (easy, normal, hard, level-1 … level-10, master)",
    )
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    SIMULATIONS = args.simulations
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r{done}/{total} deals, {time.perf_counter() - started:.0f}s")
        sys.stderr.flush()

    results = run_tournament(args.bots, Rules(), args.deals, args.seed, args.workers, factory, progress)
    summary = summarize(results)
    summary.update(
        {"lineup": args.bots, "simulations": SIMULATIONS, "seconds": time.perf_counter() - started}
    )
    print("\n" + format_table(summary))
    if args.json:
        with open(args.json, "w") as file:
            json.dump(summary, file, indent=2)


if __name__ == "__main__":
    main()
