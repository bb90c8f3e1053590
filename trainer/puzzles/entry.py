"""One puzzle file as the library index lists it: what the page filters on, and a fingerprint.

An entry is read from the file itself (``read_entry`` loads it fully, with every check of
``load_puzzle``), so an index built from entries says what the files say, provenance included:
the miner's decision the puzzle comes from, and the verification's seed, deals and margin. A file
that does not load is listed too, with the reason (its ``problem``), so the page can report it without
reading it again while its fingerprint still matches.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import PRESETS, Rules
from engine.excerpt import excerpt
from engine.rules import PRESET_TITLES

from .format import KINDS, THEMES, Puzzle, PuzzleError, load_puzzle

__all__ = [
    "RULES_LABELS",
    "Entry",
    "entry_from_puzzle",
    "fingerprint",
    "margin_of",
    "read_entry",
    "rules_label",
    "source_of",
]

MINED = re.compile(r"(?:pass|play)-([a-z-]+)-(\d+)-(\d{3,})-(\d{2,})")
"""A mined puzzle's id (``trainer.puzzles.job.puzzle_id``): kind, table, seed, hand, decision."""
TOLERANCE = 0.5
"""Within this of the best, an option is graded correct (``trainer.coach.grading.TOLERANCE``)."""

_MINED_FIRST = ("standard", "omnibus", "black_maria", "shooters_choice", "new_moon", "spot_hearts")
RULES_LABELS = {
    **{name: PRESET_TITLES[name] for name in (*_MINED_FIRST, *PRESETS) if PRESETS[name].players == 4},
    "custom": "Other house rules",
}
"""How the page names a rules label: the engine's titles (the rooms and the analysis board use them too)."""


def rules_label(rules: Rules) -> str:
    """The preset these rules are, whatever the table size ("custom" when none is)."""
    at_four = rules.replace(players=4)
    for name, preset in PRESETS.items():
        if preset.players == 4 and preset == at_four:
            return name
    return "custom"


def fingerprint(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class Entry:
    """A listed puzzle file. ``problem`` is set (and the metadata empty) for a file that does not
    load: the reason, without the file's path in front."""

    file: str
    size: int
    sha256: str
    id: str = ""
    kind: str = ""
    title: str = ""
    themes: tuple[str, ...] = ()
    difficulty: int = 0
    players: int = 0
    rules: str = ""
    """The rules label (``rules_label``), not the rules."""
    source: str = ""
    """The miner's decision it was found at (``table/seed/hand/decision``), "" if not mined."""
    seed: int = 0
    """The seed of the deals it was (last) verified on."""
    deals: int = 0
    margin: float | None = None
    """The fewest standard errors by which an option outside "accepted" loses, on the file's
    figures (None: no option's loss has an error, as on every deal solved exactly)."""
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        head = {"file": self.file, "size": self.size, "sha256": self.sha256}
        if self.problem is not None:
            return {**head, "problem": self.problem}
        return {
            **head,
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "players": self.players,
            "rules": self.rules,
            "provenance": {
                "source": self.source,
                "seed": self.seed,
                "deals": self.deals,
                "margin": self.margin,
            },
        }

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Entry:
        """An entry from the index's data; a ``ValueError`` names the field (``where`` first)."""
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")

        def get(key: str, kind: type) -> Any:
            value = data.get(key)
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
                raise ValueError(f"{where}.{key}: expected {kind.__name__}, got {excerpt(value)}")
            return value

        head = {"file": get("file", str), "size": get("size", int), "sha256": get("sha256", str)}
        if "problem" in data:
            return cls(**head, problem=get("problem", str))
        themes = get("themes", list)
        for index, theme in enumerate(themes):
            if theme not in THEMES:
                raise ValueError(f"{where}.themes[{index}]: unknown theme {excerpt(theme)}")
        kind = get("kind", str)
        if kind not in KINDS:
            raise ValueError(f"{where}.kind: {excerpt(kind)} is not 'pass' or 'play'")
        provenance = get("provenance", dict)
        margin = provenance.get("margin")
        if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))):
            raise ValueError(f"{where}.provenance.margin: expected a number or null, got {excerpt(margin)}")
        for key, kind_of in (("source", str), ("seed", int), ("deals", int)):
            value = provenance.get(key)
            if not isinstance(value, kind_of) or isinstance(value, bool):
                expected = kind_of.__name__
                raise ValueError(f"{where}.provenance.{key}: expected {expected}, got {excerpt(value)}")
        return cls(
            **head,
            id=get("id", str),
            kind=kind,
            title=get("title", str),
            themes=tuple(themes),
            difficulty=get("difficulty", int),
            players=get("players", int),
            rules=get("rules", str),
            source=provenance["source"],
            seed=provenance["seed"],
            deals=provenance["deals"],
            margin=margin,
        )


def entry_from_puzzle(puzzle: Puzzle, file: str, raw: bytes = b"") -> Entry:
    return Entry(
        file=file,
        size=len(raw),
        sha256=fingerprint(raw) if raw else "",
        id=puzzle.id,
        kind=puzzle.kind,
        title=puzzle.title,
        themes=puzzle.themes,
        difficulty=puzzle.difficulty,
        players=puzzle.rules.players,
        rules=rules_label(puzzle.rules),
        source=source_of(puzzle.id),
        seed=puzzle.answer.seed,
        deals=puzzle.answer.samples,
        margin=margin_of(puzzle),
    )


def source_of(puzzle_id: str) -> str:
    """The miner's decision a mined puzzle's id names (``standard/102/2/3``), else ""."""
    mined = MINED.fullmatch(puzzle_id)
    if not mined:
        return ""
    table, seed, hand, number = mined.groups()
    return f"{table.replace('-', '_')}/{seed}/{int(hand)}/{int(number)}"


def margin_of(puzzle: Puzzle) -> float | None:
    """The acceptance rule's margin (``trainer.puzzles.verify.acceptance``) on the file's own
    figures, to two decimals: the fewest standard errors by which an option graded wrong loses."""
    ratios = [v.loss / v.loss_error for v in puzzle.answer.options if v.loss > TOLERANCE and v.loss_error]
    if not ratios or math.isinf(min(ratios)):
        return None
    return round(min(ratios), 2)


def read_entry(path: Path) -> tuple[Entry, Puzzle | None]:
    """The file's entry and puzzle, loaded fully (``load_puzzle``); a file that does not load
    gives an entry with its problem, and no puzzle."""
    try:
        raw = path.read_bytes()
    except OSError:
        raw = b""  # load_puzzle says why it cannot be read
    try:
        puzzle = load_puzzle(path)
    except PuzzleError as error:
        reason = str(error).removeprefix(f"{path}: ")
        return Entry(path.name, len(raw), fingerprint(raw), problem=reason), None
    return entry_from_puzzle(puzzle, path.name, raw), puzzle
