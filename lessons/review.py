import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Hearts Trainer: your review")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from trainer.review.page import (
        game_markdown,
        kept_note,
        moments_markdown,
        open_review,
        review_label,
        review_markdown,
        scoresheet_for,
        stored_review_markdown,
    )
    from trainer.review.stored import stored_review

    data = open_review()
    CHART_BOX = {"max-width": "44rem"}  # the charts fill a phone's width, not a wide screen's
    return (
        CHART_BOX,
        data,
        game_markdown,
        kept_note,
        mo,
        moments_markdown,
        review_label,
        review_markdown,
        scoresheet_for,
        stored_review,
        stored_review_markdown,
    )


@app.cell(hide_code=True)
def _(mo):
    get_reviews, set_reviews = mo.state(0)
    return get_reviews, set_reviews


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    [← All lessons](/)

    # Where your points go

    Every pass and play you make in a lesson, a puzzle or a game is graded by the evaluator and
    kept on this computer. The charts show where the points go; below them, review your last
    game against the bots decision by decision.
    """)
    return


@app.cell(hide_code=True)
def _(data, mo):
    mo.callout(mo.md(data.notice), kind="warn") if data.notice else None
    return


@app.cell(hide_code=True)
def _(data, get_reviews, mo):
    get_reviews()  # a finished review adds its decisions
    charts = {view.key: view for view in data.charts()}
    mo.md(data.counts_markdown())
    return (charts,)


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["theme"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["phase"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["direction"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["accuracy"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["points"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(CHART_BOX, charts, mo):
    _view = charts["areas"]
    mo.vstack([mo.md(f"## {_view.title}"), _view.chart, mo.md(f"*{_view.reading}*")]).style(CHART_BOX)
    return


@app.cell(hide_code=True)
def _(data, get_reviews, mo):
    get_reviews()  # a finished review adds its key moments
    import datetime

    from trainer.progress.practice import load_items
    from trainer.review.practice import practise_markdown
    from trainer.site import PUZZLES

    _items, _unreadable = load_items(data.store)  # the puzzles page names a row that does not read back
    _today = datetime.date.today()
    _line = practise_markdown(data.decisions, data.games, _items, _today, f"{PUZZLES}?mode=practice")
    mo.md(_line) if _line else None
    return


@app.cell(hide_code=True)
def _(data, get_reviews, mo):
    get_reviews()
    from trainer.progress.export import table_csv

    decisions_csv = mo.download(
        data=table_csv(data.store, "decisions").encode("utf-8"),
        filename="hearts-decisions.csv",
        mimetype="text/csv",
        label="Export every graded decision (CSV)",
    )
    decisions_csv  # noqa: B018 (the cell's output)
    return


@app.cell(hide_code=True)
def _(data, game_markdown, get_reviews, mo):
    get_reviews()  # once its review is kept, the game is read again: the button goes, the review shows
    game = data.game(mo.query_params().get("game"))  # ?game=KEY: a career match's review link
    last = game is data.last_game
    mo.md("## Game review\n\n" + game_markdown(game, last))
    return game, last


@app.cell(hide_code=True)
def _(game, last, mo, review_label, stored_review):
    kept_review = stored_review(game)  # a game reviewed before reopens at once
    review_button = mo.ui.run_button(label=review_label(last), kind="success")
    review_button if game is not None and kept_review is None else None  # noqa: B018 (the cell's output)
    return kept_review, review_button


@app.cell(hide_code=True)
def _(data, game, kept_review, last, mo, review_button, set_reviews, stored_review_markdown):
    if kept_review is not None:
        review = kept_review
    else:
        mo.stop(game is None or not review_button.value, mo.md(stored_review_markdown(game, last)))
        from trainer.review.game import decision_points, review_game

        _total = sum(len(decision_points(hand, game.seat)) for hand in game.hands)
        with mo.status.progress_bar(
            total=_total,
            title="Reviewing your game: the evaluator is looking at every pass and play",
            subtitle=f"{_total} decisions, starting with hand 1",
            remove_on_exit=True,
            show_rate=False,  # decisions differ in cost by tenfold: a rate and ETA would mislead
            show_eta=False,
        ) as _bar:
            review = review_game(game, progress=lambda done, total, label: _bar.update(subtitle=label))
        data.keep(review)
        set_reviews(lambda n: n + 1)
    return (review,)


@app.cell(hide_code=True)
def _(kept_note, mo, review, review_markdown):
    mo.md(kept_note(review) + review_markdown(review))
    return


@app.cell(hide_code=True)
def _(mo, moments_markdown, review):
    moments = review.key_moments()
    mo.md(moments_markdown(moments))
    return (moments,)


@app.cell(hide_code=True)
def _(mo, moments):
    moment_choice = mo.ui.dropdown(
        options={m.label: index for index, m in enumerate(moments)},
        label="Replay a key moment as a puzzle",
    )
    moment_choice if moments else None  # noqa: B018 (the cell's output)
    return (moment_choice,)


@app.cell(hide_code=True)
def _(game, mo, moment_choice, moments):
    mo.stop(moment_choice.value is None)
    from trainer.review.replay import replay_board

    board = replay_board(moments[moment_choice.value], opponents=game.opponents)
    get_answers, set_answers = mo.state(0)
    board.on_change(lambda: set_answers(lambda n: n + 1))
    mo.md(board.prompt_markdown())
    return board, get_answers


@app.cell(hide_code=True)
def _(board, mo):
    replay_table = mo.ui.anywidget(board.widget)
    replay_table  # noqa: B018 (the cell's output)
    return


@app.cell(hide_code=True)
def _(board, get_answers, mo):
    get_answers()
    mo.md(board.verdict_markdown())
    return


@app.cell(hide_code=True)
def _(game, mo, scoresheet_for):
    mo.stop(game is None)
    mo.vstack([mo.md("## Score sheet"), mo.Html(scoresheet_for(game, page=False))])
    return


@app.cell(hide_code=True)
def _(game, mo, scoresheet_for):
    mo.stop(game is None)
    sheet_download = mo.download(
        data=scoresheet_for(game).encode("utf-8"),
        filename="hearts-score-sheet.html",
        mimetype="text/html",
        label="Printable score sheet",
    )
    sheet_download  # noqa: B018 (the cell's output)
    return


if __name__ == "__main__":
    app.run()
