"""Games in play: what a lesson's table is playing, kept after every card so a reload, a
restart or a crash resumes the game exactly where it was (``TableSession.to_record``).

One row per place (``"l09_play/game"``): the rule variant the learner chose and the record.
"""

from __future__ import annotations

import json

from engine.records import loads

from ..store import Store
from .decisions import now

__all__ = ["forget_table", "load_table", "save_table"]


def save_table(store: Store, place: str, variant: str, record: dict) -> str:
    """Keep the game at ``place`` (replacing the one kept before); returns the text kept."""
    text = json.dumps(record)
    with store.transaction() as db:
        db.execute(
            "INSERT INTO table_games (place, variant, record, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (place) DO UPDATE SET variant = excluded.variant, record = excluded.record, "
            "updated_at = excluded.updated_at",
            (place, variant, text, now()),
        )
    return text


def kept_text(store: Store, place: str) -> str | None:
    """The text of the game kept at ``place`` as stored (to tell whether another page kept
    another since), or None."""
    rows = store.query("SELECT record FROM table_games WHERE place = ?", (place,))
    return rows[0][0] if rows else None


def load_table(store: Store, place: str) -> tuple[str, dict] | None:
    """(variant, record) of the game kept at ``place``, or None."""
    rows = store.query("SELECT variant, record FROM table_games WHERE place = ?", (place,))
    if not rows:
        return None
    variant, record = rows[0]
    return variant, loads(record)  # RecordError (a ValueError) when it is not JSON we read


def forget_table(store: Store, place: str) -> None:
    with store.transaction() as db:
        db.execute("DELETE FROM table_games WHERE place = ?", (place,))
