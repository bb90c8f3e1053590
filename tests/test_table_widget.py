"""The table widget's message handling, without a browser.

``_handle_custom_msg(content, [])`` is exactly what a browser's ``model.send`` does, and
``set_state({"intent": ...})`` what its ``save_changes`` does.
"""

from __future__ import annotations

import copy
import time

import pytest

from engine import CardSet, HandState, Phase, Rules, setup_position
from engine.bots import make_bot
from trainer.seats import seat_names
from trainer.table import TableError, TableWidget

EASY = make_bot("easy")  # the hard bot is not written yet: hints come from the easy one here


def clubs_to_seat_0(rules: Rules) -> list[str]:
    """A hold deal where seat 0 holds every club."""
    others = [c.code for c in CardSet(rules.deck_mask) if c.suit.letter != "C"]
    size = rules.hand_size
    return [" ".join(c.code for c in CardSet("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"))] + [
        " ".join(others[i * size : (i + 1) * size]) for i in range(rules.players - 1)
    ]


def table(**options) -> TableWidget:
    options.setdefault("hints", EASY)
    options.setdefault("bot_delay", 0)
    return TableWidget(**options)


class Sent(list):
    """Collects what the widget sends to the browser."""

    def __call__(self, content, buffers=None):
        self.append(content)


@pytest.fixture
def widget(monkeypatch):
    w = table(seed=7)
    w.sent = Sent()
    monkeypatch.setattr(w, "send", w.sent)
    return w


def browser_says(w: TableWidget, message) -> None:
    w._handle_custom_msg(message, [])


def frozen(w: TableWidget) -> tuple:
    hand = w.session.hand
    return (
        copy.deepcopy(w.table),
        hand.actions_made,
        hand.history,
        [hand.hand(s) for s in range(hand.players)],
    )


def my_cards(w: TableWidget) -> list[str]:
    return [card["code"] for card in w.table["hand"]]


def pass_and_wait(w: TableWidget) -> None:
    browser_says(w, {"type": "pass", "cards": my_cards(w)[:3]})
    assert w.table["phase"] == "playing"


@pytest.mark.parametrize(
    ("message", "reason", "words"),
    [
        ({"type": "shuffle"}, "unknown_type", "Unknown message type 'shuffle'"),
        ({"card": "2C"}, "unknown_type", "Unknown message type None"),
        ("play 2C", "bad_message", "must be an object"),
        ({"type": "play"}, "bad_message", "needs one card"),
        ({"type": "play", "card": "ZZ"}, "bad_card", "not a card"),
        ({"type": "pass", "cards": "QS"}, "bad_message", "must be a list"),
        ({"type": "pass", "cards": ["2C", "2C", "3C"]}, "card_repeated", "twice"),
        ({"type": "moon", "choice": "keep"}, "bad_message", "not a moon choice"),
    ],
)
def test_malformed_messages_are_refused_and_change_nothing(widget, message, reason, words) -> None:
    before = frozen(widget)
    browser_says(widget, message)
    assert widget.error["reason"] == reason
    assert words in widget.error["message"]
    assert widget.sent == [{"type": "error", "reason": reason, "message": widget.error["message"]}]
    assert frozen(widget) == before


def test_a_card_not_in_hand_is_refused(widget) -> None:
    theirs = widget.session.hand.hand(1)[0].code
    before = frozen(widget)
    browser_says(widget, {"type": "pass", "cards": [theirs, *my_cards(widget)[:2]]})
    assert widget.error["reason"] == "not_in_hand"
    assert widget.error["message"] == f"You do not hold the {widget.session.hand.hand(1)[0]}."
    assert frozen(widget) == before
    pass_and_wait(widget)
    before = frozen(widget)
    browser_says(widget, {"type": "play", "card": widget.session.hand.hand(2)[-1].code})
    assert widget.error["reason"] == "not_in_hand"
    assert frozen(widget) == before


def test_wrong_phase_messages_are_refused(widget) -> None:
    before = frozen(widget)
    browser_says(widget, {"type": "play", "card": my_cards(widget)[0]})
    assert widget.error == {
        "reason": "wrong_phase",
        "n": 1,
        "message": "Cards are still being passed: play starts after the exchange.",
    }
    assert frozen(widget) == before
    browser_says(widget, {"type": "moon", "choice": "add_to_others"})
    assert widget.error["reason"] == "wrong_phase"
    assert widget.error["n"] == 2  # a repeated refusal is shown again
    pass_and_wait(widget)
    before = frozen(widget)
    browser_says(widget, {"type": "pass", "cards": my_cards(widget)[:3]})
    assert widget.error["reason"] == "wrong_phase"
    assert frozen(widget) == before


