"""Fit the map of ``engine.search.calibration`` on calibration runs, and say how well it holds out.

Reads the ``--save`` pickles of ``coach_calibration.py`` runs (or of ``--replay`` of kept runs):
every decision's position, the play-outs' prediction for the option Hard chose (each seat's moon
chance and expected points, raw: the engine that made them must not have calibrated them) and
Hard x4's outcomes. Fits

- per moon group (``engine.search.calibration._moon_group``) a logistic regression of "this seat shot"
  on the log-odds of its predicted chance, the trick, whether the chance was 0 and the log-odds
  of the seat's predicted share of the points in the hands without a moon (Newton's
  method, a light ridge towards the identity), each (decision, seat) one observation, its
  outcomes' share of moons (by outcomes, positions continued more often would count more, and
  which were continued depends on how the hand went on: ``coach_calibration.table``);
- per kind, whose and, in play, whether a moon is still possible, in the hands without a moon, a
  logistic regression of the share of the points still out that the seat took on the log-odds of
  the share the play-outs predicted, on both again times the share of the points already taken,
  and on whether the seat has taken none.

Then holds out each run in turn (fitted on the others) and prints the calibration tables of the
held-out predictions, raw and calibrated, as ``coach_calibration.py`` does (``--no-hold-out``: not,
only the map on every run is fitted; a fit a run, half an hour on 250 runs). ``--write`` writes the
map fitted on every run to ``engine/search/calibration_map.json`` (with its provenance); ``--held-out``
runs (fresh hands, never fitted on) are reported under that map. ``--map FIT.json`` fits nothing:
the runs given are tables under the map an earlier ``--json`` kept (``moon_map``, ``quiet_map``), a
map fixed before they were played tested on them (none of its fitted runs may be among them).
``--ship FIT.json`` fits nothing either: it writes the map that fit kept into the engine, the runs
given being exactly those it was fitted on (so the map shipped is the map tested, not a fit made
again).

    .venv/bin/python -m benchmarks.fit_calibration RUN.pickle ... [--write] [--no-hold-out]
        [--held-out RUN.pickle ...] [--save-data FIT.fit.xz] [--save-held-out TEST.json.gz]
        [--json benchmarks/results/calibration_fit.json]
    .venv/bin/python -m benchmarks.fit_calibration RUN ... --map FIT.json [--json PATH]
    .venv/bin/python -m benchmarks.fit_calibration RUN ... --ship FIT.json

The data files keep each decision's raw prediction, outcomes and what the map reads of the
position (``engine.search.calibration.Situation``), without the position: the map can be fitted again
from them alone (``fit_calibration.py FIT.fit.xz --held-out TEST.json.gz``), whatever the engine.
The shipped map's are in ``benchmarks/results/calibration/fitted_runs.fit.xz`` (its columns:
``fit_archive.py``; sha256 in the map's provenance and in ``MANIFEST.json`` beside it, which lists
every raw run kept until commit fafc352).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gzip
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from benchmarks import coach_calibration as calibration
from benchmarks import fit_archive
from engine.moon import IMPOSSIBLE, NOBODY
from engine.search import calibration_map
from engine.search.calibration import (
    FLOOR,
    MOON_VALUE,
    QUIET_UNKNOWN,
    Calibration,
    Situation,
    _logit,
    _moon_group,
    _quiet_group,
    quiet_points,
    quiet_terms,
    situation,
)

MOON_GROUPS = (
    "pass own",
    "pass other",
    "play own open",
    "play own running",
    "play other open",
    "play other running",
)
QUIET_GROUPS = (
    "pass own",
    "pass other",
    "play own moon open",
    "play own no moon",
    "play other moon open",
    "play other no moon",
)
RIDGE = 1.0
ROOT = Path(__file__).resolve().parent.parent
MAP_FILE = calibration_map.MAP_FILE


def todays_runs() -> tuple[str, list[str]]:
    """The fingerprint of the engine in use and its kept runs' paths, in order."""
    fingerprint = calibration.model_fingerprint(calibration.BLOCKERS)
    return fingerprint, sorted(str(path) for path in (calibration.KEPT / fingerprint).glob("*.json.gz"))


ARCHIVE = fit_archive.SUFFIX
"""The suffix of the compact data file of ``--save-data`` (``benchmarks/fit_archive.py``)."""


