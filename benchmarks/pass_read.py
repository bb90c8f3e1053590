"""How Hard passes, against the passes the evaluator imagines for the other seats, and what that
does to the moon.

The calibration (``coach_calibration.py``) finds the evaluator expecting about a tenth of the
moons Hard x4 makes from the other seats, at the pass and in the first tricks alike, while the
play-out policy on the true deal makes most of them (``shooter_read.py``: after Hard's passes).
So the imagined deals lack moon hands the true deals have. Before the first card is played, what
stands between a shuffled deal and the true one is the pass; this script measures it, on every hand
with a pass in some ``--save`` pickles of ``coach_calibration.py``:

- each card's pass rate by suit and rank: Hard's, and the rule of thumb's on the same hands
  (``engine.passing.rule_of_thumb_pass``, what the evaluator imagines the others pass);
- the hands left after the pass that a shooter could run: losers (``engine.moon.losers``, against
  every card it does not hold) after the hand's three best discards, at most ``CAPABLE``;
- how often the play-out policy at every seat shoots after each kind of pass on the same dealt
  hands: Hard's; the rule of thumb's; the rule of thumb's, except that a hand left with at most
  ``KEEP_MOON`` losers after its three best discards passes those (``keeping_pass``, the
  candidate for the evaluator's imagined passes), with ``KEEP_MOON`` fitted here (other values
  beside it); and passes drawn from a card-choice model fitted to Hard's
  passes (a conditional logit on suit, rank, suit length, the Q♠ and its guards, high hearts;
  its log-likelihood is reported on hands held out of the fit). Measured: no weighting of single
  cards reproduces Hard's moons, and keeping a hand that can run does: what Hard passes depends
  on the whole hand.

    PYTHONPATH=. .venv/bin/python benchmarks/pass_read.py /tmp/rep/*.pickle \
        [--json benchmarks/results/pass_read.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from shooter_read import hands_of

from engine import CardSet, HandState
from engine.cards import SUIT_MASKS
from engine.moon import losers
from engine.passing import rule_of_thumb_pass
from engine.rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES
from engine.search.playout import playout_result

DECK = (1 << 52) - 1
CAPABLE = 4
"""Losers after the three best discards at most this: a hand a shooter could well run."""
KEEP_MOON = 6
"""A hand left with at most this many losers after its three best discards keeps them (passes
those discards): the value whose passes match Hard's moons here."""
KEEPS = (4, 5, 6, 7, 8)
"""``KEEP_MOON`` values tried."""
DRAWS = 4
"""Passes drawn from the fitted model for each dealt hand."""
SUITS = "♣♦♠♥"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def best_discards(hand: int, count: int, deck: int = DECK, players: int = 4) -> tuple[int, int]:
    """(losers left, the cards discarded) when ``hand`` gives away ``count`` cards the way a
    shooter would: each time the card whose loss leaves the fewest losers (``engine.moon.losers``,
    against every card of ``deck`` it does not hold), the lowest-ranked such card."""
    discarded = 0
    for _ in range(count):
        best, fewest = -1, 1 << 30
        for card in range(52):
            if hand >> card & 1:
                rest = hand & ~(1 << card)
                left = losers(rest, deck & ~rest, players)
                if left < fewest or (left == fewest and card % 13 < best % 13):
                    best, fewest = card, left
        hand &= ~(1 << best)
        discarded |= 1 << best
    return losers(hand, deck & ~hand, players), discarded


def keeping_pass(hand: int, count: int, keep: int = KEEP_MOON) -> int:
    """The rule of thumb, except that a hand left with at most ``keep`` losers after its best
    discards passes those discards (it keeps a hand that can run for the moon)."""
    left, discarded = best_discards(hand, count)
    return discarded if left <= keep else rule_of_thumb_pass(hand, count)


FEATURES = 20


