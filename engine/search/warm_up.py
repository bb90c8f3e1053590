"""Compile the numba play-outs once and keep them in numba's cache (``engine/search/__pycache__``), so
the first verdict a learner asks for does not wait half a minute for the compiler.

    .venv/bin/python -m engine.search.warm_up      # scripts/setup.sh runs it; quick once cached

It evaluates a pass, a play with a moon runner being read, a plain play and a late play solved
exactly, with a few deals each: every compiled function runs at least once.
"""

from __future__ import annotations

import random
import time

from ..hand import HandState, Phase
from ..rules import Rules
from .budget import PassBudget, PlayBudget
from .evaluator import evaluate_pass, evaluate_play
from .inference import runner_plays
from .outcomes import HAVE_COMPILED, PlayWorlds

__all__ = ["warm_up"]


def _runner_position(seed: int) -> HandState | None:
    """A play decision with a moon runner whose plays are read (``engine.search.inference``)."""
    state = HandState.from_seed(seed, Rules(), "hold")
    rng = random.Random(seed)  # random legal cards, as the easy bot plays (search imports no bot)
    while not state.is_over:
        view = state.view(state.to_move)
        legal = view.legal_cards
        if len(legal) > 1 and runner_plays(view) is not None:
            return state
        state.play(legal[rng.randrange(len(legal))])
    return None


def warm_up() -> float:
    """Seconds it took (about a second once the cache exists)."""
    start = time.perf_counter()
    if not HAVE_COMPILED:
        return 0.0
    passing = HandState.from_seed(1, Rules(), "left")
    evaluate_pass(passing.view(0), PassBudget(samples=8, stages=((4, 2),)), vectorized=True)
    playing = HandState.from_seed(1, Rules(), "hold")
    evaluate_play(playing.view(playing.to_move), PlayBudget(samples=8), vectorized=True)
    # The exact solver's twin (``engine.search.compiled_solver``): a late play solved on a few deals.
    late = HandState.from_seed(2, Rules(), "hold")
    while late.phase is Phase.PLAYING and len(late.hand(late.to_move)) > 3:
        late.play(late.legal_cards()[0])
    evaluate_play(late.view(late.to_move), PlayBudget(samples=4, exact_cards=3))
    for seed in range(200):
        state = _runner_position(seed)
        if state is not None and state.phase is Phase.PLAYING:
            view = state.view(state.to_move)
            evaluate_play(view, PlayBudget(samples=8, exact_cards=0), vectorized=True)
            source = PlayWorlds(view, seed, "compiled")
            source.evidence(source.next(2))  # the mismatch count (benchmarks/runner_read.py)
            break
    return time.perf_counter() - start


if __name__ == "__main__":
    seconds = warm_up()
    print(f"play-outs compiled and cached ({seconds:.1f} s)" if HAVE_COMPILED else "numba is not installed")
