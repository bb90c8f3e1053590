"""How fast our rules engine plays random Hearts, next to OpenSpiel's Hearts through its Python API.

Two measurements, on the same seeds for every engine:

(a) full random hands per second: choose a pass direction (uniformly, hold included), deal the
    seed's cards (``deal_from_seed``, inside ``HandState.from_seed`` for ours, as 52 chance
    actions for OpenSpiel), pass three random cards per seat, then play 52 random legal cards;
(b) play-phase roll-outs per second: from a position just after the pass, copy it
    (``HandState.copy`` / ``State.clone``) and play random legal cards to the end.

Ours is measured three ways through its public API: card by card, choosing from
``legal_cards()`` (a tuple of the cards, ``CardTuple``: the loop is OpenSpiel's,
``rng.choice(state.legal_cards())``) or from the ``legal_mask`` int attribute (the k-th bit); and
with ``engine.search.playout.random_playout``, the flat-loop play-out that search and evaluation
use. The card-by-card ways pick the same card for the same random number, so they play the same
games. OpenSpiel chooses with the same ``random.Random`` calls among ``legal_actions()``; it lists
cards in another order, so its games are different ones drawn from the same distribution.
The rules are OpenSpiel's defaults (the Q♠ breaks hearts).

The measurements alternate within each round, in a rotating order, so that machine noise falls
on every engine alike; the table shows the median of the rounds, and each ratio is the median
of the per-round ratios. Each measurement is timed in this thread's processor time by default
(``--clock cpu``): on a shared machine the time the process waits for a core is not the
engines' (``--clock wall`` times it too).

    PYTHONPATH=. .venv/bin/python benchmarks/engine_speed.py [--seconds 30] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from importlib.metadata import version
from itertools import chain

import pyspiel

from engine import CARDS, HandState, PassDirection, Rules
from engine.cards import cards_of
from engine.deal import deal_from_seed
from engine.search.playout import random_playout

RULES = Rules(queen_breaks_hearts=True)  # OpenSpiel's default rules
# Index = OpenSpiel's pass-direction action: 0 no pass, 1 left, 2 across, 3 right.
DIRECTIONS = (PassDirection.HOLD, PassDirection.LEFT, PassDirection.ACROSS, PassDirection.RIGHT)
PASS_COUNT = 3
ROLLOUTS_PER_POSITION = 4
FIRST_SEED = 1_000_000


def _openspiel_card(card: int) -> int:
    """Our ``suit * 13 + rank`` (suits C, D, S, H) as OpenSpiel's ``rank * 4 + suit`` (C, D, H, S)."""
    suit, rank = divmod(card, 13)
    return rank * 4 + (0, 1, 3, 2)[suit]


OPENSPIEL_FROM_OURS = tuple(_openspiel_card(card) for card in range(52))


def deal_actions(seed: int) -> list[int]:
    """The seed's deal as OpenSpiel's 52 chance actions (the i-th card goes to player i % 4).
    OpenSpiel's full hands pay for this translation: kept lean (table lookups, no loop over
    bits), it costs about a third of ``deal_from_seed`` (it had cost as much again)."""
    hands = [cards_of(mask) for mask in deal_from_seed(seed, 4)]
    return list(map(OPENSPIEL_FROM_OURS.__getitem__, chain.from_iterable(zip(*hands, strict=True))))


# ----- our engine -----


# The card-by-card loops choose inline, as OpenSpiel's loops do (a helper function per card
# would charge a Python call to our engine alone).


def play_from_cards(state: HandState, rng: random.Random) -> None:
    """Random legal cards to the end of the hand, each chosen from ``legal_cards()``."""
    while not state.is_over:
        state.play(rng.choice(state.legal_cards()))


def play_from_mask(state: HandState, rng: random.Random) -> None:
    """The same cards as ``play_from_cards`` for the same random numbers: the k-th legal card."""
    while not state.is_over:
        mask = state.legal_mask
        for _ in range(rng.randrange(mask.bit_count())):
            mask &= mask - 1
        state.play(CARDS[(mask & -mask).bit_length() - 1])


def our_full_hand(seed: int, play_out: Callable[[HandState, random.Random], None]) -> None:
    rng = random.Random(seed)
    state = HandState.from_seed(seed, RULES, DIRECTIONS[rng.randrange(4)])
    if state.pass_direction is not PassDirection.HOLD:
        for seat in range(4):
            state.pass_cards(seat, rng.sample(list(state.hand(seat)), PASS_COUNT))
    play_out(state, rng)


