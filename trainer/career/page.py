"""What the career page says and draws, from the career's state: the notebook
(``lessons/career.py``) only lays it out. Every sentence is read off the matches kept and the
match on the table."""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.ladder import LADDER, Level

from ..browser import IN_BROWSER
from ..review.charts import BELOW, WIDTH
from ..site import HOME, REVIEW
from ..vega import VegaLite, plain
from .progress import MASTER, Match, Strength, level_from, record, rung, rungs, strength, title
from .runner import CareerRunner, review_address

__all__ = [
    "INTRO",
    "level_markdown",
    "matches_markdown",
    "problems_markdown",
    "record_markdown",
    "status_markdown",
    "strength_chart",
    "strength_markdown",
]


def _count(number: int) -> str:
    words = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")
    return words[number - 1] if 1 <= number <= len(words) else str(number)


INTRO = (
    f"[← All lessons]({HOME})\n\n# The career\n\n"
    f"{_count(len(LADDER))} levels of bots, then the master table. Each match is a game against "
    "three bots of your level, to 50 or 100 points as you choose when it starts; the lowest total "
    "wins, and a tie for the lowest total is played off with one more hand, so every match ends "
    "with one player alone lowest. Win and you move up a level; lose and you stay at it. A match is "
    "played as it is dealt: no hints, no taking back. Your match is kept after every card: leave or "
    "reload, and it waits for you here."
)


def problems_markdown(notice: str, problems: list[str]) -> str:
    """What went wrong reading the store: the notice, and each kept match that does not read back."""
    parts = [notice] if notice else []
    if problems:
        count = len(problems)
        which = "1 kept match" if count == 1 else f"{count} kept matches"
        verb = "is" if count == 1 else "are"
        more = f" (and {count - 3} more)" if count > 3 else ""
        parts.append(
            f"{which} could not be read and {verb} left out, untouched: {' '.join(problems[:3])}{more}"
        )
    return " ".join(parts)


def site_review(what: str, one: str) -> str:
    """Where the static site reviews finished matches: its review page has them in a chart (it
    reviews no game decision by decision: that needs the coach's full depth, installed)."""
    return (
        f"[Your review]({REVIEW}) has {what} in its chart of points a hand over time; a review of "
        f"{one} decision by decision needs the installed version (download your progress on the home "
        "page and import it there)."
    )


def review_markdown(game_key: str) -> str:
    """The way to a finished match's review."""
    if IN_BROWSER:
        return site_review("this match", "it")
    return f"[Review this match]({review_address(game_key)})."


def _measured(level: Level) -> str:
    """The level's measured margin over the level below, when benchmarks/ladder.py measured it."""
    margin, half = getattr(level, "margin", None), getattr(level, "margin_ci", None)
    below = [rung_ for rung_ in rungs() if rung_.number < level.number]
    if margin is None or not below:
        return ""
    interval = f" (± {half:.1f}, 95%)" if half is not None else ""
    return f" Measured: {margin:.1f} points a hand better than {below[-1].title}{interval}."


def _at(number: int) -> str:
    """``Level 3`` or ``the master table``, as a sentence says where the learner is."""
    return "the master table" if number == MASTER.number else title(number)


def _bots(level: Level) -> str:
    return "three bots of the master table" if level.number == MASTER.number else f"three {level.title} bots"


def level_markdown(level_number: int) -> str:
    """Where the learner is and who they face next."""
    level = rung(level_number)
    if level is None:
        return f"## You are at Level {level_number}"
    return (
        f"## You are at {_at(level.number)}\n\n"
        f"**Your opponents here:** {_bots(level)}. {level.words}{_measured(level)}"
    )


def status_markdown(runner: CareerRunner, matches: Sequence[Match]) -> str:
    """The match on the table: in play, just finished (its result and what it did), or none."""
    session = runner.widget.session
    if runner.in_play:
        return (
            f"**A match is in play**: {title(runner.match_level)}, a game to {session.rules.target}. "
            "It is kept after every card."
        )
    finished = runner.finished
    if finished is None:
        return "**No match in play.** Choose the game's length and start a match."
    after = (
        f" **New hand** on the table deals the next match, a game to {runner.next_target}; or choose "
        "the length below and press **Start the match**."
    )
    total, others = finished.total, [t for s, t in enumerate(session.totals) if s != session.seat]
    review = review_markdown(finished.game_key)
    where = _at(finished.level)
    if finished.won:
        if finished.level == MASTER.number:
            moved = "A win at the master table is recorded; you stay at the master table."
        else:
            moved = f"You are now at {_at(level_from(matches))}."
        scores = f"your total {total}, the others' {', '.join(map(str, others))}"
        return f"**You won the match** at {where}: {scores}. {moved} {review}{after}"
    return (
        f"**You lost the match** at {where}: your total {total}, the others' "
        f"{', '.join(map(str, others))}. You are at {_at(level_from(matches))}. {review}{after}"
    )


