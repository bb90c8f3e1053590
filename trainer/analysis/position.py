"""A position the learner sets up on the analysis board: what they know of one hand, nothing more.

Seats are numbered from the learner: 0 is you, 1 the next to play after you (Left), and so on round
the table (``trainer.seats`` names them). At the pass the position is the hand dealt and the
direction; mid-hand it is the cards held now, what was passed and received, and the tricks so far
in order with who led each (the last one possibly unfinished, the learner to play next). Other
hands are never asked for.

``check`` decides with the engine (``trainer.analysis.deal``): it builds one full deal consistent
with what the learner knows and replays it through the engine's own actions, so an impossible
position is refused with the engine's reason, naming the card or trick at fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Card, CardSet, HandState, Phase, PlayerView, Rules
from engine.excerpt import excerpt
from engine.rules import PRESETS, PassDirection, RulesError

from .errors import PositionError

__all__ = ["MOMENTS", "AnalysisPosition", "Trick", "from_puzzle", "from_view", "preset_of"]

MOMENTS = ("pass", "play")


@dataclass(frozen=True)
class Trick:
    """A trick as the learner saw it: who led it (seat numbered from the learner) and the cards
    in the order played."""

    leader: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if isinstance(self.cards, list):
            object.__setattr__(self, "cards", tuple(self.cards))


def _sorted(cards: object) -> object:
    """A set of cards in hand order (clubs, diamonds, spades, hearts; low to high), so a position
    is one value however its cards were given; anything else is left for ``check`` to refuse."""
    if isinstance(cards, (tuple, list, CardSet)) and all(
        isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52 for card in cards
    ):
        return tuple(sorted(Card(card) for card in cards))
    return cards


@dataclass(frozen=True)
class AnalysisPosition:
    """What the learner (seat 0) knows at one decision of one hand.

    Sets of cards (``hand``, ``passed``, ``received``) are kept in hand order; a trick's cards in
    the order played."""

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
    """The game's scores before this hand, by seat (given empty: all zero)."""

    def __post_init__(self) -> None:
        for name in ("hand", "passed", "received"):
            object.__setattr__(self, name, _sorted(getattr(self, name)))
        if isinstance(self.tricks, list):
            object.__setattr__(self, "tricks", tuple(self.tricks))
        if isinstance(self.direction, str) and self.direction in tuple(PassDirection):
            object.__setattr__(self, "direction", PassDirection(self.direction))
        if isinstance(self.scores, list):
            object.__setattr__(self, "scores", tuple(self.scores))
        if self.scores == () and type(self.players) is int and 3 <= self.players <= 7:
            object.__setattr__(self, "scores", (0,) * self.players)

    @property
    def rules(self) -> Rules:
        """The preset's rules at this table's size."""
        if not isinstance(self.preset, str) or self.preset not in PRESETS:
            raise PositionError("preset", f"{excerpt(self.preset, 30)} is not a rule preset")
        if type(self.players) is not int:
            raise PositionError("players", f"{excerpt(self.players, 30)} is not a number of players")
        try:
            return PRESETS[self.preset].replace(players=self.players)
        except RulesError as error:
            raise PositionError("players", str(error).removeprefix("rules.players: ")) from None

    def check(self) -> None:
        """Raise ``PositionError`` (one line: the field, the card or trick, the engine's reason)
        unless some deal of the other hands makes this position happen."""
        from .deal import build

        build(self)

    def view(self) -> PlayerView:
        """The learner's view: what the engine gives seat 0 in any hand that reaches this
        position (checked first)."""
        return self.sample_state(0).view(0, scores=self.scores)

    def options(self) -> tuple[Card, ...] | int:
        """The legal cards to play, or at the pass the number of cards to pass."""
        view = self.view()
        if view.phase is Phase.PASSING:
            return view.rules.pass_count
        return tuple(view.legal_cards)

    def sample_state(self, seed: int = 0) -> HandState:
        """A full hand, with its history, consistent with the view (the other hands drawn from
        ``seed``): bots can play it out from here ("Play it out")."""
        from .deal import build

        return build(self, seed)

    @property
    def cards_played(self) -> int:
        return sum(len(trick.cards) for trick in self.tricks)


def preset_of(rules: Rules) -> str:
    """The first preset that, at the rules' table size, is these rules."""
    for name, preset in PRESETS.items():
        if preset.replace(players=rules.players) == rules:
            return name
    raise PositionError("rules", "these rules are not one of the presets the analysis board offers")


def from_view(view: PlayerView, rules: Rules | None = None) -> AnalysisPosition:
    """The position a seat's view shows at its decision (a review's key moment, a puzzle, a
    lesson's table), seats renumbered from that seat. ``rules`` default to the view's; they must
    be one of the presets."""
    rules = rules or view.rules
    players, seat = rules.players, view.seat

    def mine(other: int) -> int:
        return (other - seat) % players

    scores = tuple(view.scores[(seat + i) % players] for i in range(players)) if view.scores else ()
    common = dict(players=players, preset=preset_of(rules), direction=view.pass_direction, scores=scores)
    if view.phase is Phase.PASSING and view.passed is None:
        return AnalysisPosition(moment="pass", hand=tuple(view.hand), **common)
    if view.phase is not Phase.PLAYING or view.to_move != seat:
        raise PositionError("view", "it is not this seat's decision: nothing to analyse")
    tricks = tuple(Trick(mine(trick.leader), trick.cards) for trick in view.tricks)
    if view.current_trick.cards:
        tricks += (Trick(mine(view.current_trick.leader), view.current_trick.cards),)
    return AnalysisPosition(
        moment="play",
        hand=tuple(view.hand),
        passed=tuple(view.passed or ()),
        received=tuple(view.received or ()),
        tricks=tricks,
        **common,
    )


def from_puzzle(puzzle) -> AnalysisPosition:
    """The position of a puzzle (``trainer.puzzles.format.Puzzle``): its solver's view."""
    return from_view(puzzle.view, puzzle.rules)
