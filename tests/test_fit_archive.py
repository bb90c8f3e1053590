"""The calibration archive (``benchmarks/fit_archive.py``): the decisions a fit reads come back
exactly as they were given, whether their figures are counts over the deals or not, and a figure
the archive cannot keep exactly is refused with one line, nothing written."""

import random

import pytest

from benchmarks import fit_archive


def decisions(count: int, seed: int) -> list[tuple[str, dict, dict]]:
    """(run, row, where) as ``fit_calibration`` hands them over: most predictions averages over
    ``DEALS`` deals (moons made, points taken), some weighted (figures as written)."""
    rng = random.Random(seed)
    rows = []
    for number in range(count):
        kind = "pass" if number % 13 == 0 else "play"
        seat = rng.randrange(4)
        taken = [rng.choice([0, 0, 1, 3, 13]) for _ in range(4)] if kind == "play" else [0, 0, 0, 0]
        if number % 3:  # whole counts: 26 points a deal, 52 more for each moon
            moons = [rng.choice([0, 0, 0, rng.randrange(40)]) for _ in range(4)]
            points = [rng.randrange(26 * fit_archive.DEALS // 3) for _ in range(3)]
            points.append(26 * fit_archive.DEALS + 52 * sum(moons) - sum(points))
            moon = [round(made / fit_archive.DEALS, 6) for made in moons]
            figures = [round(total / fit_archive.DEALS, 4) for total in points]
        else:  # weighted deals: no count behind them
            moon = [round(rng.random() / 8, 6) for _ in range(4)]
            figures = [round(rng.uniform(0, 20), 4) for _ in range(4)]
        shooters = [-1] if number % 5 else [-1, 2, -1, -1, 0]
        outcomes = [([0, 26, 26, 26] if shooter == 0 else [9, 8, 0, 9], shooter) for shooter in shooters]
        row = {"hand": 990000 + number // 40, "kind": kind, "seat": seat, "moon": moon, "points": figures}
        row["outcomes"] = outcomes
        where = {"kind": kind, "seat": seat, "trick": 0 if kind == "pass" else 1 + number % 13}
        where |= {"runner": rng.choice([-2, -1, seat]), "taken": taken, "outstanding": 26 - sum(taken)}
        rows.append((f"hands-{990000 + 40 * (number // 400)}.json.gz", row, where))
    return rows


def test_every_decision_comes_back_as_it_was_given(tmp_path):
    given = decisions(1200, 1)
    target = tmp_path / "runs.fit.xz"
    fit_archive.write(given, str(target))
    back = fit_archive.decode(target.read_bytes())
    assert [fit_archive._plain(*decision) for decision in back] == [
        fit_archive._plain(*decision) for decision in given
    ]
    # both forms were used: counted figures and figures as written
    head, columns = fit_archive._columns(given)
    assert 0 < columns["counted"].sum() < head["rows"]


def finer_points(row: dict, where: dict) -> tuple[dict, dict]:
    return {**row, "points": [row["points"][0] + 1e-6, *row["points"][1:]]}, where


def points_out_of_step(row: dict, where: dict) -> tuple[dict, dict]:
    return row, {**where, "outstanding": where["outstanding"] - 1}  # not the rest of the hand's 26


@pytest.mark.parametrize("spoil", [finer_points, points_out_of_step])
def test_a_decision_the_archive_cannot_keep_exactly_is_refused_and_nothing_written(tmp_path, spoil):
    given = decisions(50, 2)
    run, row, where = given[7]
    given[7] = (run, *spoil(row, where))
    target = tmp_path / "runs.fit.xz"
    with pytest.raises(ValueError) as error:
        fit_archive.write(given, str(target))
    assert not target.exists()
    message = str(error.value)
    assert "\n" not in message and len(message) < 300
    assert str(target) in message and "hand 990000" in message


def test_an_archive_of_another_format_says_so():
    packed = fit_archive.lzma.compress(b'{"runs": []}\n')
    with pytest.raises(ValueError, match=r"old\.fit\.xz: format None, not 2"):
        fit_archive.decode(packed, "old.fit.xz")