def record_markdown(matches: Sequence[Match]) -> str:
    """Won–lost at every level (the levels above the learner's with none yet)."""
    rows = ["| level | won | lost |", "|:---|---:|---:|"]
    for level in rungs():
        won, lost = record(matches, level.number)
        rows.append(f"| {level.title} | {won} | {lost} |")
    return "### Your record\n\n" + "\n".join(rows)


def matches_markdown(matches: Sequence[Match], shown: int = 10) -> str:
    """The latest matches, newest first, each with its review."""
    if not matches:
        return ""
    rows = [
        "| finished | level | game to | result | your points | hands |" + " |" * (not IN_BROWSER),
        "|:---|:---|---:|:---|---:|---:|" + ":---|" * (not IN_BROWSER),
    ]
    for match in list(reversed(matches))[:shown]:
        review = "" if IN_BROWSER else f" [review]({review_address(match.game_key)}) |"
        rows.append(
            f"| {match.finished_at.replace('T', ' ')} | {title(match.level)} | {match.target} | "
            f"{match.result} | {match.total} | {match.hands} |{review}"
        )
    more = f"\n\n*The latest {shown} of {len(matches)} matches.*" if len(matches) > shown else ""
    site = "\n\n" + site_review("these matches", "one") if IN_BROWSER else ""
    return "### Your matches\n\n" + "\n".join(rows) + more + site


def _interval(figure: Strength) -> str:
    return "—" if figure.half is None else f"± {figure.half:.1f}"


def strength_markdown(matches: Sequence[Match]) -> str:
    """Points a hand against each level's bots, every hand of every match there counted."""
    if not matches:
        return (
            "### Your strength\n\nYour points a hand against each level's bots appear here once "
            "you have finished a match."
        )
    rows = ["| against | matches | hands | your points a hand | 95% interval |", "|:---|---:|---:|---:|---:|"]
    for level in rungs():
        at = [match for match in matches if match.level == level.number]
        if at:
            figure = strength([points for match in at for points in match.points])
            rows.append(
                f"| {level.title} | {len(at)} | {figure.hands} | {figure.mean:.1f} | {_interval(figure)} |"
            )
    return (
        "### Your strength\n\nYour points a hand against the bots of each level (fewer is better; "
        "a hand holds 26 points). The interval is where your true average lies, 95 times in 100, "
        "from these hands.\n\n" + "\n".join(rows)
    )


NAMES = ("level", "day", "result")


def strength_chart(matches: Sequence[Match]) -> VegaLite | None:
    """Match by match: the learner's points a hand with its 95% interval, coloured by level."""
    if not matches:
        return None
    values = []
    for number, match in enumerate(matches, start=1):
        figure = strength(match.points)
        half = figure.half or 0.0
        values.append({
            "match": number,
            "level": title(match.level),
            "day": match.finished_at[:10],
            "points": plain(round(figure.mean, 2)),
            "low": plain(round(figure.mean - half, 2)),
            "high": plain(round(figure.mean + half, 2)),
            "hands": figure.hands,
            "result": match.result,
        })  # fmt: skip
    order = [level.title for level in rungs()]
    colour = {"field": "level", "type": "nominal", "sort": order, "title": None, "legend": BELOW}
    x = {"field": "match", "type": "ordinal", "title": "match"}
    return VegaLite({
        "title": "Your points a hand, match by match (95% interval)",
        "width": WIDTH,
        "data": {"values": values},
        "layer": [
            {"mark": {"type": "rule"}, "encoding": {
                "x": x, "y": {"field": "low", "type": "quantitative", "title": "points a hand"},
                "y2": {"field": "high"}, "color": colour}},
            {"mark": {"type": "point", "filled": True, "size": 60}, "encoding": {
                "x": x, "y": {"field": "points", "type": "quantitative"}, "color": colour,
                "tooltip": [{"field": f, "type": "nominal" if f in NAMES else "quantitative"}
                            for f in ("match", "day", "level", "result", "hands", "points", "low", "high")]}},
        ],
    })  # fmt: skip
