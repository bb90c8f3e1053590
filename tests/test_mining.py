"""The puzzle miner's tasks and its Dask job: decided the same way anywhere, resumable, atomic.

The job runs on a real ``LocalCluster`` of two worker processes, on a small budget in deals (the
depth of the library's own verification is in ``trainer.puzzles.tasks.MiningBudget``'s defaults)."""

from __future__ import annotations

import itertools
import json
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine import parse_card
from engine.rules import PRESETS
from engine.search.evaluator import Evaluation, OptionValue
from trainer.puzzles.format import load_puzzle
from trainer.puzzles.job import Journal, puzzle_id, run_job
from trainer.puzzles.tasks import TABLES, Candidate, MiningBudget, candidates, decide, doomed
from trainer.puzzles.verify import MIN_LOSS, TOLERANCE

SMALL = MiningBudget(
    screen=96, pre_verify={"play": 128, "pass": 128}, verify={"play": 384, "pass": 256}, exact=48, bot_tries=1
)


def some_candidates(count: int, kind: str = "play", table: str = "standard") -> list[Candidate]:
    return list(itertools.islice((c for c in candidates(table, 5, 3) if c.kind == kind), count))


def test_candidates_are_self_contained_plain_data_with_unique_keys():
    found = list(candidates("standard", 5, 2))
    assert len({c.key for c in found}) == len(found)
    assert {c.kind for c in found} == {"pass", "play"}
    first = found[0]
    assert first.kind == "pass" and first.position["seat"] == 0 and len(first.position["hands"]) == 4
    assert json.loads(json.dumps(first.__dict__)) == first.__dict__  # ships as JSON-like data


def test_every_table_the_lessons_teach_gives_candidates():
    assert set(TABLES) >= {
        "standard",
        "three_players",
        "five_players",
        "omnibus",
        "black_maria",
        "shooters_choice",
    }
    for table in ("three_players", "five_players", "omnibus"):
        candidate = next(c for c in candidates(table, 5, 1) if c.kind == "play")
        assert len(candidate.position["hands"]) == PRESETS[table].players


def test_a_task_is_decided_the_same_way_wherever_it_runs():
    candidate = some_candidates(1)[0]
    first, again = decide(candidate, SMALL), decide(dict(candidate.__dict__), SMALL)
    for result in (first, again):
        result.pop("seconds")
    assert first == again


def test_a_verified_puzzle_keeps_the_acceptance_rule_and_its_bot_evidence():
    for candidate in some_candidates(40):
        result = decide(candidate, SMALL)
        if result["status"] == "puzzle":
            break
    else:
        pytest.fail("no puzzle among 40 play candidates")
    data = result["data"]
    rows = {row[0]: row for row in data["answer"]["options"]}
    loss = data["answer"]["option_columns"].index("loss")
    for option, row in rows.items():
        if option in data["answer"]["accepted"]:
            assert row[loss] <= TOLERANCE
        else:
            assert row[loss] >= MIN_LOSS
    assert candidate.natural not in data["answer"]["accepted"]
    answers = data["evidence"]["answers"]
    assert [a["bot"] for a in answers] == ["easy", "normal", "hard"]
    normal = next(a for a in answers if a["bot"] == "normal")
    assert normal["answer"] == candidate.natural and not normal["solved"]  # the natural choice fails
    assert 800 <= data["difficulty"] <= 2400


def made_up(rows: dict[str, tuple[float, float]]) -> Evaluation:
    """A play evaluation: card -> (loss, its standard error)."""
    values = tuple(
        OptionValue(parse_card(card), loss, 0.0, loss, error, 0.0, 0.0, loss, error, 512)
        for card, (loss, error) in sorted(rows.items(), key=lambda item: item[1][0])
    )
    return Evaluation("play", 0, values, 1, 512, 0.1)


