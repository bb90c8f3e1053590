import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: lesson")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.lessons.catalog import LESSONS
    from trainer.lessons.page import not_found_markdown, page_title, requested_lesson
    from trainer.lessons.runner import open_lesson
    from trainer.page_title import PageTitle
    from trainer.seats import seat_names

    # ?lesson=KEY in the address; `python lessons/lesson.py --lesson KEY` headless
    lesson_key = requested_lesson(mo.query_params().get("lesson"), mo.cli_args().get("lesson"))
    return (
        LESSONS,
        PageTitle,
        lesson_key,
        mo,
        not_found_markdown,
        open_lesson,
        page_title,
        seat_names,
    )


@app.cell(hide_code=True)
def _(PageTitle, lesson_key, mo, page_title):
    mo.ui.anywidget(PageTitle(title=page_title(lesson_key)))
    return


@app.cell(hide_code=True)
def _(LESSONS, lesson_key, mo, not_found_markdown, open_lesson):
    mo.stop(lesson_key not in LESSONS, mo.callout(mo.md(not_found_markdown(lesson_key)), kind="warn"))
    runner = open_lesson(lesson_key)
    return (runner,)


@app.cell(hide_code=True)
def _(mo, runner):
    get_step, set_step = mo.state(runner.index)
    get_news, set_news = mo.state(0)
    runner.on_change(lambda: set_news(lambda n: n + 1))
    return get_news, get_step, set_news, set_step


@app.cell(hide_code=True)
def _(mo, runner):
    mo.md(runner.header_markdown())
    return


@app.cell(hide_code=True)
def _(mo, runner):
    mo.callout(mo.md(runner.notice), kind="warn") if runner.notice else None
    return


@app.cell(hide_code=True)
def _(get_step, mo, runner):
    step = runner.go(get_step())
    mo.md(runner.step_markdown())
    return (step,)


@app.cell(hide_code=True)
def _(mo, runner, step):
    # Start from the rules on the table: a resumed game keeps the opponents it was played with.
    if len(step.variants) > 2:
        variant = mo.ui.dropdown(options=step.variant_names, value=runner.variant, label=step.variant_label)
    else:
        _on = bool(step.variants) and runner.variant == step.variant_names[-1]
        variant = mo.ui.switch(value=_on, label=step.variant_label)
    variant if step.variants else None  # noqa: B018 (the cell's output)
    return (variant,)


@app.cell(hide_code=True)
def _(runner, variant):
    runner.set_variant(variant.value)
    rules_shown = runner.variant
    return (rules_shown,)


@app.cell(hide_code=True)
def _(mo, runner):
    table = mo.ui.anywidget(runner.widget)
    table  # noqa: B018 (the cell's output)
    return (table,)


@app.cell(hide_code=True)
def _(mo, seat_names, step):
    if step.kind == "calc":
        answer = mo.ui.array(
            [
                mo.ui.text(label=f"{who} took", placeholder="e.g. QS AH 10H", full_width=True)
                for who in seat_names(step.rules.players)
            ]
        )
        # An array shown as itself is drawn as a list; its fields laid out in a row make a form.
        shown = mo.vstack([mo.md(step.task), answer.hstack(widths="equal", gap=1)])
    else:
        answer = mo.ui.radio(options=list(step.choices) or ["-"], label=step.task)
        shown = answer if step.kind == "choice" else None
    shown  # noqa: B018 (the cell's output)
    return (answer,)


@app.cell(hide_code=True)
def _(answer, get_news, mo, rules_shown, runner, table):
    _seen = (get_news(), rules_shown, table.value)  # re-judge after any of these changes
    _kind, _text = runner.feedback(answer.value)
    mo.callout(mo.md(_text), kind=_kind)
    return


@app.cell(hide_code=True)
def _(mo):
    back = mo.ui.button(label="← Back", value=0, on_click=lambda count: count + 1)
    return (back,)


@app.cell(hide_code=True)
def _(mo):
    forward = mo.ui.button(label="Next step →", value=0, on_click=lambda count: count + 1)
    return (forward,)


@app.cell(hide_code=True)
def _(mo):
    reset = mo.ui.button(label="Set the table up again", value=0, on_click=lambda count: count + 1)
    return (reset,)


@app.cell(hide_code=True)
def _(mo, runner, set_news, step):
    def _finish(_):
        runner.finish()
        set_news(lambda n: n + 1)

    finish = mo.ui.button(label="Finish lesson", on_click=_finish, kind="success")
    _shown = step  # a new step shows or hides it
    return (finish,)


@app.cell(hide_code=True)
def _(back, runner, set_step):
    if back.value:
        set_step(runner.index - 1)
    return


@app.cell(hide_code=True)
def _(forward, runner, set_news, set_step):
    if forward.value:
        if runner.is_last:
            runner.finish()
            set_news(lambda n: n + 1)
        else:
            set_step(runner.index + 1)
    return


@app.cell(hide_code=True)
def _(reset, runner, set_news):
    if reset.value:
        runner.reset_table()
        set_news(lambda n: n + 1)
    return


@app.cell(hide_code=True)
def _(back, finish, forward, mo, reset, runner, step):
    # A game step has no reset here: the table's own New hand asks before it throws a hand away.
    _buttons = [back, finish if runner.is_last else forward] + ([] if step.kind == "game" else [reset])
    mo.hstack(_buttons, justify="start", wrap=True)
    return


@app.cell(hide_code=True)
def _(get_news, mo, runner):
    _seen = get_news()
    mo.md(runner.finished_message or runner.next_link())
    return


if __name__ == "__main__":
    app.run()
