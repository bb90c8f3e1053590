"""The room itself (trainer.rooms.room and view), with the clock given by hand: the engine
referees, timers and the grace period hand decisions to a bot, a resent message is applied once,
and a room rebuilt from its record is the same room."""

from __future__ import annotations

import json

import pytest

from engine import Phase, to_card
from tests.rooms_helpers import drive, first_legal, is_hand_score, message_for
from trainer.rooms.hub import Hub
from trainer.rooms.room import Room, RoomConfig, RoomError
from trainer.rooms.store import MemoryStore
from trainer.rooms.view import seat_view

QUICK = {"bot_delay": 0.0, "trick_pause": 0.0}


def two_people(seed: int = 7, **config) -> tuple[Room, str, str]:
    """Ann (host, seat 0) and Bob (seat 1) connected, two bots, the game (dealt from ``seed``)
    started at t=10."""
    room = Room("test-room-code", RoomConfig(**{**QUICK, **config}), seed, 0.0)
    _, ann = room.join("Ann", 0.0)
    room.connect(0, 0.0)
    seat, bob = room.join("Bob", 1.0)
    assert seat == 1
    room.connect(1, 1.0)
    room.start(0, 10.0)
    return room, ann, bob


def to_play(room: Room, now: float) -> float:
    """Every pass made (people their first legal pass, bots theirs): the first trick is next."""
    for seat in (0, 1):
        room.act(seat, message_for(first_legal(room, seat)), now)
    while room.hand.phase is Phase.PASSING:
        now += 1
        for seat, reason in room.due(now):
            from engine.bots import bot_action, make_bot

            room.bot_decides(seat, reason, bot_action(make_bot("easy", seat), room.game.view(seat)), now)
    return now


def test_a_hand_is_played_to_its_end_and_scored():
    room, _, _ = two_people()
    drive(room, 10.0)
    sheet = seat_view(room, 0, 100.0)["room"]["score_sheet"]
    assert sheet["names"] == ["Ann", "Bob", "Bot 3", "Bot 4"]
    assert len(sheet["rows"]) == 1 and is_hand_score(sheet["rows"][0])


def test_the_engine_refuses_with_its_reason_and_nothing_changes():
    room, _, _ = two_people()
    now = to_play(room, 11.0)
    leader = room.hand.to_move
    other = next(seat for seat in (0, 1) if seat != leader) if leader in (0, 1) else 0
    record = json.dumps(room.to_record())
    # A card the seat does not hold, and a move out of turn: each refused in a sentence.
    missing = next(card for card in room.hand.hand((other + 1) % 4))
    with pytest.raises(RoomError, match="You do not hold"):
        room.act(other, {"type": "play", "card": missing.code}, now)
    own = next(iter(room.hand.hand(other)))
    with pytest.raises(RoomError, match="Wait for your turn"):
        room.act(other, {"type": "play", "card": own.code}, now)
    assert json.dumps(room.to_record()) == record


def test_an_illegal_lead_is_refused_with_the_engines_words():
    for seed in range(50):  # the first deal whose two of clubs ends with a person
        room, _, _ = two_people(seed)
        now = to_play(room, 11.0)
        if room.hand.to_move in (0, 1):
            break
    leader, hand = room.hand.to_move, room.hand
    illegal = next(c for c in hand.hand(leader) if c.code != "2C")  # the first lead is the 2♣
    with pytest.raises(RoomError) as refused:
        room.act(leader, {"type": "play", "card": illegal.code}, now)
    assert refused.value.text == hand.why_not_play(illegal, leader).message


def test_a_message_sent_twice_is_applied_once_and_a_second_tab_cannot_play_it_again():
    room, _, _ = two_people()
    now = to_play(room, 11.0)
    while room.hand.to_move not in (0, 1):
        now += 1
        drive_one_bot(room, now)
    seat = room.hand.to_move
    message = {**message_for(first_legal(room, seat)), "seq": 1}
    events, errors = room.intent(seat, "tab-a", [message], now)
    assert events and not errors
    played = room.hand.cards_played
    # The same numbered message again (a resend, a reconnect): nothing happens.
    assert room.intent(seat, "tab-a", [message], now) == ([], [])
    # Another tab of the seat sending the same card: the engine refuses it, nothing changes.
    events, errors = room.intent(seat, "tab-b", [message], now)
    assert not events and len(errors) == 1
    assert room.hand.cards_played == played


