"""A one-line account of the table's ``.value``, to show what Python code can read."""

from __future__ import annotations

__all__ = ["describe_value"]


def describe_value(value: dict) -> str:
    table = value.get("table") or {}
    if not table:
        return "*The table is being set up.*"
    me = table["seats"][table["seat"]]
    return (
        f"**What Python reads from the table** (`table.value`): hand {table['hand_number']}, "
        f"phase *{table['phase']}*, {len(table['hand'])} cards in your hand, "
        f"{me['points']} points taken so far, totals {table['totals']}."
    )
