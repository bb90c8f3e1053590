"""The compact data file of ``fit_calibration.py --save-data`` (``.fit.xz``): the decisions a fit
reads, and nothing else, in columns that xz compresses well.

One xz stream: a line of JSON (the format, the runs' names, the kinds, the deals a prediction was
made from, the columns' names, types and shapes), then each column's little-endian bytes in that
order. A decision keeps its run, hand, kind, seat, what the map reads of the position (trick,
runner, points taken; the points still out are the rest of the hand's 26), Hard x4's outcomes and
the play-outs' raw prediction: the moon chances as written (millionths) and the points
(ten-thousandths). Most predictions are averages over ``DEALS`` deals: their figures are kept as
the counts they come from (moons made, points taken over the deals), the others as written. The
last seat's points are kept as their difference from what the hand's total leaves them (26 a
deal and 52 more for each moon): none for counts, a few millionths for rounded figures.
``write`` reads what it wrote back and refuses a file that does not give every figure exactly as
it was.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Sequence
from pathlib import Path

import numpy as np

SUFFIX = ".fit.xz"
FORMAT = 2
WHERE = ("kind", "seat", "trick", "runner", "taken", "outstanding")
DEALS = 1024
"""The deals behind a prediction (``coach_calibration.py``'s ``prediction_deals``)."""
HAND_POINTS, MOON_EXTRA = 26, 52
"""A deal's points, all seats together, and what a moon adds (26 to each of three, not 26 taken)."""
FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "lc": 0, "lp": 1, "pb": 1}]
"""xz's strongest preset, told the columns are of 1- and 2-byte numbers (2% smaller than its default)."""
MOON_SCALE, POINTS_SCALE = 10**6, 10**4
PER_POINT = MOON_SCALE // POINTS_SCALE
"""The precision the runs were written at: moon chances to 6 places, points to 4."""


def _narrow(values: np.ndarray) -> np.ndarray:
    """The values in the smallest little-endian integer type that holds them all."""
    values = np.asarray(values, dtype=np.int64)
    low, high = (int(values.min()), int(values.max())) if values.size else (0, 0)
    for name in ("u1", "i1", "<u2", "<i2", "<u4", "<i4", "<i8"):
        info = np.iinfo(np.dtype(name))
        if info.min <= low and high <= info.max:
            return values.astype(name)
    raise ValueError(f"values from {low} to {high} do not fit 64 bits")


def _round_div(numerator: np.ndarray, denominator: int) -> np.ndarray:
    """numerator / denominator rounded to the nearest integer, ties to even (as ``round``)."""
    quotient, remainder = np.divmod(numerator, denominator)
    up = (2 * remainder > denominator) | ((2 * remainder == denominator) & (quotient % 2 == 1))
    return quotient + up