def save_archive(pairs: list[dict], target: str) -> str:
    """The decisions behind ``pairs`` in the compact form ``pairs_of`` reads back exactly (the
    file is read back before it is kept); returns the file's sha256."""
    rows, seen = [], set()
    for pair in pairs:
        if (pair["run"], pair["decision"]) not in seen:
            seen.add((pair["run"], pair["decision"]))
            where = dataclasses.asdict(pair["where"])
            rows.append((Path(pair["run"].split(":")[-1]).name, pair["row"], where))
    return fit_archive.write(rows, target)


def _archive_decisions(path: str) -> list[tuple[str, dict, Situation]]:
    decoded = fit_archive.decode(Path(path).read_bytes(), path)
    return [(f"{path}:{run}", row, calibration.situation_of(where)) for run, row, where in decoded]


def pairs_of(path: str) -> list[dict]:
    """One entry a (decision, seat): the run, the decision, the situation, the raw prediction and
    the outcomes; from a run's pickle, a run kept by ``coach_calibration.py --keep`` (with each
    decision's position, ``where``) or a data file of ``--save-data`` (its runs kept apart)."""
    if path.endswith(ARCHIVE):
        decisions = _archive_decisions(path)
    elif path.endswith(".json.gz"):
        data = json.loads(gzip.decompress(Path(path).read_bytes()))
        if "model" in data:  # a kept run: the play-outs' own figures, beside the forecast
            unplaced = sum(1 for row in data["rows"] if "where" not in row or "raw_moon" not in row)
            if unplaced:
                raise ValueError(
                    f"{path}: {unplaced} rows kept without their position or the play-outs' own "
                    "figures (coach_calibration.py --replay writes the positions in)"
                )
            data = {
                "rows": [
                    {**row, "run": Path(path).name, "moon": row["raw_moon"], "points": row["raw_points"]}
                    for row in data["rows"]
                ]
            }
        decisions = [
            (f"{path}:{row['run']}", row, calibration.situation_of(row["where"])) for row in data["rows"]
        ]
    else:
        with open(path, "rb") as file:
            saved = pickle.load(file)
        decisions = []
        for row in saved["rows"]:
            # the play-outs' own prediction (pickles predicted before the forecasts hold only that)
            compact = {
                "hand": row["seed"],
                "kind": row["kind"],
                "seat": row["seat"],
                "moon": list(row.get("raw_moon", row["moon"])),
                "points": list(row.get("raw_points", row["points"])),
                "outcomes": [(list(scores), shooter) for scores, shooter in row["outcomes"]],
            }
            decisions.append((path, compact, situation(row["state"].view(row["seat"]), row["kind"])))
    return [
        {"run": run, "decision": number, "row": row, "where": where, "seat": seat}
        for number, (run, row, where) in enumerate(decisions)
        for seat in range(len(row["moon"]))
    ]


def save_data(pairs: list[dict], target: str) -> None:
    """The decisions behind ``pairs`` as a data file ``pairs_of`` reads: no positions, so it does
    not depend on the engine's classes, and the map can be fitted again from it alone."""
    rows, seen = [], set()
    for pair in pairs:
        if (pair["run"], pair["decision"]) in seen:
            continue
        seen.add((pair["run"], pair["decision"]))
        row = pair["row"]
        rows.append(
            {
                "run": Path(pair["run"].split(":")[-1]).name,
                "hand": row["hand"],
                "kind": row["kind"],
                "seat": row["seat"],
                "moon": [round(chance, 6) for chance in row["moon"]],
                "points": [round(points, 4) for points in row["points"]],
                "outcomes": [[list(scores), shooter] for scores, shooter in row["outcomes"]],
                "where": dataclasses.asdict(pair["where"]),
            }
        )
    blob = json.dumps({"date": datetime.date.today().isoformat(), "rows": rows}, separators=(",", ":"))
    Path(target).write_bytes(gzip.compress(blob.encode(), mtime=0))