def drive_one_bot(room: Room, now: float) -> None:
    from engine.bots import bot_action, make_bot

    for seat, reason in room.due(now):
        room.bot_decides(seat, reason, bot_action(make_bot("easy", seat), room.game.view(seat)), now)


def test_the_timer_lets_a_bot_make_that_one_decision_and_says_so():
    room, _, _ = two_people(timer=15)
    # Passing: both people's clocks started with the deal at t=10.
    assert room.deadline(0) == 25.0 and room.next_deadline(11.0) <= 25.0
    now = 11.0
    drive_one_bot(room, now)  # the bots pass
    assert room.due(24.9) == []
    room.act(1, message_for(first_legal(room, 1)), 20.0)
    assert room.deadline(0) == 25.0  # Bob's pass does not restart Ann's clock
    assert (0, "timer") in room.due(25.0)
    from engine.bots import bot_action, make_bot

    events = room.bot_decides(0, "timer", bot_action(make_bot("easy", 0), room.game.view(0)), 25.0)
    assert events and room.log[-1]["by"] == "timer"
    assert 0 not in room.hand.seats_to_pass
    mine = seat_view(room, 0, 25.0)["room"]["notice"]
    theirs = seat_view(room, 1, 25.0)["room"]["notice"]
    passed = [to_card(code).name for code in room.hand.passed(0)]
    assert mine == f"Time ran out: a bot passed the {passed[0]}, the {passed[1]} and the {passed[2]} for you."
    assert theirs == "Time ran out: a bot passed three cards for Ann."  # the cards stay Ann's
    assert not room.seats[0].bot_playing  # one decision only: the seat is still Ann's


def test_passes_that_time_out_together_are_each_told_to_their_player():
    """The passes share the deal's clock, so both people's timers run out at once: each reads that
    a bot passed their own cards, not only the last seat's notice."""
    room, _, _ = two_people(timer=15)
    drive_one_bot(room, 11.0)  # the bots pass; Ann and Bob do not
    from engine.bots import bot_action, make_bot

    for seat in (0, 1):
        room.bot_decides(seat, "timer", bot_action(make_bot("easy", seat), room.game.view(seat)), 25.0)
    assert room.hand.phase is Phase.PLAYING
    for seat, other in ((0, "Bob"), (1, "Ann")):
        passed = [to_card(code).name for code in room.hand.passed(seat)]
        notice = seat_view(room, seat, 25.0)["room"]["notice"]
        assert f"a bot passed the {passed[0]}, the {passed[1]} and the {passed[2]} for you." in notice
        assert f"Time ran out: a bot passed three cards for {other}." in notice
    # A later timer (a play, on its own clock) is told alone.
    now = 25.0
    while room.hand.to_move not in (0, 1):
        now += 1.0
        drive_one_bot(room, now)
    seat = room.hand.to_move
    deadline = room.deadline(seat)
    room.bot_decides(seat, "timer", bot_action(make_bot("easy", seat), room.game.view(seat)), deadline)
    notice = seat_view(room, 1 - seat, deadline)["room"]["notice"]
    assert notice.startswith("Time ran out: a bot played the ") and "passed" not in notice


def test_a_pass_made_while_others_still_choose_is_shown_as_passed():
    """Until the exchange the passed cards stay in the hand: a player waiting for a friend's pass
    sees which three they passed and to whom; the friend's hand shows nothing of it."""
    room, _, _ = two_people()
    drive_one_bot(room, 11.0)  # the bots pass
    room.act(0, message_for(first_legal(room, 0)), 12.0)
    passed = sorted(room.hand.passed(0).codes)
    ann = seat_view(room, 0, 12.0)
    assert sorted(card["code"] for card in ann["hand"] if card["passed"]) == passed
    assert len(ann["hand"]) == 13  # still held until Bob passes
    cards = [f"the {to_card(code)}" for code in room.hand.passed(0).codes]
    said = f"You passed {cards[0]}, {cards[1]} and {cards[2]} to Bob. Waiting for the others to pass."
    assert ann["status"] == said
    bob = seat_view(room, 1, 12.0)
    assert not any(card["passed"] for card in bob["hand"]) and bob["status"].startswith("Choose 3 cards")
    room.act(1, message_for(first_legal(room, 1)), 13.0)  # the exchange: nothing is marked passed
    assert not any(card["passed"] for card in seat_view(room, 0, 13.0)["hand"])