def _counts(moon: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which rows' figures are whole counts over ``DEALS`` deals, and those counts."""
    moons = np.rint(moon * DEALS / MOON_SCALE).astype(np.int64)
    taken = np.rint(points * DEALS / POINTS_SCALE).astype(np.int64)
    counted = (
        (_round_div(moons * MOON_SCALE, DEALS) == moon).all(axis=1)
        & (_round_div(taken * POINTS_SCALE, DEALS) == points).all(axis=1)
        & (taken.sum(axis=1) == HAND_POINTS * DEALS + MOON_EXTRA * moons.sum(axis=1))
    )
    return counted, moons, taken


def _last_points(moon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The last seat's points as the hand's total gives them (millionths of a point; the figures
    are rounded, so only close): 26 a hand and 52 more for each moon, less the other seats'."""
    return HAND_POINTS * MOON_SCALE + MOON_EXTRA * moon.sum(axis=1) - PER_POINT * points[:, :-1].sum(axis=1)


def _columns(rows: Sequence[tuple[str, dict, dict]]) -> tuple[dict, dict[str, np.ndarray]]:
    runs = list(dict.fromkeys(run for run, _, _ in rows))
    kinds = sorted({row["kind"] for _, row, _ in rows})
    outcomes = [outcome for _, row, _ in rows for outcome in row["outcomes"]]
    moon = np.array([[round(x * MOON_SCALE) for x in row["moon"]] for _, row, _ in rows], np.int64)
    points = np.array([[round(x * POINTS_SCALE) for x in row["points"]] for _, row, _ in rows], np.int64)
    counted, moons, taken = _counts(moon, points)
    index = {run: number for number, run in enumerate(runs)}
    columns = {
        "run": [index[run] for run, _, _ in rows],
        "hand": [row["hand"] for _, row, _ in rows],
        "kind": [kinds.index(row["kind"]) for _, row, _ in rows],
        "seat": [row["seat"] for _, row, _ in rows],
        "trick": [where["trick"] for _, _, where in rows],
        "runner": [where["runner"] for _, _, where in rows],
        "taken": np.array([where["taken"] for _, _, where in rows]).T,
        "outcomes": [len(row["outcomes"]) for _, row, _ in rows],
        "outcome_points": np.array([scores for scores, _ in outcomes]).T,
        "outcome_shooter": [shooter for _, shooter in outcomes],
        "counted": counted,
        "moon_counts": moons[counted].T,
        "point_counts": taken[counted][:, :-1].T,  # the last seat's: the hand's total less these
        "moon": moon[~counted].T,
        "points": points[~counted][:, :-1].T,
        "last_points": points[~counted][:, -1] * PER_POINT - _last_points(moon[~counted], points[~counted]),
    }
    head = {"format": FORMAT, "deals": DEALS, "runs": runs, "kinds": kinds, "rows": len(rows)}
    return head, {name: _narrow(values) for name, values in columns.items()}


def encode(rows: Sequence[tuple[str, dict, dict]]) -> bytes:
    """(run, row, where) triples, a row holding hand, kind, seat, moon, points and outcomes as
    ``fit_calibration.pairs_of`` reads them, ``where`` the position's fields (``WHERE``)."""
    head, columns = _columns(rows)
    head["columns"] = [[name, array.dtype.str, list(array.shape)] for name, array in columns.items()]
    blob = json.dumps(head, separators=(",", ":")).encode() + b"\n"
    blob += b"".join(np.ascontiguousarray(array).tobytes() for array in columns.values())
    return lzma.compress(blob, format=lzma.FORMAT_XZ, filters=FILTERS)


def decode(packed: bytes, name: str = "archive") -> list[tuple[str, dict, dict]]:
    """The (run, row, where) triples ``encode`` was given, every figure as it was."""
    blob = lzma.decompress(packed)
    split = blob.index(b"\n")
    head = json.loads(blob[:split])
    if head.get("format") != FORMAT:
        raise ValueError(f"{name}: format {head.get('format')!r}, not {FORMAT} (rewrite it with --save-data)")
    columns, offset = {}, split + 1
    for column, dtype, shape in head["columns"]:
        count = int(np.prod(shape))
        columns[column] = np.frombuffer(blob, dtype, count, offset).reshape(shape).astype(np.int64)
        offset += count * np.dtype(dtype).itemsize
    deals, counted = head["deals"], columns["counted"].astype(bool)
    moon = np.empty((head["rows"], len(columns["moon_counts"]) or len(columns["moon"])), np.int64)
    points = np.empty_like(moon)
    moons, taken = columns["moon_counts"].T, columns["point_counts"].T
    last = HAND_POINTS * deals + MOON_EXTRA * moons.sum(axis=1) - taken.sum(axis=1)
    moon[counted] = _round_div(moons * MOON_SCALE, deals)
    points[counted] = _round_div(np.column_stack([taken, last]) * POINTS_SCALE, deals)
    written = ~counted
    moon[written], points[written, :-1] = columns["moon"].T, columns["points"].T
    points[written, -1] = (columns["last_points"] + _last_points(moon[written], points[written])) // PER_POINT
    moon_figures, point_figures = (moon / MOON_SCALE).tolist(), (points / POINTS_SCALE).tolist()
    ends = np.cumsum(columns["outcomes"]).tolist()
    outcomes = list(
        zip(columns["outcome_points"].T.tolist(), columns["outcome_shooter"].tolist(), strict=True)
    )
    taken_so_far = columns["taken"].T.tolist()
    outstanding = (HAND_POINTS - columns["taken"].sum(axis=0)).tolist()
    runs, kinds = head["runs"], head["kinds"]
    rows = []
    for number, (run, hand, kind, seat, trick, runner) in enumerate(
        zip(
            *(columns[name].tolist() for name in ("run", "hand", "kind", "seat", "trick", "runner")),
            strict=True,
        )
    ):
        kind = kinds[kind]
        row = {
            "hand": hand,
            "kind": kind,
            "seat": seat,
            "moon": moon_figures[number],
            "points": point_figures[number],
            "outcomes": outcomes[ends[number - 1] if number else 0 : ends[number]],
        }
        where = {
            "kind": kind,
            "seat": seat,
            "trick": trick,
            "runner": runner,
            "taken": taken_so_far[number],
            "outstanding": outstanding[number],
        }
        rows.append((runs[run], row, where))
    return rows


def write(rows: Sequence[tuple[str, dict, dict]], target: str) -> str:
    """Write the archive of ``rows``; returns its sha256. Refuses (one line, nothing written) if it
    would not give every row back as it was: a figure finer than the precision kept, say."""
    packed = encode(rows)
    for given, back in zip(rows, decode(packed, target), strict=True):
        if _plain(*given) != _plain(*back):
            run, row, _ = given
            raise ValueError(
                f"{target}: {run} hand {row['hand']} ({row['kind']}, seat {row['seat']}) would not come "
                "back as it was (moon chances finer than 6 places, points than 4, or points taken and out "
                "not adding up to 26?): nothing written"
            )
    Path(target).write_bytes(packed)
    return hashlib.sha256(packed).hexdigest()


def _plain(run: str, row: dict, where: dict) -> tuple:
    """What the archive keeps of a decision, in one form to compare."""
    outcomes = [(list(scores), shooter) for scores, shooter in row["outcomes"]]
    figures = (row["hand"], row["kind"], row["seat"], list(row["moon"]), list(row["points"]), outcomes)
    return run, figures, [list(where[key]) if key == "taken" else where[key] for key in WHERE]