def _moon_features(pair: dict, shares: Sequence[float]) -> tuple[int, list[float]] | None:
    """The pair's moon group and features; ``shares``: every seat's share of the points in the
    hands without a moon, as ``Calibration.quiet_shares`` reads the pair's decision."""
    where, seat = pair["where"], pair["seat"]
    if where.runner not in (-1, seat):
        return None  # no moon possible: the map keeps 0
    group = MOON_GROUPS.index(_moon_group(where, seat))
    chance = pair["row"]["moon"][seat]
    share = shares[seat]
    return group, [1.0, _logit(chance), where.trick / 13, 1.0 if chance <= FLOOR else 0.0, _logit(share)]


def fit_map(pairs: list[dict]) -> tuple[dict, dict]:
    """``fit_moon`` and ``fit_quiet`` of the same pairs, their columns read once."""
    table = _Pairs(pairs)
    return fit_moon(table), fit_quiet(table)


def fit_moon(pairs: list[dict] | _Pairs) -> dict[str, tuple[float, float, float, float, float]]:
    """Per group (intercept, slope on the log-odds, slope on trick / 13, what is added when no
    imagined deal made the moon, and slope on the log-odds of the seat's share of the points in
    the hands without a moon). The level of a 0: the log-odds of a 0 cannot say how far below
    the floor the truth lies, and a line through them and the rest overshot them, 0.11%
    predicted against 0.04% realised of the deciding seat's own moons in play. The share: a
    seat that would take most of the points when nobody shoots shoots more often than its
    predicted chance says (other seats' moons against a seat forecast 3-6 points were 2.37%
    forecast, 3.26% made without it, ``benchmarks/DECISIONS.md``)."""
    table = pairs if isinstance(pairs, _Pairs) else _Pairs(pairs)
    keep = (table.runner == NOBODY) | (table.runner == table.seat)  # else no moon: the map keeps 0
    group = table.groups(keep, MOON_GROUPS, _moon_group, lambda runner, seat: runner == seat)
    chance, share = table.chance[keep], table.share[keep]
    design = np.column_stack(
        [
            np.ones(len(chance)),
            _logits(chance),
            table.trick[keep] / 13,
            (chance <= FLOOR).astype(float),
            _logits(share),
        ]
    )
    table.check(keep, group, design, MOON_GROUPS, _moon_features)
    hits = table.shot[keep] / table.outcomes[keep]  # each (decision, seat) once: its share of moons
    w = _logistic(design, group, np.ones(len(design)), hits, len(MOON_GROUPS))
    return {name: tuple(round(float(v), 4) for v in w[g]) for g, name in enumerate(MOON_GROUPS)}


def _logits(chances: np.ndarray) -> np.ndarray:
    """``_logit`` of every chance."""
    chances = np.minimum(np.maximum(chances, FLOOR), 1.0 - FLOOR)
    return np.log(chances / (1.0 - chances))


