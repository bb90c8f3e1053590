"""The calibration benchmark's kept runs: pooled per model, each hand once, and the points split
into what others' moons add and the points of hands without a moon, exactly."""

import gzip
import json
from argparse import Namespace

import pytest

from benchmarks import coach_calibration as calibration
from benchmarks import fit_calibration
from engine.moon import BLOCKERS, NOBODY, Blocking
from engine.search.calibration import Calibration, Situation
from engine.search.calibration_map import FITTED_HANDS, MOON, read_map


def row(hand: int, seat: int, moon: list[float], points: list[float], outcomes: list) -> dict:
    return {
        "hand": hand,
        "kind": "play",
        "seat": seat,
        "trick": 2,
        "choice": "2C",
        "moon": moon,
        "points": points,
        "outcomes": outcomes,
    }


ROWS = [
    row(500, 0, [0.0, 0.1, 0.0, 0.0], [3.0, 8.0, 6.0, 9.0], [[[0, 26, 0, 0], -1], [[26, 0, 26, 26], 1]]),
    row(500, 1, [0.0, 0.2, 0.0, 0.0], [2.0, 9.0, 5.0, 10.0], [[[4, 13, 9, 0], -1]]),
    row(501, 2, [0.05, 0.0, 0.0, 0.0], [1.0, 5.0, 12.0, 8.0], [[[0, 13, 13, 0], -1], [[0, 26, 26, 26], 0]]),
]


def args(seed: int, hands: int) -> Namespace:
    return Namespace(seed=seed, hands=hands, continuations=4, per_hand=3, moon_floor=0.05, blocking=BLOCKERS)


def test_kept_runs_pool_every_hand_once_and_leave_other_models_out(tmp_path):
    model = "b-this-model"
    calibration.keep_run(ROWS, args(500, 2), model, tmp_path)
    calibration.keep_run(ROWS[2:], args(501, 1), model, tmp_path)  # hand 501 again: counted once
    calibration.keep_run(ROWS[:1], args(500, 1), "an-older-model", tmp_path)
    rows, used, others = calibration.kept_runs(model, tmp_path)
    assert sorted((r["hand"], r["seat"]) for r in rows) == [(500, 0), (500, 1), (501, 2)]
    assert len(used) == 2
    assert others == ["an-older-model/hands-500-500.json.gz"]
    assert not list(tmp_path.rglob("*.partial"))
    kept = json.loads(gzip.decompress((tmp_path / model / "hands-500-501.json.gz").read_bytes()))
    assert kept["model"] == model and kept["rows"] == ROWS


@pytest.fixture(scope="module")
def play_once():
    """``calibration.play_hand`` playing each probe hand once in the file (Hard's play of a seeded
    hand is the same on every call), for probes whose hands are Hard's own (the play-outs'
    blockers and predictions do not change how Hard plays)."""
    play_hand, played = calibration.play_hand, {}

    def play(job):
        if job not in played:
            played[job] = play_hand(job)
        return played[job]

    return play


def test_the_fingerprint_names_the_blockers_and_what_the_engine_does(monkeypatch, play_once):
    """The probe is seeded and Hard's budgets are in deals: the same engine gives the same
    fingerprint on every call (and machine); other blockers play and predict otherwise."""
    calibration.model_fingerprint.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(calibration, "play_hand", play_once)
        model = calibration.model_fingerprint(BLOCKERS)
    assert model.startswith("r") and len(model) == 16
    calibration.model_fingerprint.cache_clear()
    assert calibration.model_fingerprint(Blocking()) == model  # worked out again, not remembered
    with monkeypatch.context() as patch:
        patch.setattr(calibration, "play_hand", play_once)  # the same hands, other play-outs
        assert calibration.model_fingerprint(Blocking(guard=1)) != model


