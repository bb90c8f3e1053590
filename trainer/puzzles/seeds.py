"""The seeds that took part in selecting or keeping a library's puzzles (``FOLDER/seeds.json``).

A figure of how many puzzles hold is worth something only on deals that played no part in
choosing them: a seed that dropped the puzzles that failed on it keeps, by construction, only
puzzles that hold on it. So the library keeps, in one file written by code:

- ``mining``: the miners' ``--seed`` (the bot games the puzzles come from; also read from the
  mined files' names, ``play-standard-101-000-11`` is seed 101);
- ``verification``: every re-verification's ``--seed`` that kept or dropped puzzles, or looked at
  them, with its date and outcome;
- ``puzzles``: each puzzle's own verification seeds (the miner's, then each rewrite's:
  ``answer.seed``), so a new seed is refused when it would give a puzzle deals it was verified on.

``python -m trainer.puzzles.verify`` refuses to report with such a seed unless told the run is a
reproduction, and adds its seed here once a run rewrites or drops files (``--write``).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PuzzleError
from .source import read_toml

__all__ = ["SeedsError", "UsedSeeds", "load_seeds", "record_seeds", "seeds_file", "why_used"]

FORMAT = "hearts-trainer/puzzle-seeds"
MINED = re.compile(r"(?:pass|play)-[a-z-]+-(\d+)-\d{3}-\d{2}")
"""A mined puzzle's id: kind, table, the miner's seed, hand, decision (``trainer.puzzles.job``)."""


class SeedsError(ValueError):
    """A seeds file that cannot be read; the message names the file and the field."""


def seeds_file(folder: Path) -> Path:
    return Path(folder) / "seeds.json"


@dataclass
class UsedSeeds:
    mining: set[int] = field(default_factory=set)
    verification: dict[int, str] = field(default_factory=dict)
    """Seed -> what it did ("2026-12-05: 432 of 446 held, 14 dropped")."""
    puzzles: dict[str, set[int]] = field(default_factory=dict)


def load_seeds(folder: Path) -> UsedSeeds:
    """The folder's seeds file (an empty record when there is none); a bad one raises
    ``SeedsError`` naming the file and the field."""
    path = seeds_file(folder)
    if not path.exists():
        return UsedSeeds()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SeedsError(f"{path}: cannot be read as JSON: {str(error)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SeedsError(f"{path}: format: must be {FORMAT!r}")

    def seed(value: object, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SeedsError(f"{path}: {where}: a seed is a whole number from 0, not {str(value)[:40]!r}")
        return value

    def listed(name: str, kind: type) -> list | dict:
        value = data.get(name, kind())
        if not isinstance(value, kind):
            raise SeedsError(f"{path}: {name}: must be a {'list' if kind is list else 'table'}")
        return value

    used = UsedSeeds()
    used.mining = {seed(value, f"mining[{i}]") for i, value in enumerate(listed("mining", list))}
    for i, entry in enumerate(listed("verification", list)):
        if not isinstance(entry, dict) or not isinstance(entry.get("what", ""), str):
            raise SeedsError(f"{path}: verification[{i}]: must be {{seed, what}}")
        used.verification[seed(entry.get("seed"), f"verification[{i}].seed")] = entry.get("what", "")
    for puzzle, values in listed("puzzles", dict).items():
        if not isinstance(values, list):
            raise SeedsError(f"{path}: puzzles.{puzzle[:60]}: must be a list of seeds")
        used.puzzles[puzzle] = {seed(value, f"puzzles.{puzzle[:60]}") for value in values}
    return used


def _files(folder: Path) -> dict[str, int]:
    """Each puzzle file's id and verification seed now (files that do not read are left to
    ``python -m trainer.puzzles check``)."""
    found = {}
    for path in sorted(Path(folder).glob("*.toml")):
        try:
            data = read_toml(path)
        except PuzzleError:
            continue
        answer = data.get("answer")
        seed = answer.get("seed") if isinstance(answer, dict) else None
        if isinstance(data.get("id"), str) and isinstance(seed, int):
            found[data["id"]] = seed
    return found


def _with_files(used: UsedSeeds, folder: Path) -> UsedSeeds:
    """The record with what the files themselves say: their verification seeds and, from a
    mined puzzle's name, its miner's seed."""
    for puzzle, seed in _files(folder).items():
        used.puzzles.setdefault(puzzle, set()).add(seed)
        mined = MINED.fullmatch(puzzle)
        if mined:
            used.mining.add(int(mined.group(1)))
    return used


def why_used(folder: Path, seed: int) -> str | None:
    """Why ``seed`` took part in selecting or keeping the puzzles of ``folder`` (None if it
    did not): as a re-verification's or a miner's seed, or because a puzzle's fresh deals on it
    (``trainer.puzzles.reverify.reverify_seed``) are deals it was verified on."""
    from .reverify import reverify_seed

    used = _with_files(load_seeds(folder), folder)
    where = seeds_file(folder)
    if seed in used.verification:
        return f"a re-verification of these puzzles used it ({used.verification[seed] or 'no note'}; {where})"
    if seed in used.mining:
        return f"the miner's games of these puzzles used it ({where})"
    for puzzle, seeds in sorted(used.puzzles.items()):
        if reverify_seed(seed, puzzle) in seeds:
            return f"{puzzle} was verified on the deals it gives that puzzle ({where})"
    return None


def record_seeds(folder: Path, verification: int | None = None, what: str = "", part: bool = False) -> Path:
    """Add ``verification`` (with ``what`` it did) and the files' own seeds to the folder's
    seeds file, written whole (a temporary file, then renamed). Seeds are only ever added; a seed
    on record keeps its first note, unless this run is a further ``part`` of the same
    re-verification (``verify --resume``): its note is then added to the first."""
    used = _with_files(load_seeds(folder), folder)
    if verification is not None and verification not in used.verification:
        used.verification[verification] = what
    elif verification is not None and part and what:
        used.verification[verification] += f"; then {what}"
    path = seeds_file(folder)
    rows = ",\n".join(
        f"  {json.dumps(puzzle)}: {json.dumps(sorted(seeds))}"
        for puzzle, seeds in sorted(used.puzzles.items())
    )
    checks = ",\n".join(
        f"  {json.dumps({'seed': seed, 'what': note}, ensure_ascii=False)}"
        for seed, note in sorted(used.verification.items())
    )
    text = (
        f'{{\n "format": "{FORMAT}",\n "version": 1,\n'
        f' "mining": {json.dumps(sorted(used.mining))},\n'
        f' "verification": [\n{checks}\n ],\n'
        f' "puzzles": {{\n{rows}\n }}\n}}\n'
    )
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".seeds-", suffix=".json.tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
