"""A game's score table as a printable score sheet: one HTML page, one row per hand.

The page prints cleanly (``@media print``: black on white, no background, rows never split
across pages, the header repeated on every page).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["scoresheet_html"]

CSS = """
.ht-sheet { font-family: Georgia, 'Times New Roman', serif; color: #111; max-width: 44rem; }
.ht-sheet h1 { font-size: 1.4rem; margin: 0 0 .2rem; }
.ht-sheet p { margin: 0 0 .8rem; color: #333; }
.ht-sheet table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
.ht-sheet th, .ht-sheet td { border: 1px solid #444; padding: .3rem .6rem; text-align: right; }
.ht-sheet th:first-child, .ht-sheet td:first-child { text-align: left; }
.ht-sheet thead th { background: #eee; }
.ht-sheet tfoot td { font-weight: bold; border-top: 2px solid #111; }
.ht-sheet td.ht-winner { text-decoration: underline; }
@media print {
  @page { margin: 1.5cm; }
  body { background: #fff !important; }
  .ht-sheet { color: #000; max-width: none; }
  .ht-sheet thead { display: table-header-group; }
  .ht-sheet tr { break-inside: avoid; page-break-inside: avoid; }
  .ht-sheet thead th { background: none; }
  .ht-noprint { display: none; }
}
"""


def scoresheet_html(
    score_rows: Sequence[Sequence[int]],
    names: Sequence[str],
    title: str = "Hearts score sheet",
    subtitle: str = "",
    directions: Sequence[str] = (),
    winners: Sequence[int] = (),
    page: bool = True,
) -> str:
    """The sheet: a row per hand (its number, the pass, each seat's points and running total),
    then the totals. ``page`` wraps it as a complete HTML document."""
    players = len(names)
    head = "".join(f"<th scope='col'>{escape(name)}</th>" for name in names)
    rows = []
    running = [0] * players
    for index, row in enumerate(score_rows):
        running = [total + points for total, points in zip(running, row, strict=True)]
        direction = escape(directions[index]) if index < len(directions) else ""
        cells = "".join(
            f"<td>{points} <small>({total})</small></td>" for points, total in zip(row, running, strict=True)
        )
        rows.append(f"<tr><td>{index + 1}</td><td>{direction}</td>{cells}</tr>")
    totals = "".join(
        f"<td class='{'ht-winner' if seat in winners else ''}'>{total}</td>"
        for seat, total in enumerate(running)
    )
    body = (
        f"<div class='ht-sheet'><h1>{escape(title)}</h1>"
        + (f"<p>{escape(subtitle)}</p>" if subtitle else "")
        + f"<table><thead><tr><th scope='col'>Hand</th><th scope='col'>Pass</th>{head}</tr></thead>"
        + f"<tbody>{''.join(rows)}</tbody>"
        + f"<tfoot><tr><td>Total</td><td></td>{totals}</tr></tfoot></table>"
        + "<p>Points in each hand, running total in brackets; lowest total wins.</p></div>"
    )
    if not page:
        return f"<style>{CSS}</style>{body}"
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title><style>{CSS}</style></head>"
        f"<body>{body}<p class='ht-noprint'><button onclick='window.print()'>Print</button></p></body></html>"
    )
