"""The fitted map of ``engine.search.calibration``: its figures are data, kept in ``calibration_map.json``
beside this module (written by ``benchmarks/fit_calibration.py``, with the runs, the command and
the sha256 of the decisions it was fitted on), and read here once."""

from __future__ import annotations

import json
from pathlib import Path

MAP_FILE = Path(__file__).with_name("calibration_map.json")
"""The data file: the map, the hands it was fitted on and its provenance."""


def _terms(table: dict, name: str) -> dict[str, tuple[float, ...]]:
    terms = {group: tuple(float(value) for value in values) for group, values in table.items()}
    if any(len(values) != 5 for values in terms.values()):
        raise ValueError(f"field {name!r}: every group needs 5 terms")
    return terms


def read_map(path: Path = MAP_FILE) -> dict:
    """The public names below as a data file gives them; one clear error if it cannot."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {
            "MOON": _terms(data["moon"], "moon"),
            "QUIET": _terms(data["quiet"], "quiet"),
            "DATA": tuple(data["data"]),
            "FITTED_HANDS": tuple((int(first), int(last)) for first, last in data["fitted_hands"]),
            "PROVENANCE": data["provenance"],
        }
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RuntimeError(f"{path}: unreadable calibration map ({error})") from error


_MAP = read_map()

MOON: dict[str, tuple[float, ...]] = _MAP["MOON"]
"""Per group: (intercept, slope on the predicted chance's log-odds, slope on trick / 13, added
    when the predicted chance is 0, slope on the log-odds of the seat's predicted share of the
    points in the hands without a moon)."""

QUIET: dict[str, tuple[float, ...]] = _MAP["QUIET"]
"""Per kind, whose and, in play, whether a moon is still possible; hands without a moon:
    (intercept, slope on the log-odds, both again times the share of the points already taken,
    and a level for a seat in play that has taken none) of the share of the points still out
    that the seat takes."""

DATA: tuple[str, ...] = _MAP["DATA"]
"""The files fitted on (from the repository's root): the map is fitted again from them alone."""

FITTED_HANDS: tuple[tuple[int, int], ...] = _MAP["FITTED_HANDS"]
"""The seeds of the hands fitted on, (first, last): figures of these hands are not a test."""

PROVENANCE: dict = _MAP["PROVENANCE"]
"""How the map was made: the fit's command, its date, the runs and the sha256 of its data."""