def test_the_fingerprint_follows_what_hard_plays_and_the_evaluator_predicts(monkeypatch, play_once):
    """Not the code: the numbers. A prediction a hundredth of a point off, or one card Hard
    plays otherwise, is another model; another map is not (kept rows are forecast again)."""
    model = calibration.model_fingerprint(BLOCKERS)
    map_in_use = calibration.map_fingerprint()
    predict = calibration.predict

    def nudged(job):
        found = predict(job)
        return {**found, "raw_points": [points + 0.01 for points in found["raw_points"]]}

    def one_card_otherwise(job):
        decisions = play_once(job)
        return [decisions[0], {**decisions[1], "choice": "another card"}, *decisions[2:]]  # not predicted

    for patched in ({"predict": nudged, "play_hand": play_once}, {"play_hand": one_card_otherwise}):
        calibration.model_fingerprint.cache_clear()
        with monkeypatch.context() as patch:
            for name, replacement in patched.items():
                patch.setattr(calibration, name, replacement)
            assert calibration.model_fingerprint(BLOCKERS) != model, patched
    calibration.model_fingerprint.cache_clear()
    with monkeypatch.context() as patch:
        patch.setitem(MOON, "pass own", (0.0, 1.0, 0.0, 0.0, 0.0))  # another map: other forecasts
        assert calibration.map_fingerprint() != map_in_use
        assert calibration.model_fingerprint(BLOCKERS) == model
    # left remembered: it is today's model (just asserted), which the refiling test starts from


@pytest.mark.parametrize("whose", ["all", "own", "others"])
def test_the_points_split_adds_up_to_the_points(whose):
    edges = calibration.POINT_BUCKETS
    whole = calibration.table(ROWS, "points", edges, whose)
    moon = calibration.table(ROWS, "moon_points", edges, whose, by="points")
    quiet = calibration.table(ROWS, "quiet_points", edges, whose, by="points")
    assert [b["bucket"] for b in whole] == [b["bucket"] for b in moon] == [b["bucket"] for b in quiet]
    for total, part, rest in zip(whole, moon, quiet, strict=True):
        assert part["predicted"] + rest["predicted"] == pytest.approx(total["predicted"])
        assert part["realised"] + rest["realised"] == pytest.approx(total["realised"])


def test_the_policy_on_the_true_deal_is_tabled_beside_the_prediction():
    rows = [
        {**ROWS[0], "policy_shooter": 1},  # two outcomes: counts once, like its prediction
        {**ROWS[1], "seat": 0, "moon": [0.0, 0.12, 0.0, 0.0], "policy_shooter": -1},
    ]
    moon = calibration.table(rows, "moon", calibration.MOON_BUCKETS, "others")
    seat_one = next(b for b in moon if b["bucket"][0] == 0.05)  # seat 1 predicted 10% and 12%
    assert seat_one["outcomes"] == 3 and seat_one["pairs"] == 2
    assert seat_one["policy_on_true_deal"] == pytest.approx(1 / 2)
    zero = next(b for b in moon if b["bucket"][0] == 0.0)
    assert zero["policy_on_true_deal"] == 0.0
    # Runs kept before the column existed have no such figure: none is made up for them.
    mixed = calibration.table([rows[0], ROWS[2]], "moon", calibration.MOON_BUCKETS)
    assert [b["policy_on_true_deal"] for b in mixed if b["bucket"][0] == 0.0] == [None]


class _Serial:
    """A pool that works in this process."""

    def imap(self, function, jobs):
        return map(function, jobs)


