"""Hand and game records: saving and loading give back exactly the same hand or game, and a
record that is wrong anywhere is refused with a ``RecordError`` naming the field's path."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    PRESETS,
    Card,
    CardSet,
    Game,
    HandState,
    MoonChoice,
    Phase,
    RecordError,
    Rules,
    Suit,
    game_from_record,
    game_to_record,
    hand_from_record,
    hand_seed,
    hand_to_record,
    removed_cards,
    setup_position,
)
from engine.records import dumps, loads

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


# ----- helpers -----


def act(state: HandState, rng: random.Random) -> None:
    """One random legal action: a pass, a play or the shooter's choice."""
    if state.phase is Phase.PASSING:
        seat = rng.choice(state.seats_to_pass)
        state.pass_cards(seat, rng.sample(list(state.hand(seat)), state.rules.pass_count))
    elif state.phase is Phase.MOON_CHOICE:
        state.choose_moon(rng.choice(list(MoonChoice)))
    else:
        state.play(rng.choice(list(state.legal_cards())))


def play(state: HandState, rng: random.Random, actions: int | None = None) -> HandState:
    """Make ``actions`` random legal actions (all of them when None)."""
    while not state.is_over and (actions is None or actions > 0):
        act(state, rng)
        actions = None if actions is None else actions - 1
    return state


def look(state: HandState) -> tuple:
    """Everything observable about a hand, its deal and how it got here."""
    seats = range(state.players)
    return (
        state.rules,
        state.pass_direction,
        state.dealt,
        state.history,
        state.phase,
        tuple(state.hand(seat) for seat in seats),
        tuple(state.passed(seat) for seat in seats),
        tuple(state.received(seat) for seat in seats),
        tuple(state.taken(seat) for seat in seats),
        state.to_move,
        state.tricks,
        state.current_trick,
        state.hearts_broken,
        state.legal_cards(),
        state.points_taken,
        state.tricks_won,
        state.moon_shooter,
        state.result,
    )


def through_json(record: dict) -> dict:
    text = dumps(record)
    assert isinstance(text, str)
    return loads(text)


def reload_hand(state: HandState) -> HandState:
    record = hand_to_record(state)
    loaded = hand_from_record(through_json(record))
    assert look(loaded) == look(state)
    assert hand_to_record(loaded) == record
    return loaded


def play_game(rules: Rules, seed: int, rng: random.Random) -> Game:
    game = Game(rules, seed)
    while True:
        play(game.hand, rng)
        if game.is_over:
            return game
        game.next_hand()


def same_game(a: Game, b: Game) -> None:
    assert (a.rules, a.seed, a.hand_index) == (b.rules, b.seed, b.hand_index)
    assert [look(hand) for hand in a.hands] == [look(hand) for hand in b.hands]
    assert [hand.seed for hand in a.hands] == [hand.seed for hand in b.hands]
    assert a.score_table == b.score_table
    assert a.totals == b.totals
    assert a.is_over == b.is_over and a.winners == b.winners


def in_play(players: int) -> list[Card]:
    return [card for card in CARDS if card not in removed_cards(players)]


def moon_deal(players: int = 4) -> list[CardSet]:
    """Seat 0 holds every club, so it wins every trick whatever anyone plays."""
    cards = in_play(players)
    clubs = [card for card in cards if card.suit is Suit.CLUBS]
    rest = [card for card in cards if card.suit is not Suit.CLUBS]
    size = len(cards) // players
    return [CardSet(clubs)] + [CardSet(rest[i * size : (i + 1) * size]) for i in range(players - 1)]


def refused(load, record, *fragments: str) -> str:
    """Loading ``record`` raises RecordError naming every fragment; the record is untouched."""
    before = copy.deepcopy(record)
    with pytest.raises(RecordError) as error:
        load(record)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert record == before
    return message


def seeded_record(actions: int = 20, seed: int = 11, rules: Rules | None = None) -> dict:
    state = play(HandState.from_seed(seed, rules or Rules()), random.Random(seed), actions)
    return hand_to_record(state)


def finished_game_record(rules: Rules | None = None, seed: int = 3) -> dict:
    return game_to_record(play_game(rules or Rules(), seed, random.Random(seed)))