class _Pairs:
    """The pairs as columns, one entry a pair, each decision's figures read once: a fit reads
    the million pairs of the shipped map's data in seconds (a pair at a time, in a minute)."""

    def __init__(self, pairs: list[dict]) -> None:
        index: dict[int, int] = {}  # a decision's number: its row's first pair's place
        decision = [index.setdefault(id(pair["row"]), len(index)) for pair in pairs]
        seat = [pair["seat"] for pair in pairs]
        firsts = [pairs[at] for at in np.unique(decision, return_index=True)[1]]
        rows, wheres = [pair["row"] for pair in firsts], [pair["where"] for pair in firsts]
        self.pairs, self.wheres = pairs, wheres
        self.decision, self.seat = np.array(decision, np.intp), np.array(seat, np.intp)
        moon = np.array([row["moon"] for row in rows], float).reshape(len(rows), -1)
        points = np.array([row["points"] for row in rows], float).reshape(moon.shape)
        taken = np.array([where.taken for where in wheres], float).reshape(moon.shape)
        outstanding = np.array([where.outstanding for where in wheres], float)
        total = np.zeros(len(rows))
        for column in moon.T:  # left to right, as ``sum`` adds them
            total = total + column
        with np.errstate(divide="ignore", invalid="ignore"):  # quiet_points, every seat at once
            quiet = (points - MOON_VALUE * (total[:, None] - moon)) / (1.0 - total[:, None])
            quiet[total > 1.0 - 1e-3] = QUIET_UNKNOWN
            shares = np.where(outstanding[:, None] > 0, (quiet - taken) / outstanding[:, None], 0.0)
        counts = np.array([len(row["outcomes"]) for row in rows], np.intp)
        owner = np.repeat(np.arange(len(rows)), counts)
        shooter = np.array([shooter for row in rows for _, shooter in row["outcomes"]], np.intp)
        scores = np.array([scores for row in rows for scores, _ in row["outcomes"]], float)
        scores = scores.reshape(len(shooter), moon.shape[1])
        shot = np.zeros(moon.shape)
        np.add.at(shot, (owner[shooter >= 0], shooter[shooter >= 0]), 1.0)
        calm = shooter == -1  # the hands without a moon: their points
        self.quiet_outcomes = np.bincount(owner[calm], minlength=len(rows))[self.decision]
        calm_points = np.column_stack(
            [np.bincount(owner[calm], scores[calm, s], minlength=len(rows)) for s in range(moon.shape[1])]
        ).reshape(moon.shape)
        at = self.decision, self.seat
        self.chance, self.share = moon[at], shares[at]
        self.shot, self.outcomes = shot[at], counts[self.decision]
        self.calm_points, self.taken = calm_points[at], taken[at]
        self.outstanding = outstanding[self.decision]
        self.kind = np.array([where.kind for where in wheres])[self.decision]
        self.decider = np.array([where.seat for where in wheres], np.intp)[self.decision]
        self.trick = np.array([where.trick for where in wheres], float)[self.decision]
        self.runner = np.array([where.runner for where in wheres], np.intp)[self.decision]

    def groups(
        self, keep: np.ndarray, names: Sequence[str], group_of: Callable, also: Callable
    ) -> np.ndarray:
        """Each kept pair's group: ``group_of`` read on one pair of each kind of position (kind,
        whose, and ``also(runner, seat)``), as it reads every pair."""
        key = (self.kind == "play") * 4 + (self.seat == self.decider) * 2 + also(self.runner, self.seat)
        key = key[keep]
        group = np.empty(len(key), np.intp)
        kept = np.flatnonzero(keep)
        for value in np.unique(key):
            first = kept[np.argmax(key == value)]
            pair = self.pairs[first]
            group[key == value] = names.index(group_of(pair["where"], pair["seat"]))
        return group

    def check(self, keep, group, design, names, features: Callable, samples: int = 200) -> None:
        """The columns agree with the fit's terms read a pair at a time (``features(pair,
        shares)``: (group name or index, terms)) on pairs spread through the data: the fit fits
        the engine's form, not a copy of it that drifted."""
        kept = np.flatnonzero(keep)
        for at in np.unique(np.linspace(0, len(kept) - 1, min(samples, len(kept))).astype(int)):
            pair = self.pairs[kept[at]]
            row = pair["row"]
            shares = Calibration(pair["where"]).quiet_shares(row["moon"], row["points"])
            want_group, want = features(pair, shares)
            want_group = names.index(want_group) if isinstance(want_group, str) else want_group
            if want_group != group[at] or not np.allclose(design[at], want, rtol=1e-9, atol=1e-12):
                raise RuntimeError(
                    f"{pair['run']} decision {pair['decision']} seat {pair['seat']}: the fit's columns "
                    f"({names[group[at]]}, {list(design[at])}) are not its terms ({want_group}, {want})"
                )


def _logistic(x: np.ndarray, group: np.ndarray, n: np.ndarray, y: np.ndarray, groups: int) -> np.ndarray:
    """Weights (a row a group) of a logistic regression of ``y`` successes in ``n`` trials
    (``y`` may be a fraction of ``n``: a share) where each row of ``x`` is read by its group's
    weights, by Newton's method (each group's weights a step of one length) with a light ridge
    towards the identity (the second term of a row is the log-odds of the prediction)."""
    order = np.argsort(group, kind="stable")
    x, n, y = x[order], n[order], y[order]
    bounds = np.searchsorted(group[order], np.arange(groups + 1))
    blocks = [slice(bounds[g], bounds[g + 1]) for g in range(groups)]
    prior = np.zeros((groups, x.shape[1]))
    prior[:, 1] = 1.0  # the identity: log-odds in, log-odds out
    w = prior.copy()

    def linear(w: np.ndarray) -> np.ndarray:
        eta = np.empty(len(x))
        for g, block in enumerate(blocks):
            eta[block] = x[block] @ w[g]
        return eta

    def loss(w: np.ndarray) -> float:
        eta = linear(w)
        return float(np.sum(n * np.logaddexp(0, eta) - y * eta) + 0.5 * RIDGE * np.sum((w - prior) ** 2))

    current = loss(w)
    ridge = RIDGE * np.eye(x.shape[1])
    for _ in range(200):
        mu = 1 / (1 + np.exp(-np.clip(linear(w), -30, 30)))
        residual, curvature = y - n * mu, n * mu * (1 - mu)
        step = np.empty_like(w)
        for g, block in enumerate(blocks):
            gradient = x[block].T @ residual[block] - RIDGE * (w[g] - prior[g])
            hessian = (x[block] * curvature[block, None]).T @ x[block] + ridge
            step[g] = np.linalg.solve(hessian, gradient)
        size = 1.0
        while loss(w + size * step) > current and size > 1e-6:
            size /= 2
        w = w + size * step
        new = loss(w)
        if current - new < 1e-9:
            break
        current = new
    return w