def test_a_kept_run_is_replayed_into_its_positions(tmp_path, monkeypatch):
    model = "b-this-model"
    seed = 930_003
    played = calibration.play_hand((3, seed))  # a hand without a pass: the shortest to play
    kept_rows = [
        calibration.compact(
            {
                **d,
                "moon": [0.0] * 4,
                "points": [6.5] * 4,
                "raw_moon": [0.0] * 4,
                "raw_points": [6.0] * 4,
                "policy_shooter": -1,
            }
        )
        for d in played
    ]
    positions = [row.pop("where") for row in kept_rows]  # kept as runs were before 2026-12-04
    calibration.keep_run(kept_rows, Namespace(**{**vars(args(seed - 3, 4)), "hands": 4}), model, tmp_path)
    path = tmp_path / model / f"hands-{seed - 3}-{seed}.json.gz"
    run = json.loads(gzip.decompress(path.read_bytes()))
    run["rows"] = kept_rows  # the other three hands were not kept: replaying them must not add rows
    path.write_bytes(gzip.compress(json.dumps(run).encode()))
    with pytest.raises(ValueError, match="without their position"):
        fit_calibration.pairs_of(str(path))
    cache = {seed: played}
    real = calibration.play_hand

    def only_hand_three(job):
        index, _hand_seed = job
        return real(job) if index == 3 else []

    monkeypatch.setattr(calibration, "play_hand", only_hand_three)
    saved, differ = calibration.replay_run(path, model, _Serial())  # Hard plays the hand again
    assert differ == []
    assert [str(r["choice"]) for r in saved["rows"]] == [str(d["choice"]) for d in cache[seed]]
    assert all(r["points"] == [6.5] * 4 and r["state"].phase.value == "playing" for r in saved["rows"])
    # the replayed positions are written into the kept run, once: it can be fitted on from then on
    assert calibration.situate(path, saved) == len(kept_rows)
    assert calibration.situate(path, saved) == 0
    run = json.loads(gzip.decompress(path.read_bytes()))
    assert [row["where"] for row in run["rows"]] == json.loads(json.dumps(positions))
    assert positions[3]["trick"] == run["rows"][3]["trick"] and positions[3]["kind"] == "play"
    pairs = fit_calibration.pairs_of(str(path))
    assert len(pairs) == 4 * len(kept_rows) and pairs[0]["where"] == Situation(**positions[0])
    # A hand Hard plays otherwise than kept (its clock cut a decision short) is left out.
    run["rows"][-1]["choice"] = "nothing it played"
    path.write_bytes(gzip.compress(json.dumps(run).encode()))
    monkeypatch.setattr(calibration, "play_hand", lambda job: cache[seed] if job[0] == 3 else [])
    saved, differ = calibration.replay_run(path, model, _Serial())
    assert differ == [seed] and saved["rows"] == []
    with pytest.raises(ValueError, match="cannot be replayed"):
        calibration.replay_run(path, "another-model", _Serial())


def test_runs_of_an_engine_that_probes_the_same_are_filed_under_todays_model(tmp_path, monkeypatch):
    """The engine committed at HEAD is the one under test (a clean clone): it probes as today's,
    so its runs move; an engine that probes otherwise moves nothing."""
    model = calibration.model_fingerprint(BLOCKERS)
    calibration.keep_run(ROWS, args(500, 2), "0123456789abcdef", tmp_path)
    moved = calibration.refile("0123456789abcdef", "HEAD", model, BLOCKERS, tmp_path)
    assert moved == [tmp_path / model / "hands-500-501.json.gz"]
    run = json.loads(gzip.decompress(moved[0].read_bytes()))
    assert run["model"] == model and run["rows"] == ROWS
    assert run["refiled_from"] == {"model": "0123456789abcdef", "engine_at": "HEAD"}
    assert not list((tmp_path / "0123456789abcdef").iterdir())
    rows, used, _ = calibration.kept_runs(model, tmp_path)
    assert len(rows) == 3 and used == ["hands-500-501.json.gz (2 hands)"]

    calibration.keep_run(ROWS[:1], args(600, 1), "fedcba9876543210", tmp_path)
    monkeypatch.setattr(calibration, "fingerprint_at", lambda commit, blocking: "b-another-engine")
    with pytest.raises(ValueError, match="another model"):
        calibration.refile("fedcba9876543210", "HEAD~5", model, BLOCKERS, tmp_path)
    assert [p.name for p in (tmp_path / "fedcba9876543210").iterdir()] == ["hands-600-600.json.gz"]


def test_refiling_refuses_a_commit_that_is_not_there_and_a_run_of_another_model(tmp_path):
    calibration.keep_run(ROWS, args(500, 2), "0123456789abcdef", tmp_path)
    with pytest.raises(ValueError, match="no engine at commit 'no-such-commit'"):
        calibration.refile("0123456789abcdef", "no-such-commit", "b-today", BLOCKERS, tmp_path)
    calibration.keep_run(ROWS[:1], args(700, 1), "another-model", tmp_path)
    (tmp_path / "another-model" / "hands-700-700.json.gz").rename(tmp_path / "0123456789abcdef" / "x.json.gz")
    with pytest.raises(ValueError, match="kept under model another-model"):
        calibration.refile("0123456789abcdef", "HEAD", "b-today", BLOCKERS, tmp_path)
    assert sorted(p.name for p in (tmp_path / "0123456789abcdef").iterdir()) == [
        "hands-500-501.json.gz",
        "x.json.gz",
    ]