def test_a_room_everyone_has_left_stops_at_its_hands_end_until_someone_returns():
    """Bots play the seats of people gone past the grace, but only to the hand's end: with nobody
    at the table no next hand is dealt (else the bots would play the whole game out for them)."""
    room, _, _ = two_people(grace=30, hand_pause=20)
    room.disconnect(0, 11.0)
    room.disconnect(1, 11.0)
    assert len(room.tick(41.0)) == 2  # both away past the grace: bots finish the hand
    now = drive(room, 41.0, bots_only=True)
    assert room.hand.is_over and room.seats[0].bot_playing and room.seats[1].bot_playing
    assert room.tick(now + 3600) == [] and room.game.hand_index == 0
    assert room.next_deadline(now + 3600) is None  # nothing to wake up for
    back = now + 3600
    room.connect(1, back)  # Bob returns: his whole pause to see the hand's score, then the next
    assert seat_view(room, 1, back)["room"]["next_hand_in"] == 20
    assert room.tick(back + 19) == []
    assert room.tick(back + 20) == [{"type": "new_hand", "hand": 2}]


def test_a_room_whose_game_is_over_offers_no_new_hand():
    """The table's New hand would only be refused ("The game is over: …"): it is not offered."""
    room, _, _ = two_people(target=1)  # the game ends with its first hand
    drive(room, 20.0)
    assert room.status == "over"
    view = seat_view(room, 0, 100.0)
    assert view["deals"] is False and view["hand_over"]
    with pytest.raises(RoomError, match="The game is over"):
        room.act(0, {"type": "new_hand"}, 100.0)


def test_a_player_away_past_the_grace_gets_a_bot_until_they_return():
    room, _, _ = two_people(grace=30)
    drive_one_bot(room, 11.0)  # the bots pass: only the people's passes are left
    room.disconnect(1, 12.0)
    assert room.tick(41.9) == []
    assert room.next_deadline(13.0) == 42.0
    assert room.tick(42.0) == [{"type": "away", "seat": 1}]
    assert room.seats[1].bot_playing
    assert (1, "away") in room.due(42.0)
    assert "Bob is away: a bot plays for Bob" in seat_view(room, 0, 42.0)["room"]["notice"]
    with pytest.raises(RoomError, match="A bot plays this seat"):
        room.act(1, message_for(first_legal(room, 1)), 42.0)
    assert room.connect(1, 50.0) == [{"type": "back", "seat": 1}]
    assert not room.seats[1].bot_playing and room.due(50.0) == []


def test_the_host_hands_an_idle_seat_to_a_bot_and_only_an_idle_one():
    room, _, _ = two_people()
    with pytest.raises(RoomError, match="connected"):
        room.hand_to_bot(0, 1, 11.0)
    room.disconnect(1, 11.0)
    with pytest.raises(RoomError, match="Only the host"):
        room.hand_to_bot(1, 1, 11.0)
    room.hand_to_bot(0, 1, 12.0)
    assert room.played_by_bot(1) and (1, "away") in room.due(12.0)


def test_the_next_hand_comes_when_every_connected_player_asks_or_after_the_pause():
    room, _, _ = two_people(hand_pause=20)
    now = drive(room, 10.0)
    assert room.hand_ended == now
    assert room.act(0, {"type": "new_hand"}, now + 1) == [{"type": "ready", "seat": 0}]
    assert room.game.hand_index == 0
    events = room.act(1, {"type": "new_hand"}, now + 2)
    assert events == [{"type": "new_hand", "hand": 2}] and room.hand.phase is Phase.PASSING
    later = drive(room, now + 3)
    assert room.tick(later + 19) == [] and room.game.hand_index == 1
    assert room.tick(later + 20) == [{"type": "new_hand", "hand": 3}]


def test_new_hand_mid_hand_is_refused():
    room, _, _ = two_people()
    with pytest.raises(RoomError, match="played to its end"):
        room.act(0, {"type": "new_hand", "discard": True}, 11.0)