def _quiet(pair: dict) -> float:
    row, seat = pair["row"], pair["seat"]
    total = sum(row["moon"])
    return quiet_points(row["points"][seat], total - row["moon"][seat], total)


def _by_points_out(where: Situation) -> float:
    return where.outstanding / MOON_VALUE


def fit_quiet(
    pairs: list[dict] | _Pairs,
    terms: Callable[[Situation, int, float], list[float]] = quiet_terms,
    weight: Callable[[Situation], float] = _by_points_out,
    groups: Sequence[str] = QUIET_GROUPS,
    group_of: Callable[[Situation, int], str] = _quiet_group,
) -> dict[str, tuple[float, ...]]:
    """Per kind, whose and, in play, whether a moon is still possible (intercept, slope on the
    log-odds, both again times the share of the points already taken, and a level for a seat
    that has taken none: ``engine.search.calibration.quiet_terms``): in hands without a moon, the share
    of the points still out that a seat takes, realised against predicted (a logistic
    regression on shares, each position weighted by the points still out, however many of its
    outcomes had no moon). ``terms``, ``weight`` and the groups try other forms
    (``benchmarks/DECISIONS.md``): those are read a pair at a time, the engine's in columns."""
    if terms is not quiet_terms or group_of is not _quiet_group:
        listed = pairs.pairs if isinstance(pairs, _Pairs) else pairs
        return _fit_quiet_by_pair(listed, terms, weight, groups, group_of)
    table = pairs if isinstance(pairs, _Pairs) else _Pairs(pairs)
    keep = (table.quiet_outcomes > 0) & (table.outstanding > 0)
    group = table.groups(keep, groups, group_of, lambda runner, seat: runner == IMPOSSIBLE)
    outstanding, taken = table.outstanding[keep], table.taken[keep]
    predicted = table.share[keep]
    realised = (table.calm_points[keep] / table.quiet_outcomes[keep] - taken) / outstanding
    gone, log_odds = 1.0 - outstanding / MOON_VALUE, _logits(predicted)
    clean = ((table.kind[keep] == "play") & (taken == 0)).astype(float)
    design = np.column_stack([np.ones(len(gone)), log_odds, gone, gone * log_odds, clean])
    table.check(keep, group, design, groups, lambda pair, _: _quiet_terms_of(pair, terms, group_of))
    weights = np.array([weight(where) for where in table.wheres], float)[table.decision[keep]]
    w = _logistic(design, group, weights, weights * np.clip(realised, 0.0, 1.0), len(groups))
    return {name: tuple(round(float(v), 4) for v in w[g]) for g, name in enumerate(groups)}


def _quiet_terms_of(pair: dict, terms: Callable, group_of: Callable) -> tuple[str, list[float]]:
    """A pair's group and terms in the points part of the map, read alone."""
    where, seat = pair["where"], pair["seat"]
    return group_of(where, seat), terms(where, seat, (_quiet(pair) - where.taken[seat]) / where.outstanding)