def our_playout_hand(seed: int) -> None:
    """A full hand whose play phase is one ``random_playout``."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, RULES, DIRECTIONS[rng.randrange(4)])
    if state.pass_direction is not PassDirection.HOLD:
        for seat in range(4):
            state.pass_cards(seat, rng.sample(list(state.hand(seat)), PASS_COUNT))
    random_playout(state, rng)


# ----- OpenSpiel -----


def openspiel_full_hand(seed: int, game: pyspiel.Game) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(rng.randrange(4))
    for action in deal_actions(seed):
        state.apply_action(action)
    while not state.is_terminal():  # 12 pass actions (unless a hold hand), then 52 plays
        state.apply_action(rng.choice(state.legal_actions()))


def openspiel_rollout(position: pyspiel.State, rng: random.Random) -> None:
    state = position.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the same post-pass positions in both engines -----


def positions_after_pass(seeds: range, game: pyspiel.Game) -> tuple[list[HandState], list[pyspiel.State]]:
    ours, theirs = [], []
    for seed in seeds:
        rng = random.Random(seed)
        direction = 1 + rng.randrange(3)  # a passing hand: left, across or right
        state = HandState.from_seed(seed, RULES, DIRECTIONS[direction])
        their_state = game.new_initial_state()
        their_state.apply_action(direction)
        for action in deal_actions(seed):
            their_state.apply_action(action)
        for seat in range(4):
            chosen = rng.sample(list(state.hand(seat)), PASS_COUNT)
            state.pass_cards(seat, chosen)
            for card in chosen:
                their_state.apply_action(OPENSPIEL_FROM_OURS[card])
        assert state.to_move == their_state.current_player()
        ours.append(state)
        theirs.append(their_state)
    return ours, theirs


# ----- measuring -----

FULL_HANDS, ROLLOUTS, DEALS = "full_hands", "rollouts", "deals"
DEAL = "deal_from_seed"
OURS_CARDS, OURS_MASK, OURS_PLAYOUT = "ours_legal_cards", "ours_legal_mask", "ours_random_playout"
OPENSPIEL = "openspiel"
OURS = (OURS_CARDS, OURS_MASK, OURS_PLAYOUT)
ENGINES = (*OURS, OPENSPIEL)
LABELS = {
    FULL_HANDS: "full random hands",
    ROLLOUTS: "play-phase roll-outs",
    OURS_CARDS: "ours, legal_cards()",
    OURS_MASK: "ours, legal_mask (int)",
    OURS_PLAYOUT: "ours, random_playout",
    OPENSPIEL: "OpenSpiel (pyspiel)",
}


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


def timed(run: Callable[[], int], clock: Callable[[], float] = time.thread_time) -> float:
    """Items per second of ``run``, which returns how many items it did."""
    start = clock()
    count = run()
    return count / (clock() - start)


def full_hand_runs(seeds: range, game: pyspiel.Game) -> dict[str, Callable[[], int]]:
    def ours(play_out):
        def run() -> int:
            for seed in seeds:
                our_full_hand(seed, play_out)
            return len(seeds)

        return run

    def ours_playout() -> int:
        for seed in seeds:
            our_playout_hand(seed)
        return len(seeds)

    def openspiel() -> int:
        for seed in seeds:
            openspiel_full_hand(seed, game)
        return len(seeds)

    return {
        OURS_CARDS: ours(play_from_cards),
        OURS_MASK: ours(play_from_mask),
        OURS_PLAYOUT: ours_playout,
        OPENSPIEL: openspiel,
    }


def rollout_runs(seeds: range, game: pyspiel.Game, rng_seed: int) -> dict[str, Callable[[], int]]:
    our_positions, their_positions = positions_after_pass(seeds, game)
    count = len(seeds) * ROLLOUTS_PER_POSITION

    def ours(play_out):
        def run() -> int:
            rng = random.Random(rng_seed)
            for position in our_positions:
                for _ in range(ROLLOUTS_PER_POSITION):
                    play_out(position.copy(), rng)  # one call a roll-out, as OpenSpiel's
            return count

        return run

    def ours_playout() -> int:
        rng = random.Random(rng_seed)
        for position in our_positions:
            for _ in range(ROLLOUTS_PER_POSITION):
                random_playout(position, rng)
        return count

    def openspiel() -> int:
        rng = random.Random(rng_seed)
        for position in their_positions:
            for _ in range(ROLLOUTS_PER_POSITION):
                openspiel_rollout(position, rng)
        return count

    return {
        OURS_CARDS: ours(play_from_cards),
        OURS_MASK: ours(play_from_mask),
        OURS_PLAYOUT: ours_playout,
        OPENSPIEL: openspiel,
    }


def deal_runs(seeds: range) -> dict[str, Callable[[], int]]:
    """``deal_from_seed`` alone: part of both engines' full-hand figures."""

    def run() -> int:
        for seed in seeds:
            deal_from_seed(seed, 4)
        return len(seeds)

    return {DEAL: run}


