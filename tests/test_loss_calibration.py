"""benchmarks/loss_calibration.py's tables: what they say about the coach's losses must be right."""

import random

import pytest

from benchmarks import loss_calibration


def results(scale: float, noise: float, seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for hand in range(400):
        loss = rng.uniform(0.5, 9.0)
        realised = [(scale * loss + rng.gauss(0, noise), -1, -1) for _ in range(2)]
        rows.append(
            {"hand": hand, "kind": "play", "loss": loss, "forecast_loss": loss / 2, "realised": realised}
        )
    return rows


def test_the_slope_reads_how_far_the_losses_are_off():
    exact = loss_calibration.table(results(0.7, 0.0), "loss")
    assert exact["slope"] == pytest.approx(0.7)
    noisy = loss_calibration.table(results(0.7, 3.0), "loss")
    assert abs(noisy["slope"] - 0.7) < 3 * noisy["slope_error"] and noisy["slope_error"] < 0.05
    # the forecasts' difference is half the loss here, so it reads twice the slope
    assert loss_calibration.table(results(0.7, 0.0), "forecast_loss")["slope"] == pytest.approx(1.4)


def test_buckets_compare_the_mean_loss_with_the_realised_one():
    report = loss_calibration.table(results(1.0, 2.0), "loss")
    assert [b["bucket"] for b in report["buckets"]] == [[-100.0, 1.0], [1.0, 2.5], [2.5, 6.0], [6.0, 100.0]]
    assert sum(b["positions"] for b in report["buckets"]) == 400
    assert all(b["within_2_se"] or abs(b["z"]) < 3 for b in report["buckets"])
    shrunk = loss_calibration.table(results(0.5, 0.5), "loss")
    assert not shrunk["buckets"][-1]["within_2_se"]  # half of a 6-9 point loss is found out
