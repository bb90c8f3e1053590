"""Is the evaluator calibrated? Its predictions against what strong players actually produce.

1. Hard plays all four seats of ``--hands`` seeded hands (passing left, right, across, hold in
   turn); every decision is kept with the position before it and the option Hard chose.
2. For each decision the evaluator, from the deciding seat's view only and with its own seed,
   predicts the outcome of the chosen option: every seat's chance of shooting the moon and every
   seat's expected points for the hand. The prediction is the option's forecast
   (``engine.search.calibration``) where the evaluator gives one, and the play-outs' own figures are
   kept beside it (``raw_moon``, ``raw_points``: ``fit_calibration.py`` fits the map on them);
   positions to continue (3.) are chosen by the play-outs' figures.
3. What happened: the game's own continuation, and for positions where some seat's predicted
   moon chance is at least ``--moon-floor`` (at most ``--per-hand`` of them a hand, chosen at
   random, and a random share of the rest) ``--continuations`` more continuations from the true
   deal, Hard at every seat with fresh seeds. They add little: Hard x4 from the true deal nearly
   always ends the same way (in the 35-65% bucket: the sampling variance of a position's mean of
   five outcomes 0.001, the variance of positions' moon rates about their predictions 0.21; only
   more hands narrow the error), so runs since 2026-12-04 keep only the game's own
   (``--per-hand 0 --others 0``: 2 minutes a run of 24 hands instead of 5-8).
4. Tables by predicted bucket: the moon chance per (position, seat) and the expected points per
   (position, seat), predicted against realised, each pair counted once (by the mean of its
   outcomes: which positions were continued depends on how the hand went on, at most
   ``--per-hand`` of a hand's moon positions, so counting each outcome weighed calm hands'
   positions up; found 2026-12-04, the map fitted that way forecast too few moons), with
   standard errors: binomial, and clustered by hand (a hand's positions share its cards and its
   game's own outcome); the verdict uses the larger. Beside the moon chance: how often the
   play-out policy at every seat shoots on the true deal after the option. The prediction is
   that policy on imagined deals, so a gap between the prediction and this column comes from the
   imagined deals (what the seat cannot see), and a gap between this column and Hard's from how
   the policy plays.

Phases 1 and 3 do not depend on the evaluator, so ``--save`` keeps their outcomes and ``--load``
predicts them again with other play-out blockers (``--blocking RUN,GUARD,CHEAP``): that is how
the blockers of ``engine.moon`` are chosen. Report figures from hands not used to choose them.
``--load`` takes several runs (pooled) and, with ``--save``, keeps them as predicted again (the
pickle names the model that played them, ``played_by``: such a run is kept, ``--saved --keep``,
only under that model).

The standard errors shrink only with more hands, and a run of 60 hands takes most of an hour on
two cores. So ``--keep`` files a run's predictions and outcomes (no positions: a small gzip of
JSON) under ``benchmarks/results/calibration/<model>/``, where ``<model>`` is a fingerprint of what
the engine does (``model_fingerprint``: a probe of seeded Hard x4 hands and the play-outs' own
predictions, the prediction budget and the blockers), and ``--pool`` reports over every kept run
of the model in use, each hand counted once. Runs kept under another model are listed and left
out: a change to what the engine plays or predicts starts the count again, a faster path to the
same numbers does not. The map is not part of the model: each kept row holds the play-outs' own
figures and its position as the map reads it (``where``), and ``--pool`` forecasts them again
with today's map, leaving out the hands it was fitted on (``engine.search.calibration_map.FITTED_HANDS``):
a map fitted again keeps the count going, and its test is the hands kept after it. (Folders named
by 16 hex digits were fingerprinted by the engine's code, before 2026-12-04; those starting with
"b", by a probe that held the forecasts too; with "r", by today's probe.)

The points tables also split each expected score in two: what other seats' moons add (26 to
every seat but the shooter) and the points taken in hands without a moon. A gap in the first
is a moon gap; a gap in the second is how the play goes.

    .venv/bin/python -m benchmarks.coach_calibration [--hands 24] [--workers 2]
        [--continuations 8] [--per-hand 3] [--save rows.pickle | --load rows.pickle ...]
        [--keep] [--pool] [--replay KEPT --save rows.pickle] [--refile MODEL COMMIT]
        [--json benchmarks/results/coach_calibration.json]

``--hands 0 --pool`` only reports over the kept runs. ``--replay KEPT --save rows.pickle`` rebuilds a
kept run's positions by replaying its Hard games (seeded, with budgets in deals: the same games),
so a model under test can ``--load`` every kept hand with its Hard outcomes, without phase 3; it
also writes ``where`` into the kept rows that lack it (runs kept before it was kept).
``fit_calibration.py`` fits the map on kept runs directly.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import functools
import gzip
import hashlib
import inspect
import json
import math
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from engine import CardSet, HandState, PassAction, Phase, PlayAction, Rules
from engine.bots import bot_action
from engine.bots.hard import HardBot, pass_budget
from engine.moon import BLOCKERS, Blocking
from engine.passing import rule_of_thumb_pass
from engine.search import calibration_map
from engine.search.budget import PassBudget, PlayBudget
from engine.search.calibration import Calibration, Situation, situation
from engine.search.evaluator import EXACT_CARDS, evaluate_pass, evaluate_play
from engine.search.playout import playout_result

FIRST_SEED = 910_000
MOON_BUCKETS = (0.0, 0.005, 0.02, 0.05, 0.15, 0.35, 0.65, 1.0001)
POINT_BUCKETS = (-26.0, 1.0, 3.0, 6.0, 10.0, 52.0)
PREDICTION = {"play": 1024, "pass": 1024}
KEPT = Path(__file__).resolve().parent / "results" / "calibration"


def strong_player(seed: int) -> HardBot:
    """The strong players the forecast is fitted to: Hard, with the last tricks of each imagined
    deal solved exactly (``EXACT_CARDS``), as every kept run was played. The Hard of the Play
    page plays them out by the policy (better against Normal, ``engine.bots.hard``); these
    players stay as they were, so that runs kept before and after add up: they weigh no moon plan
    of their own (``HardBot.moon_plan``), as when the runs were played. (``--refile`` probes
    engines from before the plan with this file: their Hard has no such option and weighs none.)
    Their budgets are deals only, no clock, so the same seed is the same game on any machine."""
    options = inspect.signature(HardBot).parameters
    plan = {"moon_plan": False} if "moon_plan" in options else {}
    if "passes" in options:  # no clock: a decision cut by it (numba compiling, a busy machine) would differ
        plan["passes"] = dataclasses.replace(pass_budget(), seconds=None)
    return HardBot(seed, exact_cards=EXACT_CARDS, play_seconds=None, **plan)


def play_to_end(
    state: HandState, seeds: list[int], record: list | None = None
) -> tuple[tuple[int, ...], int]:
    """Hard at every seat from ``state`` (changed in place) to the end of the hand; the scores
    and the shooter (-1 for none). ``record`` collects (kind, state before, seat, choice)."""
    bots = [strong_player(seed) for seed in seeds]
    while (seat := state.seat_to_act) is not None:
        view = state.view(seat)
        action = bot_action(bots[seat], view)
        chosen = action.kind == "pass" or (action.kind == "play" and len(view.legal_cards) > 1)
        if record is not None and chosen:
            record.append((action.kind, state.copy(), seat, action.choice))
        state.apply(action)
    result = state.result
    return result.scores, -1 if result.shooter is None else result.shooter


def apply(state: HandState, kind: str, seat: int, choice: object) -> HandState:
    after = state.copy()
    after.apply(PassAction(seat, choice) if kind == "pass" else PlayAction(seat, choice))
    return after


def play_hand(job: tuple[int, int]) -> list[dict]:
    """Phase 1 for one hand: its decisions, each with the game's own outcome."""
    index, seed = job
    rules = Rules()
    state = HandState.from_seed(seed, rules, rules.pass_direction(index))
    record: list = []
    scores, shooter = play_to_end(state, [seed * 4 + seat for seat in range(4)], record)
    return [
        {
            "hand": index,
            "seed": seed,
            "kind": kind,
            "state": before,
            "seat": seat,
            "choice": choice,
            "outcomes": [(list(scores), shooter)],
        }
        for kind, before, seat, choice in record
    ]


