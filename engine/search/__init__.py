"""Search and calibration: the evaluator, its play-outs (Python and numba twins), the solver."""
