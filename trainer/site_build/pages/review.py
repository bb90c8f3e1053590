import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: your review")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.site import HOME
    from trainer.site_build.pages.record import record_markdown
    from trainer.store import open_store

    store, notice = open_store()
    return HOME, mo, notice, record_markdown, store


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


if __name__ == "__main__":
    app.run()