def test_an_illegal_play_gets_the_engines_reason(widget) -> None:
    pass_and_wait(widget)
    hand = widget.session.hand
    illegal = [c for c in hand.hand(0) if not hand.can_play(c, 0)]
    assert illegal, "seed 7 gives seat 0 cards it may not play to the first trick"
    before = frozen(widget)
    browser_says(widget, {"type": "play", "card": illegal[0].code})
    assert widget.error["message"] == hand.why_not_play(illegal[0], 0).message
    assert frozen(widget) == before
    shown = {c["code"]: c for c in widget.table["hand"]}
    assert shown[illegal[0].code]["legal"] is False
    assert shown[illegal[0].code]["why"] == widget.error["message"]


def test_a_fourth_selected_card_is_refused(widget) -> None:
    cards = my_cards(widget)
    widget.set_state({"intent": {"type": "select", "cards": cards[:3], "n": 1}})
    assert widget.table["selected"] == cards[:3]
    widget.set_state({"intent": {"type": "select", "cards": cards[:4], "n": 2}})
    assert widget.error["reason"] == "too_many"
    assert widget.table["selected"] == cards[:3]


def test_quick_clicks_while_passing_add_up(widget) -> None:
    """Each click says which card (not the whole marked set, which the browser may not have
    been shown yet): three clicks before any answer mark three cards."""
    cards = my_cards(widget)
    for n, card in enumerate(cards[:3], 1):
        widget.set_state({"intent": {"type": "toggle", "card": card, "n": n}})
    assert widget.table["selected"] == cards[:3]
    widget.set_state({"intent": {"type": "toggle", "card": cards[1], "n": 4}})
    assert widget.table["selected"] == [cards[0], cards[2]]
    widget.set_state({"intent": {"type": "toggle", "card": cards[3], "n": 5}})
    widget.set_state({"intent": {"type": "toggle", "card": cards[4], "n": 6}})
    assert widget.error["reason"] == "too_many"
    assert widget.table["selected"] == [cards[0], cards[2], cards[3]]


def test_a_pass_naming_no_cards_passes_the_marked_cards(widget) -> None:
    """The Pass button and Enter send no cards: the page's picture of the marks may lag behind
    its quick clicks, so Python passes the cards it has marked (the toggles before the pass
    were applied first); the lesson runner hears the pass with those cards."""
    cards = my_cards(widget)
    heard = []
    widget.on_message(heard.append)
    messages = [{"type": "toggle", "card": card, "seq": n} for n, card in enumerate(cards[:3], 1)]
    messages.append({"type": "pass", "seq": 4})
    widget.set_state({"intent": {"view": "a", "messages": messages}})
    assert widget.error == {}
    assert sorted(widget.session.hand.passed(0).codes) == sorted(cards[:3])
    assert heard[-1] == {"type": "pass", "cards": cards[:3]}


def test_a_pass_naming_no_cards_with_two_marked_is_refused_and_changes_nothing(widget) -> None:
    cards = my_cards(widget)
    for n, card in enumerate(cards[:2], 1):
        widget.set_state({"intent": {"type": "toggle", "card": card, "n": n}})
    widget.set_state({"intent": {"type": "pass", "n": 3}})
    assert "3" in widget.error["message"]
    assert widget.table["passing"] and widget.table["selected"] == cards[:2]


def test_messages_that_arrive_together_are_each_applied_once(widget) -> None:
    """The page repeats its newest messages in every setting of ``intent`` (marimo may deliver
    only the last of several settings): each numbered message is applied once, in order."""
    cards = my_cards(widget)
    toggles = [{"type": "toggle", "card": card, "seq": n} for n, card in enumerate(cards[:3], 1)]
    widget.set_state({"intent": {"view": "a", "messages": toggles[:1]}})
    assert widget.table["selected"] == cards[:1]
    widget.set_state({"intent": {"view": "a", "messages": toggles}})  # the first again, and two more
    assert widget.table["selected"] == cards[:3]
    again = {"type": "toggle", "card": cards[0], "seq": 1}  # another page's first message
    widget.set_state({"intent": {"view": "b", "messages": [again]}})
    assert widget.table["selected"] == cards[1:3]
    widget.set_state({"intent": {"view": "b", "messages": "toggle"}})
    assert widget.error["reason"] == "bad_message"
    assert widget.table["selected"] == cards[1:3]


def test_passing_shows_the_received_cards_until_the_first_trick_ends(widget) -> None:
    cards = my_cards(widget)
    browser_says(widget, {"type": "pass", "cards": cards[-3:]})
    hand = widget.session.hand
    received = hand.received(0)
    assert {c["code"] for c in widget.table["hand"] if c["received"]} == set(received.codes)
    assert not set(cards[-3:]) & set(my_cards(widget))
    while hand.trick_number == 0:
        widget.act({"type": "play", "card": next(c["code"] for c in widget.table["hand"] if c["legal"])})
    assert not any(c["received"] for c in widget.table["hand"])


