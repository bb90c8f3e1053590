"""Re-verifying the puzzle files under the current evaluator, with an independent seed.

Each puzzle's position is valued again on fresh deals (``trainer.puzzles.verify``). It is

- *kept* when it holds and its accepted answers are the ones stored;
- *fixed* when it holds with other accepted answers (the file is rewritten with them);
- *dropped* when it does not hold (the file is deleted), with the reason.

Kept and fixed files get the new evaluation, explanation and verification note, so what the
learner is shown comes from the evaluation that verified it.

Each puzzle is one task: this process reads the files and ships each position as plain data
(rules, position, accepted answers, seed), a task values it and returns the outcome and the new
file's data, and this process writes. The tasks run here, in a process pool, or on Dask (a local
cluster or a running one, ``engine.cluster``), with the same outcomes for the same seed.
"""

from __future__ import annotations

import contextlib
import fnmatch
import multiprocessing
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import Rules
from engine.cluster import CONNECT_TIMEOUT, WORKER_WAIT, run_on_dask

from .errors import PuzzleError
from .format import load_puzzle, position_state, save_puzzle
from .library import write_index
from .source import read_toml
from .tasks import puzzle_data
from .verify import EXACT_DEALS, MIN_ERRORS, MIN_LOSS, natural_choice, verify_position

__all__ = ["Outcome", "Report", "reverify_folder", "reverify_seed"]

BEGIN = "<!-- re-verification: begin -->"
END = "<!-- re-verification: end -->"


def reverify_seed(seed: int, puzzle_id: str) -> int:
    """Each puzzle's own fresh seed (a stable hash of its id, not Python's salted ``hash``)."""
    return seed * 1_000_003 + zlib.crc32(puzzle_id.encode())


@dataclass(frozen=True)
class Outcome:
    puzzle: str
    status: str
    """"kept", "fixed" or "dropped"."""
    before: tuple[str, ...]
    after: tuple[str, ...]
    natural: str
    natural_loss: float
    best_moon: float
    reason: str


@dataclass
class Report:
    seed: int
    outcomes: list[Outcome] = field(default_factory=list)
    used: str | None = None
    """Why the seed took part in selecting these puzzles (``trainer.puzzles.seeds.why_used``):
    the run is then a reproduction and its figure not an independent one; None for a fresh seed."""

    def count(self, status: str, kind: str | None = None) -> int:
        return sum(
            1 for o in self.outcomes if o.status == status and (kind is None or o.puzzle.startswith(kind))
        )

    def summary(self) -> str:
        return (
            f"{len(self.outcomes)} puzzles re-verified (seed {self.seed}): {self.count('kept')} kept, "
            f"{self.count('fixed')} fixed, {self.count('dropped')} dropped"
        )

    def figure(self) -> str:
        """How many hold, and on what kind of seed: the figure a report gives the library."""
        held = len(self.outcomes) - self.count("dropped")
        if self.used is None:
            return (
                f"**{held} of {len(self.outcomes)} hold** on seed {self.seed}, one never used on these "
                "puzzles before (not a miner's, not a puzzle's verification seed, not an earlier "
                "re-verification's: `puzzles/seeds.json`), counted before any puzzle is removed"
            )
        return (
            f"{held} of {len(self.outcomes)} hold on seed {self.seed}, a reproduction: {self.used}, so "
            "this is not an independent figure"
        )

    def markdown(self) -> str:
        lines = [
            BEGIN,
            "## Re-verification",
            "",
            f"{self.figure()}.",
            "",
            f"{self.summary()}. Command: `python -m trainer.puzzles.verify puzzles --seed {self.seed} "
            f"--write --report puzzles/README.md{' --reproduce' if self.used else ''}`. "
            "Every option of every puzzle was valued on the same "
            "fresh deals (plays 4,096, late plays solved exactly on 1,024, or on every deal the position "
            "allows when there are no more; passes: all 286 on 8,192); "
            f"an answer holds when every option outside the accepted ones loses at least {MIN_LOSS} "
            f"points and {MIN_ERRORS:.0f} standard errors, and the natural-looking choice is not accepted.",
            "",
            "| kind | kept | fixed | dropped |",
            "| --- | ---: | ---: | ---: |",
        ]
        for kind in ("pass", "play"):
            lines.append(
                f"| {kind} | {self.count('kept', kind)} | {self.count('fixed', kind)} | "
                f"{self.count('dropped', kind)} |"
            )
        lines += ["", "| puzzle | status | accepted before | accepted now | natural (loss) | why |"]
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for o in self.outcomes:
            lines.append(
                f"| {o.puzzle} | {o.status} | {', '.join(o.before)} | {', '.join(o.after)} | "
                f"{o.natural} ({o.natural_loss:.1f}) | {o.reason} |"
            )
        lines.append(END)
        return "\n".join(lines) + "\n"

    def write_into(self, path: Path) -> None:
        """Replace the re-verification section of a Markdown file (or append one)."""
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1].lstrip("\n")
            text = head + self.markdown() + tail
        else:
            text = text.rstrip("\n") + "\n\n" + self.markdown()
        path.write_text(text, encoding="utf-8")