def _fit_quiet_by_pair(pairs, terms, weight, groups, group_of) -> dict[str, tuple[float, ...]]:
    """``fit_quiet`` of other forms, a pair at a time."""
    design, group, trials, shares = [], [], [], []
    for pair in pairs:
        where, seat = pair["where"], pair["seat"]
        quiet = [scores[seat] for scores, shooter in pair["row"]["outcomes"] if shooter == -1]
        if not quiet or where.outstanding == 0:
            continue
        name, values = _quiet_terms_of(pair, terms, group_of)
        realised = (sum(quiet) / len(quiet) - where.taken[seat]) / where.outstanding
        design.append(values)
        group.append(groups.index(name))
        trials.append(weight(where))
        shares.append(trials[-1] * min(max(realised, 0.0), 1.0))
    w = _logistic(np.array(design), np.array(group), np.array(trials), np.array(shares), len(groups))
    return {name: tuple(round(float(v), 4) for v in w[g]) for g, name in enumerate(groups)}


def predicted_rows(
    pairs: list[dict], moon: dict | None, quiet: dict | None, form: type[Calibration] = Calibration
) -> list[dict]:
    """Compact rows (as ``coach_calibration.table`` reads them), calibrated by ``moon`` and
    ``quiet`` (raw when None) in the map's ``form`` (others were tried: ``benchmarks/DECISIONS.md``)."""
    rows = {}
    for pair in pairs:
        rows.setdefault((pair["run"], pair["decision"]), pair)
    compact = []
    for pair in rows.values():
        row = pair["row"]
        moons, points = row["moon"], row["points"]
        if moon is not None:
            moons, points = form(pair["where"], moon, quiet).predict(moons, points)
        compact.append(
            {
                "hand": row["hand"],
                "kind": row["kind"],
                "seat": row["seat"],
                "moon": list(moons),
                "points": list(points),
                "outcomes": row["outcomes"],
            }
        )
    return compact


def tables(rows: list[dict]) -> dict:
    moon = calibration.table(rows, "moon", calibration.MOON_BUCKETS)
    points = calibration.table(rows, "points", calibration.POINT_BUCKETS)
    return {
        "moon_table": moon,
        "points_table": points,
        "moon_joint": calibration.joint(moon),
        "points_joint": calibration.joint(points),
    }


def summary(label: str, result: dict) -> None:
    moon, points = result["moon_table"], result["points_table"]
    print(f"\n{label}")
    calibration.print_table("Moon chance per (position, seat)", moon, True)
    calibration.print_table("Points per (position, seat)", points, False)
    above = [max(r["error"], r["clustered_error"]) for r in moon if r["bucket"][0] >= 0.05]
    print(
        f"moon: {sum(r['within_2_se'] for r in moon)} of {len(moon)} buckets within 2 SE; "
        f"points: {sum(r['within_2_se'] for r in points)} of {len(points)}; "
        f"SE above 5%: {', '.join(f'{100 * e:.1f}' for e in above)} pp; together p = "
        f"{result['moon_joint']['p']:.2f} (moon), {result['points_joint']['p']:.2f} (points)"
    )


def seed_ranges(seeds: set[int]) -> list[tuple[int, int]]:
    """Seeds as (first, last) runs of consecutive numbers."""
    ranges: list[tuple[int, int]] = []
    for seed in sorted(seeds):
        if ranges and ranges[-1][1] == seed - 1:
            ranges[-1] = (ranges[-1][0], seed)
        else:
            ranges.append((seed, seed))
    return ranges


def map_text(moon: dict, quiet: dict, data: list[str], seeds: set[int], provenance: dict) -> str:
    """The data file of ``engine.search.calibration_map``: a group's terms on a line, then the files
    fitted on, the seeds of their hands and how the map was made."""
    fields = {"fitted_hands": [list(pair) for pair in seed_ranges(seeds)], "provenance": provenance}
    lines = ["{"]
    for name, table in (("moon", moon), ("quiet", quiet)):
        groups = [f"  {json.dumps(group)}: {json.dumps(list(terms))}" for group, terms in table.items()]
        lines += [f' "{name}": {{', ",\n".join(groups), " },"]
    lines.append(f' "data": {json.dumps(data)},')
    lines.append(
        ",\n".join(
            f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in fields.items()
        )
    )
    return "\n".join([*lines, "}", ""])