def test_a_whole_hand_through_messages_reaches_the_score_table(widget) -> None:
    events = []
    widget.on_event(events.append)
    pass_and_wait(widget)
    while not widget.table["hand_over"]:
        legal = [c["code"] for c in widget.table["hand"] if c["legal"]]
        browser_says(widget, {"type": "play", "card": legal[-1]})
    assert widget.error == {}
    result = widget.session.hand.result
    assert widget.table["score_rows"] == [list(result.scores)]
    assert widget.table["totals"] == list(result.scores)
    assert [e["type"] for e in events].count("play") == 52
    assert [e["type"] for e in events].count("trick") == 13
    assert [e for e in events if e["type"] == "hand_over"] == [
        {"type": "hand_over", "scores": list(result.scores), "totals": list(result.scores)}
    ]
    assert "The hand is over." in widget.announcement["text"]


class Spy:
    """A bot that records what it is shown."""

    name = "spy"

    def __init__(self) -> None:
        self.bot = make_bot("easy", 1)
        self.seen = []

    def choose_pass(self, view):
        self.seen.append(view)
        return self.bot.choose_pass(view)

    def choose_play(self, view):
        self.seen.append(view)
        return self.bot.choose_play(view)

    def choose_moon(self, view):
        self.seen.append(view)
        return self.bot.choose_moon(view)


def test_bots_and_the_hint_see_only_their_own_view() -> None:
    from engine import PlayerView

    spy, hinter = Spy(), Spy()
    w = table(seed=3, bots={1: spy}, hints=hinter)
    w.act({"type": "hint"})
    assert len(w.table["hint"]) == 3 and set(w.table["hint"]) <= set(my_cards(w))
    w.act({"type": "pass", "cards": w.table["hint"]})
    w.act({"type": "hint"})
    assert len(w.table["hint"]) == 1 and w.table["hint"][0] in my_cards(w)
    assert spy.seen and all(isinstance(v, PlayerView) and v.seat == 1 for v in spy.seen)
    assert hinter.seen and all(isinstance(v, PlayerView) and v.seat == 0 for v in hinter.seen)


def test_bots_wait_before_each_card() -> None:
    w = table(seed=7, bot_delay=0.15, trick_pause=0.1)
    w.act({"type": "pass", "cards": my_cards(w)[:3]})
    hand = w.session.hand
    # Seat 0 does not lead the first trick with this deal: bots are to move, one card at a time.
    assert hand.to_move != 0 and hand.cards_played == 0
    time.sleep(0.05)
    assert hand.cards_played == 0
    started = time.monotonic()
    assert w.wait_for_bots(10)
    assert time.monotonic() - started >= 0.1 * hand.cards_played
    assert hand.to_move == 0 and hand.cards_played >= 1
    w.close()


def test_take_back_in_practice_only() -> None:
    # The table offers Take back only when it would do something (it greys the button out).
    w = table(seed=7)
    assert w.table["can_take_back"] is False
    w.act({"type": "pass", "cards": my_cards(w)[:3]})
    assert w.table["can_take_back"] is True
    card = next(c["code"] for c in w.table["hand"] if c["legal"])
    w.act({"type": "play", "card": card})
    assert card not in my_cards(w)
    w.act({"type": "take_back"})
    assert card in my_cards(w) and w.table["my_turn"] and w.table["can_take_back"] is True
    w.act({"type": "take_back"})
    assert w.table["phase"] == "passing" and w.table["passing"]
    assert w.table["can_take_back"] is False
    with pytest.raises(TableError, match="nothing of yours"):
        w.act({"type": "take_back"})
    strict = table(seed=7, practice=False)
    assert strict.table["can_take_back"] is False
    before = frozen(strict)
    with pytest.raises(TableError, match="only for practice"):
        strict.act({"type": "take_back"})
    assert frozen(strict) == before


def test_python_sets_up_a_position_and_bots_continue() -> None:
    rules = Rules()
    w = table()
    events = []
    w.on_event(events.append)
    w.set_position(HandState.from_deal(clubs_to_seat_0(rules), rules), score_rows=[(1, 2, 3, 20)])
    assert w.table["phase"] == "playing" and w.table["my_turn"]
    assert [c["code"] for c in w.table["hand"] if c["legal"]] == ["2C"]
    assert w.table["totals"] == [1, 2, 3, 20] and w.table["hand_number"] == 2
    w.act({"type": "play", "card": "2C"})
    assert len(w.session.hand.tricks) == 1 and w.table["my_turn"]  # clubs all ours: we win every trick
    assert events[0]["type"] == "position"
    # Part-way through a trick, led by the seat to our right: the bots finish it first.
    source = HandState.from_seed(11, rules, "hold")
    while source.to_move != 3 or source.current_trick.cards:
        source.play(source.legal_cards()[0])
    source.play(source.legal_cards()[0])
    led = source.current_trick.cards[0]
    mid = setup_position(
        [source.hand(s) for s in range(4)],
        rules,
        tricks=[t.cards for t in (*source.tricks, source.current_trick)],
        first_leader=source.tricks[0].leader if source.tricks else None,
    )
    w.set_position(mid)
    assert w.session.hand is mid and w.table["my_turn"]
    assert [p["code"] for p in w.table["trick"]] == [led.code]
    assert w.table["score_rows"] == []