def card_features(hand: int) -> tuple[list[int], np.ndarray]:
    """Each card of ``hand`` and its features for the card-choice model."""
    cards = [card for card in range(52) if hand >> card & 1]
    length = [(hand & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    spades = length[2]
    high_hearts = sum(1 for card in cards if card >= 48)
    aces = sum(1 for card in cards if card % 13 == 12)
    rows = []
    for card in cards:
        suit, rank = divmod(card, 13)
        x = rank / 12
        f = [0.0] * FEATURES
        if suit < 2:
            f[suit], f[2 + suit], f[4 + suit] = 1.0, x, x * x
            f[14], f[15] = float(length[suit] <= 3), length[suit] / 13
            if rank == 12:
                f[19] = high_hearts / 4
        elif suit == 3:
            f[6], f[7], f[8] = 1.0, x, x * x
            f[16], f[17], f[18] = x * length[3] / 13, x * high_hearts / 4, x * aces / 4
        elif card == QUEEN_OF_SPADES:
            f[9], f[10] = 1.0, float(spades <= 4)
        elif card in (KING_OF_SPADES, ACE_OF_SPADES):
            guarded = spades >= 5 or (hand >> QUEEN_OF_SPADES & 1 and spades >= 4)
            f[11], f[12] = 1.0, float(guarded)
            if card == ACE_OF_SPADES:
                f[19] = high_hearts / 4
        else:
            f[13] = x
        rows.append(f)
    return cards, np.array(rows)


_ORDERS = list(itertools.permutations(range(3)))


def log_likelihood(weights: np.ndarray, passes: list) -> tuple[float, np.ndarray]:
    """Of the passed sets (Plackett-Luce, summed over the orders a set can be drawn in), and its
    gradient."""
    total, gradient = 0.0, np.zeros(FEATURES)
    for features, chosen in passes:
        utility = features @ weights
        logs, grads = [], []
        for order in _ORDERS:
            left = np.ones(len(utility), bool)
            log, grad = 0.0, np.zeros(FEATURES)
            for k in (chosen[i] for i in order):
                top = utility[left].max()
                odds = np.exp(utility[left] - top)
                log += utility[k] - top - math.log(odds.sum())
                grad += features[k] - (odds / odds.sum()) @ features[left]
                left[k] = False
            logs.append(log)
            grads.append(grad)
        logs_array = np.array(logs)
        top = logs_array.max()
        share = np.exp(logs_array - top)
        total += top + math.log(share.sum())
        gradient += (share / share.sum()) @ np.array(grads)
    return total, gradient


def fit(passes: list, steps: int = 200) -> np.ndarray:
    weights = np.zeros(FEATURES)
    for _ in range(steps):
        _, gradient = log_likelihood(weights, passes)
        weights += 0.5 * gradient / len(passes) - 0.001 * weights
    return weights


def drawn_pass(hand: int, count: int, weights: np.ndarray, rng: random.Random) -> int:
    """A pass drawn from the fitted model (the Gumbel top ``count``)."""
    cards, features = card_features(hand)
    utility = features @ weights
    keys = [utility[i] - math.log(-math.log(rng.random() or 1e-300)) for i in range(len(cards))]
    mask = 0
    for i in sorted(range(len(cards)), key=lambda i: -keys[i])[:count]:
        mask |= 1 << cards[i]
    return mask


def passed_state(dealt: HandState, chooser) -> HandState:
    """``dealt`` after every seat passes ``chooser(seat, hand)``."""
    state = dealt.copy()
    for seat in range(state.players):
        state.pass_cards(seat, CardSet(chooser(seat, state.hand(seat).mask)))
    return state


def read(paths: list[str]) -> dict:
    hands = []  # (hand name, dealt state, {seat: Hard's pass mask})
    for name, rows in hands_of(paths):
        passes = [row for row in rows if row["kind"] == "pass"]
        if len(passes) == 4:
            dealt = max(passes, key=lambda row: len(row["state"].seats_to_pass))["state"].copy()
            hands.append((name, dealt, {row["seat"]: row["choice"].mask for row in passes}))
    rates = {(suit, rank): [0, 0, 0] for suit in range(4) for rank in range(13)}  # held, Hard, rule
    examples = []
    for name, dealt, hard in hands:
        for seat, chosen in hard.items():
            hand = dealt.hand(seat).mask
            rule = rule_of_thumb_pass(hand, dealt.rules.pass_count)
            cards, features = card_features(hand)
            examples.append((name, features, [cards.index(card) for card in range(52) if chosen >> card & 1]))
            for card in cards:
                cell = rates[divmod(card, 13)]
                cell[0] += 1
                cell[1] += chosen >> card & 1
                cell[2] += rule >> card & 1
    names = sorted({name for name, _, _ in hands})
    held_out = set(names[1::2])
    train = [(f, c) for n, f, c in examples if n not in held_out]
    test = [(f, c) for n, f, c in examples if n in held_out]
    trained = fit(train)
    weights = fit([(f, c) for _, f, c in examples])

    rng = random.Random(2026)
    count = hands[0][1].rules.pass_count
    uniform = -math.log(math.comb(len(examples[0][1]), count))  # every pass of the hand alike
    kinds = {
        "Hard": None,  # each hand's own passes
        "rule of thumb": lambda seat, hand: rule_of_thumb_pass(hand, count),
        f"keeping a hand that can run (KEEP_MOON {KEEP_MOON})": lambda seat, hand: keeping_pass(hand, count),
        "drawn from the fitted model": lambda seat, hand: drawn_pass(hand, count, weights, rng),
    }
    for keep in KEEPS:
        if keep != KEEP_MOON:
            kinds[f"keeping, with KEEP_MOON {keep}"] = lambda seat, hand, k=keep: keeping_pass(hand, count, k)
    moons = {kind: [0, 0] for kind in kinds}
    capable = {kind: [0, 0] for kind in kinds}
    for _name, dealt, hard in hands:
        for kind, chooser in kinds.items():
            draws = DRAWS if kind == "drawn from the fitted model" else 1
            for _ in range(draws):
                state = passed_state(dealt, chooser or (lambda seat, hand, h=hard: h[seat]))
                for seat in range(state.players):
                    capable[kind][0] += best_discards(state.hand(seat).mask, count)[0] <= CAPABLE
                    capable[kind][1] += 1
                moons[kind][0] += playout_result(state, None).shooter is not None
                moons[kind][1] += 1
    return {
        "hands": len(hands),
        "passes": len(examples),
        "pass_rates": [
            {
                "card": RANKS[rank] + SUITS[suit],
                "held": cell[0],
                "hard": round(cell[1] / cell[0], 3) if cell[0] else None,
                "rule_of_thumb": round(cell[2] / cell[0], 3) if cell[0] else None,
            }
            for (suit, rank), cell in rates.items()
        ],
        "capable_after_pass": {kind: round(a / b, 4) for kind, (a, b) in capable.items()},
        "policy_moons_per_hand": {
            kind: {"moons": a, "hands": b, "rate": round(a / b, 4)} for kind, (a, b) in moons.items()
        },
        "fitted_model": {
            "weights": [round(float(w), 3) for w in weights],
            "held_out_log_likelihood_per_pass": round(
                log_likelihood(trained, test)[0] / max(len(test), 1), 3
            ),
            "training_log_likelihood_per_pass": round(
                log_likelihood(trained, train)[0] / max(len(train), 1), 3
            ),
            "uniform_log_likelihood_per_pass": round(uniform, 3),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pickles", nargs="+")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    start = time.perf_counter()
    found = read(args.pickles)
    found["seconds"] = round(time.perf_counter() - start, 1)
    print(f"{found['hands']} hands with a pass, {found['passes']} passes")
    print("\npass rate by card, Hard / rule of thumb:")
    for suit in SUITS:
        cells = [row for row in found["pass_rates"] if row["card"].endswith(suit)]
        print(
            "  " + "  ".join(f"{row['card']} {row['hard']:.2f}/{row['rule_of_thumb']:.2f}" for row in cells)
        )
    print(f"\nhands a shooter could run after the pass (losers after three best discards <= {CAPABLE}):")
    for kind, share in found["capable_after_pass"].items():
        print(f"  {kind:42s} {share:.1%}")
    print("\nthe policy at every seat shoots, per hand, after:")
    for kind, row in found["policy_moons_per_hand"].items():
        print(f"  {kind:42s} {row['moons']:4d} of {row['hands']:5d}  {row['rate']:.1%}")
    model = found["fitted_model"]
    held_out, training = model["held_out_log_likelihood_per_pass"], model["training_log_likelihood_per_pass"]
    print(
        f"\nfitted card-choice model, log-likelihood a pass: held out {held_out}"
        f" (training {training}, uniform {model['uniform_log_likelihood_per_pass']})"
    )
    print(f"{found['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
