"""The puzzles page runs headless in each mode: a practice session with nothing kept says what to
do and shows no table (the widget alone would deal a random hand that is no puzzle)."""

from __future__ import annotations

import html
import importlib.util
import pathlib

import marimo
import pytest

PAGE = pathlib.Path(__file__).resolve().parents[2] / "lessons" / "puzzles.py"


def run_page(mode: str, home: pathlib.Path, monkeypatch) -> str:
    """The page's cells' HTML, run in this process with ``?mode=<mode>`` over an empty home."""
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(home))
    monkeypatch.setattr(marimo, "query_params", lambda: {"mode": mode})
    spec = importlib.util.spec_from_file_location("puzzles_page", PAGE)
    notebook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notebook)
    outputs, defs = notebook.app.run()
    defs["board"].widget.close()
    return html.unescape("\n".join(getattr(out, "text", str(out)) for out in outputs if out is not None))


def test_practice_with_nothing_kept_shows_no_table_and_says_what_to_do(tmp_path, monkeypatch) -> None:
    shown = run_page("practice", tmp_path, monkeypatch)
    assert "Nothing to practise yet." in shown
    assert "anywidget" not in shown
    assert "Next puzzle" not in shown


@pytest.mark.parametrize("mode", ["puzzles", "streak"])
def test_the_other_modes_put_a_puzzle_on_the_table(mode, tmp_path, monkeypatch) -> None:
    shown = run_page(mode, tmp_path, monkeypatch)
    assert "anywidget" in shown
    assert "Next puzzle" in shown
    assert "Nothing to practise" not in shown
