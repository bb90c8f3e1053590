"""The rules kernel (``engine.kernel``) and every compiled twin in the engine.

Every twin of the kernel (``engine.kernel_compiled.TWINS``) plays against its reference on many
random positions. Every numba function of the engine that names a reference in its docstring is
a twin: ``PAIRED`` says which test holds it to its reference, and a twin missing from it (a new
one, or one renamed) fails ``test_every_compiled_twin_is_held_to_its_reference_by_a_test``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

import engine  # noqa: E402
from engine import HandState, PassDirection, kernel  # noqa: E402
from engine import kernel_compiled as twins  # noqa: E402
from engine.rules import PRESETS  # noqa: E402

CASES = 3000

# The test holding each compiled twin to its reference, by "module.function" (the last part of
# the module's name, so that moving a module between packages does not orphan its twins).
_POLICY = "test_batch.py::test_batch_heuristic_playout_matches_the_engine_and_the_scalar_policy"
_WORLDS = "test_sampling.py::test_the_compiled_sampler_draws_the_very_worlds_of_the_reference"
_THUMB = "test_sampling.py::test_the_compiled_rule_of_thumb_pass_matches_the_reference_on_many_hands"
_PASS_DEALS = "test_sampling.py::test_the_compiled_pass_deals_and_the_others_passes_match_the_reference"
_EXCHANGE = "test_kernel.py::test_the_compiled_exchange_of_candidate_passes_matches_the_reference"
_READ = "test_inference.py::test_the_compiled_count_agrees_with_the_reference_and_weights_fall_with_losers"
_SOLVER = "test_compiled_solver.py::test_played_positions_match_the_reference"
_KERNEL = "test_kernel.py::test_every_kernel_twin_matches_its_reference"
_ROWS = "test_kernel.py::test_the_batch_rows_apply_the_kernel_game_by_game"
PAIRED = {
    "compiled._has_loser": _POLICY,
    "compiled._queen_lead": "test_policy_queen_lead.py::test_the_compiled_queen_lead_matches_the_reference",
    "compiled._choose": _POLICY,
    "compiled._candidate": _POLICY,
    "compiled.run_policy": _POLICY,
    "compiled._next_u64": _WORLDS,
    "compiled._world_seed": _WORLDS,
    "compiled._quick_deal": _WORLDS,
    "compiled.quick_worlds": _WORLDS,
    "compiled._card_danger": _THUMB,
    "compiled._rule_of_thumb_pass": _THUMB,
    "compiled.deal_pass_blocks": _PASS_DEALS,
    "compiled.hands_after_passes": _EXCHANGE,
    "compiled.runner_mismatches": _READ,
    "compiled_solver._enter": _SOLVER,
    "compiled_solver._solve": _SOLVER,
    **{f"kernel_compiled.{name}": _KERNEL for name in twins.TWINS},
    "kernel_compiled.legal_rows": _ROWS,
}

_REFERENCE = re.compile(r"``engine\.[\w.]+")


def compiled_twins() -> dict[str, object]:
    """Every numba function defined in the engine whose docstring names an ``engine.`` reference."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for module_info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            own = isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
            if own and _REFERENCE.search(value.py_func.__doc__ or ""):
                found[f"{module.__name__.rsplit('.', 1)[-1]}.{name}"] = value
    return found


def test_every_compiled_twin_is_held_to_its_reference_by_a_test():
    found = compiled_twins()
    unpaired = sorted(set(found) - set(PAIRED))
    assert not unpaired, f"compiled twins no test holds to their reference (add them to PAIRED): {unpaired}"
    gone = sorted(set(PAIRED) - set(found))
    assert not gone, f"PAIRED names twins the engine no longer has: {gone}"
    here = Path(__file__).parent
    for twin, where in PAIRED.items():
        path, test = where.split("::")
        source = (here / path).read_text()
        assert re.search(rf"^def {test}\(", source, re.M), f"{twin}: {where} is not a test"


def test_every_kernel_twin_is_registered_beside_its_reference():
    assert set(twins.TWINS) == set(CHECKS)
    for name, (twin, reference) in twins.TWINS.items():
        assert reference is getattr(kernel, name)
        assert _REFERENCE.search(twin.py_func.__doc__).group(0) == f"``engine.kernel.{name}"


# ----- random positions for each kernel function -----


def _hand(rng: random.Random) -> int:
    return sum(1 << card for card in rng.sample(range(52), rng.randrange(0, 14)))


def _rule_options(rng: random.Random) -> kernel.PlayRules:
    return rng.choice(list(PRESETS.values())).play_rules


def check_legal_mask(twin, reference, rng):
    for _ in range(CASES):
        hand = _hand(rng)
        if rng.random() < 0.3:  # only hearts, with or without the Q♠
            hand = (hand & kernel.HEARTS) | (kernel.QUEEN_BIT if rng.random() < 0.5 else 0)
        args = (hand, rng.randrange(-1, 4), rng.random() < 0.3, rng.random() < 0.5)
        rules = _rule_options(rng)
        assert twin(*args, tuple(rules)) == reference(*args, rules), (args, rules)


def check_breaks_hearts(twin, reference, rng):
    for card in range(52):
        for queen_breaks in (False, True):
            assert twin(1 << card, queen_breaks) == reference(1 << card, queen_breaks), card
    for _ in range(CASES):
        args = (_hand(rng), rng.random() < 0.5)
        assert twin(*args) == reference(*args), args


