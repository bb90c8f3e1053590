"""Bots decide one at a time, between turns of the event loop, and the table says who is thinking.

In the static site (Pyodide) the page's Python has one thread: a bot deciding holds up every
click until it is done. So the table lets each bot make one decision a turn of the timer (the
browser's event loop there), answers the learner between them, and names the bot whose decision
comes next. Here a loop of our own (``Loop``) runs the turns one by one, so what happens
between them is seen without any clock.
"""

from __future__ import annotations

import pytest

from engine import HandState, Phase, Rules
from engine.bots import hard, make_bot
from engine.bots.hard import BROWSER_PASS, FULL_PASS
from trainer.table import TableWidget, widget

SEED = 7


class Counting:
    """An easy bot that counts its decisions."""

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("easy", seed)
        self.name = "easy"
        self.decisions = 0

    def choose_pass(self, view):
        self.decisions += 1
        return self.bot.choose_pass(view)

    def choose_play(self, view):
        self.decisions += 1
        return self.bot.choose_play(view)

    def choose_moon(self, view):
        self.decisions += 1
        return self.bot.choose_moon(view)


class Loop:
    """The event loop's turns, run when the test says (``call_later``'s stand-in)."""

    def __init__(self) -> None:
        self.waiting: list[tuple[float, object, tuple]] = []

    def call_later(self, delay, function, *args):
        entry = (delay, function, args)
        self.waiting.append(entry)

        class Handle:
            def cancel(_self) -> None:
                if entry in self.waiting:
                    self.waiting.remove(entry)

        return Handle()

    def turn(self) -> None:
        _delay, function, args = self.waiting.pop(0)
        function(*args)


@pytest.fixture
def loop(monkeypatch) -> Loop:
    made = Loop()
    monkeypatch.setattr(widget, "call_later", made.call_later)
    return made


def seated(loop: Loop) -> tuple[TableWidget, dict[int, Counting]]:
    bots = {seat: Counting(SEED + seat) for seat in (1, 2, 3)}
    table = TableWidget(seed=SEED, bots=bots, hints=make_bot("easy"), bot_delay=0.7, trick_pause=1.2)
    return table, bots


def decisions(bots: dict[int, Counting]) -> int:
    return sum(bot.decisions for bot in bots.values())


def test_bots_pass_one_a_turn_and_the_learner_is_answered_between(loop: Loop) -> None:
    table, bots = seated(loop)
    assert table.session.hand.phase is Phase.PASSING
    # Nothing decided while the table was set: the first bot's pass waits for a turn, at once.
    assert decisions(bots) == 0 and [delay for delay, *_ in loop.waiting] == [widget.PASS_PAUSE]
    assert table.table["thinking"] == 1
    assert table.table["status"] == "Choose 3 cards to pass to Left."  # the learner's own job first
    mine = [card["code"] for card in table.table["hand"]]
    table.act({"type": "toggle", "card": mine[0]})  # answered before any bot has decided
    assert table.table["selected"] == [mine[0]] and decisions(bots) == 0
    loop.turn()
    assert decisions(bots) == 1 and table.table["thinking"] == 2 and len(loop.waiting) == 1
    table.act({"type": "toggle", "card": mine[1]})
    assert table.table["selected"] == mine[:2] and decisions(bots) == 1
    table.act({"type": "pass", "cards": mine[:3]})
    # The learner has passed; the others have not all: the table says who it waits for.
    assert table.table["status"] == "Waiting for the others to pass: Across is thinking…"
    turns = 0
    while table.session.hand.phase is Phase.PASSING:
        loop.turn()
        turns += 1
    assert turns == 2 and decisions(bots) == 3  # one pass a turn
    table.close()


def test_the_seat_to_play_is_named_thinking_until_its_card_is_down(loop: Loop) -> None:
    table, bots = seated(loop)
    table.act({"type": "pass", "cards": [card["code"] for card in table.table["hand"]][:3]})
    while table.session.hand.phase is Phase.PASSING:
        loop.turn()
    names = {1: "Left", 2: "Across", 3: "Right"}
    while table.session.bot_to_act is not None:
        seat = table.session.bot_to_act
        assert table.table["thinking"] == seat
        assert table.table["status"] == f"{names[seat]} is thinking…"
        before = decisions(bots)
        assert len(loop.waiting) == 1 and loop.waiting[0][0] >= 0.7  # cards come one by one
        loop.turn()
        assert decisions(bots) == before + 1
    assert table.session.hand.to_move == 0
    assert table.table["thinking"] is None and table.table["status"] == "Your turn: play a highlighted card."
    table.close()


def test_a_still_table_names_no_bot_thinking(loop: Loop) -> None:
    table = TableWidget(seed=SEED, hints=make_bot("easy"), autoplay=False, still_status="Answered.")
    table.set_position(HandState.from_seed(5, Rules(), "left"))
    assert table.table["thinking"] is None and not loop.waiting
    table.close()