# ----- round trips -----


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.sampled_from([None, 3, 4, 5, 6, 7]),
    seed=SEEDS,
    choices=SEEDS,
    stop=st.integers(0, 100),
)
def test_a_seeded_hand_reloads_identically_at_any_point(preset, players, seed, choices, stop):
    rules = PRESETS[preset] if players is None else PRESETS[preset].replace(players=players)
    state = HandState.from_seed(seed, rules)
    total = len(state.seats_to_pass) + len(in_play(rules.players))
    play(state, random.Random(choices), total * stop // 100)
    loaded = reload_hand(state)
    assert hand_to_record(state)["deal"] == {"seed": seed}
    assert loaded.seed == seed
    # The loaded hand goes on exactly as the original does.
    play(state, random.Random(choices))
    play(loaded, random.Random(choices))
    assert look(loaded) == look(state)


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([3, 4, 5, 6, 7]), shuffle=SEEDS, choices=SEEDS, direction=st.integers(0, 3))
def test_a_hand_dealt_card_by_card_reloads_identically(players, shuffle, choices, direction):
    rules = Rules(players=players)
    cards = in_play(players)
    random.Random(shuffle).shuffle(cards)
    size = rules.hand_size
    hands = [" ".join(card.code for card in cards[i * size : (i + 1) * size]) for i in range(players)]
    directions = ["left", "right", "hold"] + (["across"] if players % 2 == 0 else [])
    state = HandState.from_deal(hands, rules, directions[direction % len(directions)])
    play(state, random.Random(choices))
    record = hand_to_record(state)
    assert [CardSet(seat) for seat in record["deal"]["hands"]] == [CardSet(hand) for hand in hands]
    loaded = reload_hand(state)
    assert loaded.result == state.result


def test_a_set_up_position_reloads_identically():
    source = play(HandState.from_seed(21), random.Random(21), 4 + 4 * 5 + 2)
    state = setup_position(
        [source.hand(seat) for seat in range(4)],
        pass_direction=source.pass_direction,
        passed=[source.passed(seat) for seat in range(4)],
        tricks=[trick.cards for trick in (*source.tricks, source.current_trick)],
        first_leader=source.tricks[0].leader,
    )
    loaded = reload_hand(state)
    assert loaded.dealt == source.dealt
    play(state, random.Random(5))
    play(loaded, random.Random(5))
    assert look(loaded) == look(state)


@pytest.mark.parametrize("choice", list(MoonChoice))
def test_a_shooters_choice_moon_reloads_with_the_choice_made(choice):
    rules = PRESETS["shooters_choice"]
    state = HandState.from_deal(moon_deal(), rules)
    rng = random.Random(choice.value)
    while state.phase is Phase.PLAYING:
        state.play(rng.choice(list(state.legal_cards())))
    assert state.phase is Phase.MOON_CHOICE and state.moon_shooter == 0

    waiting = reload_hand(state)
    assert waiting.phase is Phase.MOON_CHOICE and waiting.to_move == 0 and waiting.result is None

    state.choose_moon(choice)
    record = hand_to_record(state)
    assert record["actions"][-1] == {"moon": choice.value}
    loaded = reload_hand(state)
    assert loaded.result.moon_choice is choice and loaded.result.shooter == 0
    assert loaded.result.scores == state.result.scores
    waiting.choose_moon(choice)
    assert look(waiting) == look(loaded)


@pytest.mark.parametrize(
    "rules",
    [
        PRESETS["standard"],
        PRESETS["short_game"],
        PRESETS["shooters_choice"],
        PRESETS["play_off_ties"],
        PRESETS["omnibus"],
        PRESETS["black_maria"],
        PRESETS["three_players"],
        PRESETS["six_players"],
        PRESETS["seven_players"].replace(target=50),
    ],
    ids=[
        "standard",
        "short",
        "shooters_choice",
        "play_off",
        "omnibus",
        "black_maria",
        "three",
        "six",
        "seven",
    ],
)
def test_a_finished_game_reloads_with_the_same_hands_totals_and_winners(rules):
    for seed in (1, 2):
        game = play_game(rules, seed, random.Random(seed))
        assert game.is_over and len(game.hands) > 1
        record = game_to_record(game)
        loaded = game_from_record(through_json(record))
        same_game(loaded, game)
        assert game_to_record(loaded) == record