def test_a_still_table_says_it_stops_after_the_learners_decision_instead_of_naming_a_bot() -> None:
    """A puzzle's table (``autoplay=False``): the bots never move, so once the learner has passed
    or played, the status line must not say "Waiting for the others to pass." or "Left to play."."""
    still = "Answered: the verdict is below."
    rules = Rules()
    w = table(autoplay=False, still_status=still)
    w.set_position(HandState.from_seed(5, rules, "left"))
    assert w.table["status"] == "Choose 3 cards to pass to Left."  # the other seats are to pass too
    w.act({"type": "pass", "cards": my_cards(w)[:3]})
    assert w.table["phase"] == "passing" and w.table["status"] == still
    w.set_position(HandState.from_deal(clubs_to_seat_0(rules), rules))
    assert w.table["status"] == "Your turn: play a highlighted card."
    w.act({"type": "play", "card": "2C"})
    assert w.session.bot_to_act == 1 and w.table["status"] == still
    assert w.table["to_move"] == 1  # the table still shows whose turn it would be


def test_a_still_table_stays_answered_when_the_learners_card_wins_the_trick() -> None:
    """The learner plays last to a trick and wins it: it would be their lead, but the position
    is answered, so the table says so, offers no card and takes no second decision."""
    still = "Answered: the verdict is below."
    rules = Rules()
    others = [c.code for c in CardSet(rules.deck_mask) if c.suit.letter != "C"]
    deal = [
        "QC KC AC " + " ".join(others[:10]),  # the learner: the highest clubs
        "2C 3C 4C 5C " + " ".join(others[10:19]),
        "6C 7C 8C " + " ".join(others[19:29]),
        "9C 10C JC " + " ".join(others[29:39]),
    ]
    state = HandState.from_deal(deal, rules)
    for seat, card in ((1, "2C"), (2, "6C"), (3, "9C")):
        state.play(card, seat)
    w = table(autoplay=False, still_status=still)
    w.set_position(state)
    assert w.table["my_turn"] and w.table["status"] == "Your turn: play a highlighted card."
    w.act({"type": "play", "card": "AC"})
    assert w.session.hand.to_move == 0  # the ace won: the lead would be the learner's
    assert w.table["status"] == still and not w.table["my_turn"]
    assert not any(entry["legal"] for entry in w.table["hand"])
    with pytest.raises(TableError, match="This position is answered"):
        w.act({"type": "play", "card": "KC"})
    assert len(w.session.hand.hand(0)) == 12 and w.table["status"] == still  # nothing changed
    w.set_position(HandState.from_deal(clubs_to_seat_0(rules), rules))  # the next position
    assert w.table["my_turn"] and w.table["status"] == "Your turn: play a highlighted card."


def test_new_hand_follows_the_pass_cycle_and_open_seats_show_cards() -> None:
    w = table(seed=7, open_seats=[2])
    assert w.table["seats"][2]["cards"] == w.session.hand.hand(2).codes
    assert w.table["seats"][1]["cards"] is None and w.table["seats"][0]["cards"] is None
    w.act({"type": "pass", "cards": my_cards(w)[:3]})
    while not w.table["hand_over"]:
        w.act({"type": "play", "card": next(c["code"] for c in w.table["hand"] if c["legal"])})
    w.set_state({"intent": {"type": "new_hand", "n": 5}})
    assert w.table["hand_number"] == 2 and w.table["pass_direction"] == "right"
    assert len(w.table["score_rows"]) == 1
    w.open_seats = []
    assert w.table["seats"][2]["cards"] is None


@pytest.mark.parametrize("players", range(3, 8))
def test_every_table_size_names_its_seats_and_plays(players) -> None:
    rules = Rules(players=players)
    names = seat_names(players, 0)
    assert names[0] == "You" and len(set(names)) == players
    w = table(rules=rules, seed=players)
    assert len(w.table["seats"]) == players and len(w.table["hand"]) == rules.hand_size
    if w.table["passing"]:
        w.act({"type": "pass", "cards": my_cards(w)[: rules.pass_count]})
    while w.session.hand.phase is Phase.PLAYING:
        w.act({"type": "play", "card": next(c["code"] for c in w.table["hand"] if c["legal"])})
    assert w.table["hand_over"] and sum(w.table["totals"]) >= 26
