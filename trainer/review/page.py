"""What the review notebook shows, as text: the notebook (``lessons/review.py``) only lays it out.

``open_review()`` reads the learner's store: every graded decision (for the charts) and the
finished games (the last one is offered for review).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.links import moment_link
from ..lessons.catalog import lesson_address
from ..progress.decisions import Decision, option_symbols, readable_decisions
from ..progress.games import SavedGame, readable_games
from ..seats import seat_names
from ..store import Store, open_store
from .charts import ChartView, all_charts
from .game import GameReview, Moment
from .notes import hand_note
from .scoresheet import scoresheet_html
from .stored import StoredReview, keep_review

__all__ = [
    "ReviewData",
    "kept_note",
    "open_review",
    "review_label",
    "review_markdown",
    "scoresheet_for",
    "stored_review_markdown",
]


@dataclass
class ReviewData:
    store: Store
    notice: str
    decisions: list[Decision]
    games: list[SavedGame]

    @property
    def last_game(self) -> SavedGame | None:
        return self.games[-1] if self.games else None

    def game(self, key: str | None) -> SavedGame | None:
        """The kept game of that key (a career match's review link names it), else the last one."""
        return next((game for game in self.games if key and game.key == key), self.last_game)

    def counts_markdown(self) -> str:
        decisions, games = len(self.decisions), len(self.games)
        return (
            f"**{decisions} graded decision{'' if decisions == 1 else 's'}** and "
            f"**{games} finished game{'' if games == 1 else 's'}** kept."
        )

    def charts(self) -> list[ChartView]:
        return all_charts(self.decisions, self.games)

    def reload(self) -> None:
        self.decisions, _ = readable_decisions(self.store)
        self.games, _ = readable_games(self.store)

    def keep(self, review: GameReview) -> None:
        """Save a finished review, whole (it reopens at once), and read the history again (the
        charts then include it)."""
        keep_review(self.store, review)
        self.reload()


def open_review(store: Store | None = None) -> ReviewData:
    notice = ""
    if store is None:
        store, notice = open_store()
    games, unreadable = readable_games(store)
    decisions, unread = readable_decisions(store)
    # shown, skipped and left in the file: nothing the learner saved is thrown away
    for rows, phrase in ((unreadable, _games_phrase), (unread, _decisions_phrase)):
        if rows:
            verb = "is" if len(rows) == 1 else "are"
            notice = " ".join(
                [notice, f"{phrase(len(rows))} could not be read and {verb} left out:", *rows[:3]]
            )
            if len(rows) > 3:
                notice += f" (and {len(rows) - 3:,} more)"
    return ReviewData(store, notice.strip(), decisions, games)


LUCK_AND_SKILL = (
    "*Cards*: what your hand was expected to score with best play against "
    "strong players (above 0 is a bad hand). *Decisions*: expected points your choices lost. "
    "*Luck*: how the hidden cards and the others' play fell. They add up to the *result*: your points "
    "minus the others' average. Each decision's loss is counted from the position it was made in, so "
    "a hand's decisions can pass its points (a chance lost twice, a moon): such a hand is explained "
    "below the table."
)
"""What the review's luck-and-skill figures mean (the room's review says it too)."""

NO_MOMENTS = "**No key moments**: every decision was best or good."


def _many(count: int, one: str, more: str = "") -> str:
    """``1 blunder``, ``2 blunders``: the count and the word, singular or plural."""
    return f"{count} {one if count == 1 else more or one + 's'}"


def _games_phrase(count: int) -> str:
    return _many(count, "kept game")


def _decisions_phrase(count: int) -> str:
    return _many(count, "kept decision")


def game_markdown(game: SavedGame | None, last: bool = True) -> str:
    if game is None:
        return (
            "**No finished game yet.** Play one to the end in "
            f"[lesson 9]({lesson_address('l09_play')}); it is kept here for review."
        )
    names = seat_names(len(game.totals), game.seat)
    totals = ", ".join(f"{name} {total}" for name, total in zip(names, game.totals, strict=True))
    levels = " and ".join(sorted(set(game.opponents.values())))
    # opponents lists the seats bots played; a game with friends (a room's) had people in the others
    people = len(game.totals) - 1 - len(game.opponents)
    if not people:
        against = f"against {levels} bots"
    else:
        against = f"with {_many(people, 'other player')}" + (f" and {levels} bots" if levels else "")
    when = game.finished_at.replace("T", " ")
    which = "Your last game" if last else "This game"
    line = f"**{which}** ({when}, {len(game.hands)} hands {against}): {totals}."
    if made := len(game.bot_made):  # a room's: the seat's timer ran out, or its player was away
        line += (
            f" {_many(made, 'pass or play', 'passes and plays')} of yours {'was' if made == 1 else 'were'} "
            f"made by a bot for you: the review does not grade {'it' if made == 1 else 'them'} as yours "
            f"({'its' if made == 1 else 'their'} cost counts as luck)."
        )
    return line


def review_label(last: bool = True) -> str:
    return "Review my last game" if last else "Review this game"


def stored_review_markdown(game: SavedGame | None, last: bool = True) -> str:
    if game is None:
        return ""
    if game.review is None:
        return (
            f"Press **{review_label(last)}**: the evaluator goes through every pass and play, which "
            "takes a minute or so (a bar shows how far it is). The review is then kept, and "
            "reopens at once."
        )
    r = game.review
    return (
        f"Reviewed {game.reviewed_at.replace('T', ' ')}: accuracy **{r['accuracy']:.0f}%**, "
        f"**{r['loss_per_hand']:.1f}** expected points lost a hand. Review it again to see the key "
        "moments and replay them as puzzles."
    )


def kept_note(review: GameReview | StoredReview) -> str:
    """For a review kept from before: when it was made (a fresh one says nothing)."""
    if isinstance(review, StoredReview):
        return f"*Your review of this game, kept from {review.reviewed_at.replace('T', ' ')}.*\n\n"
    return ""


def review_markdown(review: GameReview | StoredReview) -> str:
    """The review's figures: accuracy, loss per hand, luck against skill, hand by hand."""
    bands = review.bands()
    lines = [
        f"### Accuracy {review.accuracy:.0f}% · {review.loss_per_hand:.1f} points lost a hand",
        f"{_many(review.decisions, 'decision')}: {bands['best'] + bands['good']} best or good, "
        f"{_many(bands['inaccuracy'], 'inaccuracy', 'inaccuracies')}, {_many(bands['mistake'], 'mistake')}, "
        f"{_many(bands['blunder'], 'blunder')}.",
        "",
        f"**Luck and skill.** {LUCK_AND_SKILL}",
        "",
        "| hand | pass | your points | cards | decisions | luck | result |",
        "|---:|:---|---:|---:|---:|---:|---:|",
    ]
    for hand in review.hands:
        lines.append(
            f"| {hand.index + 1} | {hand.pass_direction} | {hand.points} | {hand.cards:+.1f} | "
            f"{hand.decisions_loss:+.1f} | {hand.luck:+.1f} | {hand.result:+.1f} |"
        )
    lines.append(
        f"| **all** | | **{review.points}** | **{review.cards:+.1f}** | **{review.total_loss:+.1f}** | "
        f"**{review.luck:+.1f}** | **{review.result:+.1f}** |"
    )
    if isinstance(review, StoredReview):
        notes = [hand.note for hand in review.hands]
    else:
        notes = [note and note.text for note in map(hand_note, review.hands)]
    for note in filter(None, notes):
        lines += ["", note]
    return "\n".join(lines)


def moments_markdown(moments: list[Moment]) -> str:
    if not moments:
        return NO_MOMENTS
    rows = [
        "### Key moments",
        "",
        "| | where | you chose | best | lost | band | |",
        "|---:|:---|:---|:---|---:|:---|:---|",
    ]
    for number, m in enumerate(moments, start=1):
        d = m.decision
        where = f"hand {m.hand_index + 1}, " + ("the pass" if d.kind == "pass" else f"trick {d.trick}")
        choice, best = option_symbols(d.choice), option_symbols(d.best)
        link = moment_link(m)  # the position on the analysis board
        board = f"[Analyse this]({link})" if link else ""
        rows.append(f"| {number} | {where} | {choice} | {best} | {d.loss:.1f} | {d.band} | {board} |")
    return "\n".join(rows)


def scoresheet_for(game: SavedGame, page: bool = True) -> str:
    names = seat_names(len(game.totals), game.seat)
    low = min(game.totals)
    return scoresheet_html(
        game.score_rows,
        names,
        title="Hearts score sheet",
        subtitle=f"Game finished {game.finished_at.replace('T', ' ')}",
        directions=[hand.pass_direction.value for hand in game.hands],
        winners=[s for s, total in enumerate(game.totals) if total == low],
        page=page,
    )
