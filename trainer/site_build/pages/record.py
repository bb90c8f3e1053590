"""The static site's review page: what is kept, and that a game's review needs the installed version
(the charts are on the page: ``trainer.review.charts``, Vega-Lite specs the browser draws)."""

from __future__ import annotations

from trainer.store import Store

__all__ = ["NEEDS_INSTALLED", "record_markdown"]

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