def pass_as_imagined(state: HandState) -> None:
    """The seats yet to pass pass as the evaluator imagines them (``rule_of_thumb_pass``)."""
    while state.phase is Phase.PASSING:
        seat = state.seat_to_act
        chosen = rule_of_thumb_pass(state.hand(seat).mask, state.rules.pass_count)
        state.apply(PassAction(seat, CardSet(chosen)))


def predict(job: tuple[int, dict, Blocking]) -> dict:
    """Phase 2: the evaluator's prediction for the chosen option."""
    number, decision, blocking = job
    view = decision["state"].view(decision["seat"])
    seed = FIRST_SEED * 7 + number
    if decision["kind"] == "pass":
        evaluation = evaluate_pass(
            view,
            PassBudget(samples=PREDICTION["pass"]),
            seed=seed,
            only=[decision["choice"]],
            blocking=blocking,
        )
    else:
        evaluation = evaluate_play(view, PlayBudget(samples=PREDICTION["play"]), seed=seed, blocking=blocking)
    value = evaluation.value_of(decision["choice"])
    after = apply(decision["state"], decision["kind"], decision["seat"], decision["choice"])
    pass_as_imagined(after)
    true_deal = playout_result(after, None)
    # The evaluator's prediction is its forecast (calibrated) where it gives one; the play-outs'
    # own figures are kept beside it (``benchmarks/fit_calibration.py`` fits the map on them).
    forecast = value.forecast
    return {
        **decision,
        "moon": list(value.moon_by_seat if forecast is None else forecast.moon_by_seat),
        "points": list(value.seat_points if forecast is None else forecast.seat_points),
        "raw_moon": list(value.moon_by_seat),
        "raw_points": list(value.seat_points),
        "method": evaluation.method,
        "policy_shooter": -1 if true_deal.shooter is None else true_deal.shooter,
    }


def continue_hand(job: tuple[int, dict, int]) -> dict:
    """Phase 3: more Hard continuations from the true deal after the chosen option."""
    number, decision, count = job
    outcomes = []
    for k in range(count):
        after = apply(decision["state"], decision["kind"], decision["seat"], decision["choice"])
        seeds = [FIRST_SEED * 13 + 1000 * number + 4 * k + seat for seat in range(4)]
        scores, shooter = play_to_end(after, seeds)
        outcomes.append((list(scores), shooter))
    return {**decision, "outcomes": decision["outcomes"] + outcomes}