def _task(path: Path, seed: int, write: bool, deals: dict | None, exact: int) -> dict:
    """One puzzle file as a task: plain data, a few kilobytes (the file is read here, once, and
    a bad one raises here, naming its field)."""
    puzzle = load_puzzle(path)
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "rules": puzzle.rules.to_dict(),
        "position": puzzle.position,
        "accepted": sorted(puzzle.answer.accepted),
        "difficulty": puzzle.difficulty,
        "seed": reverify_seed(seed, puzzle.id),
        "write": write,
        "deals": deals,
        "exact": exact,
    }


def _recheck(task: dict) -> tuple[Outcome, dict | None]:
    """A puzzle valued again on its own fresh deals: its outcome, and (when it is to be
    written and holds) its file's new data, evidence aside (the file keeps its own)."""
    kind, rules = task["kind"], Rules.from_dict(task["rules"])
    seat, state = position_state(kind, rules, task["position"])
    view = state.view(seat, scores=tuple(task["position"].get("scores", [0] * rules.players)))
    natural = natural_choice(kind, view)
    deals = (task["deals"] or {}).get(kind)
    checked = verify_position(kind, view, task["seed"], natural, deals=deals, exact=task["exact"])
    before = tuple(task["accepted"])
    after = tuple(sorted(checked.accepted))
    evaluation = checked.evaluation
    if not checked.holds:
        status, reason = "dropped", checked.reason
    elif set(before) == set(after):
        status, reason = "kept", ""
    else:
        status, reason = "fixed", "other accepted answers on fresh deals"
    outcome = Outcome(
        task["id"],
        status,
        before,
        after,
        checked.natural,
        evaluation.value_of(natural).loss,
        evaluation.best.moon_for,
        reason,
    )
    if not task["write"] or status == "dropped":
        return outcome, None
    data = {"id": task["id"], **puzzle_data(kind, view, rules, task["position"], checked, natural, [])}
    data["difficulty"] = task["difficulty"]  # the rating and its evidence stay
    return outcome, data


def _apply(path: Path, outcome: Outcome, data: dict | None, write: bool) -> None:
    """The outcome written back: the file rewritten with the new data, or deleted if dropped."""
    if not write:
        return
    if outcome.status == "dropped":
        path.unlink()
        return
    assert data is not None
    kept = read_toml(path).get("evidence")
    if kept is None:
        data.pop("evidence", None)
    else:
        data["evidence"] = kept
    save_puzzle(data, path)
    load_puzzle(path)  # refuses a file that would not load, naming the field


def reverify_folder(
    folder: Path,
    seed: int,
    write: bool = False,
    log: Callable[[str], None] = lambda _: None,
    workers: int = 1,
    *,
    dask: bool = False,
    scheduler: str | None = None,
    deals: dict[str, int] | None = None,
    exact: int = EXACT_DEALS,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_wait: float = WORKER_WAIT,
    only: str | None = None,
    resume: bool = False,
) -> Report:
    """Every puzzle file of ``folder`` re-verified: in this process, with ``workers`` > 1 in
    that many processes, with ``dask`` on a local Dask cluster of ``workers`` processes, with
    ``scheduler`` on that running cluster (``connect_timeout`` and ``worker_wait`` as
    ``engine.cluster.run_on_dask`` takes them). Each puzzle has its own seed and is written by
    this process as its outcome comes in, so every way gives the same outcomes, listed in file
    order; the index is written once all are done. ``deals`` ({"play": n, "pass": m}) and
    ``exact`` replace ``trainer.puzzles.verify``'s deals (tests use few). ``only`` (a pattern
    such as ``play-*-5502-*``) re-verifies just the files whose names match it, the new ones of
    a mining run, say. ``resume`` leaves out the puzzles already rewritten by this seed (their
    answer's seed is the one this seed gives them): a run stopped part way, or done in parts,
    carries on with the rest."""
    report = Report(seed)
    paths = sorted(p for p in Path(folder).glob("*.toml") if only is None or fnmatch.fnmatch(p.stem, only))
    if resume:
        paths = [path for path in paths if not _done(path, seed)]
    tasks = [_task(path, seed, write, deals, exact) for path in paths]
    outcomes: list[Outcome | None] = [None] * len(tasks)
    if dask or scheduler:
        results = run_on_dask(
            _recheck,
            tasks,
            workers=workers,
            scheduler=scheduler,
            connect_timeout=connect_timeout,
            worker_wait=worker_wait,
        )
        with contextlib.closing(results):
            for index, (outcome, data) in results:
                _apply(paths[index], outcome, data, write)
                outcomes[index] = outcome
                log(_line(outcome))
    else:
        with contextlib.ExitStack() as stack:
            if workers > 1:
                pool = stack.enter_context(multiprocessing.get_context("fork").Pool(workers))
                results = pool.imap(_recheck, tasks)
            else:
                results = map(_recheck, tasks)
            for index, (outcome, data) in enumerate(results):
                _apply(paths[index], outcome, data, write)
                outcomes[index] = outcome
                log(_line(outcome))
    report.outcomes.extend(outcome for outcome in outcomes if outcome is not None)
    if write:
        write_index(folder)
    return report


def _done(path: Path, seed: int) -> bool:
    """Whether the file was rewritten by a re-verification on ``seed`` (a file that does not
    read is not: the task then names its problem)."""
    try:
        data = read_toml(path)
        return data["answer"]["seed"] == reverify_seed(seed, data["id"])
    except (PuzzleError, KeyError, TypeError):
        return False


def _line(outcome: Outcome) -> str:
    return f"{outcome.puzzle}: {outcome.status} {outcome.reason}".rstrip()