def run_round(
    index: int, seeds: range, game: pyspiel.Game, clock: Callable[[], float] = time.thread_time
) -> dict[str, dict[str, float]]:
    """One round: every engine on the same seeds, in an order that rotates from round to round."""
    runs = {
        FULL_HANDS: full_hand_runs(seeds, game),
        ROLLOUTS: rollout_runs(seeds, game, index),
        DEALS: deal_runs(seeds),
    }
    rates: dict[str, dict[str, float]] = {kind: {} for kind in runs}
    jobs = [(kind, engine) for kind in runs for engine in runs[kind]]
    shift = index % len(jobs)
    for kind, engine in jobs[shift:] + jobs[:shift]:
        rates[kind][engine] = timed(runs[kind][engine], clock)
    return rates


def hands_for_budget(seconds: float, rounds: int, game: pyspiel.Game) -> int:
    """Hands per round so that the whole run takes about ``seconds``, from a short trial round."""
    trial = 60
    start = time.perf_counter()
    run_round(0, range(FIRST_SEED - trial, FIRST_SEED), game)
    per_hand = (time.perf_counter() - start) / trial
    return max(20, int(seconds / rounds / per_hand))


def summarize(per_round: list[dict[str, dict[str, float]]]) -> dict[str, dict]:
    summary: dict[str, dict] = {}
    for kind in (FULL_HANDS, ROLLOUTS):
        entry: dict[str, dict] = {"rates": {}, "ratios_ours_over_openspiel": {}}
        for engine in ENGINES:
            rates = [round_rates[kind][engine] for round_rates in per_round]
            entry["rates"][engine] = {
                "median": statistics.median(rates),
                "min": min(rates),
                "max": max(rates),
                "rounds": rates,
            }
        for engine in OURS:
            ratios = [r[kind][engine] / r[kind][OPENSPIEL] for r in per_round]
            entry["ratios_ours_over_openspiel"][engine] = statistics.median(ratios)
        summary[kind] = entry
    deal_rates = [round_rates[DEALS][DEAL] for round_rates in per_round]
    summary[DEALS] = {"rates": {DEAL: {"median": statistics.median(deal_rates), "rounds": deal_rates}}}
    return summary


def print_table(summary: dict[str, dict], hands: int, rounds: int) -> None:
    print(
        f"\nMedian of {rounds} rounds; each round: {hands} full hands, and {hands} post-pass positions x "
        f"{ROLLOUTS_PER_POSITION} roll-outs, the same seeds for every engine."
    )
    header = f"{'':24}{'engine':26}{'per second':>12}{'min':>10}{'max':>10}{'ours/OpenSpiel':>16}"
    print(header)
    print("-" * len(header))
    for kind in (FULL_HANDS, ROLLOUTS):
        entry = summary[kind]
        for i, engine in enumerate(ENGINES):
            rate = entry["rates"][engine]
            ratio = entry["ratios_ours_over_openspiel"].get(engine)
            ratio_text = f"{ratio:.2f}" if ratio is not None else ""
            print(
                f"{LABELS[kind] if i == 0 else '':24}{LABELS[engine]:26}{rate['median']:>12,.0f}"
                f"{rate['min']:>10,.0f}{rate['max']:>10,.0f}{ratio_text:>16}"
            )
    deal_us = 1e6 / summary[DEALS]["rates"][DEAL]["median"]
    print(f"\nBoth engines' full hands include deal_from_seed: {deal_us:.1f} µs a hand (median).")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands", type=int, help="hands (and post-pass positions) per round; overrides --seconds"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="about how long the whole run takes")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of alternating measurements")
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time each measurement in this thread's processor time (cpu) or elapsed time (wall)",
    )
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    game = pyspiel.load_game("hearts")
    load_before = os.getloadavg()
    hands = args.hands or hands_for_budget(args.seconds, args.rounds, game)
    per_round = []
    for index in range(args.rounds):
        seeds = range(FIRST_SEED + index * hands, FIRST_SEED + (index + 1) * hands)
        per_round.append(run_round(index, seeds, game, CLOCKS[args.clock]))
        print(f"round {index + 1}/{args.rounds} done", flush=True)
    summary = summarize(per_round)
    print_table(summary, hands, args.rounds)
    if args.json:
        report = {
            "hands_per_round": hands,
            "rollouts_per_round": hands * ROLLOUTS_PER_POSITION,
            "rounds": args.rounds,
            "clock": args.clock,
            "load_average": {"start": load_before, "end": os.getloadavg()},
            "rules": "OpenSpiel defaults (our Rules(queen_breaks_hearts=True))",
            "python": platform.python_version(),
            "open_spiel": version("open-spiel"),
            "labels": LABELS,
            "results": summary,
        }
        with open(args.json, "w") as file:
            json.dump(report, file, indent=2)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
