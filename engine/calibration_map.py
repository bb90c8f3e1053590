"""The fitted map of ``engine.calibration``, written by ``benchmarks/fit_calibration.py``.

Fitted on 456 hands of 19 calibration runs (2026-12-04):
hands-992000-992023.json.gz, hands-992024-992047.json.gz, hands-992048-992071.json.gz,
hands-992072-992095.json.gz, hands-992096-992119.json.gz, hands-992120-992143.json.gz,
hands-992144-992167.json.gz, hands-992168-992191.json.gz, hands-992192-992215.json.gz,
hands-992216-992239.json.gz, hands-992240-992263.json.gz, hands-992264-992287.json.gz,
hands-992288-992311.json.gz, hands-992312-992335.json.gz, hands-992336-992359.json.gz,
hands-992360-992383.json.gz, hands-992384-992407.json.gz, hands-992408-992431.json.gz,
hands-992432-992455.json.gz.
"""

MOON = {
    "pass own": (-0.7335, 0.7323, 0.0),
    "pass other": (-1.413, 0.3591, 0.0),
    "play own open": (-0.7191, 0.6345, -1.8644),
    "play own running": (-1.8511, 0.5389, 1.3937),
    "play other open": (-0.7085, 0.5039, -0.3245),
    "play other running": (-1.9964, 0.5693, 2.7311),
}
"""Per group: (intercept, slope on the predicted chance's log-odds, slope on trick / 13)."""

QUIET = {
    "pass own": (-0.1997, 0.7145),
    "pass other": (-0.4037, 0.6497),
    "play own": (0.0399, 0.6735),
    "play other": (-0.3958, 0.6832),
}
"""Per kind and whose, hands without a moon: (intercept, slope on the log-odds) of the share of
    the points still out that the seat takes."""

DATA = (
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992000-992023.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992024-992047.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992048-992071.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992072-992095.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992096-992119.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992120-992143.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992144-992167.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992168-992191.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992192-992215.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992216-992239.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992240-992263.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992264-992287.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992288-992311.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992312-992335.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992336-992359.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992360-992383.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992384-992407.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992408-992431.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992432-992455.json.gz",
)
"""The files fitted on (kept runs or data files, from the repository's root): the map is
    fitted again from them alone."""

FITTED_HANDS = ((992000, 992455),)
"""The seeds of the hands fitted on, (first, last): figures of these hands are not a test."""
