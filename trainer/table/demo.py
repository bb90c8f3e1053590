"""The table the demo notebook shows (until the real lessons exist)."""

from __future__ import annotations

import os

from .widget import TableWidget

__all__ = ["demo_table"]


def demo_table(seed: int = 7) -> TableWidget:
    """Four seats: you at the bottom and three easy bots. ``HEARTS_BOT_DELAY`` (seconds)
    changes the pause before each bot card; the browser tests set it short."""
    delay = float(os.environ.get("HEARTS_BOT_DELAY", "0.7"))
    return TableWidget(
        seed=seed,
        bots={1: "easy", 2: "easy", 3: "easy"},
        bot_delay=delay,
        trick_pause=min(1.2, 2 * delay),
        table_id="play",
    )
