"""The forecast: the play-outs' moon chances and points mapped onto what Hard x4 make of them.

It must keep what is certain (a seat that can no longer shoot has no moon chance), keep the
order of what is not (a likelier moon by the play-outs stays likelier), add up (the points are
the moons' 26s plus the hands without a moon), never touch a verdict, and stay out of tables it
was not fitted for.
"""

import dataclasses
import hashlib
import json
import math
import random
from pathlib import Path

import pytest

import engine.search.evaluator as evaluator
from benchmarks import fit_calibration
from engine import HandState, Rules
from engine.moon import IMPOSSIBLE, NOBODY, STRONG_BLOCKERS, moon_candidate, moon_cards, taken_masks
from engine.rules import PRESETS
from engine.search.budget import PassBudget, PlayBudget
from engine.search.calibration import (
    FLOOR,
    MOON_VALUE,
    Calibration,
    Situation,
    _logit,
    applies,
    calibration_for,
    quiet_points,
    quiet_terms,
    situation,
)
from engine.search.calibration_map import DATA, FITTED_HANDS, MOON, PROVENANCE, QUIET, read_map


def playing_until(condition, seeds=range(300)) -> HandState:
    """A hold hand played by the last legal card until ``condition(state)``."""
    for seed in seeds:
        state = HandState.from_seed(seed, Rules(), "hold")
        while not state.is_over:
            if condition(state):
                return state
            state.play(state.legal_cards()[-1])
    raise AssertionError("no such position")


def runner_of(state: HandState) -> int:
    view = state.view(state.to_move)
    return moon_candidate(taken_masks(view), moon_cards(view.rules))[0]


def test_the_map_is_fitted_for_the_standard_table_only():
    assert applies(Rules())
    assert applies(Rules(target=50)) and applies(Rules(hold_hand=False))
    assert not applies(Rules(players=3))
    for name, rules in PRESETS.items():
        scoring = dataclasses.replace(rules, target=100, ties=Rules().ties, hold_hand=True)
        assert applies(rules) == (scoring == Rules()), name
    three = HandState.from_seed(1, Rules(players=3), "left")
    assert calibration_for(three.view(0), "pass") is None