def write_map(
    moon: dict,
    quiet: dict,
    runs: list[str],
    hands: int,
    data: str | None = None,
    seeds: set[int] = frozenset(),
    runs_given: Sequence[str] = (),
) -> None:
    """Write the map into the engine's data file (``MAP_FILE``) with its provenance: the runs,
    the command, the sha256 of every data file it can be fitted again from."""
    data_files = [  # what the map can be fitted again from: the data files given, or the one saved
        str(Path(run).resolve().relative_to(ROOT)) if Path(run).resolve().is_relative_to(ROOT) else run
        for run in [*runs_given, *([data] if data else [])]
        if run.endswith((".json.gz", ARCHIVE))
    ]
    given = {str(Path(run).resolve()) for run in runs_given}
    options = [arg for arg in sys.argv[1:] if str(Path(arg).resolve()) not in given]
    provenance = {
        "date": datetime.date.today().isoformat(),
        "hands": hands,
        "runs": len(runs),
        "fit": " ".join(["python -m benchmarks.fit_calibration", f"<{len(runs_given)} runs>", *options]),
        "data_sha256": {
            path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
            for path in data_files
            if (ROOT / path).is_file()
        },
        "run_files": sorted(runs),
    }
    MAP_FILE.write_text(map_text(moon, quiet, data_files, set(seeds), provenance), encoding="utf-8")


def kept_map(path: Path) -> tuple[dict, dict, list[str]]:
    """(moon map, quiet map, runs fitted on) of a fit's ``--json``; a clear error if it has none."""
    try:
        fit = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"not a fit's --json ({error})") from error
    missing = [key for key in ("moon_map", "quiet_map", "runs") if key not in fit]
    if missing:
        raise ValueError(f"no {', '.join(missing)} in it: not a fit's --json")
    moon = {group: tuple(terms) for group, terms in fit["moon_map"].items()}
    quiet = {group: tuple(terms) for group, terms in fit["quiet_map"].items()}
    for name, kept, groups in (("moon_map", moon, MOON_GROUPS), ("quiet_map", quiet, QUIET_GROUPS)):
        if sorted(kept) != sorted(groups) or any(len(terms) != 5 for terms in kept.values()):
            raise ValueError(
                f"{name} is not in today's form (groups {', '.join(groups)}; 5 terms each): "
                f"it has {', '.join(f'{g} ({len(t)})' for g, t in kept.items())}"
            )
    return moon, quiet, fit["runs"]


def ship_kept_map(runs: list[str], path: Path) -> int:
    """Write the map a fit's --json kept into the engine, exactly as it was tested, with the runs
    it was fitted on (all of them, and only them: their hands are what the benchmark leaves out).
    Returns the hands fitted on."""
    moon, quiet, fitted = kept_map(path)
    given = sorted(Path(run).name for run in runs)
    if given != sorted(fitted):
        missing, extra = sorted(set(fitted) - set(given)), sorted(set(given) - set(fitted))
        problems = [f"{len(missing)} missing ({', '.join(missing[:3])})"] if missing else []
        problems += [f"{len(extra)} not fitted on ({', '.join(extra[:3])})"] if extra else []
        raise ValueError(
            "give the runs it was fitted on, no others: " + ("; ".join(problems) or "a run given twice")
        )
    pairs = [pair for run in runs for pair in pairs_of(run)]
    hands = len({(pair["run"], pair["row"]["hand"]) for pair in pairs})
    expected = json.loads(path.read_text(encoding="utf-8")).get("hands", hands)
    if hands != expected:
        raise ValueError(f"the runs hold {hands} hands, the fit {expected}: not the runs it was fitted on")
    seeds = {pair["row"]["hand"] for pair in pairs}
    write_map(moon, quiet, given, hands, None, seeds, runs)
    return hands


def judge_by_kept_map(runs: list[str], path: Path) -> dict:
    """The runs' tables under a kept map (raw beside it); refuses runs the map was fitted on."""
    moon, quiet, fitted = kept_map(path)
    reused = sorted({Path(run).name for run in runs} & set(fitted))
    if reused:
        raise ValueError(f"it was fitted on {', '.join(reused)}: those are no test of it")
    test = [pair for run in runs for pair in pairs_of(run)]
    hands = len({(pair["run"], pair["row"]["hand"]) for pair in test})
    results = {
        "map_from": str(path),
        "test_runs": sorted({Path(pair["run"].split(":")[-1]).name for pair in test}),
        "test_hands": hands,
        "test_raw": tables(predicted_rows(test, None, None)),
        "test": tables(predicted_rows(test, moon, quiet)),
    }
    summary(f"{hands} hands, the play-outs' predictions", results["test_raw"])
    summary(f"The same hands under the map of {path.name}, fitted before them", results["test"])
    return results


