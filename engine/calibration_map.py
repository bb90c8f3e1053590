"""The fitted map of ``engine.calibration``, written by ``benchmarks/fit_calibration.py``.

Fitted on 1200 hands of 50 calibration runs (2026-12-04):
hands-992000-992023.json.gz, hands-992024-992047.json.gz, hands-992048-992071.json.gz,
hands-992072-992095.json.gz, hands-992096-992119.json.gz, hands-992120-992143.json.gz,
hands-992144-992167.json.gz, hands-992168-992191.json.gz, hands-992192-992215.json.gz,
hands-992216-992239.json.gz, hands-992240-992263.json.gz, hands-992264-992287.json.gz,
hands-992288-992311.json.gz, hands-992312-992335.json.gz, hands-992336-992359.json.gz,
hands-992360-992383.json.gz, hands-992384-992407.json.gz, hands-992408-992431.json.gz,
hands-992432-992455.json.gz, hands-992456-992479.json.gz, hands-992480-992503.json.gz,
hands-992504-992527.json.gz, hands-992528-992551.json.gz, hands-992552-992575.json.gz,
hands-992576-992599.json.gz, hands-992600-992623.json.gz, hands-992624-992647.json.gz,
hands-992648-992671.json.gz, hands-992672-992695.json.gz, hands-992696-992719.json.gz,
hands-992720-992743.json.gz, hands-992744-992767.json.gz, hands-992768-992791.json.gz,
hands-992792-992815.json.gz, hands-992816-992839.json.gz, hands-992840-992863.json.gz,
hands-992864-992887.json.gz, hands-992888-992911.json.gz, hands-992912-992935.json.gz,
hands-992936-992959.json.gz, hands-992960-992983.json.gz, hands-992984-993007.json.gz,
hands-993008-993031.json.gz, hands-993032-993055.json.gz, hands-993056-993079.json.gz,
hands-993080-993103.json.gz, hands-993104-993127.json.gz, hands-993128-993151.json.gz,
hands-993152-993175.json.gz, hands-993176-993199.json.gz.
"""

MOON = {
    "pass own": (-0.3932, 0.6893, 0.0, -1.144),
    "pass other": (-0.9983, 0.4051, 0.0, 0.2067),
    "play own open": (-0.2822, 0.542, -0.977, -1.9299),
    "play own running": (-1.5291, 0.3834, 1.5737, -0.7691),
    "play other open": (-0.7549, 0.4756, 0.4197, -0.4398),
    "play other running": (-1.4488, 0.4346, 2.5854, -0.8899),
}
"""Per group: (intercept, slope on the predicted chance's log-odds, slope on trick / 13, added
    when the predicted chance is 0)."""

QUIET = {
    "pass own": (-0.1047, 0.7777),
    "pass other": (-0.3756, 0.6794),
    "play own": (0.0316, 0.6682),
    "play other": (-0.3326, 0.7513),
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
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992456-992479.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992480-992503.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992504-992527.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992528-992551.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992552-992575.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992576-992599.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992600-992623.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992624-992647.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992648-992671.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992672-992695.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992696-992719.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992720-992743.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992744-992767.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992768-992791.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992792-992815.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992816-992839.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992840-992863.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992864-992887.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992888-992911.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992912-992935.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992936-992959.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992960-992983.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-992984-993007.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993008-993031.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993032-993055.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993056-993079.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993080-993103.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993104-993127.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993128-993151.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993152-993175.json.gz",
    "benchmarks/results/calibration/r00f79924e63f0eb/hands-993176-993199.json.gz",
)
"""The files fitted on (kept runs or data files, from the repository's root): the map is
    fitted again from them alone."""

FITTED_HANDS = ((992000, 993199),)
"""The seeds of the hands fitted on, (first, last): figures of these hands are not a test."""