def bucket_of(value: float, edges: tuple[float, ...]) -> int:
    for index in range(len(edges) - 1):
        if value < edges[index + 1]:
            return index
    return len(edges) - 2


MOON_VALUE = 26
"""What a moon adds to every other seat (the standard rules the hands are played by)."""


def _observed(row: dict, seat: int, what: str) -> tuple[float, list[float]]:
    """(predicted, realised outcomes) of one seat of one position. ``what``: "moon" (the
    seat's chance of shooting), "points" (its score), "moon_points" (what other seats' moons
    add to it) or "quiet_points" (its points in hands without a moon)."""
    outcomes = row["outcomes"]
    others_moon = sum(chance for other, chance in enumerate(row["moon"]) if other != seat)
    if what == "moon":
        return row["moon"][seat], [1.0 if shooter == seat else 0.0 for _, shooter in outcomes]
    if what == "points":
        return row["points"][seat], [float(scores[seat]) for scores, _ in outcomes]
    if what == "moon_points":
        realised = [float(MOON_VALUE) if shooter not in (-1, seat) else 0.0 for _, shooter in outcomes]
        return MOON_VALUE * others_moon, realised
    quiet = [float(scores[seat]) if shooter == -1 else 0.0 for scores, shooter in outcomes]
    return row["points"][seat] - MOON_VALUE * others_moon, quiet


def table(
    rows: list[dict], what: str, edges: tuple[float, ...], whose: str = "all", by: str | None = None
) -> list[dict]:
    """Per bucket of the prediction: (position, seat) pairs, outcomes, mean predicted, realised
    (each pair once, by the mean of its outcomes), standard errors (binomial or plain, and
    clustered by hand). ``whose``:
    "all" seats, the deciding seat's "own" predictions, or the "others'". ``by``: bucket by
    the prediction of another measure (the points parts are bucketed by the points)."""
    groups: dict[int, list] = {}
    for row in rows:
        for seat in range(4):
            if (whose == "own" and seat != row["seat"]) or (whose == "others" and seat == row["seat"]):
                continue
            predicted, realised = _observed(row, seat, what)
            key = predicted if by is None else _observed(row, seat, by)[0]
            policy = row.get("policy_shooter")
            on_true_deal = None if policy is None else float(policy == seat)
            groups.setdefault(bucket_of(key, edges), []).append(
                (row["hand"], predicted, realised, on_true_deal)
            )
    report = []
    for index in sorted(groups):
        rows_of_bucket = groups[index]
        # Each (position, seat) counts once, by the mean of its outcomes: which positions were
        # continued more often depends on how the hand went on (at most ``--per-hand`` of a
        # hand's moon positions), so weighting by outcomes would weigh calm hands' positions up.
        pairs = [(hand, p, sum(r) / len(r)) for hand, p, r, _ in rows_of_bucket]
        count = len(pairs)
        outcomes = sum(len(r) for _, _, r, _ in rows_of_bucket)
        predicted = sum(p for _, p, _ in pairs) / count
        known = [t for _, _, _, t in rows_of_bucket if t is not None]
        # The play-out policy at every seat on the true deal (moon table only): what the
        # prediction would be if the imagined deals were the true one.
        policy_on_true_deal = (
            sum(known) / count if what == "moon" and len(known) == len(rows_of_bucket) else None
        )
        realised = sum(mean for _, _, mean in pairs) / count
        if what == "moon":  # the binomial spread if the predictions were right
            spread = sum(p * (1 - p) / len(r) for _, p, r, _ in rows_of_bucket)
            error = math.sqrt(spread) / count
        else:
            error = math.sqrt(sum((m - realised) ** 2 for _, _, m in pairs) / max(count - 1, 1) / count)
        clustered = _clustered_error([(hand, p, [mean]) for hand, p, mean in pairs], count)
        report.append(
            {
                "bucket": [edges[index], min(edges[index + 1], 1.0) if edges[-1] < 2 else edges[index + 1]],
                "pairs": count,
                "outcomes": outcomes,
                "predicted": predicted,
                "realised": realised,
                "policy_on_true_deal": policy_on_true_deal,
                "error": error,
                "clustered_error": clustered,
                "z": (realised - predicted) / max(error, clustered, 1e-12),
                "within_2_se": abs(realised - predicted) <= 2 * max(error, clustered),
            }
        )
    return report


def _clustered_error(pairs: list[tuple[int, float, list[float]]], count: int) -> float:
    """The standard error of (realised - predicted) over the bucket's outcomes, with the hands
    as clusters (the sandwich estimator): outcomes of one hand are not independent."""
    gap = sum(sum(r) - p * len(r) for _, p, r in pairs) / count
    sums: dict[int, float] = {}
    for hand, p, r in pairs:
        sums[hand] = sums.get(hand, 0.0) + sum(v - p - gap for v in r)
    clusters = len(sums)
    if clusters < 2:
        return math.inf
    return math.sqrt(sum(s * s for s in sums.values()) * clusters / (clusters - 1)) / count