PLACED = {"kind": "play", "seat": 0, "trick": 5, "runner": NOBODY, "taken": [0, 3, 0, 1], "outstanding": 22}
"""A kept position (``where``) as JSON holds it, and the play-outs' own figures there."""
RAW = ([0.02, 0.2, 0.0, 0.01], [5.0, 9.0, 6.0, 6.0])


def test_kept_rows_are_forecast_by_todays_map_from_the_play_outs_own_figures():
    """A map fitted again does not start the count again: every kept row with its position is
    forecast anew; a row kept without it is left out and counted, not shown with an old map's."""
    where = Situation("play", 0, 5, NOBODY, (0, 3, 0, 1), 22)
    raw_moon, raw_points = RAW
    stale = {
        **ROWS[0],
        "moon": [0.5] * 4,
        "points": [1.0] * 4,
        "raw_moon": raw_moon,
        "raw_points": raw_points,
    }
    placed = {
        **stale,
        "where": PLACED,
    }
    again, missing = calibration.reforecast([placed, stale, ROWS[1]])
    assert missing == 2 and len(again) == 1
    moon, points = Calibration(where).predict(raw_moon, raw_points)
    assert again[0]["moon"] == list(moon) and again[0]["points"] == list(points)
    assert again[0]["outcomes"] == stale["outcomes"]


def test_hands_the_map_was_fitted_on_are_known():
    first, last = FITTED_HANDS[0]
    assert calibration.fitted_on(first) and calibration.fitted_on(last)
    assert not calibration.fitted_on(max(high for _, high in FITTED_HANDS) + 1)


@pytest.mark.parametrize("what", ["moon", "points"])
def test_a_position_counts_once_however_often_it_was_continued(what):
    """Which positions get more continuations depends on how the hand went on, so a bucket's
    figures weigh each (position, seat) once, by the mean of its outcomes: repeating a
    position's outcomes (continuations that end as the game did) changes nothing."""
    edges = calibration.MOON_BUCKETS if what == "moon" else calibration.POINT_BUCKETS
    once = calibration.table(ROWS, what, edges)
    repeated = [{**row, "outcomes": row["outcomes"] * (1 + 4 * (n % 2))} for n, row in enumerate(ROWS)]
    again = calibration.table(repeated, what, edges)
    assert [(b["bucket"], b["pairs"]) for b in again] == [(b["bucket"], b["pairs"]) for b in once]
    keys = ("predicted", "realised", "clustered_error")
    assert [[b[k] for k in keys] for b in again] == [pytest.approx([b[k] for k in keys]) for b in once]
    assert sum(b["outcomes"] for b in again) > sum(b["outcomes"] for b in once)


WHERE = {"kind": "play", "seat": 0, "trick": 5, "runner": NOBODY, "taken": [0, 3, 0, 1], "outstanding": 22}
"""A kept row's position, as ``coach_calibration.py --keep`` writes it."""


