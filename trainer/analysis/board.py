"""The analysis page's logic: the learner sets up a position, the coach ranks every option.

The notebook (lessons/analysis.py) only wires UI elements to this object. The set-up being edited
(the draft: the table, the moment, the cards in each place) may be incomplete or impossible; the
position is the last draft the engine accepted (``AnalysisPosition.check``). Only that position
is analysed, put in the page's address and played out, so a refused edit changes none of them.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from dataclasses import replace

from engine import PassDirection, parse_card
from engine.kernel import trick_winner
from engine.rules import PRESET_TITLES, PRESETS

from ..coach.depth import BROWSER, COACH, FULL, Depth
from ..seats import seat_names
from ..table import TableWidget
from .address import from_address, to_address
from .analyse import Analysis, Row, analyse
from .errors import PositionError
from .notation import format_cards, parse_cards
from .picker import DeckPicker
from .position import AnalysisPosition, Trick

__all__ = ["DEPTH_HOOK", "AnalysisBoard", "analysis_depth", "band_text"]

DEPTH_HOOK = "HEARTS_ANALYSIS_DEPTH"
"""A test hook: ``HEARTS_ANALYSIS_DEPTH=N`` makes the page look at up to N imagined deals a play
and a pass (no clock, so the ranking is the same on a busy machine), and say so. Unset, the page
looks at the coach's depth (``trainer.coach.depth.COACH``)."""

PLAYERS = (3, 4, 5, 6, 7)
DIRECTIONS = {"left": "Left", "right": "Right", "across": "Across", "hold": "Hold (no pass)"}
MOMENTS = {"pass": "The pass", "play": "Mid-hand: a play"}
TOWARDS = {"left": "to the left", "right": "to the right", "across": "across", "hold": "nowhere"}
RANKING_STYLE = (
    ".an-ranking{max-height:26rem;overflow:auto;border:1px solid #ccc6b5;border-radius:6px}"
    ".an-ranking table{border-collapse:collapse;font-size:0.9rem;width:100%}"
    ".an-ranking th,.an-ranking td{padding:0.15rem 0.6rem;text-align:right;white-space:nowrap}"
    ".an-ranking th:nth-child(2),.an-ranking td:nth-child(2),.an-ranking th:nth-child(3),"
    ".an-ranking td:nth-child(3),.an-ranking th:nth-child(7),.an-ranking td:nth-child(7){text-align:left}"
    ".an-ranking thead th{position:sticky;top:0;background:#f6f4ee;border-bottom:1px solid #ccc6b5}"
    ".an-ranking tbody tr:nth-child(even){background:#faf9f5}"
)
"""The ranking's table: it scrolls inside its box (a pass has hundreds of rows), its head kept."""
PLAY_OUT_BOTS = "normal"
"""Who the learner plays the position out against."""
VERDICTS_SHOWN = 3
"""The top choices whose coach's verdict the page shows."""