def chi_square_tail(value: float, freedom: int) -> float:
    """P(chi-square with ``freedom`` degrees >= value), exactly (the Poisson sum for even degrees,
    erfc and its series for odd ones); Wilson-Hilferty past where exp(-value / 2) underflows."""
    if freedom < 1:
        raise ValueError(f"a chi-square needs at least one degree of freedom, not {freedom}")
    if value <= 0.0:
        return 1.0
    half = value / 2.0
    if half > 700.0:
        scale = 2.0 / (9.0 * freedom)
        normal = ((value / freedom) ** (1.0 / 3.0) - (1.0 - scale)) / math.sqrt(scale)
        return 0.5 * math.erfc(normal / math.sqrt(2.0))
    if freedom % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, freedom // 2):
            term *= half / i
            total += term
    else:
        total = math.erfc(math.sqrt(half))
        term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)
        for i in range(1, (freedom - 1) // 2 + 1):
            total += term
            term *= half / (i + 0.5)
    return min(1.0, total)


def joint(report: list[dict]) -> dict:
    """The buckets' misses together: the sum of their squared z against a chi-square with a degree
    a bucket. If the forecast were right, each bucket would miss 2 SE about one time in 22 and one
    of twelve would in about 43% of tests: this says whether the misses together need more than
    chance. (Buckets share hands, so taking them as independent is an approximation.)"""
    zs = [row["z"] for row in report if math.isfinite(row["z"])]
    value = sum(z * z for z in zs)
    return {"chi_square": value, "buckets": len(zs), "p": chi_square_tail(value, len(zs)) if zs else None}


def print_table(title: str, report: list[dict], percent: bool) -> None:
    print(f"\n{title}")
    columns = (("bucket", 16), ("pairs", 7), ("outcomes", 10), ("predicted", 11), ("realised", 10))
    columns += (("SE", 8), ("SE (hand)", 10), ("z", 7))
    policy = any(row.get("policy_on_true_deal") is not None for row in report)
    if policy:
        columns += (("policy, true deal", 19),)
    print("".join(f"{name:>{width}}" for name, width in columns))
    for row in report:
        low, high = row["bucket"]
        scale, unit = (100, "%") if percent else (1, "")
        on_true_deal = row.get("policy_on_true_deal")
        tail = (
            ""
            if not policy
            else f"{'-':>19}"
            if on_true_deal is None
            else f"{scale * on_true_deal:>18.2f}{unit}"
        )
        print(
            f"{f'{scale * low:.1f}-{scale * high:.1f}{unit}':>16}{row['pairs']:>7}{row['outcomes']:>10}"
            f"{scale * row['predicted']:>10.2f}{unit}{scale * row['realised']:>9.2f}{unit}"
            f"{scale * row['error']:>7.2f}{unit}{scale * row['clustered_error']:>9.2f}{unit}{row['z']:>7.2f}"
            f"{tail}"
        )
    together = joint(report)
    if together["p"] is not None:
        print(
            f"{'together':>16}: chi-square {together['chi_square']:.1f} on {together['buckets']} buckets, "
            f"p = {together['p']:.2f}"
        )


def parse_blocking(text: str) -> Blocking:
    """RUN,GUARD,CHEAP: ``engine.moon.Blocking``'s thresholds."""
    numbers = [int(part) for part in text.split(",")]
    if len(numbers) != 3:
        raise argparse.ArgumentTypeError(f"--blocking {text!r}: give RUN,GUARD,CHEAP")
    return Blocking(*numbers)


def thresholds(blocking: Blocking) -> list[int]:
    """RUN, GUARD, CHEAP: what kept runs are filed by. Strong players plan no moon of their own
    from the start (``Blocking.shooter``: a plan Hard weighs for itself, not one the play-outs
    the forecast reads assume). An engine from before the plan (``--refile``) has no such field."""
    shooter = getattr(blocking, "shooter", -1)
    if shooter != -1:
        raise ValueError(f"calibration play-outs have no planned shooter (seat {shooter} given)")
    return [blocking.run, blocking.guard, blocking.cheap]


PROBE_HANDS = ((0, 909_000), (3, 909_003))
PROBE_EVERY = 5
"""The behaviour probe: two seeded hands of Hard x4 (one passing left, one held: (index, seed)
as ``play_hand`` takes them) and the prediction of every ``PROBE_EVERY``-th decision of theirs
(a few seconds)."""


@functools.lru_cache(maxsize=8)
def model_fingerprint(blocking: Blocking) -> str:
    """What kept rows depend on, by what the engine does with them: a probe of seeded hands
    played by Hard x4 (its passes and cards, the hands' scores and shooters) and the play-outs'
    predictions of a sample of their decisions (every float), with the prediction budget and the
    play-out blockers. A change that leaves every one of these the same (a faster path to the
    same numbers) keeps the fingerprint, so runs kept before it still add up; a change to what
    Hard plays or the play-outs predict starts a new count. Hard's budgets are in deals, so the
    probe is the same on any machine. The map (``engine.search.calibration_map``) is not in it: Hard
    ranks by the play-outs' own points, and kept rows are forecast again by today's map
    (``reforecast``), so a map fitted again on them keeps the count going."""
    digest = hashlib.sha256(json.dumps([PREDICTION, thresholds(blocking)]).encode())
    for job in PROBE_HANDS:
        decisions = play_hand(job)
        digest.update(repr([(d["kind"], d["seat"], str(d["choice"])) for d in decisions]).encode())
        digest.update(repr(decisions[0]["outcomes"]).encode())
        for number, decision in enumerate(decisions[::PROBE_EVERY]):
            predicted = predict((number, decision, blocking))
            keys = ("raw_moon", "raw_points", "method", "policy_shooter")
            digest.update(repr([predicted[key] for key in keys]).encode())
    return "r" + digest.hexdigest()[:15]


def map_fingerprint() -> str:
    """The map in use (``engine.search.calibration_map``): kept runs note it beside their forecasts."""
    return hashlib.sha256(repr((calibration_map.MOON, calibration_map.QUIET)).encode()).hexdigest()[:12]


def compact(row: dict) -> dict:
    """A row as kept: what the tables need, with the hand named by its seed (unique across runs)."""
    return {
        "hand": row["seed"],
        "kind": row["kind"],
        "seat": row["seat"],
        "trick": 0 if row["kind"] == "pass" else row["state"].trick_number + 1,
        "choice": str(row["choice"]),
        "moon": [round(chance, 6) for chance in row["moon"]],
        "points": [round(points, 4) for points in row["points"]],
        **(
            {
                "raw_moon": [round(chance, 6) for chance in row["raw_moon"]],
                "raw_points": [round(points, 4) for points in row["raw_points"]],
            }
            if "raw_moon" in row
            else {}
        ),
        "outcomes": [[list(scores), shooter] for scores, shooter in row["outcomes"]],
        "policy_shooter": row.get("policy_shooter"),
        **({"where": where_of(row)} if "state" in row else {}),
    }


def where_of(row: dict) -> dict:
    """What the map reads of a decision's position (``engine.search.calibration.Situation``), kept so
    that the rows can be forecast again, and the map fitted again, without the positions."""
    return dataclasses.asdict(situation(row["state"].view(row["seat"]), row["kind"]))


def situation_of(where: dict) -> Situation:
    """A kept ``where`` (JSON) as the map reads it."""
    return Situation(**{**where, "taken": tuple(where["taken"])})


def reforecast(rows: list[dict]) -> tuple[list[dict], int]:
    """Kept rows with their forecasts worked out again by today's map from the play-outs' own
    figures and the position (``where``); rows kept without both are left out (their number
    is returned): what they show is an older map's forecast."""
    again, missing = [], 0
    for row in rows:
        if "where" not in row or "raw_moon" not in row:
            missing += 1
            continue
        moon, points = Calibration(situation_of(row["where"])).predict(row["raw_moon"], row["raw_points"])
        again.append({**row, "moon": list(moon), "points": list(points)})
    return again, missing


def fitted_on(hand: int) -> bool:
    """Whether today's map was fitted on the hand of this seed (its figures are not a test)."""
    # (read where it is there: this module also probes engines committed before the map named them)
    fitted = getattr(calibration_map, "FITTED_HANDS", ())
    return any(first <= hand <= last for first, last in fitted)


def keep_run(rows: list[dict], args: argparse.Namespace, fingerprint: str, folder: Path = KEPT) -> Path:
    """File a run's rows (``compact``) under the model's fingerprint."""
    target = folder / fingerprint / f"hands-{args.seed}-{args.seed + args.hands - 1}.json.gz"
    target.parent.mkdir(parents=True, exist_ok=True)
    kept = {
        "model": fingerprint,
        "seed": args.seed,
        "hands": args.hands,
        "continuations": args.continuations,
        "per_hand": args.per_hand,
        "moon_floor": args.moon_floor,
        "prediction_deals": PREDICTION,
        "blocking": thresholds(args.blocking),
        "map": map_fingerprint(),
        "date": datetime.date.today().isoformat(),
        "rows": rows,
    }
    partial = target.with_suffix(".partial")
    partial.write_bytes(gzip.compress(json.dumps(kept, separators=(",", ":")).encode(), mtime=0))
    partial.replace(target)  # whole or not at all
    return target


def fingerprint_at(commit: str, blocking: Blocking) -> str:
    """``model_fingerprint`` of the engine as it was at ``commit`` (a git worktree of it, this
    probe run against its ``engine``)."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as place:
        tree = Path(place) / "engine-at-commit"
        git = ["git", "-C", str(root), "worktree"]
        made = subprocess.run(
            [*git, "add", "-q", "--detach", str(tree), commit], capture_output=True, text=True
        )
        if made.returncode:
            raise ValueError(f"no engine at commit {commit!r}: {made.stderr.strip()}")
        try:
            probe = (
                "import importlib.util, sys\n"
                f"spec = importlib.util.spec_from_file_location('probe', {str(Path(__file__).resolve())!r})\n"
                "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
                "from engine.moon import Blocking\n"
                f"print(module.model_fingerprint(Blocking(*{thresholds(blocking)})))\n"
            )
            found = subprocess.run(
                [sys.executable, "-c", probe],
                cwd=tree,
                env={**os.environ, "PYTHONPATH": str(tree)},
                capture_output=True,
                text=True,
            )
        finally:
            subprocess.run([*git, "remove", "--force", str(tree)], check=True)
    if found.returncode:
        last = found.stderr.strip().splitlines()[-1:] or ["no output"]
        raise ValueError(f"the engine at {commit} could not be probed: {last[0]}")
    return found.stdout.split()[-1]


def refile(old: str, commit: str, fingerprint: str, blocking: Blocking, folder: Path = KEPT) -> list[Path]:
    """File the runs kept under ``old`` (a model of the engine at ``commit``) under today's
    ``fingerprint``, once the probe shows that engine doing exactly what today's does. Refuses
    (ValueError) otherwise, and leaves every kept file as it was."""
    runs = {
        path: json.loads(gzip.decompress(path.read_bytes()))
        for path in sorted((folder / old).glob("*.json.gz"))
    }
    for path, run in runs.items():  # every file checked before any moves
        if run["model"] != old:
            raise ValueError(f"{path}: kept under model {run['model']}, not {old}")
    then = fingerprint_at(commit, blocking)
    if then != fingerprint:
        raise ValueError(f"the engine at {commit} probes as {then}, today's as {fingerprint}: another model")
    moved = []
    for path, run in runs.items():
        run.update({"model": fingerprint, "refiled_from": {"model": old, "engine_at": commit}})
        target = folder / fingerprint / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        partial.write_bytes(gzip.compress(json.dumps(run, separators=(",", ":")).encode(), mtime=0))
        partial.replace(target)
        path.unlink()
        moved.append(target)
    return moved


def kept_runs(fingerprint: str, folder: Path = KEPT) -> tuple[list[dict], list[str], list[str]]:
    """Every kept row of this model, each hand once; the runs used; the runs of other models."""
    rows: list[dict] = []
    used: list[str] = []
    seen: set[int] = set()
    for path in sorted((folder / fingerprint).glob("*.json.gz")):
        run = json.loads(gzip.decompress(path.read_bytes()))
        fresh = [row for row in run["rows"] if row["hand"] not in seen]
        seen.update(row["hand"] for row in fresh)
        rows.extend(fresh)
        used.append(f"{path.name} ({len({row['hand'] for row in fresh})} hands)")
    others = sorted(
        str(path.relative_to(folder))
        for path in folder.glob("*/*.json.gz")
        if path.parent.name != fingerprint
    )
    return rows, used, others


def replay_run(path: Path, fingerprint: str, pool: Pool) -> tuple[dict, list[int]]:
    """A kept run's positions again (a ``--save`` pickle's contents, with the kept predictions
    and outcomes), by replaying its Hard games: Hard's budget is in deals, so a seed gives the
    same game, unless Hard's safety clock cut a decision short in one of the two runs (a busy
    machine, or code compiled on first use). Such hands are left out; their seeds are returned.
    Only under the model that kept the run: another engine plays other games."""
    run = json.loads(gzip.decompress(path.read_bytes()))
    if run["model"] != fingerprint:
        raise ValueError(
            f"{path}: kept under model {run['model']}, the engine here is {fingerprint}: "
            "its Hard games cannot be replayed here"
        )
    seed, hands = run["seed"], run["hands"]
    kept: dict[int, list[dict]] = {}
    for row in run["rows"]:
        kept.setdefault(row["hand"], []).append(row)
    rows, differ = [], []
    for decisions in pool.imap(play_hand, [(i, seed + i) for i in range(hands)]):
        if not decisions:
            continue
        hand = decisions[0]["seed"]
        old = kept.get(hand, [])
        same = len(old) == len(decisions) and all(
            (d["seat"], d["kind"], str(d["choice"])) == (r["seat"], r["kind"], r["choice"])
            for d, r in zip(decisions, old, strict=True)
        )
        if not same:
            differ.append(hand)
            continue
        rows.extend(
            {
                **decision,
                "moon": row["moon"],
                "points": row["points"],
                "outcomes": [(list(scores), shooter) for scores, shooter in row["outcomes"]],
                "policy_shooter": row.get("policy_shooter"),
            }
            for decision, row in zip(decisions, old, strict=True)
        )
    saved = {
        "model": fingerprint,
        "hands": hands,
        "seed": seed,
        "continuations": run["continuations"],
        "rows": rows,
    }
    return saved, differ


def situate(path: Path, rebuilt: dict) -> int:
    """Write each decision's ``where`` into the kept run at ``path`` from its replayed positions
    (``replay_run``), for the rows kept without it (runs kept before rows held it, 2026-12-04),
    so they can be forecast by another map. The file is replaced whole; returns the rows given
    a ``where``. Hands that did not replay are left as they were."""
    run = json.loads(gzip.decompress(path.read_bytes()))
    replayed: dict[int, list[dict]] = {}
    for row in rebuilt["rows"]:
        replayed.setdefault(row["seed"], []).append(row)
    kept: dict[int, list[dict]] = {}
    for row in run["rows"]:
        kept.setdefault(row["hand"], []).append(row)
    added = 0
    for hand, rows in kept.items():
        positions = replayed.get(hand)
        if positions is None:
            continue
        for row, position in zip(rows, positions, strict=True):
            if str(position["choice"]) != row["choice"]:
                raise ValueError(f"{path}: hand {hand} replayed otherwise than kept")
            if "where" not in row:
                row["where"] = where_of(position)
                added += 1
    if added:
        partial = path.with_suffix(".partial")
        partial.write_bytes(gzip.compress(json.dumps(run, separators=(",", ":")).encode(), mtime=0))
        partial.replace(path)
    return added


def collect(args: argparse.Namespace, pool: Pool, blocking: Blocking, start: float) -> list[dict]:
    """Phases 1-3: decisions, predictions, continuations."""
    rng = random.Random(args.seed)
    decisions = [
        d for hand in pool.imap(play_hand, [(i, args.seed + i) for i in range(args.hands)]) for d in hand
    ]
    print(
        f"phase 1: {args.hands} hands, {len(decisions)} decisions, {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    predictions = [(n, d, blocking) for n, d in enumerate(decisions)]
    predicted = list(pool.imap(predict, predictions, chunksize=8))
    print(f"phase 2: predictions, {time.perf_counter() - start:.0f} s", flush=True)
    candidates: dict[int, list[int]] = {}
    jobs = []
    for number, row in enumerate(predicted):
        if max(row["raw_moon"]) >= args.moon_floor:  # chosen as before the forecasts
            candidates.setdefault(row["hand"], []).append(number)
        elif rng.random() < args.others:
            jobs.append((number, row, args.continuations))
    for numbers in candidates.values():
        chosen = sorted(rng.sample(numbers, min(args.per_hand, len(numbers))))
        jobs.extend((number, predicted[number], args.continuations) for number in chosen)
    jobs.sort(key=lambda job: job[0])
    continued = {
        number: row for number, row in zip([j[0] for j in jobs], pool.imap(continue_hand, jobs), strict=True)
    }
    print(f"phase 3: {len(jobs)} positions continued, {time.perf_counter() - start:.0f} s", flush=True)
    return [continued.get(number, row) for number, row in enumerate(predicted)]


def report(rows: list[dict], start: float) -> dict:
    """Print the tables of ``rows`` (compact rows) and return them."""
    moon = table(rows, "moon", MOON_BUCKETS)
    points = table(rows, "points", POINT_BUCKETS)
    print_table("Moon chance per (position, seat): predicted vs realised", moon, True)
    print_table("Points per (position, seat): predicted vs realised", points, False)
    split = {
        "moon_points": table(rows, "moon_points", POINT_BUCKETS, by="points"),
        "quiet_points": table(rows, "quiet_points", POINT_BUCKETS, by="points"),
    }
    print_table("  of which other seats' moons (by predicted points)", split["moon_points"], False)
    quiet = "  of which points in hands without a moon (by predicted points)"
    print_table(quiet, split["quiet_points"], False)
    parts = {}
    for kind in ("pass", "play"):
        for whose in ("own", "others"):
            part = [row for row in rows if row["kind"] == kind]
            parts[f"{kind}_{whose}"] = {
                "moon": table(part, "moon", MOON_BUCKETS, whose),
                "points": table(part, "points", POINT_BUCKETS, whose),
            }
            print_table(
                f"Moon chance, {kind} decisions, {whose} seat(s)", parts[f"{kind}_{whose}"]["moon"], True
            )
    shooters = sum(1 for row in rows for _, s in row["outcomes"] if s >= 0)
    outcomes = sum(len(row["outcomes"]) for row in rows)
    hands = len({row["hand"] for row in rows})
    print(f"\n{hands} hands, {outcomes} continuations, {shooters} moons; {time.perf_counter() - start:.0f} s")
    return {
        "hands_in_tables": hands,
        "decisions": len(rows),
        "continued_positions": sum(1 for row in rows if len(row["outcomes"]) > 1),
        "outcomes": outcomes,
        "moons": shooters,
        "moon_table": moon,
        "points_table": points,
        "moon_joint": joint(moon),
        "points_joint": joint(points),
        "points_split": split,
        "parts": parts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=24)
    parser.add_argument("--seed", type=int, default=FIRST_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--continuations", type=int, default=8)
    parser.add_argument("--moon-floor", type=float, default=0.05)
    parser.add_argument("--per-hand", type=int, default=3, help="moon positions continued a hand, at most")
    parser.add_argument("--others", type=float, default=0.02, help="share of other positions continued")
    parser.add_argument("--blocking", type=parse_blocking, default=BLOCKERS, metavar="RUN,GUARD,CHEAP")
    parser.add_argument("--save", metavar="PATH", help="keep the decisions and outcomes (pickle)")
    parser.add_argument(
        "--load", metavar="PATH", nargs="+", help="predict saved decisions and outcomes again (runs pooled)"
    )
    parser.add_argument(
        "--saved", metavar="PATH", help="a --save run as it was predicted (to --keep it, or report it again)"
    )
    parser.add_argument("--hand-from", type=int, default=0, help="with --load: only hands from this index")
    parser.add_argument("--hand-to", type=int, default=10**9, help="with --load: only hands below this index")
    parser.add_argument(
        "--continued-only",
        action="store_true",
        help="with --load: only the positions continued more than once",
    )
    parser.add_argument(
        "--replay",
        metavar="KEPT",
        help="a kept run's positions again (its Hard games replayed), with --save: to --load them later",
    )
    parser.add_argument("--keep", action="store_true", help=f"file the run's rows under {KEPT}")
    parser.add_argument(
        "--refile",
        nargs=2,
        metavar=("MODEL", "COMMIT"),
        help="file the runs kept under MODEL (made by the engine at COMMIT) under today's model, "
        "if that engine's probe is today's",
    )
    parser.add_argument("--pool", action="store_true", help="report over every kept run of this model")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    if args.keep and args.load:
        parser.error("--keep files runs as they were predicted: use it with a new run or --saved")
    if args.replay and not args.save:
        parser.error("--replay rebuilds a run's positions for --save")
    start = time.perf_counter()
    fingerprint = model_fingerprint(args.blocking)
    if args.refile:
        try:
            moved = refile(*args.refile, fingerprint, args.blocking)
        except ValueError as error:
            parser.error(f"--refile: {error}")
        print(f"filed under {fingerprint}: {', '.join(path.name for path in moved) or 'nothing'}")
        return
    if args.replay:
        with Pool(args.workers) as pool:
            try:
                rebuilt, differ = replay_run(Path(args.replay), fingerprint, pool)
            except ValueError as error:
                parser.error(f"--replay {error}")
        Path(args.save).write_bytes(pickle.dumps(rebuilt))
        print(f"replayed {len(rebuilt['rows'])} decisions of {args.replay} into {args.save}")
        print(f"positions ('where') written into {situate(Path(args.replay), rebuilt)} kept rows")
        if differ:
            print(f"left out, replayed otherwise than kept: hands {', '.join(map(str, differ))}")
        return
    rows: list[dict] = []
    if args.saved:
        saved = pickle.loads(Path(args.saved).read_bytes())
        args.hands, args.seed, args.continuations = saved["hands"], saved["seed"], saved["continuations"]
        rows = saved["rows"]
        if args.keep and saved.get("played_by", saved.get("model")) != fingerprint:
            parser.error(
                f"--keep: {args.saved} was played and predicted by model {saved.get('model')}, "
                f"not by the engine here ({fingerprint}); its rows would count for the wrong model"
            )
    elif args.load or args.hands > 0:
        with Pool(args.workers) as pool:
            if args.load:
                chosen, played_by = [], set()
                for path in args.load:
                    saved = pickle.loads(Path(path).read_bytes())
                    chosen += [r for r in saved["rows"] if args.hand_from <= r["hand"] < args.hand_to]
                    played_by.add(saved.get("played_by", saved.get("model")))
                if len(args.load) == 1:
                    args.hands, args.seed = saved["hands"], saved["seed"]
                    args.continuations = saved["continuations"]
                if args.continued_only:
                    chosen = [r for r in chosen if len(r["outcomes"]) > 1]
                jobs = [(n, r, args.blocking) for n, r in enumerate(chosen)]
                rows = [
                    {**r, "outcomes": old["outcomes"]}
                    for r, old in zip(pool.imap(predict, jobs, chunksize=8), chosen, strict=True)
                ]
                print(
                    f"predicted {len(rows)} saved decisions of {len(args.load)} run(s) again, "
                    f"{time.perf_counter() - start:.0f} s",
                    flush=True,
                )
                if args.save:  # the runs as this model predicts them (Hard's games as they were)
                    again = {"model": fingerprint, "hands": args.hands, "seed": args.seed}
                    played = played_by.pop() if len(played_by) == 1 else sorted(map(str, played_by))
                    again.update({"continuations": args.continuations, "rows": rows, "played_by": played})
                    Path(args.save).write_bytes(pickle.dumps(again))
            else:
                rows = collect(args, pool, args.blocking, start)
                if args.save:
                    keep = {
                        "model": fingerprint,
                        "hands": args.hands,
                        "seed": args.seed,
                        "continuations": args.continuations,
                        "rows": rows,
                    }
                    Path(args.save).write_bytes(pickle.dumps(keep))
    rows = [compact(row) for row in rows]
    if args.keep and rows:
        print(f"kept: {keep_run(rows, args, fingerprint)}")
    summary = {
        "model": fingerprint,
        "hands": args.hands,
        "seed": args.seed,
        "continuations": args.continuations,
        "moon_floor": args.moon_floor,
        "prediction_deals": PREDICTION,
        "blocking": thresholds(args.blocking),
        "hands_used": [args.hand_from, min(args.hand_to, args.hands)],
    }
    if args.pool:
        kept, used, others = kept_runs(fingerprint)
        print(f"\npooled: model {fingerprint}, runs {', '.join(used) or 'none'}")
        if others:
            print(f"left out (another model): {', '.join(others)}")
        rows, unplaced = reforecast(kept)
        fitted = sorted({row["hand"] for row in rows if fitted_on(row["hand"])})
        rows = [row for row in rows if not fitted_on(row["hand"])]
        print(
            f"forecast by today's map ({map_fingerprint()}); left out: {len(fitted)} hands the map was "
            f"fitted on, {unplaced} rows kept without their position (--replay the run)"
        )
        summary.update(
            {
                "pooled_runs": used,
                "other_models": others,
                "map": map_fingerprint(),
                "hands_fitted_on_left_out": len(fitted),
                "rows_without_position": unplaced,
            }
        )
    summary.update(report(rows, start))
    summary["seconds"] = time.perf_counter() - start
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