def test_a_map_kept_before_the_runs_is_tested_on_them_and_never_on_its_own(tmp_path):
    """``fit_calibration.py RUN ... --map FIT.json``: a map fixed before the runs were played
    (an earlier fit's --json) tables them as today's map would, and refuses runs it was fitted on."""
    where = WHERE
    raw_moon, raw_points = [0.02, 0.2, 0.0, 0.01], [5.0, 9.0, 6.0, 6.0]
    placed = {**ROWS[0], "raw_moon": raw_moon, "raw_points": raw_points, "where": where}
    run = calibration.keep_run([placed], args(500, 1), "b-this-model", tmp_path)
    quiet = {"pass own": (0.0, 1.0, 0.0, 0.0, 0.0), "pass other": (0.0, 1.0, 0.0, 0.0, 0.0)}
    quiet |= {
        "play own moon open": (0.3, 0.8, 0.1, 0.2, 0.4),
        "play other moon open": (-0.2, 0.9, 0.4, 0.1, -0.3),
    }
    quiet |= {
        "play own no moon": (0.2, 0.7, 0.1, 0.3, 0.2),
        "play other no moon": (-0.1, 0.8, 0.2, 0.1, -0.5),
    }
    moon = {group: (0.1, 0.9, 0.2, -0.5, 0.3) for group in MOON}
    fit = tmp_path / "fit.json"
    fit.write_text(json.dumps({"runs": ["hands-400-423.json.gz"], "moon_map": moon, "quiet_map": quiet}))
    results = fit_calibration.judge_by_kept_map([str(run)], fit)
    expected_moon, expected_points = Calibration(
        Situation(**{**where, "taken": (0, 3, 0, 1)}), moon, quiet
    ).predict(raw_moon, raw_points)
    assert results["test_hands"] == 1 and results["test_runs"] == [run.name]
    tabled = results["test"]["points_table"]
    assert sum(b["pairs"] for b in tabled) == 4
    assert sum(b["predicted"] * b["pairs"] for b in tabled) == pytest.approx(sum(expected_points))
    moons = results["test"]["moon_table"]
    assert sum(b["predicted"] * b["pairs"] for b in moons) == pytest.approx(sum(expected_moon))
    assert sum(expected_moon) != pytest.approx(sum(raw_moon))  # the kept map, not the play-outs' figures
    fit.write_text(json.dumps({"runs": [run.name], "moon_map": moon, "quiet_map": quiet}))
    with pytest.raises(ValueError, match=f"fitted on {run.name}"):
        fit_calibration.judge_by_kept_map([str(run)], fit)
    fit.write_text(json.dumps({"runs": [], "moon_map": moon}))
    with pytest.raises(ValueError, match="no quiet_map"):
        fit_calibration.judge_by_kept_map([str(run)], fit)
    # a map of an earlier form (four quiet groups of four terms) is not read as today's
    earlier = {group: (0.3, 0.8, 0.1, 0.2) for group in ("pass own", "pass other", "play own", "play other")}
    fit.write_text(json.dumps({"runs": [], "moon_map": moon, "quiet_map": earlier}))
    with pytest.raises(ValueError, match=r"quiet_map is not in today's form .*play own \(4\)"):
        fit_calibration.judge_by_kept_map([str(run)], fit)
    fit.write_text("{not json")
    with pytest.raises(ValueError, match="not a fit's --json"):
        fit_calibration.judge_by_kept_map([str(run)], fit)


def test_a_kept_map_is_shipped_as_tested_with_exactly_the_runs_it_was_fitted_on(tmp_path, monkeypatch):
    """``fit_calibration.py RUN ... --ship FIT.json``: the engine gets the map that fit kept, word
    for word, and the seeds of its runs as the hands fitted on; a run missing or one it was not
    fitted on is refused before anything is written."""
    placed = {
        **ROWS[0],
        "raw_moon": [0.02, 0.2, 0.0, 0.01],
        "raw_points": [5.0, 9.0, 6.0, 6.0],
        "where": WHERE,
    }
    first = calibration.keep_run([placed], args(500, 1), "b-this-model", tmp_path)
    second = calibration.keep_run([{**placed, "hand": 900}], args(900, 1), "b-this-model", tmp_path)
    moon = {group: (0.1, 0.9, 0.2, -0.5, 0.3) for group in MOON}
    quiet = {group: (0.3, 0.8, 0.1, 0.2, -0.2) for group in fit_calibration.QUIET_GROUPS}
    fit = tmp_path / "fit.json"
    fit.write_text(
        json.dumps({"runs": [first.name, second.name], "hands": 2, "moon_map": moon, "quiet_map": quiet})
    )
    target = tmp_path / "calibration_map.json"
    monkeypatch.setattr(fit_calibration, "MAP_FILE", target)
    for runs, reason in (([first], "1 missing"), ([first, second, first], "given twice")):
        with pytest.raises(ValueError, match=reason):
            fit_calibration.ship_kept_map([str(run) for run in runs], fit)
    assert not target.exists()
    other = calibration.keep_run([{**placed, "hand": 700}], args(700, 1), "b-this-model", tmp_path)
    with pytest.raises(ValueError, match=f"1 not fitted on \\({other.name}\\)"):
        fit_calibration.ship_kept_map([str(first), str(second), str(other)], fit)
    assert not target.exists()
    assert fit_calibration.ship_kept_map([str(first), str(second)], fit) == 2
    written = read_map(target)
    assert written["MOON"] == moon and written["QUIET"] == quiet
    assert written["FITTED_HANDS"] == ((500, 500), (900, 900))
    assert written["PROVENANCE"]["hands"] == 2 and written["PROVENANCE"]["run_files"] == sorted(
        [first.name, second.name]
    )
