"""A position the learner sets up on the analysis board: what they know of one hand, nothing more.

Seats are numbered from the learner: 0 is you, 1 the next to play after you (Left), and so on round
the table (``trainer.seats`` names them). At the pass the position is the hand dealt and the
direction; mid-hand it is the cards held now, what was passed and received, and the tricks so far
in order with who led each (the last one possibly unfinished, the learner to play next). Other
hands are never asked for.

``check`` decides with the engine: it builds one full deal consistent with what the learner knows
and replays it through the engine's own actions, so an impossible position is refused with the
engine's reason, naming the card or trick at fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, HandState, PassDirection, PlayerView, Rules
from engine.rules import PRESETS

from .errors import PositionError

__all__ = ["MOMENTS", "AnalysisPosition", "Trick", "from_puzzle", "from_view"]

MOMENTS = ("pass", "play")


@dataclass(frozen=True)
class Trick:
    """A trick as the learner saw it: who led it (seat numbered from the learner) and the cards
    in the order played."""

    leader: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class AnalysisPosition:
    """What the learner (seat 0) knows at one decision of one hand."""

    players: int
    preset: str
    """A key of ``engine.rules.PRESETS``; the table's size is ``players``."""
    moment: str
    """"pass" (choose the cards to pass) or "play" (choose a card)."""
    hand: tuple[Card, ...]
    """The learner's cards now: the cards dealt at the pass, the cards still held mid-hand."""
    direction: PassDirection = PassDirection.LEFT
    """This hand's pass; at "play", whether (and where) a pass happened ("hold": none)."""
    passed: tuple[Card, ...] = ()
    """What the learner passed (mid-hand)."""
    received: tuple[Card, ...] = ()
    """What the learner received (mid-hand)."""
    tricks: tuple[Trick, ...] = ()
    """The tricks so far, in order; the last may be unfinished, and the learner plays next."""
    scores: tuple[int, ...] = field(default=())
    """The game's scores before this hand, by seat (empty: all zero)."""

    @property
    def rules(self) -> Rules:
        """The preset's rules at this table's size."""
        if self.preset not in PRESETS:
            raise PositionError("preset", f"{self.preset!r} is not a rule preset")
        return PRESETS[self.preset].replace(players=self.players)

    def check(self) -> None:
        """Raise ``PositionError`` (one line: the field, the card or trick, the engine's reason)
        unless some deal of the other hands makes this position happen."""
        raise NotImplementedError

    def view(self) -> PlayerView:
        """The learner's view: what the engine gives seat 0 in any hand that reaches this
        position (checked first)."""
        raise NotImplementedError

    def options(self) -> tuple[Card, ...] | int:
        """The legal cards to play, or at the pass the number of cards to pass."""
        raise NotImplementedError

    def sample_state(self, seed: int = 0) -> HandState:
        """A full hand, with history, consistent with the view (the other hands drawn from
        ``seed``): bots can play it out from here ("Play it out")."""
        raise NotImplementedError


def from_view(view: PlayerView, rules: Rules | None = None) -> AnalysisPosition:
    """The position a seat's view shows at its decision (a review's key moment, a puzzle, a
    lesson's table), seats renumbered from that seat. ``rules`` default to the view's; they must
    be one of the presets."""
    raise NotImplementedError


def from_puzzle(puzzle) -> AnalysisPosition:
    """The position of a puzzle (``trainer.puzzles.format.Puzzle``): its solver's view."""
    return from_view(puzzle.view, puzzle.rules)
