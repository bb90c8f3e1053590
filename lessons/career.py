import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: the career")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.career.page import (
        INTRO,
        level_markdown,
        matches_markdown,
        problems_markdown,
        record_markdown,
        status_markdown,
        strength_chart,
        strength_markdown,
    )
    from trainer.career.progress import TARGETS, level_from
    from trainer.career.runner import open_career

    runner = open_career()
    return (
        INTRO,
        TARGETS,
        level_from,
        level_markdown,
        matches_markdown,
        mo,
        problems_markdown,
        record_markdown,
        runner,
        status_markdown,
        strength_chart,
        strength_markdown,
    )


@app.cell(hide_code=True)
def _(mo, runner):
    get_news, set_news = mo.state(0)
    runner.on_change(lambda: set_news(lambda n: n + 1))
    return (get_news,)


@app.cell(hide_code=True)
def _(INTRO, mo):
    mo.md(INTRO)
    return


@app.cell(hide_code=True)
def _(mo, runner):
    # Built once: the match plays on in it while the cells around it redraw.
    table = mo.ui.anywidget(runner.widget)
    return (table,)


@app.cell(hide_code=True)
def _(get_news, level_from, level_markdown, mo, problems_markdown, runner, status_markdown, table):
    _seen = (get_news(), table.value)  # a match started or ended, a hand's end drawn
    matches = runner.matches()
    _notes = problems_markdown(runner.notice, runner.problems)
    mo.vstack(
        [mo.callout(mo.md(_notes), kind="warn")] * bool(_notes)
        + [mo.md(level_markdown(level_from(matches))), mo.md(status_markdown(runner, matches))]
    )
    return (matches,)


@app.cell(hide_code=True)
def _(TARGETS, matches, mo):
    _seen = matches  # a new choice once a match ends
    length = mo.ui.radio(
        options={f"a game to {target}": target for target in TARGETS},
        value=f"a game to {TARGETS[-1]}",
        label="Length of the match",
        inline=True,
    )
    return (length,)


@app.cell(hide_code=True)
def _(length, mo, runner):
    start = mo.ui.button(
        label="Start the match", kind="success", on_click=lambda _: runner.start_match(length.value)
    )
    return (start,)


@app.cell(hide_code=True)
def _(length, matches, mo, runner, start):
    _seen = matches
    mo.hstack([length, start], justify="start", align="center") if not runner.in_play else None
    return


@app.cell(hide_code=True)
def _(get_news, runner, table):
    _seen = get_news()
    table if runner.match_level is not None else None  # noqa: B018 (the cell's output)
    return


@app.cell(hide_code=True)
def _(matches, mo, record_markdown):
    mo.md(record_markdown(matches))
    return


@app.cell(hide_code=True)
def _(matches, mo, strength_chart, strength_markdown):
    _chart = strength_chart(matches)
    _parts = [mo.md(strength_markdown(matches)), *([_chart] if _chart else [])]
    mo.vstack(_parts).style({"max-width": "44rem"})
    return


@app.cell(hide_code=True)
def _(matches, matches_markdown, mo):
    mo.md(matches_markdown(matches))
    return


if __name__ == "__main__":
    app.run()
