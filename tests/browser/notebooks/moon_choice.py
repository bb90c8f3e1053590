import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Test: the shooter's moon choice at the table")


@app.cell(hide_code=True)
def _():
    import marimo as mo

    from engine import HandState, Phase, Rules
    from trainer.table import TableWidget

    def moon_for_seat_0() -> HandState:
        """A hand under shooter's choice in which seat 0 has just taken every point card: seat 0
        plays its highest card, the others their lowest, over seeded deals until a moon comes."""
        rules = Rules(moon="shooters_choice", pass_count=0)
        for seed in range(2000):
            state = HandState.from_seed(seed, rules)
            while state.phase is Phase.PLAYING:
                legal = state.legal_cards()
                state.play(legal[-1] if state.to_move == 0 else legal[0])
            if state.phase is Phase.MOON_CHOICE and state.to_move == 0:
                return state
        raise AssertionError("no moon for seat 0 in 2000 deals")

    widget = TableWidget(Rules(moon="shooters_choice"), autoplay=False, table_id="moon")
    widget.set_position(moon_for_seat_0(), [(10, 20, 30, 40)])
    return mo, widget


@app.cell(hide_code=True)
def _(mo, widget):
    mo.ui.anywidget(widget)
    return


if __name__ == "__main__":
    app.run()
