import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: lessons")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.lessons.home import home_markdown, more_markdown, next_to_do
    from trainer.lessons.progress import LessonProgressStore
    from trainer.store import open_store

    store, notice = open_store()
    progress = LessonProgressStore(store)
    return home_markdown, mo, more_markdown, next_to_do, notice, progress, store


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # Hearts Trainer

    Learn the card game Hearts step by step, at a real table: each lesson sets up a position, asks
    you to play, pass or answer, and the rules engine (and, for judgement, the evaluator) tells you
    at once what was right or wrong and why. Your place in every lesson is saved on this computer.
    """)
    return


@app.cell(hide_code=True)
def _(mo, notice):
    mo.callout(mo.md(notice), kind="warn") if notice else None
    return


@app.cell(hide_code=True)
def _(home_markdown, mo, progress):
    mo.md(home_markdown(progress))
    return


@app.cell(hide_code=True)
def _(mo, next_to_do, progress):
    mo.md(f"### {next_to_do(progress)}")
    return


@app.cell(hide_code=True)
def _(mo, store):
    from trainer.lessons.home import due_today_markdown

    _due = due_today_markdown(store)
    mo.md(_due) if _due else None
    return


@app.cell(hide_code=True)
def _(mo, more_markdown, store):
    from trainer.career.progress import CareerProgress

    mo.md(more_markdown(CareerProgress(store).level))
    return


@app.cell(hide_code=True)
def _(mo, store):
    from trainer.progress.transfer import export_bytes, transfer_markdown

    mo.vstack(
        [
            mo.md(transfer_markdown()),
            mo.download(
                data=lambda: export_bytes(store),
                filename="hearts-trainer-progress.json",
                mimetype="application/json",
                label="Download my progress",
            ),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
