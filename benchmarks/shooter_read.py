"""Who shoots the moon, and from what hand: Hard x4 against the play-out policy on the same deals.

The calibration (``coach_calibration.py``) finds the evaluator expecting far fewer moons from the
other seats than Hard x4 makes, most of all at the pass. Its "policy, true deal" column says how
much of that gap is the imagined players' play and how much the imagined deals; this script says
which hands the gap is made of. For every hand of some ``--save`` pickles of
``coach_calibration.py`` and every seat of it:

- the seat's hand after the pass, counted as the policy counts a shooter's hand
  (``engine.moon.losers`` against every other card) and by hearts held;
- whether Hard shot from it in the game's own play (Hard at every seat, passes included);
- whether the play-out policy at every seat shoots from the same hands after Hard's passes
  (the play alone differs), and from the dealt hands after the passes the evaluator imagines
  for the other seats (``coach_calibration.pass_as_imagined``: passes and play differ).

    PYTHONPATH=. .venv/bin/python benchmarks/shooter_read.py /tmp/cal990096.pickle [...] \
        [--json benchmarks/results/shooter_read.json]
"""

from __future__ import annotations

import argparse
import collections
import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from coach_calibration import pass_as_imagined

from engine import HandState
from engine.cards import HEARTS_MASK
from engine.moon import losers
from engine.search.playout import playout_result

LOSER_GROUPS = ((0, 0), (1, 1), (2, 2), (3, 4), (5, 7), (8, 13))


def hands_of(paths: list[str]) -> list[tuple[str, list[dict]]]:
    """Each hand's decisions, from the pickles: (run and hand, its rows)."""
    hands: dict[tuple[str, int], list[dict]] = collections.defaultdict(list)
    for path in paths:
        for row in pickle.loads(Path(path).read_bytes())["rows"]:
            hands[(Path(path).name, row["hand"])].append(row)
    return [(f"{run} hand {hand}", rows) for (run, hand), rows in sorted(hands.items())]


def after_the_pass(rows: list[dict]) -> HandState | None:
    """The hand's state when the play begins (Hard's passes made), or None without a play row."""
    plays = [row for row in rows if row["kind"] == "play"]
    if not plays:
        return None
    state = min(plays, key=lambda row: row["state"].cards_played)["state"].copy()
    state.take_back(state.cards_played)
    return state


def imagined_passes(state: HandState) -> HandState:
    """The dealt hands again, passed as the evaluator imagines every seat passing."""
    dealt = [state.dealt_hand(seat) for seat in range(state.players)]
    again = HandState.from_deal(dealt, state.rules, state.pass_direction)
    pass_as_imagined(again)
    return again


def read(paths: list[str]) -> dict:
    seats = collections.Counter()
    hard = collections.Counter()
    policy = collections.Counter()
    policy_own_passes = collections.Counter()
    shooters = []
    hands = 0
    for name, rows in hands_of(paths):
        state = after_the_pass(rows)
        if state is None:
            continue
        hands += 1
        hard_shooter = rows[0]["outcomes"][0][1]
        policy_shooter = playout_result(state.copy(), None).shooter
        imagined_shooter = playout_result(imagined_passes(state), None).shooter
        deck = state.rules.deck_mask
        for seat in range(state.players):
            hand = state.hand(seat).mask
            count = losers(hand, deck & ~hand, state.players)
            group = next(g for g in LOSER_GROUPS if g[0] <= count <= g[1])
            seats[group] += 1
            hard[group] += hard_shooter == seat
            policy[group] += policy_shooter == seat
            policy_own_passes[group] += imagined_shooter == seat
            if hard_shooter == seat or policy_shooter == seat:
                shooters.append(
                    {
                        "hand": name,
                        "seat": seat,
                        "cards": str(state.hand(seat)),
                        "losers": count,
                        "hearts": (hand & HEARTS_MASK).bit_count(),
                        "hard": hard_shooter == seat,
                        "policy": policy_shooter == seat,
                        "policy_imagined_passes": imagined_shooter == seat,
                    }
                )
    table = [
        {
            "losers": f"{low}" if low == high else f"{low}-{high}",
            "seats": seats[(low, high)],
            "hard_moons": hard[(low, high)],
            "policy_moons": policy[(low, high)],
            "policy_moons_imagined_passes": policy_own_passes[(low, high)],
        }
        for low, high in LOSER_GROUPS
    ]
    return {
        "pickles": [Path(path).name for path in paths],
        "hands": hands,
        "by_losers": table,
        "shooters": shooters,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pickles", nargs="+")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    report = read(args.pickles)
    print(f"{report['hands']} hands, every seat's hand after the pass")
    print(f"{'losers':>7} {'seats':>6} {'Hard x4':>14} {'policy x4':>14} {'policy, imagined passes':>24}")
    for row in report["by_losers"]:
        n = row["seats"] or 1
        print(
            f"{row['losers']:>7} {row['seats']:6d} {row['hard_moons']:5d} {row['hard_moons'] / n:7.1%}"
            f" {row['policy_moons']:5d} {row['policy_moons'] / n:7.1%}"
            f" {row['policy_moons_imagined_passes']:14d} {row['policy_moons_imagined_passes'] / n:8.1%}"
        )
    for shooter in report["shooters"]:
        marks = "".join(k[0] for k in ("hard", "policy") if shooter[k])
        counts = f"{shooter['losers']:2d} losers {shooter['hearts']:2d} hearts"
        print(f"  {marks:3} {counts}  {shooter['cards']}  ({shooter['hand']})")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
