"""Re-verifying the puzzle files under the current evaluator, with an independent seed.

Each puzzle's position is valued again on fresh deals (``trainer.puzzles.verify``). It is

- *kept* when it holds and its accepted answers are the ones stored;
- *fixed* when it holds with other accepted answers (the file is rewritten with them);
- *dropped* when it does not hold (the file is deleted), with the reason.

Kept and fixed files get the new evaluation, explanation and verification note, so what the
learner is shown comes from the evaluation that verified it.
"""

from __future__ import annotations

import multiprocessing
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .format import load_puzzle, save_puzzle
from .library import write_index
from .source import read_toml
from .tasks import puzzle_data
from .verify import MIN_ERRORS, MIN_LOSS, natural_choice, verify_position

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

    def count(self, status: str, kind: str | None = None) -> int:
        return sum(
            1 for o in self.outcomes if o.status == status and (kind is None or o.puzzle.startswith(kind))
        )

    def summary(self) -> str:
        return (
            f"{len(self.outcomes)} puzzles re-verified (seed {self.seed}): {self.count('kept')} kept, "
            f"{self.count('fixed')} fixed, {self.count('dropped')} dropped"
        )

    def markdown(self) -> str:
        lines = [
            BEGIN,
            "## Re-verification",
            "",
            f"{self.summary()}. Command: `python -m trainer.puzzles.verify puzzles --seed {self.seed} "
            "--write --report puzzles/README.md`. Every option of every puzzle was valued on the same "
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


def _logged(outcomes, log: Callable[[str], None]):
    for outcome in outcomes:
        log(f"{outcome.puzzle}: {outcome.status} {outcome.reason}".rstrip())
        yield outcome


def _reverify_file(job: tuple[Path, int, bool]) -> Outcome:
    """One puzzle file re-verified (rewritten or deleted when ``write``)."""
    path, seed, write = job
    puzzle = load_puzzle(path)
    view = puzzle.view
    natural = natural_choice(puzzle.kind, view)
    checked = verify_position(puzzle.kind, view, reverify_seed(seed, puzzle.id), natural)
    before = tuple(sorted(puzzle.answer.accepted))
    after = tuple(sorted(checked.accepted))
    evaluation = checked.evaluation
    if not checked.holds:
        status, reason = "dropped", checked.reason
    elif set(before) == set(after):
        status, reason = "kept", ""
    else:
        status, reason = "fixed", "other accepted answers on fresh deals"
    outcome = Outcome(
        puzzle.id,
        status,
        before,
        after,
        checked.natural,
        evaluation.value_of(natural).loss,
        evaluation.best.moon_for,
        reason,
    )
    if not write:
        return outcome
    if status == "dropped":
        path.unlink()
        return outcome
    data = {
        "id": puzzle.id,
        **puzzle_data(puzzle.kind, view, puzzle.rules, puzzle.position, checked, natural, []),
    }
    data["difficulty"] = puzzle.difficulty  # the rating and its evidence stay
    kept = read_toml(path).get("evidence")
    if kept is None:
        del data["evidence"]
    else:
        data["evidence"] = kept
    save_puzzle(data, path)
    load_puzzle(path)  # refuses a file that would not load, naming the field
    return outcome


def reverify_folder(
    folder: Path,
    seed: int,
    write: bool = False,
    log: Callable[[str], None] = lambda _: None,
    workers: int = 1,
) -> Report:
    """Every puzzle file of ``folder`` re-verified; with ``workers`` > 1, in that many processes
    (each puzzle on its own seed and written by the process that checked it, so the outcome is
    the same as one at a time; the index is written once all are done)."""
    report = Report(seed)
    jobs = [(path, seed, write) for path in sorted(Path(folder).glob("*.toml"))]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            outcomes = list(_logged(pool.imap(_reverify_file, jobs), log))
    else:
        outcomes = list(_logged(map(_reverify_file, jobs), log))
    report.outcomes.extend(outcomes)
    if write:
        write_index(folder)
    return report