def test_pre_verification_rejects_only_where_the_rule_is_seen_to_fail_by_three_errors():
    clean = made_up({"AS": (0.0, 0.0), "2H": (1.8, 0.2), "3H": (4.0, 0.3)})
    assert doomed(clean, parse_card("2H")) == ""
    stuck = made_up({"AS": (0.0, 0.0), "KS": (0.75, 0.05), "2H": (1.8, 0.2)})
    assert "KS loses 0.75 ± 0.05: between right and clearly wrong" in doomed(stuck, parse_card("2H"))
    unsure = made_up({"AS": (0.0, 0.0), "KS": (0.75, 0.2), "2H": (1.8, 0.2)})
    assert doomed(unsure, parse_card("2H")) == ""  # might still be right or clearly wrong
    natural_best = made_up({"AS": (0.0, 0.0), "2H": (0.1, 0.1), "3H": (4.0, 0.3)})
    assert "natural 2H is as good as the best" in doomed(natural_best, parse_card("2H"))


def test_pre_verification_also_rejects_what_will_probably_fail_at_verification():
    """Three options near the middle of the gap, none sure to stay there: each alone might still
    end right or clearly wrong on 8x the deals, but the rule needs all three to."""
    crowded = made_up(
        {"AS": (0.0, 0.0), "KS": (0.75, 0.12), "QS": (0.7, 0.12), "JS": (0.8, 0.12), "2H": (2.0, 0.2)}
    )
    assert doomed(crowded, parse_card("2H")) == ""  # not seen by three errors
    assert "the rule would hold with a chance of" in doomed(crowded, parse_card("2H"), final_deals=4096)
    clear = made_up({"AS": (0.0, 0.0), "KS": (1.6, 0.12), "2H": (2.0, 0.2)})
    assert doomed(clear, parse_card("2H"), final_deals=4096) == ""


def test_the_job_on_a_two_process_local_cluster_is_resumable_and_writes_whole_files(tmp_path, scheduler):
    jobs = some_candidates(10) + some_candidates(1, "pass")
    out = tmp_path / "puzzles"
    report = run_job(jobs, out, budget=SMALL, workers=2)  # its own cluster, as the miner starts one
    assert report.decided == len(jobs) and report.skipped == 0
    journal = Journal(out / ".journal.jsonl")
    assert set(journal.decided) == {c.key for c in jobs}
    files = sorted(out.glob("*.toml"))
    assert [p.name for p in files] == sorted(p.name for p in report.written)
    assert not list(out.glob(".*.tmp"))
    for path in files:
        puzzle = load_puzzle(path)  # every file whole and valid
        assert tomllib.loads(path.read_text(encoding="utf-8"))["version"] == 2  # options packed
        key = next(k for k, e in journal.decided.items() if e.get("file") == path.name)
        assert puzzle.id == puzzle_id(puzzle.kind, key)
    # the same job again: nothing is decided twice, nothing rewritten
    stamps = {p: p.stat().st_mtime_ns for p in files}
    again = run_job(jobs, out, budget=SMALL, scheduler=scheduler)
    assert again.decided == 0 and again.skipped == len(jobs)
    assert {p: p.stat().st_mtime_ns for p in files} == stamps
    # a journal cut short by a crash: its last candidate is decided again, and only that one
    lines = (out / ".journal.jsonl").read_text(encoding="utf-8").splitlines()
    (out / ".journal.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20], encoding="utf-8")
    resumed = run_job(jobs, out, budget=SMALL, scheduler=scheduler)
    assert resumed.decided == 1 and resumed.skipped == len(jobs) - 1


def test_the_job_stops_once_it_has_the_puzzles_it_wants(tmp_path, scheduler):
    jobs = some_candidates(40)
    report = run_job(jobs, tmp_path, budget=SMALL, scheduler=scheduler, wanted={"pass": 0, "play": 1})
    assert report.written  # the one wanted, and any verified among those already in flight
    assert report.decided < len(jobs)  # the rest were never sent


def test_the_quota_is_the_jobs_total_and_a_resumed_run_mines_only_what_is_missing(tmp_path, scheduler):
    """Interrupted after two puzzles, then resumed: three in all, as ``--plays 3`` asks. A
    puzzle verified past the quota is kept in the journal as spare and written, not decided
    again, by a later run that wants it."""
    jobs = some_candidates(120)  # the 118 plays of 3 hands: 7 puzzles on this budget
    wanted = {"pass": 0, "play": 3}
    journal = tmp_path / ".journal.jsonl"

    def interrupt_at_two(report):
        if len(report.written) == 2:
            raise KeyboardInterrupt  # Ctrl-C, or a killed run: the journal is all that is left

    with pytest.raises(KeyboardInterrupt):
        run_job(jobs, tmp_path, budget=SMALL, scheduler=scheduler, wanted=wanted, progress=interrupt_at_two)
    _, second = sorted(tmp_path.glob("*.toml"))
    # The second as a run past its quota leaves it: in the journal whole, not in the folder.
    second_bytes = second.read_bytes()
    entries = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    key = next(e["key"] for e in entries if e.get("file") == second.name)
    data = {k: v for k, v in tomllib.loads(second_bytes.decode()).items() if k != "id"}
    spare = {**next(e for e in entries if e["key"] == key), "status": "spare", "data": data}
    del spare["file"]
    journal.write_text(
        "".join(json.dumps(e if e["key"] != key else spare) + "\n" for e in entries), encoding="utf-8"
    )
    second.unlink()

    resumed = run_job(jobs, tmp_path, budget=SMALL, scheduler=scheduler, wanted=wanted)
    assert resumed.before == {"pass": 0, "play": 1}
    assert second.read_bytes() == second_bytes  # the spare, written as it was verified
    added = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[len(entries) :]]
    assert [(e["status"], e.get("file")) for e in added if e["key"] == key] == [("puzzle", second.name)]
    assert len(resumed.written) == 2 and resumed.found == {"pass": 0, "play": 3}
    assert len(list(tmp_path.glob("*.toml"))) == 3  # the quota, not 2 + 3
    assert "the job has 3 of 3 play puzzles wanted (1 play from before)" in resumed.summary()

    again = run_job(jobs, tmp_path, budget=SMALL, scheduler=scheduler, wanted=wanted)
    assert again.decided == 0 and not again.written  # the quota is met: nothing more is mined
    assert len(list(tmp_path.glob("*.toml"))) == 3