def write_results(results: dict, path: str) -> None:
    """A ``--json`` report, dated."""
    results["date"] = datetime.date.today().isoformat()
    Path(path).write_text(json.dumps(results, indent=1, default=float) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs", nargs="+", help="--save pickles of coach_calibration.py runs, or data files of --save-data"
    )
    parser.add_argument(
        "--write", action="store_true", help=f"write the map fitted on every run to {MAP_FILE}"
    )
    parser.add_argument(
        "--held-out",
        nargs="+",
        default=[],
        metavar="RUN",
        help="runs not fitted on: their tables under the map fitted on every run given before",
    )
    parser.add_argument(
        "--no-hold-out", action="store_true", help="fit the map on every run only (no run held out in turn)"
    )
    parser.add_argument(
        "--save-data",
        metavar="PATH",
        help=f"keep the fitted runs' decisions ({ARCHIVE}: compact; .json.gz: rows)",
    )
    parser.add_argument("--save-held-out", metavar="PATH", help="keep the held-out runs' decisions")
    parser.add_argument("--map", metavar="FIT.json", help="fit nothing: table the runs under this fit's map")
    parser.add_argument(
        "--ship",
        metavar="FIT.json",
        help=f"fit nothing: write this fit's map into {MAP_FILE.name}; the runs given: those it fitted",
    )
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.ship:
        try:
            hands = ship_kept_map(args.runs, Path(args.ship))
        except ValueError as error:
            parser.error(f"--ship {args.ship}: {error}")
        print(f"wrote the map of {args.ship} ({hands} hands) into {MAP_FILE}")
        return
    if args.map:
        try:
            results = judge_by_kept_map(args.runs, Path(args.map))
        except ValueError as error:
            parser.error(f"--map {args.map}: {error}")
        if args.json:
            write_results(results, args.json)
        return
    everything = [pair for run in args.runs for pair in pairs_of(run)]
    by_run: dict[str, list[dict]] = {}
    for pair in everything:
        by_run.setdefault(pair["run"], []).append(pair)
    hands = len({(pair["run"], pair["row"]["hand"]) for pair in everything})
    raw, held_out = [], []
    for run, pairs in by_run.items():
        raw += predicted_rows(pairs, None, None)
        if not args.no_hold_out:
            rest = [pair for other, more in by_run.items() if other != run for pair in more]
            held_out += predicted_rows(pairs, *fit_map(rest))
    moon, quiet = fit_map(everything)
    results = {
        "runs": sorted(Path(run.split(":")[-1]).name for run in by_run),
        "hands": hands,
        "raw": tables(raw),
        "moon_map": moon,
        "quiet_map": quiet,
    }
    summary("The play-outs' predictions (raw)", results["raw"])
    if not args.no_hold_out:
        results["held_out"] = tables(held_out)
        summary("Calibrated, each run held out (the map fitted on the other runs)", results["held_out"])
    if args.held_out:
        test = [pair for run in args.held_out for pair in pairs_of(run)]
        results["test_runs"] = sorted({Path(pair["run"].split(":")[-1]).name for pair in test})
        if args.save_held_out:
            save_data(test, args.save_held_out)
        results["test_hands"] = len({(pair["run"], pair["row"]["hand"]) for pair in test})
        results["test_raw"] = tables(predicted_rows(test, None, None))
        results["test"] = tables(predicted_rows(test, moon, quiet))
        summary(
            f"Held-out runs ({results['test_hands']} hands), the play-outs' predictions", results["test_raw"]
        )
        summary("Held-out runs, calibrated by the map fitted on every run above", results["test"])
    print(f"\nmap on all {hands} hands: moon {moon}\nquiet {quiet}\n{time.perf_counter() - start:.0f} s")
    if args.write:
        data = args.save_data  # the runs given are named in ``DATA``
        seeds = {pair["row"]["hand"] for pair in everything}
        write_map(moon, quiet, results["runs"], hands, data or None, seeds, args.runs)
    if args.save_data:
        (save_archive if args.save_data.endswith(ARCHIVE) else save_data)(everything, args.save_data)
    if args.json:
        write_results(results, args.json)


if __name__ == "__main__":
    main()
