import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: your review")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.review.page import open_review
    from trainer.site import HOME
    from trainer.site_build.pages.record import practise_line, record_markdown
    from trainer.store import open_store

    store, notice = open_store()
    data = open_review(store)
    CHART_BOX = {"max-width": "44rem"}  # the charts fill a phone's width, not a wide screen's
    return CHART_BOX, HOME, data, mo, notice, practise_line, record_markdown, store


@app.cell(hide_code=True)
def _(HOME, mo):
    mo.md(rf"""
    [← All lessons]({HOME})

    # Your review
    """)
    return


@app.cell(hide_code=True)
def _(mo, notice):
    mo.callout(mo.md(notice), kind="warn") if notice else None
    return


@app.cell(hide_code=True)
def _(mo, record_markdown, store):
    mo.md(record_markdown(store))
    return


@app.cell(hide_code=True)
def _(data, mo, practise_line):
    _line = practise_line(data)  # "Practise this": the session the puzzles page builds
    mo.md(_line) if _line else None
    return


@app.cell(hide_code=True)
def _(CHART_BOX, data, mo):
    # The same charts as the installed version's review page: Vega-Lite specs (trainer.vega).
    mo.vstack(
        [
            mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
            for _view in data.charts()
        ]
    )
    return


if __name__ == "__main__":
    app.run()
