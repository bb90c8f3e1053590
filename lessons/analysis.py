import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: analysis board")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.analysis.board import DIRECTIONS, MOMENTS, PLAYERS, AnalysisBoard, preset_choices
    from trainer.site import HOME

    _given = mo.query_params().get("p")  # ?p=ADDRESS: a shared link, a review's or a puzzle's
    board = AnalysisBoard(_given[-1] if isinstance(_given, list) else _given)
    return DIRECTIONS, HOME, MOMENTS, PLAYERS, board, mo, preset_choices


@app.cell(hide_code=True)
def _(board, mo):
    get_edits, set_edits = mo.state(0)
    board.on_change(lambda: set_edits(lambda n: n + 1))
    return (get_edits,)


@app.cell(hide_code=True)
def _(HOME, mo):
    mo.md(rf"""
    [← All lessons]({HOME})

    # Analysis board: ask the coach about any hand

    Set up a position from a game you played anywhere: the cards you were dealt and the pass, or a
    moment mid-hand (your cards now, the tricks so far with who led each, what you passed and
    received). Click cards from the deck into the place chosen above it, or type or paste them.
    Only what you could know is asked. The coach then ranks every choice, and the page's address
    keeps the position: copy it to share it or come back to it.
    """)
    return


@app.cell(hide_code=True)
def _(board, mo):
    mo.callout(
        mo.md(f"**This link's position could not be opened.** {board.notice}"), kind="warn"
    ) if board.notice else None
    return


@app.cell(hide_code=True)
def _(DIRECTIONS, MOMENTS, PLAYERS, board, mo, preset_choices):
    _presets = preset_choices()
    _titles = {key: title for title, key in _presets.items()}
    players = mo.ui.dropdown(
        options={f"{n} players": n for n in PLAYERS}, value=f"{board.players} players", label="Table"
    )
    preset = mo.ui.dropdown(options=_presets, value=_titles.get(board.preset, "Standard"), label="Rules")
    moment = mo.ui.radio(
        options={title: key for key, title in MOMENTS.items()},
        value=MOMENTS[board.moment],
        label="Moment",
        inline=True,
    )
    direction = mo.ui.dropdown(
        options={title: key for key, title in DIRECTIONS.items()},
        value=DIRECTIONS.get(board.direction, "Left"),
        label="Pass this hand",
    )
    scores = mo.ui.text(
        value=" ".join(str(s) for s in board.scores) if any(board.scores) else "",
        label="Scores before this hand (you first, then round to the left; empty: all 0)",
        full_width=True,
    )
    mo.vstack([mo.hstack([players, preset, direction], justify="start", wrap=True), moment, scores])
    return direction, moment, players, preset, scores


@app.cell(hide_code=True)
def _(board, direction, moment, players, preset, scores):
    board.set_table(players.value, preset.value, moment.value, direction.value, scores.value)
    return


@app.cell(hide_code=True)
def _(board, mo):
    picker = mo.ui.anywidget(board.picker)
    picker  # noqa: B018 (shows the deck picker)
    return


@app.cell(hide_code=True)
def _(board, get_edits, mo):
    get_edits()  # every edit: the address follows the last good position
    if board.address and mo.query_params().get("p") != board.address:
        mo.query_params()["p"] = board.address
    mo.md(board.status_markdown())
    return


@app.cell(hide_code=True)
def _(mo):
    # Built once (it depends on nothing that changes), so an edit does not reset it.
    analyse_button = mo.ui.run_button(label="Analyse this position", kind="success")
    analyse_button  # noqa: B018 (shows it)
    return (analyse_button,)


@app.cell(hide_code=True)
def _(analyse_button, board, mo):
    analyse_button.value  # noqa: B018 (a press analyses; a link's position is analysed as it opens)
    mo.stop(
        board.position is None,
        mo.md("*Set up a position above: the coach ranks it when you press **Analyse this position**.*"),
    )
    with mo.status.spinner(
        title="The coach is looking at every option",
        subtitle="imagining the others' cards…",
        remove_on_exit=True,
    ) as _spinner:
        board.analyse(lambda done, total: _spinner.update(subtitle=f"{done} of {total} steps done"))
    analysed = board.analysed
    return (analysed,)


@app.cell(hide_code=True)
def _(analysed, board, mo):
    _note = f"\n\n*{board.depth_note()}*" if board.depth_note() else ""
    mo.vstack(
        [
            mo.md(f"## The coach's ranking\n\n{board.position_markdown(analysed)}{_note}"),
            mo.Html(board.ranking_html()),
        ]
    )
    return


@app.cell(hide_code=True)
def _(analysed, board):
    analysed  # noqa: B018 (a new analysis draws its map)
    board.heatmap()
    return


@app.cell(hide_code=True)
def _(analysed, board, mo):
    analysed  # noqa: B018
    mo.md("## The coach on the top choices\n\n" + board.verdicts_markdown())
    return


@app.cell(hide_code=True)
def _(analysed, mo):
    analysed  # noqa: B018 (a position to play out)
    play_out = mo.ui.button(value=0, on_click=lambda count: count + 1, label="Play it out against bots")
    mo.vstack(
        [
            mo.md(
                "## Play it out\n\nContinue this position against bots. The others' cards are dealt "
                "at random, consistent with what you know: one way the hand could have gone on."
            ),
            play_out,
        ]
    )
    return (play_out,)


@app.cell(hide_code=True)
def _(board, mo, play_out):
    mo.stop(not play_out.value or board.position is None)
    table = mo.ui.anywidget(board.play_table(seed=play_out.value))
    table  # noqa: B018 (shows the table)
    return


if __name__ == "__main__":
    app.run()