def test_the_miner_names_a_scheduler_it_cannot_reach_in_one_line(tmp_path):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "trainer.puzzles.mine",
            "--out",
            str(tmp_path / "out"),
            "--hands",
            "1",
            "--scheduler",
            address,
        ],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[1],
    )
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert address in run.stderr and "refused" in run.stderr and "`dask scheduler`" in run.stderr
    assert not (tmp_path / "out").exists()  # nothing made, nothing written


def test_a_resumed_miner_continues_the_quota_and_hands_its_job_was_given(
    tmp_path, scheduler, monkeypatch, capsys
):
    """``mine`` killed after its first puzzle, then run again naming only its table and seed: it
    carries on with the two play puzzles over three hands it was given (not the defaults: ten of
    each over twenty hands), and a third run mines nothing."""
    import trainer.puzzles.job as job
    from trainer.puzzles import mine

    monkeypatch.setattr(job, "MiningBudget", lambda: SMALL)  # the library's depth is not the point
    shown = job.progress_line

    def killed_after_one(report):
        shown(report)
        if report.written:
            raise KeyboardInterrupt

    out, same_job = tmp_path / "out", ["--out", str(tmp_path / "out"), "--table", "standard", "--seed", "5"]
    monkeypatch.setattr(job, "progress_line", killed_after_one)
    with pytest.raises(KeyboardInterrupt):
        mine.main([*same_job, "--hands", "3", "--plays", "2", "--passes", "0", "--scheduler", scheduler])
    assert len(list(out.glob("*.toml"))) == 1
    monkeypatch.setattr(job, "progress_line", shown)
    capsys.readouterr()

    mine.main([*same_job, "--scheduler", scheduler])
    err = capsys.readouterr().err
    assert "resuming the job standard/5 of" in err and "hands 3, first-hand 0, passes 0, plays 2" in err
    assert "the job has 2 of 2 play puzzles wanted (1 play from before)" in err
    files = sorted(out.glob("*.toml"))
    assert len(files) == 2 and all(int(path.name.split("-")[3]) < 3 for path in files)  # its 3 hands

    mine.main([*same_job, "--scheduler", scheduler])
    assert "0 candidates decided" in capsys.readouterr().err and sorted(out.glob("*.toml")) == files
