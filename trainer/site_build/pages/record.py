"""The static site's review page: what is kept, and that a game's review needs the installed version
(the charts are on the page: ``trainer.review.charts``, Vega-Lite specs the browser draws)."""

from __future__ import annotations

import datetime as dt

from trainer.store import Store

__all__ = ["NEEDS_INSTALLED", "practise_line", "record_markdown"]

NEEDS_INSTALLED = (
    "**A game's review, decision by decision, needs the installed version of Hearts Trainer:** it "
    "looks at every decision at the coach's full depth, which cannot run in the browser. Your "
    "record is kept here all the same, and the charts below show where your points go; download it "
    "on the home page and import it there with "
    "`hearts-trainer import-progress hearts-trainer-progress.json`."
)


def record_markdown(store: Store) -> str:
    """The warning, then what this browser keeps: graded decisions, puzzles, finished games."""
    (decisions,) = store.query("SELECT COUNT(*) FROM decisions")[0]
    (attempts,) = store.query("SELECT COUNT(*) FROM puzzle_attempts")[0]
    (games,) = store.query("SELECT COUNT(*) FROM games")[0]
    return (
        f"{NEEDS_INSTALLED}\n\n"
        f"Kept in this browser: **{decisions}** graded decisions, **{attempts}** puzzle attempts and "
        f"**{games}** finished games against the bots."
    )


def practise_line(data) -> str:
    """The review's "Practise this" line for today (``data``: ``trainer.review.page.open_review``'s),
    as the installed version's review page says it. Here, so that the page imports only
    ``trainer`` and is resolved with the other pages (``build._resolve_each_package_set_once``)."""
    from trainer.progress.practice import load_items
    from trainer.review.practice import practise_markdown
    from trainer.site import PUZZLES

    items, _unreadable = load_items(data.store)  # the puzzles page names a row that does not read back
    return practise_markdown(data.decisions, data.games, items, dt.date.today(), f"{PUZZLES}?mode=practice")