@pytest.mark.parametrize("stop", ["passing", "mid_trick", "hand_over"])
def test_a_room_rebuilt_from_its_record_is_the_same_room(stop):
    room, ann, bob = two_people(timer=30)
    now = 11.0
    if stop != "passing":
        now = to_play(room, now)
        for _ in range(6):
            now += 1
            drive_one_bot(room, now)
            if room.hand.to_move in (0, 1):
                room.act(room.hand.to_move, message_for(first_legal(room, room.hand.to_move)), now)
        if stop == "hand_over":
            now = drive(room, now)
    if room.hand.phase is Phase.PASSING:  # a marked card is the seat's own state, kept too
        room.act(0, {"type": "toggle", "card": next(iter(room.hand.hand(0))).code}, now)
    record = json.loads(json.dumps(room.to_record()))  # through JSON, as the store keeps it
    again = Room.from_record(record)
    for seat in (0, 1):
        again.connect(seat, now)
    kept, live = again.to_record(), room.to_record()
    assert again.version >= room.version  # a page never sees the room's number go back
    assert {**kept, "room_version": 0} == {**live, "room_version": 0}
    assert again.seat_of(ann) == 0 and again.seat_of(bob) == 1
    for seat in range(4):
        assert seat_view(again, seat, now) == seat_view(room, seat, now)
    # And it plays on identically: the same decisions give the same hand.
    drive(room, now)
    drive(again, now)
    assert again.game.score_table == room.game.score_table


def test_after_a_restart_each_player_gets_the_grace_and_the_timer_again():
    room, _, _ = two_people(timer=15, grace=30)
    again = Room.from_record(json.loads(json.dumps(room.to_record())))
    again.resumed(500.0)
    assert again.due(500.0) == [] or all(reason != "timer" for _, reason in again.due(500.0))
    assert again.deadline(0) == 515.0
    assert again.tick(529.0) == [] and len(again.tick(530.0)) == 2


def test_seats_and_secrets():
    room, ann = Room.create(RoomConfig(**QUICK), "  Ann  ", 0.0)
    assert len(room.code) >= 21 and len(ann) >= 32
    assert room.seat_of(ann) == 0 and room.seat_of("guess") is None and room.seat_of(None) is None
    assert ann not in json.dumps(room.to_record())  # only its hash is kept
    seat, _ = room.join("Ann", 1.0)
    assert room.seats[seat].name == "Ann 2"  # two people of one name stay apart
    room.start(0, 2.0)
    with pytest.raises(RoomError, match="has started"):
        room.join("Late", 3.0)


def test_a_seat_sees_its_own_hand_only():
    room, _, _ = two_people(seed=4_611_686_018_427_387_903)
    view = seat_view(room, 1, 11.0)
    assert [c["code"] for c in view["hand"]] == [c.code for c in room.hand.hand(1)]
    assert all(seat["cards"] is None for seat in view["seats"])
    text = json.dumps(view)
    assert str(room.seed) not in text
    for other in (0, 2, 3):
        hidden = [c.code for c in room.hand.hand(other)]
        assert not any(f'"code": "{code}"' in text for code in hidden)
    assert view["seats"][0]["name"] == "Ann" and view["seats"][1]["name"] == "You"
    assert view["hints"] is False and view["practice"] is False


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"preset": "nine_players"}, "preset: unknown rules"),
        ({"target": 75}, "target: 75 is not 50 or 100"),
        ({"bot_level": "expert"}, "bot_level"),
        ({"timer": -5}, "timer: -5"),
        ({"timer": "soon"}, "timer: 'soon'"),
    ],
)
def test_bad_settings_are_named(settings, words):
    """The settings a page sends, as the server checks them (the choices it offers, then the room's)."""
    with pytest.raises(RoomError, match=words):
        Hub(MemoryStore()).config(settings)


@pytest.mark.parametrize(
    ("settings", "words"),
    [({"target": 0}, "target: 0 is not a number of points"), ({"timer": -5}, "timer: -5")],
)
def test_a_room_rebuilt_with_impossible_settings_names_them(settings, words):
    with pytest.raises(RoomError, match=words):
        RoomConfig(**settings)


def test_a_test_server_may_offer_a_short_game_that_others_refuse():
    assert Hub(MemoryStore(), targets=(50, 100, 30)).config({"target": 30}).rules.target == 30
    with pytest.raises(RoomError, match="target: 30 is not 50 or 100"):
        Hub(MemoryStore()).config({"target": 30})


def test_a_screen_reader_hears_the_last_card_as_at_the_lessons_table():
    room, _, _ = two_people()
    now = to_play(room, 11.0)
    while room.hand.to_move != 1:
        now += 1
        drive_one_bot(room, now)
        if room.hand.to_move == 0:
            room.act(0, message_for(first_legal(room, 0)), now)
    card = first_legal(room, 1).card
    room.act(1, {"type": "play", "card": card.code}, now)
    assert seat_view(room, 1, now)["room"]["spoken"].startswith(f"You play the {card.name}.")
    assert seat_view(room, 0, now)["room"]["spoken"].startswith(f"Bob plays the {card.name}.")
