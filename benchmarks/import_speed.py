"""How long ``hearts-trainer import-progress`` takes on a large download.

A valid progress file is made with ``--decisions`` graded decisions (positions from real hands
played by easy bots, dealt from seeds as the site keeps them) in finished games of ten hands,
each game's decisions kept at one time as a review keeps them (``--one-time``: every decision a
lesson's, of no game, at the same second: the worst case for a duplicate check that searches by
time or by game). It is imported into an empty progress file, then again into the same one
(every row then already there: the duplicate check on every row). Reported: the file's size,
and the seconds of each import and of reading and checking the file alone (``read_progress``),
each as wall-clock and as this process's CPU time (which a busy machine does not inflate), and
the load average when done.

    PYTHONPATH=. .venv/bin/python benchmarks/import_speed.py [--decisions 120000] [--one-time] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from engine import HandState, Phase, Rules, hand_to_record
from engine.bots import make_bot
from trainer.progress.decisions import phase_of
from trainer.progress.games import game_record
from trainer.progress.transfer import FORMAT, VERSION, import_progress, read_progress
from trainer.store import MIGRATIONS, Store

HANDS_PER_GAME = 10


def _played_hand(seed: int) -> tuple[HandState, list[tuple[str, dict, str]]]:
    """A hand from ``seed`` played by easy bots, with seat 0's decisions (kind, position, choice)."""
    state = HandState.from_seed(seed, Rules())
    bots = [make_bot("easy", seed + seat) for seat in range(4)]
    mine = []
    while not state.is_over:
        if state.phase is Phase.PASSING:
            seat = state.seats_to_pass[0]
            choice = bots[seat].choose_pass(state.view(seat))
            if seat == 0:
                mine.append(("pass", hand_to_record(state), " ".join(choice.codes)))
            state.pass_cards(seat, choice)
        elif state.phase is Phase.MOON_CHOICE:
            seat = state.to_move
            state.choose_moon(bots[seat].choose_moon(state.view(seat)), seat)
        else:
            seat = state.to_move
            card = bots[seat].choose_play(state.view(seat))
            if seat == 0:
                mine.append(("play", hand_to_record(state), card.code))
            state.play(card)
    return state, mine


def progress_file(decisions: int, one_time: bool = False) -> dict:
    """A download holding ``decisions`` graded decisions of ceil(decisions / 140) games; with
    ``one_time`` every decision is a lesson's, of no game, kept at the same second."""
    hands = [_played_hand(seed) for seed in range(HANDS_PER_GAME)]  # every game replays these hands
    record = json.dumps(game_record([hand for hand, _ in hands], 0, {1: "easy", 2: "easy", 3: "easy"}))
    totals = json.dumps([sum(hand.result.scores[s] for hand, _ in hands) for s in range(4)])
    games, rows = [], []
    game = 0
    while len(rows) < decisions:
        game += 1
        at = f"2026-{1 + game // 28 % 12:02d}-{1 + game % 28:02d}T{game % 24:02d}:00:00"
        at = "2026-12-06T10:00:00" if one_time else at
        games.append({"id": game, "key": f"g{game}", "seat": 0, "opponents": json.dumps({"1": "easy"}),
                      "record": record, "totals": totals, "finished_at": at})  # fmt: skip
        for index, (_, mine) in enumerate(hands):
            for kind, position, choice in mine[: decisions - len(rows)]:
                trick = 0 if kind == "pass" else len([a for a in position["actions"] if "play" in a]) // 4 + 1
                link = {"source": "game", "ref": "", "game_id": game, "hand_index": index}
                if one_time:  # a lesson's, of no game
                    link = {"source": "lesson", "ref": f"l09/{game}", "game_id": None, "hand_index": None}
                rows.append({
                    **link, "kind": kind,
                    "seat": 0, "position": json.dumps(position, separators=(",", ":")), "choice": choice,
                    "best": choice, "loss": 0.25, "loss_error": 0.1, "band": "good",
                    "themes": json.dumps(["ducking"]), "phase": phase_of(kind, trick),
                    "pass_direction": position["pass_direction"], "trick": trick, "at": at,
                })  # fmt: skip
    empty = (
        "lesson_progress",
        "lesson_steps",
        "puzzle_learner",
        "puzzle_records",
        "puzzle_attempts",
        "table_games",
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": len(MIGRATIONS),
        "exported_at": "2026-12-06T10:00:00",
        "tables": {**{table: [] for table in empty}, "games": games, "decisions": rows},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=120_000)
    parser.add_argument("--one-time", action="store_true", help="every decision kept at one second")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "hearts-trainer-progress.json"
        saved.write_text(json.dumps(progress_file(args.decisions, args.one_time), indent=1), encoding="utf-8")
        store = Store(Path(folder) / "progress.sqlite3")
        timed = {}
        for name, work in (
            ("read_and_check", lambda: read_progress(saved, store)),
            ("import_into_empty", lambda: import_progress(store, saved)),
            ("import_again", lambda: import_progress(store, saved)),
        ):
            started, cpu = time.perf_counter(), time.process_time()
            timed[name] = work()
            timed[f"{name}_s"] = round(time.perf_counter() - started, 2)
            timed[f"{name}_cpu_s"] = round(time.process_time() - cpu, 2)  # the same on a busy machine
        added = timed["import_into_empty"]
        figures = {
            "decisions": args.decisions,
            "one_time": args.one_time,
            "games": added["games"],
            "file_mb": round(saved.stat().st_size / 1e6, 1),
            **{name: value for name, value in timed.items() if name.endswith("_s")},
            "decisions_added": added["decisions"],
            "added_again": sum(timed["import_again"].values()),
            "load_average": round(os.getloadavg()[0], 1),
        }
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
