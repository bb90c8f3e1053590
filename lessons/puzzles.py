import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: puzzles")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.progress.puzzles import open_board
    from trainer.puzzles.practice import DAYS
    from trainer.site import HOME, PUZZLES

    # ?mode=practice: a session from the learner's own mistakes; ?mode=streak: puzzles in a row
    board = open_board(mode=mo.query_params().get("mode"))
    return DAYS, HOME, PUZZLES, board, mo


@app.cell(hide_code=True)
def _(board, mo):
    get_answers, set_answers = mo.state(0)
    board.on_change(lambda: set_answers(lambda n: n + 1))
    return (get_answers,)


@app.cell(hide_code=True)
def _(DAYS, HOME, PUZZLES, board, mo):
    _later = ", ".join(map(str, DAYS[1:-1])) + f" and {DAYS[-1]}"
    _intro = {
        "practice": (
            "# Practice: your own mistakes\n\n"
            "Puzzles of the themes and phases where you lose most points, and key moments of your own "
            "reviewed games. A puzzle you miss comes back the next day, then "
            f"{_later} days after each solve, until you have solved it on every day it was due. "
            f"[All puzzles]({PUZZLES}) · [A streak]({PUZZLES}?mode=streak)"
        ),
        "streak": (
            "# Puzzle streak\n\n"
            "Solve puzzles in a row, picked near your rating: the streak ends at the first miss (a hint "
            f"counts as one). Your best streak is kept. [All puzzles]({PUZZLES}) · "
            f"[Practise your mistakes]({PUZZLES}?mode=practice)"
        ),
    }.get(
        board.mode,
        "# Puzzles: what would you pass? what would you play?\n\n"
        "Each puzzle is a real position where the natural-looking choice costs points. Make your "
        "pass or play on the table and the coach answers at once: how much your choice cost, what "
        "was better, and why. Puzzles are picked near your rating; the ones you miss come back. "
        f"Also: [practise your own mistakes]({PUZZLES}?mode=practice) · [a streak]({PUZZLES}?mode=streak)",
    )
    mo.md(f"[← All lessons]({HOME})\n\n{_intro}")
    return


@app.cell(hide_code=True)
def _(board, mo):
    mo.callout(mo.md(board.notice), kind="warn") if board.notice else None
    return


@app.cell(hide_code=True)
def _(board, mo):
    mo.callout(mo.md(board.skipped_markdown()), kind="warn") if board.problems else None
    return


@app.cell(hide_code=True)
def _(board, mo):
    mo.callout(mo.md(board.notices_markdown()), kind="info") if board.library_notices else None
    return


@app.cell(hide_code=True)
def _(board, mo):
    # The filters, from the library's index: no puzzle file is opened to build them.
    kind = mo.ui.dropdown(options=list(board.KINDS), value="Pass or play", label="Puzzles")
    players = mo.ui.dropdown(options=list(board.table_sizes), value=board.ANY_TABLE, label="Table")
    rules = mo.ui.dropdown(options=list(board.rules_choices), value=board.ANY_RULES, label="Rules")
    themes = mo.ui.multiselect(options=board.themes, label="Themes (none: all)")
    low, high = board.difficulty_range
    # Two labelled fields, not a range slider: its handles were named only "Minimum" and "Maximum".
    lowest = mo.ui.number(start=low, stop=high, step=50, value=low, label="Lowest puzzle rating")
    highest = mo.ui.number(start=low, stop=high, step=50, value=high, label="Highest puzzle rating")
    _filters = mo.vstack(
        [
            mo.hstack([kind, players, rules], justify="start", wrap=True),
            themes,
            mo.hstack([lowest, highest], justify="start", wrap=True),
        ]
    )
    _filters if board.mode != "practice" else None  # noqa: B018 (shown; practice chooses for you)
    return highest, kind, lowest, players, rules, themes


@app.cell(hide_code=True)
def _(board, mo):
    next_puzzle = mo.ui.button(value=0, on_click=lambda count: count + 1, label="Next puzzle")
    next_puzzle if board.has_puzzles else None  # noqa: B018 (shows it when there is a next one)
    return (next_puzzle,)


@app.cell(hide_code=True)
def _(board, highest, kind, lowest, mo, next_puzzle, players, rules, themes):
    next_puzzle.value  # noqa: B018 (a click shows the next puzzle)
    _band = (lowest.value, highest.value)
    board.show_next(themes.value, _band, kind.value, players.value, rules.value)
    # The verdict, chart and status cells read this, so a new puzzle clears the old verdict at once.
    shown = board.trainer.current
    mo.md(board.prompt_markdown())
    return (shown,)


@app.cell(hide_code=True)
def _(board, get_answers, mo, shown):
    _seen = (get_answers(), shown)
    mo.md(board.streak_markdown()) if board.mode == "streak" else None
    return


@app.cell(hide_code=True)
def _(board, mo):
    table = mo.ui.anywidget(board.widget)
    table if board.has_puzzles else None  # noqa: B018 (the table, when a puzzle can come to it)
    return


@app.cell(hide_code=True)
def _(board, get_answers, mo, shown):
    _seen = (get_answers(), shown)  # an answer, or the next puzzle
    mo.md(board.verdict_markdown())
    return


@app.cell(hide_code=True)
def _(board, get_answers, shown):
    _seen = (get_answers(), shown)
    board.pass_chart()
    return


@app.cell(hide_code=True)
def _(board, get_answers, mo, shown):
    _seen = (get_answers(), shown)
    mo.md(board.analysis_markdown())
    return


@app.cell(hide_code=True)
def _(board, get_answers, mo, shown):
    _seen = (get_answers(), shown)
    mo.md(board.status_markdown())
    return


if __name__ == "__main__":
    app.run()
