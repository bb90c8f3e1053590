"""Real positions for the analysis board's tests: hands played by bots, and each seat's view at each
of its decisions, with the view as the learner's board shows it (seats counted from that seat)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from engine import HandState, Phase, PlayerView
from engine import Trick as EngineTrick
from engine.bots import bot_acts, make_bot
from engine.rules import PRESETS


def decisions(preset: str, seeds: range, level: str = "easy") -> Iterator[PlayerView]:
    """Every decision's view (each pass, each play) of hands played by bots, every pass direction."""
    rules = PRESETS[preset]
    for seed in seeds:
        direction = rules.pass_cycle[seed % len(rules.pass_cycle)]
        state = HandState.from_seed(1000 + seed, rules, direction)
        bots = [make_bot(level, seed * 10 + seat) for seat in range(rules.players)]
        scores = tuple((seed * 7 + 3 * seat) % 60 for seat in range(rules.players))
        while not state.is_over:
            seat = state.seat_to_act
            view = state.view(seat, scores=scores, hand_index=seed)
            if (state.phase is Phase.PASSING and view.passed is None) or state.phase is Phase.PLAYING:
                yield view
            bot_acts(state, seat, bots[seat])


def from_learner(view: PlayerView) -> PlayerView:
    """The view with seats renumbered from its seat (the board's numbering), hand 0 of a game."""
    n, seat = view.players, view.seat

    def moved(other: int | None) -> int | None:
        return None if other is None else (other - seat) % n

    def turned(values: tuple) -> tuple:
        return tuple(values[(seat + i) % n] for i in range(n))

    def trick(old: EngineTrick) -> EngineTrick:
        return EngineTrick(moved(old.leader) if old.leader >= 0 else old.leader, old.cards, n)

    return dataclasses.replace(
        view,
        seat=0,
        passed_to=moved(view.passed_to),
        received_from=moved(view.received_from),
        tricks=tuple(trick(old) for old in view.tricks),
        current_trick=trick(view.current_trick),
        to_move=moved(view.to_move),
        points_taken=turned(view.points_taken),
        tricks_won=turned(view.tricks_won),
        hand_sizes=turned(view.hand_sizes),
        scores=turned(view.scores),
        hand_index=0,
    )
