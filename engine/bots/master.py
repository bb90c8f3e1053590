"""The master table's bot: Hard that reads its opponents (``engine.bots.reader``) and plays its
imagined deals with them as read."""

from __future__ import annotations

from dataclasses import replace

from ..moon import Blocking
from ..view import PlayerView
from .hard import HardBot, Steps
from .reader import OpponentReader

__all__ = ["MasterBot"]


class MasterBot(HardBot):
    """Hard's search and budget, with its imagined deals played by the opponents it has read.

    Every view it is shown goes to its reader first: this hand's tricks, and at a table (where
    one bot plays every hand of the game) the hands before. A seat read as letting runners
    through (``Read.lets_runners_through``) plays its imagined deals without blocking moons,
    in both of Hard's plans (``HardBot._plans``): the plan of playing for few points, and the
    plan of running for the moon, which is worth more, and so chosen more often, against seats
    that do not block. With ``reads=MasterBot.READS``, likewise a seat read as playing over
    where it could duck (``Read.plays_over``) or as keeping the Q♠ (``Read.keeps_queen``) plays
    its imagined deals so (off by default: measured no stronger). Until a seat is read otherwise,
    it plays as in Hard's deals, but for one rule of their play-out policy (``queen_lead``, on by
    default): a Q♠ holder on lead leads its shortest suit other than spades, a void to throw her
    on. Without it, the master decides as Hard does for the same seed until it has read a seat.

    Against Normal bots that never block, in games of 8 hands at a table, it scored 2.58 +- 1.52
    points a hand better than Hard in the same seats and shot 33 moons in 256 hands to Hard's 15;
    within one deal (a tournament's fresh bots) it has too little to read. There the Q♠ lead in
    its deals made its margin over Normal x3 -4.99 +- 0.60 points a hand (without: -4.86, paired
    -0.12 +- 0.42) and its margin over Hard x3 -0.43 +- 0.63, 219 deals (seed 53401;
    ``benchmarks/master_strength.py``, ``benchmarks/DECISIONS.md``)."""

    name = "master"

    READS = ("blocks", "ducks", "queen")
    """The habits it can play its imagined deals by (``engine.bots.reader``)."""
    DEFAULT_READS = ("blocks",)
    """The ones it does: with the ducks and the Q♠ read too it scored 0.29 +- 0.93 points a hand
    worse against Hard x3, at tables of Normals the same (``benchmarks/DECISIONS.md``)."""

    DEFAULT_QUEEN_LEAD = True
    """Whether its imagined deals' Q♠ holders lead their shortest side suit (``queen_lead``): not
    worse paired on the same deals (against Normal x3 -0.12 +- 0.42 points a hand of margin),
    with no change in its time (``benchmarks/DECISIONS.md``)."""

    def __init__(
        self,
        seed: int = 0,
        reads: tuple[str, ...] = DEFAULT_READS,
        queen_lead: bool = DEFAULT_QUEEN_LEAD,
        **budget: object,
    ) -> None:
        """``queen_lead``: every seat of its imagined deals, holding the Q♠ on lead, leads the
        lowest card of its shortest suit other than spades (``Blocking.queen_leaders``,
        ``engine.search.policy.queen_lead``) instead of its lowest card. The master alone uses
        it: the coach's forecast map is fitted on the policy without it, and the master ranks
        options by the play-outs' own points (``HardBot.measure``), which need no map."""
        super().__init__(seed, **budget)  # type: ignore[arg-type]
        self.queen_lead = queen_lead
        self.reader = OpponentReader()
        unknown = set(reads) - set(self.READS)
        if unknown:
            raise ValueError(f"MasterBot reads: unknown habit {sorted(unknown)[0]!r} (known: {self.READS})")
        self.reads = tuple(reads)
        self.used: set[str] = set()
        """The habits whose read has changed a plan so far: none, and it has decided as Hard."""

    def observe(self, view: PlayerView) -> None:
        """Take in a view of this seat without deciding: a resumed table's hands so far
        (``engine.bots.table.recall_game``)."""
        self.reader.observe(view)

    def pass_steps(self, view: PlayerView) -> Steps:
        self.reader.observe(view)
        return super().pass_steps(view)

    def play_steps(self, view: PlayerView) -> Steps:
        self.reader.observe(view)
        return super().play_steps(view)

    def _plans(self, view: PlayerView) -> list[Blocking]:
        read = {}
        for habit, field, seats in (
            ("blocks", "blockers", self.reader.blockers),
            ("ducks", "duckers", self.reader.duckers),
            ("queen", "queen_droppers", self.reader.queen_droppers),
        ):
            if habit in self.reads:
                read[field] = seats(view)
                if read[field] != -1:
                    self.used.add(habit)
        if self.queen_lead:
            read["queen_leaders"] = -1
        return [replace(plan, **read) for plan in super()._plans(view)]