def analysis_depth() -> Depth:
    """The depth the page analyses at: the coach's, or the test hook's (``DEPTH_HOOK``)."""
    value = os.environ.get(DEPTH_HOOK, "").strip()
    if not value:
        return COACH
    if not value.isdigit() or int(value) < 64:
        raise ValueError(f"{DEPTH_HOOK}={value!r}: expected a number of deals, 64 or more")
    deals = int(value)
    return replace(
        BROWSER,
        play_samples=deals,
        exact_samples=min(deals, BROWSER.exact_samples),
        pass_samples=deals,
        pass_playouts=None,
        pass_stages=((deals // 8, 16), (deals // 4, 4)),
        min_samples=deals // 4,
        pass_min_samples=deals // 4,
        play_seconds=None,
        pass_seconds=None,
    )


def preset_choices() -> dict[str, str]:
    """The rule presets by title (the table's size is chosen apart, so the sized copies of the
    standard rules are left out)."""
    return {PRESET_TITLES[key]: key for key, rules in PRESETS.items() if rules.players == 4}


class AnalysisBoard:
    """The draft, the last good position, its analysis and the deck picker that edits the draft."""

    def __init__(self, address: str | None = None, seed: int = 0) -> None:
        self.seed = seed
        self.players = 4
        self.preset = "standard"
        self.moment = "pass"
        self.direction = "left"
        self.scores: tuple[int, ...] = ()
        self.hand: list[str] = []
        self.passed: list[str] = []
        self.received: list[str] = []
        self.tricks: list[dict] = []  # {"leader": seat, "cards": [codes]}
        self.position: AnalysisPosition | None = None
        """The last draft the engine accepted: what the page analyses, links to and plays out."""
        self.problem = ""
        """Why the draft is not (yet) a position: one line, "" when it is one."""
        self.notice = ""
        """Why the address given could not be opened ("" when it opened or there was none)."""
        self.analysis: Analysis | None = None
        self.analysed: AnalysisPosition | None = None
        self.picker = DeckPicker()
        self.picker.on_request(self.request)
        self._listeners: list[Callable[[], None]] = []
        if address:
            try:
                self.load(from_address(address))
            except PositionError as error:
                self.notice = str(error)
        self._draw()

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every edit (the notebook re-runs the cells that show it)."""
        self._listeners.append(callback)

    # ----- the draft -----

    def load(self, position: AnalysisPosition) -> None:
        """Put a checked position in the draft (from an address, a review or a puzzle)."""
        position.check()
        self.players, self.preset, self.moment = position.players, position.preset, position.moment
        self.direction = str(getattr(position.direction, "value", position.direction))
        self.scores = tuple(position.scores)
        self.hand = [card.code for card in position.hand]
        self.passed = [card.code for card in position.passed]
        self.received = [card.code for card in position.received]
        self.tricks = [{"leader": t.leader, "cards": [c.code for c in t.cards]} for t in position.tricks]
        self.position, self.problem = position, ""

    def set_table(
        self,
        players: int | None = None,
        preset: str | None = None,
        moment: str | None = None,
        direction: str | None = None,
        scores: str | None = None,
    ) -> None:
        """The settings outside the picker; ``scores`` as typed ("26 0 13 3": you first, then
        round to the left). A score text that does not read changes nothing and says why."""
        if scores is not None:
            try:
                self.scores = self._read_scores(scores, players or self.players)
            except PositionError as error:
                self.picker.message = str(error)
                return
        self.players = players or self.players
        self.preset = preset or self.preset
        self.moment = moment or self.moment
        self.direction = direction or self.direction
        for trick in self.tricks:
            trick["leader"] = min(trick["leader"], self.players - 1)
        self._changed()

    @staticmethod
    def _read_scores(text: str, players: int) -> tuple[int, ...]:
        words = [word for word in re.split(r"[\s,;]+", text.strip()) if word]
        if not words:
            return ()
        if len(words) != players or not all(re.fullmatch(r"-?\d{1,4}", word) for word in words):
            raise PositionError(
                "scores",
                f"expected {players} whole numbers (you first, then round to the left), "
                f"not {text.strip()[:60]!r}",
            )
        scores = tuple(int(word) for word in words)
        return scores if any(scores) else ()  # all zero is the position's default

    def request(self, message: dict) -> None:
        """A request from the picker: a card clicked into a place, a pasted text, a place chosen,
        a trick added or removed, a trick's leader. A text that does not read changes nothing."""
        kind = message.get("type")
        target = str(message.get("target", self.picker.target))
        if kind == "target":
            self.picker.target = target
            self._draw()
            return
        if kind == "add_trick":
            if self.moment != "play":
                return
            leader = self._next_leader()
            self.tricks.append({"leader": leader, "cards": []})
            self.picker.target = f"trick:{len(self.tricks) - 1}"
        elif kind == "remove_trick":
            index = int(message.get("index", -1))
            if 0 <= index < len(self.tricks):
                del self.tricks[index]
            self.picker.target = "hand"
        elif kind == "leader":
            index, seat = int(message.get("index", -1)), int(message.get("seat", 0))
            if 0 <= index < len(self.tricks) and 0 <= seat < self.players:
                self.tricks[index]["leader"] = seat
        elif kind in ("card", "paste", "clear"):
            cards = self._place(target)
            if cards is None:
                return
            if kind == "card":
                code = str(message.get("card", ""))
                cards.remove(code) if code in cards else cards.append(code)
            elif kind == "clear":
                cards.clear()
            else:
                try:
                    read = parse_cards(str(message.get("text", ""))[:400], self._field(target))
                except PositionError as error:
                    self.picker.message = str(error)
                    return
                cards[:] = [card.code for card in read]
                self.picker.pasted()
        else:
            return
        if kind in ("card", "paste") and not target.startswith("trick:"):
            cards.sort(key=lambda code: int(parse_card(code)))  # a set of cards: in hand order
        self._changed()

    def _place(self, target: str) -> list[str] | None:
        if target in ("hand", "passed", "received"):
            return getattr(self, target)
        if target.startswith("trick:") and target[6:].isdigit() and int(target[6:]) < len(self.tricks):
            return self.tricks[int(target[6:])]["cards"]
        return None

    @staticmethod
    def _field(target: str) -> str:
        return f"trick {int(target[6:]) + 1}" if target.startswith("trick:") else target

    def _next_leader(self) -> int:
        """A new trick's leader, a guess the learner can change: whoever took the last trick when it
        is complete (the engine's rule), else that trick's leader; for the first trick, you when
        you hold the 2♣, else Left."""
        if not self.tricks:
            return 0 if "2C" in self.hand else 1
        last = self.tricks[-1]
        if len(last["cards"]) == self.players:
            cards = [int(parse_card(code)) for code in last["cards"]]
            return trick_winner(cards, last["leader"], self.players)[0]
        return last["leader"]

    def draft(self) -> AnalysisPosition:
        play = self.moment == "play"
        return AnalysisPosition(
            players=self.players,
            preset=self.preset,
            moment=self.moment,
            hand=tuple(parse_cards(" ".join(self.hand), "hand")),
            direction=PassDirection(self.direction),
            passed=tuple(parse_cards(" ".join(self.passed), "passed")) if play else (),
            received=tuple(parse_cards(" ".join(self.received), "received")) if play else (),
            tricks=tuple(
                Trick(t["leader"], tuple(parse_cards(" ".join(t["cards"]), f"trick {i + 1}")))
                for i, t in enumerate(self.tricks)
            )
            if play
            else (),
            scores=self.scores,
        )

    def _changed(self) -> None:
        try:
            position = self.draft()
            position.check()
        except PositionError as error:
            self.problem = str(error)
        else:
            self.position, self.problem = position, ""
        self._draw()
        for callback in self._listeners:
            callback()

    def _draw(self) -> None:
        self.picker.seats = list(seat_names(self.players))
        self.picker.setup = {
            "moment": self.moment,
            "hand": list(self.hand),
            "passed": list(self.passed),
            "received": list(self.received),
            "tricks": [{"leader": t["leader"], "cards": list(t["cards"])} for t in self.tricks],
        }
        if self.moment == "pass" and self.picker.target != "hand":
            self.picker.target = "hand"
        self.picker.message = self.problem

    # ----- the position -----

    @property
    def address(self) -> str:
        """The last good position's address ("" before there is one)."""
        return to_address(self.position) if self.position is not None else ""

    @property
    def stale(self) -> bool:
        """The analysis shown is not of the last good position."""
        return self.analysis is None or self.analysed != self.position

    def analyse(self, progress: Callable[[int, int], None] | None = None) -> Analysis | None:
        """Analyse the last good position at the page's depth (once: the same position again is
        not analysed again)."""
        if self.position is None:
            return None
        if self.stale:
            self.analysis = analyse(self.position, analysis_depth(), self.seed, progress)
            self.analysed = self.position
            for callback in self._listeners:  # the status line no longer asks for an analysis
                callback()
        return self.analysis

    def play_table(self, seed: int) -> TableWidget:
        """A card table continuing the last good position against bots (a deal consistent with
        what the learner knows: the others' cards are one possibility, not the real ones)."""
        position = self.position
        delay = float(os.environ.get("HEARTS_BOT_DELAY", "0.7"))
        bots = dict.fromkeys(range(1, position.players), PLAY_OUT_BOTS)
        widget = TableWidget(position.rules, seed=seed, bots=bots, bot_delay=delay, table_id="analysis")
        widget.set_position(position.sample_state(seed), [], totals_before=position.scores)
        return widget

    # ----- what the page shows -----

    def status_markdown(self) -> str:
        """Whether the analysis shown is still of the set-up ("" when it is, or there is none)."""
        if self.analysis is None or self.position is None:
            return ""
        if self.problem:
            return (
                "*The set-up above is not a position yet (the line above the deck says why): the "
                "address and the analysis below are still the last position that was one.*"
            )
        if self.stale:
            return "*Your set-up has changed: press **Analyse this position** to look at it.*"
        return ""

    def position_markdown(self, position: AnalysisPosition | None = None) -> str:
        """The position analysed, in words the learner can check against their set-up."""
        position = position or self.analysed
        if position is None:
            return ""
        names = seat_names(position.players)
        table = f"{position.players} players, {PRESET_TITLES.get(position.preset, position.preset)} rules"
        direction = str(getattr(position.direction, "value", position.direction))
        if position.moment == "pass":
            where = "no pass this hand" if direction == "hold" else f"the pass {TOWARDS[direction]}"
            lines = [f"**{table}; {where}.** Your hand: {format_cards(position.hand)}."]
        else:
            lines = [f"**{table}; mid-hand, your play.** Your hand: {format_cards(position.hand)}."]
            if position.passed:
                lines.append(f"You passed {format_cards(position.passed)} {TOWARDS[direction]}.")
            if position.received:
                lines.append(f"You received {format_cards(position.received)}.")
            for number, trick in enumerate(position.tricks, start=1):
                lines.append(f"Trick {number}, led by {names[trick.leader]}: {format_cards(trick.cards)}.")
        if any(position.scores):
            lines.append(
                "Scores before this hand: "
                + ", ".join(f"{names[s]} {v}" for s, v in enumerate(position.scores))
                + "."
            )
        return "  \n".join(lines)

    def depth_note(self) -> str:
        """What depth the analysis shown looked at, when it is not the installed version's."""
        analysis = self.analysis
        if analysis is None or analysis.depth == FULL:
            return ""
        if analysis.depth == BROWSER:
            return analysis.shallower_note or ""
        depth = analysis.depth
        return (
            f"This page was started with {DEPTH_HOOK}: the coach looked at up to "
            f"{depth.play_samples:,} imagined deals a play and {depth.pass_samples:,} a pass (the "
            f"installed version: {FULL.play_samples:,} and {FULL.pass_samples:,})."
        )

    def ranking_html(self) -> str:
        """Every option, best first: its band and points lost (first: a phone shows them without
        scrolling), the expected points for you and the others, and each seat's moon chance."""
        analysis = self.analysis
        if analysis is None:
            return ""
        names = analysis.seats
        head = "pass" if analysis.kind == "pass" else "card"
        rows = []
        for rank, row in enumerate(analysis.rows, start=1):
            moon = _moon_text(row, names)
            rows.append(
                f'<tr data-option="{html.escape(_option_code(row.option))}"><td>{rank}</td>'
                f"<td>{html.escape(row.text)}</td><td>{band_text(row.label)}</td><td>{row.loss:.2f}</td>"
                f"<td>{row.points:.2f}</td><td>{row.others:.2f}</td><td>{html.escape(moon)}</td></tr>"
            )
        return (
            f"<style>{RANKING_STYLE}</style>"
            '<div class="an-ranking">'
            f'<table data-ranking="{analysis.kind}"><thead><tr><th>rank</th><th>{head}</th><th>band</th>'
            "<th>points lost</th><th>your points</th><th>others' points, each</th><th>moon chances</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def verdicts_markdown(self) -> str:
        """The coach's verdict on each of the top choices: headline, checked reasons, figures."""
        analysis = self.analysis
        if analysis is None:
            return ""
        parts = []
        for rank, row in enumerate(analysis.rows[:VERDICTS_SHOWN], start=1):
            verdict = analysis.verdict(row.option)
            reasons = "\n".join(f"- {reason}" for reason in verdict.reasons)
            head = f"**{rank}. {row.text}:** {verdict.headline}"
            parts.append(f"{head}\n\n{reasons}\n\n*{verdict.numbers}*")
        return "\n\n".join(parts)

    def heatmap(self):
        """For a pass: the heat map the pass puzzles draw (which cards belong together)."""
        analysis = self.analysis
        return analysis.heatmap if analysis is not None else None


def band_text(label: str) -> str:
    """A row's band as the table writes it: "good", or "good to inaccuracy" when the deals looked
    at could not settle which (``grading``'s label "good-inaccuracy")."""
    return html.escape(label.replace("-", " to "))


def _option_code(option: object) -> str:
    return option.code if hasattr(option, "code") else " ".join(card.code for card in option)


def _moon_text(row: Row, names: tuple[str, ...]) -> str:
    """The row's moon chances by whose moon (as whole percents; "—" when none reaches 1%)."""
    chances = row.moon_by_seat or (row.moon_for,)
    parts = [
        f"{names[seat] if seat else 'you'} {chance:.0%}"
        for seat, chance in enumerate(chances)
        if round(chance * 100) >= 1  # a chance shown as 0% is left out
    ]
    return ", ".join(parts) or "—"