def test_a_game_in_progress_reloads_and_goes_on_the_same_way():
    rules = Rules(target=60)
    game = Game(rules, 99)
    rng = random.Random(99)
    for _ in range(2):
        play(game.hand, rng)
        game.next_hand()
    play(game.hand, rng, 17)
    loaded = game_from_record(through_json(game_to_record(game)))
    same_game(loaded, game)
    for current in (game, loaded):
        rng = random.Random(7)
        while True:
            play(current.hand, rng)
            if current.is_over:
                break
            current.next_hand()
    same_game(loaded, game)


def test_a_hand_record_may_name_a_preset_with_overrides():
    record = seeded_record(rules=PRESETS["omnibus"].replace(target=50))
    record["rules"] = {"preset": "omnibus", "target": 50}
    assert hand_from_record(record).rules == PRESETS["omnibus"].replace(target=50)


# ----- malformed hand records -----


def test_truncated_json_is_refused_as_not_json():
    text = dumps(seeded_record())
    with pytest.raises(RecordError, match=r"not JSON: .*line \d+ column \d+"):
        loads(text[: len(text) // 2])


@pytest.mark.parametrize("record", [[], "hand", 7, None])
def test_a_record_that_is_not_an_object_is_refused(record):
    refused(hand_from_record, record, "record: expected a JSON object")
    refused(game_from_record, record, "record: expected a JSON object")


def test_a_missing_or_wrong_format_is_refused_naming_format():
    record = seeded_record()
    del record["format"]
    refused(hand_from_record, record, "format: missing")
    record["format"] = "chess/game"
    refused(hand_from_record, record, "format:", "hearts-trainer/hand", "chess/game")
    refused(hand_from_record, finished_game_record(), "format:", "hearts-trainer/game")
    refused(game_from_record, seeded_record(), "format:", "hearts-trainer/hand")


@pytest.mark.parametrize(
    ("version", "words"), [(2, "not 2"), (0, "not 0"), ("1", "expected int"), (True, "expected int")]
)
def test_an_unknown_version_is_refused_naming_version(version, words):
    record = seeded_record()
    record["version"] = version
    refused(hand_from_record, record, "version:", words)
    game = finished_game_record()
    game["version"] = version
    refused(game_from_record, game, "version:", words)


@pytest.mark.parametrize(
    ("option", "value", "fragments"),
    [
        ("players", 9, ("rules.players:", "not 9")),
        ("players", 2, ("rules.players:", "not 2")),
        ("players", "four", ("rules.players:", "expected int")),
        ("pass_count", 13, ("rules.pass_count:", "not 13")),
        ("moon", "sideways", ("rules.moon:", "'sideways'")),
        ("heart_values", 3, ("rules.heart_values:",)),
        ("target", 0, ("rules.target:",)),
        ("speed", "fast", ("rules.speed:", "unknown rule option")),
        ("preset", "cribbage", ("rules.preset:", "unknown preset 'cribbage'")),
    ],
)
def test_a_bad_rule_option_is_refused_naming_it(option, value, fragments):
    record = seeded_record()
    record["rules"][option] = value
    refused(hand_from_record, record, *fragments)
    game = finished_game_record()
    game["rules"][option] = value
    refused(game_from_record, game, *fragments)


def test_rules_that_are_not_an_object_are_refused():
    record = seeded_record()
    record["rules"] = ["standard"]
    refused(hand_from_record, record, "rules: expected dict")


def explicit_record(players: int = 4, actions: int = 0) -> dict:
    rules = Rules(players=players)
    cards = in_play(players)
    random.Random(players).shuffle(cards)
    size = rules.hand_size
    state = HandState.from_deal([CardSet(cards[i * size : (i + 1) * size]) for i in range(players)], rules)
    return hand_to_record(play(state, random.Random(1), actions))


def test_a_card_that_is_not_a_card_is_refused_naming_its_place_in_the_deal():
    record = explicit_record()
    record["deal"]["hands"][1][4] = "1X"
    refused(hand_from_record, record, "deal.hands[1][4]:", "'1X'")
    record["deal"]["hands"][1][4] = 17
    refused(hand_from_record, record, "deal.hands[1][4]:", "17")
    record["deal"]["hands"][1] = "2C 3C"
    refused(hand_from_record, record, "deal.hands[1]:", "expected a list of cards")


def test_a_deal_that_cannot_happen_is_refused_naming_deal_and_the_problem():
    record = explicit_record()
    hands = record["deal"]["hands"]
    hands[2][0] = hands[1][0]
    refused(hand_from_record, record, "deal:", "dealt twice", str(CardSet([hands[1][0]])), "seat 1", "seat 2")

    three = explicit_record(players=3)
    three["deal"]["hands"][0][0] = "2D"
    refused(hand_from_record, three, "deal:", "2♦", "not in play with 3 players")

    short = explicit_record()
    short["deal"]["hands"] = short["deal"]["hands"][:3]
    refused(hand_from_record, short, "deal:", "3 hands", "4 players")

    uneven = explicit_record()
    uneven["deal"]["hands"][0].append(uneven["deal"]["hands"][1].pop())
    refused(hand_from_record, uneven, "deal:", "seat 0 holds 14 cards")


def test_a_deal_without_seed_or_hands_or_with_a_bad_seed_is_refused():
    record = seeded_record()
    record["deal"] = {}
    refused(hand_from_record, record, "deal: needs a 'seed' or 'hands'")
    record["deal"] = {"seed": "eleven"}
    refused(hand_from_record, record, "deal.seed: expected int")
    record["deal"] = [11]
    refused(hand_from_record, record, "deal: expected dict")
    del record["deal"]
    refused(hand_from_record, record, "deal: missing")


def test_a_pass_direction_that_does_not_exist_at_the_table_is_refused():
    record = seeded_record(rules=Rules(players=3))
    record["pass_direction"] = "across"
    refused(hand_from_record, record, "pass_direction:", "'across'")
    record["pass_direction"] = "up"
    refused(hand_from_record, record, "pass_direction:", "'up'")


def test_a_record_that_is_not_a_card_in_a_play_is_refused_naming_the_action():
    record = seeded_record(actions=10)
    assert "play" in record["actions"][7]
    record["actions"][7]["play"] = "ZZ"
    refused(hand_from_record, record, "actions[7].play:", "'ZZ'")


def test_an_illegal_play_in_a_record_is_refused_with_the_engines_reason():
    state = play(HandState.from_seed(4, Rules(), "hold"), random.Random(4), 6)
    illegal = next(card for card in state.hand(state.to_move) if card not in state.legal_cards())
    reason = state.why_not_play(illegal)
    record = hand_to_record(state)
    record["actions"].append({"play": illegal.code})
    message = refused(hand_from_record, record, "actions[6].play:", "not allowed here")
    assert message.endswith(reason.message)


def test_an_illegal_pass_in_a_record_is_refused_with_the_engines_reason():
    record = seeded_record(actions=2)
    first = record["actions"][0]
    record["actions"][0] = {"seat": first["seat"], "pass": first["pass"][:2]}
    refused(hand_from_record, record, "actions[0].pass:", "Pass exactly 3 cards: you chose 2.")
    record["actions"][0] = {"pass": first["pass"]}
    refused(hand_from_record, record, "actions[0].seat: missing")
    record["actions"][0] = {"seat": 9, "pass": first["pass"]}
    refused(hand_from_record, record, "actions[0].seat:", "no seat 9")
    record["actions"][0] = {"seat": first["seat"], "pass": first["pass"]}
    record["actions"][1] = {"seat": first["seat"], "pass": first["pass"]}
    refused(hand_from_record, record, "actions[1].pass:", "already passed")


def test_an_action_that_is_not_an_action_is_refused_naming_it():
    record = seeded_record(actions=5)
    record["actions"][3] = "2C"
    refused(hand_from_record, record, "actions[3]: expected an object")
    record["actions"][3] = {"bid": 3}
    refused(hand_from_record, record, "actions[3]: expected 'pass', 'play' or 'moon'")
    record["actions"] = {"0": "2C"}
    refused(hand_from_record, record, "actions: expected list")


def test_a_moon_choice_without_a_moon_is_refused():
    record = seeded_record(actions=None, rules=PRESETS["shooters_choice"])
    record["actions"].append({"moon": "add_to_others"})
    refused(hand_from_record, record, f"actions[{len(record['actions']) - 1}].moon:", "not allowed here")


def test_a_moon_choice_that_is_not_a_choice_is_refused_naming_the_moon_field():
    state = HandState.from_deal(moon_deal(), PRESETS["shooters_choice"])
    while state.phase is Phase.PLAYING:
        state.play(state.legal_cards()[0])
    record = hand_to_record(state)
    at = len(record["actions"])
    record["actions"].append({"moon": 26})
    refused(hand_from_record, record, f"actions[{at}].moon:", "expected str")
    record["actions"][at] = {"moon": "sideways"}
    refused(hand_from_record, record, f"actions[{at}].moon:", "'sideways'")


# ----- malformed game records -----


def test_a_just_dealt_game_hand_that_passes_the_wrong_way_is_refused_naming_its_pass_direction():
    game = Game(Rules(), 3)
    play(game.hand, random.Random(3))
    game.next_hand()
    record = game_to_record(game)
    record["hands"][1]["pass_direction"] = "across"
    refused(game_from_record, record, "hands[1].pass_direction:", "passes right, not across")


def test_a_played_game_hand_that_passes_the_wrong_way_is_refused_naming_its_pass_direction():
    # The wrong direction is the first thing wrong with the record, so it is what is reported,
    # not the play that the wrong exchange later makes impossible.
    record = finished_game_record()
    assert record["hands"][1]["pass_direction"] == "right"
    record["hands"][1]["pass_direction"] = "left"
    refused(game_from_record, record, "hands[1].pass_direction:", "passes right, not left")


def test_a_game_hand_with_another_seed_is_refused_naming_its_seed():
    record = finished_game_record(seed=3)
    record["hands"][1]["deal"]["seed"] = hand_seed(3, 2)
    refused(game_from_record, record, "hands[1].deal.seed:", str(hand_seed(3, 1)))


def test_a_game_hand_dealt_card_by_card_must_be_the_deal_the_games_seed_gives():
    game = Game(Rules(), 3)
    record = game_to_record(game)
    other = HandState.from_seed(hand_seed(3, 1))
    record["hands"][0]["deal"] = {"hands": [other.dealt_hand(seat).codes for seat in range(4)]}
    refused(game_from_record, record, "hands[0].deal")


def test_a_game_hand_dealt_card_by_card_as_the_seed_deals_it_is_accepted():
    game = Game(Rules(), 3)
    play(game.hand, random.Random(3), 9)
    record = game_to_record(game)
    record["hands"][0]["deal"] = {"hands": [game.hand.dealt_hand(seat).codes for seat in range(4)]}
    assert look(game_from_record(record).hand) == look(game.hand)


def test_an_illegal_play_in_a_game_record_is_refused_naming_hand_and_action():
    game = Game(Rules(), 5)
    rng = random.Random(5)
    play(game.hand, rng)
    game.next_hand()
    play(game.hand, rng, 12)
    state = game.hand
    illegal = next(card for card in state.hand(state.to_move) if card not in state.legal_cards())
    record = game_to_record(game)
    record["hands"][1]["actions"].append({"play": illegal.code})
    refused(game_from_record, record, "hands[1].actions[12].play:", state.why_not_play(illegal).message)


def test_a_game_record_refuses_a_hand_after_an_unfinished_one_or_after_the_end():
    game = Game(Rules(), 8)
    play(game.hand, random.Random(8), 30)
    record = game_to_record(game)
    following = HandState.from_seed(hand_seed(8, 1), Rules(), "right")
    record["hands"].append({k: v for k, v in hand_to_record(following).items() if k != "rules"})
    refused(game_from_record, record, "hands[1]:", "not finished")

    over = finished_game_record(seed=8)
    count = len(over["hands"])
    extra = HandState.from_seed(hand_seed(8, count), Rules(), Rules().pass_direction(count))
    over["hands"].append({k: v for k, v in hand_to_record(extra).items() if k != "rules"})
    refused(game_from_record, over, f"hands[{count}]:", "already over")


def test_a_game_record_without_hands_or_seed_is_refused():
    record = finished_game_record()
    refused(game_from_record, {**record, "hands": []}, "hands: a game has at least one hand")
    refused(game_from_record, {**record, "hands": [3]}, "hands[0]: expected an object")
    refused(game_from_record, {**record, "seed": "3"}, "seed: expected int")
    without = dict(record)
    del without["seed"]
    refused(game_from_record, without, "seed: missing")