def test_a_seat_that_can_no_longer_shoot_keeps_no_moon_chance():
    state = playing_until(lambda s: runner_of(s) >= 0 and len(s.current_trick.cards) == 0)
    runner = runner_of(state)
    view = state.view(state.to_move)
    where = situation(view, "play")
    assert where.runner == runner and where.trick == len(view.tricks) + 1
    moons, _ = Calibration(where).predict([0.3] * 4, [6.5] * 4)
    for seat, chance in enumerate(moons):
        assert (chance == 0.0) == (seat != runner), (seat, runner, moons)
    # two seats with moon cards: nobody can shoot any more
    state = playing_until(lambda s: runner_of(s) == IMPOSSIBLE)
    moons, _ = Calibration(situation(state.view(state.to_move), "play")).predict([0.2] * 4, [6.5] * 4)
    assert moons == (0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("kind, trick, runner", [("pass", 0, NOBODY), ("play", 1, NOBODY), ("play", 7, 2)])
def test_a_likelier_moon_by_the_play_outs_stays_likelier_and_chances_stay_chances(kind, trick, runner):
    where = Situation(kind, 0, trick, runner)
    grid = [0.0, FLOOR, 1 / 1536, 1 / 1024, 0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.99, 1.0]
    for seat in range(4):
        if runner not in (NOBODY, seat):
            continue
        mapped = []
        for p in grid:  # the same share of the points without a moon (6.5), whatever the chance
            moons = [p if s == seat else 0.0 for s in range(4)]
            mapped.append(Calibration(where).moons(moons, consistent_points(moons, [6.5] * 4))[seat])
        assert all(0.0 <= c <= 1.0 for c in mapped)
        assert mapped == sorted(mapped), (seat, mapped)
    rng = random.Random(5)
    for _ in range(200):
        moons = Calibration(where).moons(
            [rng.random() for _ in range(4)], [rng.uniform(0, 26) for _ in range(4)]
        )
        assert sum(moons) <= 1.0 + 1e-12


def consistent_points(moons: list[float], quiet: list[float]) -> list[float]:
    """Every seat's expected points from the moon chances and the points of the hands without a
    moon (the shooter scores 0, the others 26)."""
    total = sum(moons)
    return [(1 - total) * quiet[s] + MOON_VALUE * (total - moons[s]) for s in range(4)]


def test_of_two_seats_alike_in_moon_chance_the_one_that_takes_more_points_without_a_moon_is_likelier():
    """The map's share term, as fitted: another seat the play-outs see taking most of the points
    when nobody shoots shoots more often than its moon chance alone says; and the forecast
    reads the share from the play-outs' points (one seat's points more, its moon likelier)."""
    for where in (Situation("pass", 0, 0, NOBODY), Situation("play", 0, 3, NOBODY)):
        moons = [0.01, 0.03, 0.03, 0.0]
        third_takes_most = consistent_points(moons, [6.0, 4.0, 12.0, 4.0])
        second_takes_most = consistent_points(moons, [6.0, 12.0, 4.0, 4.0])
        a = Calibration(where).moons(moons, third_takes_most)
        b = Calibration(where).moons(moons, second_takes_most)
        assert a[2] > a[1] and b[1] > b[2], (where, a, b)
        shares = Calibration(where).quiet_shares(moons, third_takes_most)
        assert shares == pytest.approx([6.0 / 26, 4.0 / 26, 12.0 / 26, 4.0 / 26])


def test_the_points_are_the_moons_26s_plus_the_hands_without_a_moon():
    rng = random.Random(8)
    for _ in range(300):
        seat = rng.randrange(4)
        taken = [rng.choice([0, 0, 1, 2, 3]) for _ in range(4)]
        if rng.random() < 0.5:
            taken[rng.randrange(4)] += 13  # the Q♠
        outstanding = MOON_VALUE - sum(taken)
        where = Situation(
            rng.choice(["pass", "play"]), seat, rng.randrange(1, 13), IMPOSSIBLE, tuple(taken), outstanding
        )
        shares = [0.0] * 4  # two seats have points: no moon
        quiet = [taken[s] + rng.uniform(0, outstanding) for s in range(4)]
        for s in range(4):  # the play-outs' points split back into their two parts
            assert quiet_points(quiet[s], 0.0, 0.0) == pytest.approx(quiet[s])
        moons, expected = Calibration(where).predict(shares, quiet)
        assert moons == (0.0,) * 4
        mapped = []
        for s in range(4):
            whose = "own" if s == seat else "other"
            group = f"{where.kind} {whose}" + (" no moon" if where.kind == "play" else "")
            intercept, slope, per_gone, per_gone_slope, clean = QUIET[group]
            log_odds, gone = _logit((quiet[s] - taken[s]) / outstanding), 1 - outstanding / MOON_VALUE
            log_odds = intercept + slope * log_odds + gone * (per_gone + per_gone_slope * log_odds)
            log_odds += clean if where.kind == "play" and taken[s] == 0 else 0.0
            mapped.append(1 / (1 + math.exp(-log_odds)))
        for s in range(4):  # each seat's mapped share of what is out, the shares scaled to add up to 1
            assert expected[s] == pytest.approx(taken[s] + outstanding * mapped[s] / sum(mapped))
            assert taken[s] <= expected[s] <= taken[s] + outstanding  # never less than is certain
        assert sum(expected) == pytest.approx(MOON_VALUE)  # no moon: the hand's 26 points, no more
    # with moons, each seat's 26 from the others' calibrated chances
    where = Situation("pass", 1, 0, NOBODY)
    shares = [0.01, 0.002, 0.0, 0.03]
    points = [6.0, 5.0, 7.0, 6.5]
    moons, expected = Calibration(where).predict(shares, points)
    mapped = []
    for s in range(4):
        quiet = quiet_points(points[s], sum(shares) - shares[s], sum(shares))
        assert (1 - sum(shares)) * quiet + MOON_VALUE * (sum(shares) - shares[s]) == pytest.approx(points[s])
        whose = "own" if s == 1 else "other"
        intercept, slope, *_ = QUIET[f"pass {whose}"]  # no points taken yet: the line as it is
        mapped.append(1 / (1 + math.exp(-(intercept + slope * _logit(quiet / MOON_VALUE)))))
    for s in range(4):
        quiet = MOON_VALUE * mapped[s] / sum(mapped)
        assert expected[s] == pytest.approx((1 - sum(moons)) * quiet + MOON_VALUE * (sum(moons) - moons[s]))
    # the hand's points: 26, and 26 more for every seat but a shooter (P(moon) = sum of the chances)
    assert sum(expected) == pytest.approx(MOON_VALUE + 2 * MOON_VALUE * sum(moons))


def test_what_is_settled_stays_settled():
    # every point card taken by one seat: the moon is made, and nothing is left to take
    where = Situation("play", 0, 12, 2, (0, 0, 26, 0), 0)
    moons, expected = Calibration(where).predict([0.0, 0.0, 1.0, 0.0], [26.0, 26.0, 0.0, 26.0])
    assert moons == (0.0, 0.0, 1.0, 0.0) and expected == pytest.approx((26.0, 26.0, 0.0, 26.0))
    # every point card taken, by two seats: no moon, and the points are what was taken
    where = Situation("play", 0, 11, IMPOSSIBLE, (0, 13, 13, 0), 0)
    moons, expected = Calibration(where).predict([0.0] * 4, [0.0, 13.0, 13.0, 0.0])
    assert moons == (0.0,) * 4 and expected == pytest.approx((0.0, 13.0, 13.0, 0.0))


def test_the_forecast_never_changes_a_verdict(monkeypatch):
    state = playing_until(lambda s: len(s.tricks) == 2 and len(s.legal_cards()) > 2)
    view = state.view(state.to_move)
    with_forecast = evaluator.evaluate_play(view, PlayBudget(samples=128), seed=3)
    assert all(value.forecast is not None for value in with_forecast.options)
    monkeypatch.setattr(evaluator, "calibration_for", lambda view, kind: None)
    without = evaluator.evaluate_play(view, PlayBudget(samples=128), seed=3)
    assert [dataclasses.replace(v, forecast=None) for v in with_forecast.options] == list(without.options)
    assert all(value.forecast is None for value in without.options)


def test_the_forecast_is_left_out_where_the_map_was_not_fitted():
    passing = HandState.from_seed(4, Rules(), "left")
    view = passing.view(0)
    fitted = evaluator.evaluate_pass(view, PassBudget(samples=64, stages=((16, 4),)), seed=1)
    strong = evaluator.evaluate_pass(
        view, PassBudget(samples=64, stages=((16, 4),)), seed=1, blocking=STRONG_BLOCKERS
    )
    assert fitted.best.forecast is not None and strong.best.forecast is None
    three = HandState.from_seed(4, Rules(players=3), "left")
    assert (
        evaluator.evaluate_pass(
            three.view(0), PassBudget(samples=64, stages=((16, 4),)), seed=1
        ).best.forecast
        is None
    )
    # at the pass the forecast expects the others' moons Hard x4 make: far above the play-outs'
    assert fitted.best.forecast.moon_against > fitted.best.moon_against


def synthetic_pairs(truth: dict, count: int, seed: int) -> list[dict]:
    """Pairs as ``fit_calibration.pairs_of`` makes them, with outcomes drawn from ``truth``."""
    rng = random.Random(seed)
    pairs = []
    for number in range(count):
        kind = rng.choice(["pass", "play"])
        trick = 0 if kind == "pass" else rng.randrange(1, 14)
        runner = NOBODY if kind == "pass" else rng.choice([NOBODY, NOBODY, 0, 1])
        where = Situation(kind, 0, trick, runner)
        moons = [0.0 if rng.random() < 0.3 else rng.random() ** 3 / 2 for _ in range(4)]
        total = sum(moons)
        if total > 0.9:
            moons = [m * 0.9 / total for m in moons]
        quiet = [rng.uniform(1.0, 16.0) for _ in range(4)]
        chances = []
        for seat in range(4):
            a, b, c, d, e = truth[fit_calibration._moon_group(where, seat)]
            eta = a + b * fit_calibration._logit(moons[seat]) + c * trick / 13 + d * (moons[seat] == 0)
            eta += e * fit_calibration._logit(quiet[seat] / MOON_VALUE)
            chances.append(0.0 if runner not in (NOBODY, seat) else 1 / (1 + math.exp(-eta)))
        outcomes = []
        for _ in range(rng.choice([1, 1, 4])):  # at most one shooter a hand
            draw, shooter = rng.random(), -1
            for seat, chance in enumerate(chances):
                if draw < chance:
                    shooter = seat
                    break
                draw -= chance
            outcomes.append(([0, 0, 0, 0], shooter))
        row = {
            "hand": number,
            "kind": kind,
            "seat": 0,
            "moon": moons,
            "points": consistent_points(moons, quiet),
            "outcomes": outcomes,
        }
        pairs += [{"run": "x", "decision": number, "row": row, "where": where, "seat": s} for s in range(4)]
    return pairs


def test_the_fit_finds_a_known_map_and_writes_it_for_the_engine(tmp_path, monkeypatch):
    truth = {group: (-1.5, 0.5, 1.0, -1.0, 0.6) for group in fit_calibration.MOON_GROUPS}
    fitted = fit_calibration.fit_moon(synthetic_pairs(truth, 24000, 1))
    for group in ("pass other", "play other open", "play own open"):
        a, b, c, d, e = fitted[group]
        assert abs(a - -1.5) < 0.3 and abs(b - 0.5) < 0.07, (group, fitted[group])
        assert abs(e - 0.6) < 0.2, (group, fitted[group])  # the share of the points without a moon
        if "other" in group:  # the level of a chance of 0 (three seats' worth of its rare moons)
            assert abs(d - -1.0) < 0.5, (group, fitted[group])
        if group.startswith("play"):  # at the pass the trick is always 0: no slope to find
            assert abs(c - 1.0) < 0.45, (group, fitted[group])
    target = tmp_path / "calibration_map.json"
    monkeypatch.setattr(fit_calibration, "MAP_FILE", target)
    kept = str(fit_calibration.ROOT / "benchmarks" / "results" / "calibration" / "m" / "hands-1-3.json.gz")
    fit_calibration.write_map(
        fitted, QUIET, ["run.pickle"], 10, seeds={1, 2, 3, 7}, runs_given=[kept, "x.pickle"]
    )
    written = read_map(target)
    assert written["MOON"] == fitted and written["QUIET"] == QUIET
    assert written["FITTED_HANDS"] == ((1, 3), (7, 7))
    assert written["DATA"] == ("benchmarks/results/calibration/m/hands-1-3.json.gz",)
    assert set(MOON) == set(fit_calibration.MOON_GROUPS)


def test_the_fit_counts_each_decision_once_however_often_it_was_continued():
    """Calm hands' positions were continued more often (at most three of a hand's moon positions
    are), so the fit weighs each (decision, seat) once: repeating the outcomes of the positions
    that made no moon, as continuations that end the same way would, changes nothing."""
    truth = {group: (-1.5, 0.5, 1.0, -1.0, 0.6) for group in fit_calibration.MOON_GROUPS}
    pairs = synthetic_pairs(truth, 4000, 2)
    calm = []
    for pair in pairs:
        row = pair["row"]
        if all(shooter == -1 for _, shooter in row["outcomes"]):
            row = {**row, "outcomes": row["outcomes"] * 5}
        calm.append({**pair, "row": row})
    assert fit_calibration.fit_moon(calm) == fit_calibration.fit_moon(pairs)
    assert fit_calibration.fit_quiet(calm) == fit_calibration.fit_quiet(pairs)


def test_the_fit_refuses_columns_that_are_not_the_engine_s_terms(monkeypatch):
    """The fit reads its million pairs in columns; should those drift from the terms the engine's
    forecast weighs (read a pair at a time), it says where rather than fit another form."""
    truth = {group: (-1.5, 0.5, 1.0, -1.0, 0.6) for group in fit_calibration.MOON_GROUPS}
    pairs = synthetic_pairs(truth, 300, 3)
    moon_terms, quiet_read = fit_calibration._moon_features, fit_calibration._quiet_terms_of

    def moon_drifted(pair, shares):
        group, terms = moon_terms(pair, shares)
        return group, [*terms[:2], terms[2] / 2, *terms[3:]]  # the trick read in halves

    monkeypatch.setattr(fit_calibration, "_moon_features", moon_drifted)
    with pytest.raises(
        RuntimeError, match=r"x decision \d+ seat \d: the fit's columns \(.*\) are not its terms"
    ):
        fit_calibration.fit_moon(pairs)
    monkeypatch.setattr(fit_calibration, "_moon_features", moon_terms)

    def quiet_drifted(*args):
        group, terms = quiet_read(*args)
        return group, [*terms[:4], 1.0 - terms[4]]  # the level of a seat with no point, the wrong way

    monkeypatch.setattr(fit_calibration, "_quiet_terms_of", quiet_drifted)
    with pytest.raises(RuntimeError, match="are not its terms"):
        fit_calibration.fit_quiet(pairs)


def test_the_engine_s_map_is_the_one_fitted_on_the_kept_decisions():
    """Refitted from the tracked archive alone, the map file comes out byte for byte as shipped."""
    root = Path(__file__).resolve().parents[1]
    pairs = [pair for name in DATA for pair in fit_calibration.pairs_of(str(root / name))]
    moon, quiet = fit_calibration.fit_map(pairs)
    assert moon == MOON
    assert quiet == QUIET
    # the hands it names as fitted on are those hands: the calibration benchmark leaves them out
    seeds = {pair["row"]["hand"] for pair in pairs}
    assert fit_calibration.seed_ranges(seeds) == [tuple(pair) for pair in FITTED_HANDS]
    refitted = fit_calibration.map_text(moon, quiet, list(DATA), seeds, PROVENANCE)
    assert refitted == fit_calibration.MAP_FILE.read_text(encoding="utf-8")


def test_the_map_names_the_data_it_was_fitted_on_by_its_sha256():
    """The provenance is checkable: the decisions fitted on are the file whose sha256 the map and
    the runs' manifest name, and the manifest's fitted runs are the map's."""
    root = Path(__file__).resolve().parents[1]
    (data,) = DATA
    digest = hashlib.sha256((root / data).read_bytes()).hexdigest()
    assert PROVENANCE["data_sha256"] == {data: digest}
    manifest = json.loads((root / PROVENANCE["manifest"]).read_text(encoding="utf-8"))
    assert manifest["archive"]["sha256"] == digest
    fitted = sorted(Path(run["file"]).name for run in manifest["runs"] if run["fitted"])
    assert fitted == PROVENANCE["run_files"] and len(fitted) == PROVENANCE["runs"]
    assert sum(run["hands"] for run in manifest["runs"] if run["fitted"]) == PROVENANCE["hands"]


def test_a_map_file_that_cannot_be_read_says_which_and_why(tmp_path):
    broken = tmp_path / "calibration_map.json"
    broken.write_text('{"moon": {"pass own": [1, 2]}}', encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"calibration_map\.json: unreadable calibration map"):
        read_map(broken)


def quiet_pairs(truth: dict, count: int, seed: int) -> list[dict]:
    """Pairs without moons whose seats take a share of the points still out drawn from ``truth``
    (``engine.search.calibration.Calibration.quiet_log_odds``'s form)."""
    rng = random.Random(seed)
    pairs = []
    for number in range(count):
        kind = rng.choice(["pass", "play"])
        taken = [0] * 4
        for _ in range(0 if kind == "pass" else rng.randrange(0, 23)):  # up to 22 of the 26 gone
            taken[rng.randrange(4)] += 1
        outstanding = MOON_VALUE - sum(taken)
        runner = NOBODY if kind == "pass" else rng.choice([NOBODY, IMPOSSIBLE])  # the moon open or gone
        where = Situation(kind, 0, 0 if kind == "pass" else 6, runner, tuple(taken), outstanding)
        gone = 1 - outstanding / MOON_VALUE
        shares = [rng.uniform(0.02, 0.9) for _ in range(4)]
        chances = []
        for seat, share in enumerate(shares):
            a, b, c, d, e = truth[fit_calibration._quiet_group(where, seat)]
            log_odds = a + b * _logit(share) + gone * (c + d * _logit(share))
            log_odds += e if kind == "play" and taken[seat] == 0 else 0.0
            chances.append(1 / (1 + math.exp(-log_odds)))
        outcomes = [  # eight continuations: the seat takes every point still out, or none
            ([taken[s] + outstanding * (rng.random() < chances[s]) for s in range(4)], -1) for _ in range(8)
        ]
        row = {
            "hand": number,
            "kind": kind,
            "seat": 0,
            "moon": [0.0] * 4,
            "points": [taken[s] + shares[s] * outstanding for s in range(4)],
            "outcomes": outcomes,
        }
        pairs += [{"run": "x", "decision": number, "row": row, "where": where, "seat": s} for s in range(4)]
    return pairs


def test_the_fit_finds_a_known_points_map_whose_line_moves_with_the_points_taken():
    truth = {
        "pass own": (-0.2, 0.8, 0.0, 0.0, 0.0),
        "pass other": (-0.4, 0.6, 0.0, 0.0, 0.0),
        "play own moon open": (0.1, 0.6, -0.5, 0.8, 0.3),
        "play own no moon": (0.3, 0.9, -0.2, 0.4, -0.6),
        "play other moon open": (-0.3, 0.7, -1.0, 0.5, 0.5),
        "play other no moon": (-0.1, 0.8, 0.4, 0.6, -0.4),
    }
    pairs = quiet_pairs(truth, 12000, 5)
    fitted = fit_calibration.fit_quiet(pairs)
    assert list(fitted) == list(truth)
    # another form (here the engine's own, wrapped) is read a pair at a time: the same fit
    assert fit_calibration.fit_quiet(pairs, terms=lambda *form: quiet_terms(*form)) == fitted
    for group, (a, b, c, d, e) in truth.items():
        got = fitted[group]
        assert abs(got[0] - a) < 0.2 and abs(got[1] - b) < 0.1, (group, got)
        if group.startswith("play"):  # at the pass no point is taken yet: nothing to find
            assert abs(got[2] - c) < 0.4 and abs(got[3] - d) < 0.25 and abs(got[4] - e) < 0.25, (group, got)
        else:
            assert got[2:] == (0.0, 0.0, 0.0), (group, got)


def test_a_seat_the_play_outs_give_a_larger_share_is_forecast_a_larger_one_however_many_points_are_gone():
    for group, (_, slope, _, per_gone_slope, _) in QUIET.items():
        for gone in (0.0, 1.0):  # the slope is a line in the share gone: its ends bound it
            assert slope + gone * per_gone_slope > 0.2, group
    no_moon = Situation("play", 0, 11, IMPOSSIBLE, (3, 4, 9, 0), 10)
    moon_open = Situation("play", 0, 11, 2, (0, 0, 9, 0), 17)  # seat 2 has every point so far
    for where in (no_moon, moon_open):
        calibration = Calibration(where)
        for seat in (0, 3):  # the deciding seat's own share and another's
            mapped = [calibration.quiet_log_odds(seat, share) for share in (0.001, 0.01, 0.1, 0.5, 0.9)]
            assert mapped == sorted(mapped), (where, seat)


def test_once_no_moon_is_possible_a_seat_with_no_point_yet_is_forecast_less_of_what_is_left():
    """The map's level for a seat with no point (``benchmarks/DECISIONS.md``): in the hands it was
    fitted on, once two seats had points the play-outs gave the seats with none too much."""
    where = Situation("play", 0, 10, IMPOSSIBLE, (0, 5, 0, 8), 13)
    calibration = Calibration(where)
    for share in (0.05, 0.2, 0.5):  # seats 1 (5 points) and 2 (none): both another's, same share
        assert calibration.quiet_log_odds(2, share) < calibration.quiet_log_odds(1, share), share