def check_trick_winner(twin, reference, rng):
    for _ in range(CASES):
        players = rng.randrange(3, 7)
        trick = rng.sample(range(52), players)
        leader = rng.randrange(players)
        expected = reference(trick, leader, players)
        assert twin(np.array(trick, dtype=np.int64), leader, players) == expected, (trick, leader)


def check_trick_taker(twin, reference, rng):
    for _ in range(CASES):
        length = rng.randrange(1, 8)
        trick = rng.sample(range(52), length)
        padded = np.array(trick + rng.sample(range(52), 8 - length), dtype=np.int64)  # cards past the trick
        assert twin(padded, length) == reference(trick), trick


def check_exchange(twin, reference, rng):
    for _ in range(CASES):
        players = rng.randrange(3, 7)
        cards = rng.sample(range(52), players * 5)
        hands = [sum(1 << c for c in cards[seat * 5 : seat * 5 + 5]) for seat in range(players)]
        passes = [sum(1 << c for c in cards[seat * 5 : seat * 5 + 2]) for seat in range(players)]
        offset = rng.randrange(1, players)
        after = twin(np.array(hands, dtype=np.int64), np.array(passes, dtype=np.int64), offset)
        assert list(after) == reference(hands, passes, offset)


def check_first_leader(twin, reference, rng):
    for _ in range(CASES):
        players = rng.randrange(3, 7)
        cards = rng.sample(range(52), 52)
        hands = [sum(1 << c for c in cards[seat::players]) for seat in range(players)]
        lowest = rng.randrange(3)
        assert twin(np.array(hands, dtype=np.int64), lowest) == reference(hands, lowest)


CHECKS = {
    "legal_mask": check_legal_mask,
    "breaks_hearts": check_breaks_hearts,
    "trick_winner": check_trick_winner,
    "trick_taker": check_trick_taker,
    "exchange": check_exchange,
    "first_leader": check_first_leader,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_kernel_twin_matches_its_reference(name):
    twin, reference = twins.TWINS[name]
    CHECKS[name](twin, reference, random.Random(name))


def test_the_batch_rows_apply_the_kernel_game_by_game():
    rng = random.Random(7)
    for _ in range(50):
        size = 40
        hands = np.array([_hand(rng) for _ in range(size)], dtype=np.int64)
        led = np.array([rng.randrange(-1, 4) for _ in range(size)], dtype=np.int64)
        broken = np.array([rng.random() < 0.5 for _ in range(size)])
        first = rng.random() < 0.3
        rules = _rule_options(rng)
        legal = twins.legal_rows(hands, led, first, broken, tuple(rules))
        for row in range(size):
            expected = kernel.legal_mask(int(hands[row]), int(led[row]), first, bool(broken[row]), rules)
            assert legal[row] == expected
        cards = np.array([rng.randrange(52) for _ in range(size)], dtype=np.int64)
        queen_breaks = rng.random() < 0.5
        now = twins.broken_rows(broken, cards, queen_breaks)
        for row in range(size):
            expected = bool(broken[row]) or kernel.breaks_hearts(1 << int(cards[row]), queen_breaks)
            assert now[row] == expected
        players = rng.randrange(3, 7)
        tricks = np.array([rng.sample(range(52), players) for _ in range(size)], dtype=np.int64)
        leaders = np.array([rng.randrange(players) for _ in range(size)], dtype=np.int64)
        winners, masks = twins.winner_rows(tricks, leaders, players)
        for row in range(size):
            expected = kernel.trick_winner([int(c) for c in tricks[row]], int(leaders[row]), players)
            assert (winners[row], masks[row]) == expected


def test_the_compiled_exchange_of_candidate_passes_matches_the_reference():
    from engine.search.compiled import hands_after_passes
    from engine.search.outcomes import hands_after_pass, pass_deals

    for seed in range(12):
        rules = list(PRESETS.values())[seed % len(PRESETS)]
        directions = [d for d in rules.pass_cycle if d is not PassDirection.HOLD]
        if not directions:
            continue
        state = HandState.from_seed(seed, rules, directions[seed % len(directions)])
        view = state.view(seed % rules.players)
        hands, passes = pass_deals(view, seed, 8, "python")
        own = sorted(view.hand)
        candidates = [
            sum(1 << card for card in random.Random(k).sample(own, rules.pass_count)) for k in range(5)
        ]
        after, leader = hands_after_passes(
            np.array(hands, dtype=np.int64),
            np.array(passes, dtype=np.int64),
            np.array(candidates, dtype=np.int64),
            view.seat,
            view.pass_direction.offset(view.players),
            int(rules.lowest_club),
        )
        for k, candidate in enumerate(candidates):
            for deal in range(len(hands)):
                expected_after, expected_leader = hands_after_pass(view, candidate, hands[deal], passes[deal])
                row = k * len(hands) + deal
                assert list(after[row]) == expected_after, (seed, k, deal)
                assert leader[row] == expected_leader, (seed, k, deal)


def test_the_kernel_imports_nothing_of_the_engine():
    """Anything may import the kernel: it stands below every other module."""
    source = inspect.getsource(kernel)
    assert not re.search(r"^\s*(from|import) (\.|engine)", source, re.M)
