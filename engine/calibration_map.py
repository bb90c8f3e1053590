"""The fitted map of ``engine.calibration``, written by ``benchmarks/fit_calibration.py``.

Fitted on 359 hands of 15 calibration runs (2026-12-04):
cal991000.pickle, cal991048.pickle, cal991072.pickle, cal991096.pickle, cal991120.pickle,
hands-990048-990071.pickle, hands-990072-990095.pickle, hands-990096-990119.pickle,
hands-990120-990143.pickle, hands-990144-990167.pickle, hands-990168-990191.pickle,
hands-990192-990215.pickle, hands-990216-990239.pickle, hands-990240-990263.pickle,
hands-990264-990287.pickle.
Their decisions: benchmarks/results/calibration_fit_data.json.gz,
benchmarks/results/calibration_test_data.json.gz.
"""

MOON = {
    "pass own": (-0.3055, 0.7438, 0.0),
    "pass other": (-0.7019, 0.3919, 0.0),
    "play own open": (-0.7091, 0.5717, -0.7942),
    "play own running": (-1.6576, 0.4667, 0.6978),
    "play other open": (-0.2455, 0.5279, 0.0816),
    "play other running": (-2.0205, 0.4375, 2.7166),
}
"""Per group: (intercept, slope on the predicted chance's log-odds, slope on trick / 13)."""

QUIET = {
    "pass own": (-0.1093, 0.787),
    "pass other": (-0.3849, 0.6701),
    "play own": (0.0355, 0.6804),
    "play other": (-0.3283, 0.7535),
}
"""Per kind and whose, hands without a moon: (intercept, slope on the log-odds) of the share of
    the points still out that the seat takes."""
