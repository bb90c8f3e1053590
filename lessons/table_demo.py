import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: the table")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.table.demo import demo_table
    from trainer.table.summary import describe_value

    return demo_table, describe_value, mo


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # The Hearts table

    You sit at the bottom; three easy bots fill the other seats. Pick three cards to pass, then
    play. Legal cards are outlined in green; the others are faded, and hovering one says why
    you may not play it. Press **?** for the keys.
    """)
    return


@app.cell(hide_code=True)
def _(demo_table, mo):
    table = mo.ui.anywidget(demo_table())
    table  # noqa: B018 (shows the table)
    return (table,)


@app.cell(hide_code=True)
def _(describe_value, mo, table):
    mo.md(describe_value(table.value))
    return


if __name__ == "__main__":
    app.run()
