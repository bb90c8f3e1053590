"""The drift check of the calibration runs: its tails match the textbook values, it finds a change
in the moon rate where one was made and none where the rate holds."""

import gzip
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import moon_drift  # (beside the benchmark it reads)


@pytest.mark.parametrize(("gap", "tail"), [(1.2238, 0.10), (1.3581, 0.05), (1.6276, 0.01)])
def test_kolmogorov_tail_gives_the_tables_critical_values(gap, tail):
    assert moon_drift.kolmogorov_tail(gap) == pytest.approx(tail, abs=0.0015)


@pytest.mark.parametrize(
    ("value", "freedom", "tail"),
    [
        (124.342, 100, 0.05),
        (18.307, 10, 0.05),
        (99.334, 100, 0.50),
        (3.841, 1, 0.05),
        (5.991, 2, 0.05),
        (11.070, 5, 0.05),
        (14.067, 7, 0.05),
        (2.167, 7, 0.95),
        (15.086, 5, 0.01),
    ],
)
def test_chi_square_tail_gives_the_tables_critical_values(value, freedom, tail):
    """Exact, down to one degree (the calibration's buckets together have five or seven)."""
    assert moon_drift.chi_square_tail(value, freedom) == pytest.approx(tail, abs=2e-4)


def test_the_buckets_together_are_their_squared_z_against_a_degree_a_bucket():
    """Two buckets each 1.5 SE out and three on the mark: chi-square 4.5 on 5 degrees (p 0.48);
    a bucket with no finite z (no outcomes to judge it) is left out."""
    rows = [{"z": z} for z in (1.5, -1.5, 0.0, 0.0, 0.0, float("inf"))]
    together = moon_drift.calibration.joint(rows)
    assert together["chi_square"] == pytest.approx(4.5) and together["buckets"] == 5
    assert together["p"] == pytest.approx(0.4799, abs=1e-4)


def test_chi_square_refuses_no_freedom():
    with pytest.raises(ValueError, match="at least one degree"):
        moon_drift.chi_square_tail(3.0, 0)


def runs_of(rates: list[float], hands: int, seed: int) -> list[tuple[str, list[tuple[int, bool]]]]:
    draw = random.Random(seed)
    return [
        (f"run-{n}", [(n * hands + h, draw.random() < rate) for h in range(hands)])
        for n, rate in enumerate(rates)
    ]


def test_a_rate_that_falls_is_found_where_it_fell():
    runs = runs_of([0.25] * 40 + [0.05] * 40, 25, seed=1)
    report = moon_drift.drift(runs, fitted=lambda hand: hand < 1000)
    change = report["change"]
    assert change["p"] < 0.001
    assert 900 <= change["after_seed"] <= 1100
    assert change["rate_before"] > 0.2 > 0.1 > change["rate_after"]
    assert report["fitted_against_rest"]["z"] < -5


def test_one_rate_throughout_reads_as_chance():
    found = [moon_drift.drift(runs_of([0.1] * 60, 24, seed=s))["change"]["p"] for s in range(40)]
    # under one rate the tail is about uniform: a 5% change is flagged about 5% of the time
    assert sum(p < 0.05 for p in found) <= 6
    assert sum(p > 0.5 for p in found) >= 12


def test_runs_spread_wider_than_one_rate_are_flagged():
    draw = random.Random(3)
    rates = [draw.choice([0.02, 0.3]) for _ in range(80)]
    assert moon_drift.drift(runs_of(rates, 24, seed=4))["dispersion"]["p"] < 0.001


def test_kept_runs_are_read_each_hand_once_by_its_own_outcome(tmp_path):
    def keep(name, rows):
        (tmp_path / name).write_bytes(gzip.compress(json.dumps({"rows": rows}).encode()))

    keep(
        "hands-10-11.json.gz",
        [
            {"hand": 10, "outcomes": [[[26, 0, 0, 0], -1], [[0, 26, 26, 26], 0]]},
            {"hand": 10, "outcomes": [[[26, 0, 0, 0], -1]]},
            {"hand": 11, "outcomes": [[[0, 26, 26, 26], 0]]},
        ],
    )
    keep(
        "hands-11-12.json.gz",
        [{"hand": 11, "outcomes": [[[1, 0, 25, 0], -1]]}, {"hand": 12, "outcomes": [[[5, 8, 13, 0], -1]]}],
    )
    runs = moon_drift.hands_of_runs(tmp_path)
    assert runs == [
        ("hands-10-11.json.gz", [(10, False), (11, True)]),
        ("hands-11-12.json.gz", [(12, False)]),
    ]


def test_no_hands_is_an_error_not_a_rate():
    with pytest.raises(ValueError, match="no kept hands"):
        moon_drift.drift([])