def count_playouts(monkeypatch) -> list[int]:
    """Every play-out a pass decision runs (passes times deals, screening and finals)."""
    from engine.search import evaluator

    counted: list[int] = []
    real = evaluator.pass_outcomes

    def counting(view, candidates, worlds, how, blocking):  # worlds: (hands, passes) per deal
        outcomes = real(view, candidates, worlds, how, blocking)
        counted.append(len(candidates) * len(worlds[0]))  # passes times deals
        return outcomes

    monkeypatch.setattr(evaluator, "pass_outcomes", counting)
    return counted


def test_hard_passes_on_the_browsers_budget_in_the_browser(monkeypatch) -> None:
    """In Pyodide a play-out takes about a third of a millisecond (the full budget's 77,000 took
    20-25 s a pass there): Hard's pass there stays within 6,000, about 2 s, and is still a pass
    of three cards it holds; installed, it keeps the full budget."""
    view = HandState.from_seed(100, Rules(), "left").view(1)
    assert make_bot("hard", 1).passes == FULL_PASS
    monkeypatch.setattr(hard, "IN_BROWSER", True)
    bot = make_bot("hard", 1)
    assert bot.passes == BROWSER_PASS
    playouts = count_playouts(monkeypatch)
    chosen = bot.choose_pass(view)
    assert len(chosen) == 3 and all(card in view.hand for card in chosen)
    assert 0 < sum(playouts) <= 6000


class TwoLooks(Counting):
    """A bot whose pass comes in two parts (as Hard's two plans do)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.looks = 0

    def pass_steps(self, view):
        self.looks += 1
        yield
        self.looks += 1
        return self.choose_pass(view)


def test_a_decision_in_parts_takes_a_turn_each_and_a_click_between_them_is_answered(loop: Loop) -> None:
    bots = {1: TwoLooks(8), 2: Counting(9), 3: Counting(10)}
    table = TableWidget(seed=SEED, bots=bots, hints=make_bot("easy"), bot_delay=0.7)
    loop.turn()  # Left's first look
    assert bots[1].looks == 1 and 1 in table.session.hand.seats_to_pass
    mine = [card["code"] for card in table.table["hand"]]
    table.act({"type": "toggle", "card": mine[0]})  # answered between Left's two looks
    assert table.table["selected"] == [mine[0]] and table.table["thinking"] == 1
    loop.turn()  # the same decision goes on: its second look, and the pass
    assert bots[1].looks == 2 and bots[1].decisions == 1
    assert 1 not in table.session.hand.seats_to_pass and table.table["thinking"] == 2
    table.close()


def test_hards_pass_comes_in_parts_each_short_in_the_browser_with_the_same_answer(monkeypatch) -> None:
    """One look a plan (its own and the moon's), each in parts: in the browser its screening is cut
    at ``STEP_PLAYOUTS`` play-outs a part (Pyodide's take a fifth of a millisecond or more each),
    then a part for each round of fresh deals. The page answers between them; the pass is the one
    chosen at once, and the career's search levels pass in parts alike."""
    from engine.search import evaluator

    view = HandState.from_seed(100, Rules(), "left").view(1)
    at_once = {key: make_bot(key, 5).choose_pass(view) for key in ("level-8", "level-9", "hard")}
    monkeypatch.setattr(evaluator, "STEP_PLAYOUTS", 1500)
    for key, expected in at_once.items():
        playouts = count_playouts(monkeypatch)
        steps = make_bot(key, 5).pass_steps(view)
        parts = []
        while True:
            before = sum(playouts)
            try:
                next(steps)
            except StopIteration as done:
                chosen = done.value
                parts.append(sum(playouts) - before)
                break
            parts.append(sum(playouts) - before)
        assert chosen == expected, key
        assert len(parts) >= 4 and max(parts) <= 1500, (key, parts)


def test_hards_play_comes_in_parts_in_the_browser_with_the_same_card(monkeypatch) -> None:
    """In the browser a look at a play yields between its rounds of deals too (``STEP_PLAYOUTS``);
    installed each plan's look is one part, as before."""
    from engine.search import evaluator

    state = HandState.from_seed(100, Rules(), "hold")
    bot = make_bot("normal", 0)
    while not (state.tricks and len(state.view(state.to_move).legal_cards) >= 6):  # a lead, after trick 1
        state.play(bot.choose_play(state.view(state.to_move)), state.to_move)
    view = state.view(state.to_move)

    def parts_and_card() -> tuple[int, object]:
        steps, parts = make_bot("hard", 5).play_steps(view), 1
        while True:
            try:
                next(steps)
                parts += 1
            except StopIteration as done:
                return parts, done.value

    installed = parts_and_card()
    assert installed[0] <= 2  # a look a plan
    monkeypatch.setattr(evaluator, "STEP_PLAYOUTS", 1500)
    parts, card = parts_and_card()
    assert card == installed[1] and parts > installed[0] + 2
