"""The exact late-hand solver agrees with a brute-force search over HandState, card for card."""

from __future__ import annotations

import random

import pytest

from engine import HandState, MoonChoice, MoonRule, Phase, Rules, parse_cards
from engine.cards import card_mask
from engine.rules import PRESETS, STANDARD
from engine.scoring import score_hand
from engine.search import solver
from engine.search.solver import solve_options, solve_value

# ----- the reference: plain max^n over HandState, no memo, no pruning -----


def brute_value(state: HandState) -> tuple[tuple[int, ...], int]:
    """(final scores, shooter or -1) with perfect play from ``state``: the seat to move takes
    the card with the lowest ``own - others' average`` (compared exactly, times players - 1),
    the lowest card among equals. ``state`` is played forward and taken back."""
    if state.phase is Phase.MOON_CHOICE:
        state.choose_moon(MoonChoice.ADD_TO_OTHERS)
        result = state.result
        state.take_back(1)
        return result.scores, result.shooter
    if state.phase is Phase.DONE:
        result = state.result
        return result.scores, -1 if result.shooter is None else result.shooter
    players = state.players
    if not any(len(state.hand(seat)) for seat in range(players)):
        # A made-up position shorter than a real hand (first-trick checks): score what was taken.
        choice = MoonChoice.ADD_TO_OTHERS if state.rules.moon is MoonRule.SHOOTERS_CHOICE else None
        taken = [state.taken(seat).mask for seat in range(players)]
        result = score_hand(state.rules, taken, state.tricks_won, choice)
        return result.scores, -1 if result.shooter is None else result.shooter
    seat = state.to_move
    best = None
    best_key = 0
    for card in state.legal_cards():
        state.play(card)
        outcome = brute_value(state)
        state.take_back(1)
        key = players * outcome[0][seat] - sum(outcome[0])
        if best is None or key < best_key:
            best, best_key = outcome, key
    return best


def brute_options(state: HandState) -> list[tuple[int, tuple[int, ...], int]]:
    options = []
    for card in state.legal_cards():
        state.play(card)
        options.append((card, *brute_value(state)))
        state.take_back(1)
    return options


def observable(state: HandState) -> tuple:
    return (
        state.phase,
        tuple(state.hand(seat) for seat in range(state.players)),
        tuple(state.taken(seat) for seat in range(state.players)),
        state.tricks_won,
        state.to_move,
        state.current_trick,
        state.tricks,
        state.hearts_broken,
        state.history,
        state.legal_cards(),
    )


def check(state: HandState) -> list[tuple[int, tuple[int, ...], int]]:
    """solve_options and solve_value against the brute force; the state is left as it was."""
    before = observable(state)
    solved = solve_options(state)
    value = solve_value(state)
    assert observable(state) == before
    expected = brute_options(state)
    assert [card for card, _, _ in solved] == list(state.legal_cards())
    assert solved == expected
    # brute_value(state) without searching again: its choice among the options above.
    seat, players = state.to_move, state.players
    best = min(expected, key=lambda option: (players * option[1][seat] - sum(option[1]), option[0]))
    assert value == (best[1], best[2])
    assert observable(state) == before
    return solved


# ----- positions -----


def played_to(seed: int, rules: Rules, cards: int, extra: int, keep_out: int = 0) -> HandState:
    """A seeded deal played with random legal cards until every seat holds ``cards``, then
    ``extra`` cards of the next trick. Cards of ``keep_out`` are avoided while possible."""
    rng = random.Random(seed)
    state = HandState.from_seed(seed, rules, "hold")
    for _ in range((rules.hand_size - cards) * rules.players + extra):
        legal = list(state.legal_cards())
        state.play(rng.choice([c for c in legal if not keep_out >> c & 1] or legal))
    return state


def moon_deal(seed: int, rules: Rules, cards: int, extra: int) -> HandState:
    """A deal skewed so that one seat may shoot the moon: it holds the Q♠, most hearts and some
    high cards (the J♦ too in Omnibus), plays its highest legal card, and the others random
    ones, until every seat holds ``cards`` (and ``extra`` cards of the next trick are down)."""
    rng = random.Random(seed)
    players = rules.players
    deck = [card for card in range(52) if rules.deck_mask >> card & 1]
    shooter = rng.randrange(players)
    hearts = [card for card in deck if card >= 39]
    high = [card for card in deck if card % 13 >= 9 and card < 39 and card != 36]
    wanted = [36, *hearts[-rng.randrange(6, 10) :], *rng.sample(high, 3)]
    if rules.jack_of_diamonds_points:
        wanted.insert(1, 22)
    wanted = list(dict.fromkeys(wanted))[: rules.hand_size]
    rest = [card for card in deck if card not in wanted]
    rng.shuffle(rest)
    hands = [0] * players
    hands[shooter] = sum(1 << card for card in wanted)
    for seat in range(players):
        while hands[seat].bit_count() < rules.hand_size:
            hands[seat] |= 1 << rest.pop()
    state = HandState(rules, hands, "hold")
    for _ in range((rules.hand_size - cards) * players + extra):
        legal = list(state.legal_cards())
        state.play(legal[-1] if state.to_move == shooter else rng.choice(legal))
    return state


def imagined(
    rng: random.Random, rules: Rules, cards: int, on_table: int, broken: bool, first: bool = False
) -> HandState:
    """A position built the way the evaluator builds its imagined deals (``HandState.imagined``):
    random hands of ``cards`` (one fewer for the seats that have played to the trick),
    ``on_table`` cards of the trick, the rest of the deck in past tricks won by random seats (or,
    with ``first``, no past tricks: a made-up first trick of a short hand)."""
    players = rules.players
    deck = [card for card in range(52) if rules.deck_mask >> card & 1]
    rng.shuffle(deck)
    leader = rng.randrange(players)
    lowest = int(rules.lowest_club)
    if first:
        deck.remove(lowest)
        deck.insert(0, lowest)  # the first card dealt below: led, or in the leader's hand
    trick = [deck.pop(0) for _ in range(on_table)]
    hands = [0] * players
    for offset in range(players):
        seat = (leader + offset) % players
        for _ in range(cards - (offset < on_table)):
            hands[seat] |= 1 << deck.pop(0)
    tricks = []
    if not first:
        while deck:
            tricks.append((0, tuple(deck[:players]), rng.randrange(players)))
            del deck[:players]
    return HandState.imagined(rules, hands, tricks, trick, leader, broken)


def endgame(
    hands: list[str],
    rules: Rules = STANDARD,
    *,
    leader: int,
    trick: str = "",
    winner: int | None = None,
    broken: bool = True,
) -> HandState:
    """A hand near its end: ``hands`` now, ``trick`` on the table (led by ``leader``); the other
    cards in past tricks (in card order), all won by ``winner`` or, without one, by each seat
    in turn."""
    masks = [card_mask(hand) for hand in hands]
    on_table = [int(card) for card in parse_cards(trick)]
    used = sum(masks) | card_mask(trick)
    rest = [card for card in range(52) if rules.deck_mask >> card & 1 and not used >> card & 1]
    players = rules.players
    tricks = [
        (0, tuple(rest[i : i + players]), winner if winner is not None else (i // players) % players)
        for i in range(0, len(rest), players)
    ]
    return HandState.imagined(rules, masks, tricks, on_table, leader, broken)


# ----- brute force on many positions -----

VARIANTS = {
    "standard": Rules(),
    "three players": Rules(players=3),
    "five players": Rules(players=5),
    "omnibus": PRESETS["omnibus"],
    "omnibus, moon needs the J♦": PRESETS["omnibus"].replace(moon_needs_jack=True),
    "black maria": PRESETS["black_maria"],
    "spot hearts": PRESETS["spot_hearts"],
    "new moon": PRESETS["new_moon"],
    "shooter's choice": PRESETS["shooters_choice"],
    "no moon": Rules(moon=MoonRule.OFF),
    "no-tricks bonus": Rules(no_tricks_bonus=-5),
    "queen breaks hearts": PRESETS["queen_breaks_hearts"].replace(hearts_instead_of_queen=True),
    "hearts need not be broken": Rules(must_break_hearts=False),
    "points on the first trick": PRESETS["points_on_first_trick"].replace(lead_any_club=True),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_random_play_positions_match_brute_force(name):
    rules = VARIANTS[name]
    players = rules.players
    for seed in range(30):
        cards = 2 + seed % 2
        check(played_to(seed, rules, cards, seed % players))


def test_four_cards_a_seat_match_brute_force():
    for seed in range(8):
        check(played_to(100 + seed, Rules(players=3), 4, seed % 3))
    for seed in range(8):
        check(played_to(200 + seed, Rules(), 4, 2 + seed % 2))
    for seed in range(2):
        check(played_to(300 + seed, Rules(), 4, 0))
    for seed in range(4):
        check(played_to(400 + seed, PRESETS["black_maria"], 4, 3))


@pytest.mark.parametrize(
    "name",
    [
        "standard",
        "new moon",
        "shooter's choice",
        "omnibus",
        "omnibus, moon needs the J♦",
        "three players",
        "five players",
        "black maria",
        "spot hearts",
        "no-tricks bonus",
    ],
)
def test_moon_positions_match_brute_force(name):
    rules = VARIANTS[name]
    alive = moons = 0
    seed = 0
    while alive < 12:
        state = moon_deal(seed, rules, 2 + seed % 2, seed % rules.players)
        seed += 1
        takers = {seat for seat in range(rules.players) if state.taken(seat).mask & rules.moon_mask}
        if len(takers) > 1:
            continue  # nobody can shoot any more
        alive += 1
        solved = check(state)
        moons += any(shooter >= 0 for _, _, shooter in solved)
    assert moons >= 3, "the skewed deals should give moons to check"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_imagined_deals_match_brute_force(name):
    """Positions the evaluator would imagine, hearts broken or not, mid-trick or not."""
    rules = VARIANTS[name]
    rng = random.Random(name)
    for index in range(16):
        cards = 2 + index % 2
        check(imagined(rng, rules, cards, rng.randrange(rules.players), broken=index % 3 == 0))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(no_points_on_first_trick=False),
        Rules(lead_any_club=True),
        PRESETS["black_maria"],
        Rules(players=5, lead_any_club=True),
    ],
    ids=["standard", "points allowed", "any club", "black maria", "five players"],
)
def test_first_trick_rules_match_brute_force(rules):
    """A made-up first trick with two cards a seat: the lowest club (or any club) leads, and
    no points are played on it while a seat holds something else."""
    rng = random.Random(str(rules))
    for index in range(24):
        check(imagined(rng, rules, 2, index % rules.players, broken=False, first=True))


def test_hearts_unbroken_late_with_seven_players():
    """Seven seats of three cards hold 21 cards: every heart may still be in hand."""
    keep_out = card_mask("QS") | card_mask("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    found = 0
    for seed in range(200):
        state = played_to(seed, Rules(players=7), 3, seed % 7, keep_out)
        if not state.hearts_broken:
            found += 1
            check(state)
            if found == 3:
                return
    raise AssertionError("too few positions with hearts unbroken")


def test_renamed_memo_on_small_positions_matches_brute_force(monkeypatch):
    """The memo of positions up to renaming cards is normally used from four cards a seat,
    beyond the brute force's reach: here it is used at every trick, on positions where
    different tricks can lead to the same renamed hands with different moon chances, hearts
    broken or not, and tricks won."""
    monkeypatch.setattr(solver, "_RENAME_FROM", 0)
    for name in ("standard", "new moon", "omnibus, moon needs the J♦", "black maria", "spot hearts"):
        rules = VARIANTS[name]
        for seed in range(8):
            check(moon_deal(seed, rules, 3, seed % rules.players))
    for seed in range(12):
        check(played_to(500 + seed, Rules(players=3), 4, seed % 3))
        check(played_to(600 + seed, Rules(no_tricks_bonus=-5), 3, seed % 4))
        check(played_to(700 + seed, PRESETS["queen_breaks_hearts"], 3, seed % 4))
    rng = random.Random(8)
    mixed = (Rules(), Rules(no_tricks_bonus=-5), PRESETS["queen_breaks_hearts"], Rules(players=3))
    for index in range(40):
        rules = mixed[index % 4]
        check(imagined(rng, rules, 3, index % 3, broken=index % 2 == 0))


def test_renaming_or_not_gives_the_same_answers_on_bigger_positions(monkeypatch):
    """Beyond the brute force's reach: the solver with the renamed memo at every trick, from
    four cards a seat (the default) and nowhere all agree."""
    positions = [played_to(800 + seed, Rules(), 5, seed % 4) for seed in range(12)]
    positions += [moon_deal(seed, VARIANTS[name], 5, seed % 4) for seed in range(4) for name in VARIANTS]
    positions += [played_to(900 + seed, Rules(players=3), 6, seed % 3) for seed in range(4)]
    answers = []
    for rename_from in (99, solver._RENAME_FROM, 0):
        monkeypatch.setattr(solver, "_RENAME_FROM", rename_from)
        answers.append([(solve_options(state), solve_value(state)) for state in positions])
    assert answers[0] == answers[1] == answers[2]


# Positions where a part of the memo key, the floor or the formality shortcut changes the
# answer (found by solving many positions with and without it): (deal, seed, rules, cards, extra).
KEY_CASES = [
    ("played", 157, "three players", 5, 2),  # the moon chances in the key
    ("played", 147, "three players", 4, 0),  # ... in the renamed key
    ("played", 75, "three players", 4, 0),  # ... in the last trick's key
    ("moon", 55, "three players", 4, 1),
    ("played", 16, "no-tricks bonus", 4, 0),  # the tricks won in the key
    ("played", 43, "no-tricks bonus", 4, 3),
    ("moon", 5, "no-tricks bonus", 3, 1),  # a bonus still to win: not a formality, no floor
    ("moon", 24, "no-tricks bonus", 3, 0),
    ("moon", 25, "no-tricks bonus", 3, 1),
    ("moon", 98, "no-tricks bonus", 3, 2),
]


@pytest.mark.parametrize("rename_from", [solver._RENAME_FROM, 0])
def test_positions_where_the_key_matters_match_brute_force(monkeypatch, rename_from):
    monkeypatch.setattr(solver, "_RENAME_FROM", rename_from)
    for deal, seed, name, cards, extra in KEY_CASES:
        make = moon_deal if deal == "moon" else played_to
        check(make(seed, VARIANTS[name], cards, extra))


# ----- positions with known answers -----


def test_a_seat_drops_the_queen_under_the_ace_rather_than_win_her_later():
    # Seat 0 led the A♠ and leads the 2♠ next: seat 1 keeping the Q♠ would win her with it.
    state = endgame(["2S", "QS 3S", "5C 6C", "7C 8C"], leader=0, trick="AS")
    before = state.points_taken
    options = solve_options(state)
    assert [(card.code, scores) for card, scores, _ in options] == [
        ("3S", (before[0], before[1] + 13, before[2], before[3])),
        ("QS", (before[0] + 13, before[1], before[2], before[3])),
    ]
    assert solve_value(state) == (options[1][1], -1)


def test_a_blocker_takes_hearts_to_stop_a_moon():
    # Seat 0 has taken every point card but the A♥, K♥ and 2♥, and leads the K♥.
    state = endgame(["9C", "AH 2H", "3C 4C", "5C 6C"], leader=0, trick="KH", winner=0)
    assert state.points_taken == (23, 0, 0, 0)
    assert [(card.code, scores, shooter) for card, scores, shooter in solve_options(state)] == [
        ("2H", (0, 26, 26, 26), 0),
        ("AH", (23, 3, 0, 0), -1),
    ]
    assert solve_value(state) == ((23, 3, 0, 0), -1)
    new_moon = endgame(["9C", "AH 2H", "3C 4C", "5C 6C"], PRESETS["new_moon"], leader=0, trick="KH", winner=0)
    assert [(scores, shooter) for _, scores, shooter in solve_options(new_moon)] == [
        ((-26, 0, 0, 0), 0),
        ((23, 3, 0, 0), -1),
    ]


def test_the_shooter_runs_the_rest_when_nobody_can_stop_it():
    state = endgame(["AH KH", "2C 3C", "4C 5C", "6C 7C"], leader=0, winner=0)
    assert [(card.code, scores, shooter) for card, scores, shooter in solve_options(state)] == [
        ("KH", (0, 26, 26, 26), 0),
        ("AH", (0, 26, 26, 26), 0),
    ]
    choice = endgame(["AH KH", "2C 3C", "4C 5C", "6C 7C"], PRESETS["shooters_choice"], leader=0, winner=0)
    assert solve_value(choice) == ((0, 26, 26, 26), 0)  # scored adding to the others


def test_the_last_trick_plays_itself():
    state = endgame(["KS", "QS", "AS", "2C"], leader=0, trick="KS QS")
    before = state.points_taken
    [(card, scores, shooter)] = solve_options(state)
    assert card.code == "AS" and shooter == -1
    assert scores == (before[0], before[1], before[2] + 13, before[3])


def test_cards_with_nothing_live_between_them_share_one_outcome():
    state = endgame(["AS 2S 3S", "9C 10C JC", "2D 3D 4D", "5D 6D 7D"], leader=1)
    options = solve_options(state)
    assert [card.code for card, _, _ in options] == ["9C", "10C", "JC"]
    assert len({(scores, shooter) for _, scores, shooter in options}) == 1
    assert options == brute_options(state)


def test_the_cards_either_side_of_ones_own_queen_are_not_interchangeable():
    # The J♠ and K♠ have only seat 1's own Q♠ between them, yet differ: keeping the K♠ then
    # the Q♠, the seat (indifferent for itself) sheds the lower, the Q♠, to seat 0 next trick;
    # keeping the J♠ and Q♠ it sheds the J♠ and the Q♠ goes to seat 3 on the last trick.
    state = endgame(["AS 5D 2H", "JS QS KS", "6D 4C 5C", "3D 8C 9C"], leader=0, winner=None)
    state.play("AS")
    options = check(state)
    by_card = {card.code: (scores, shooter) for card, scores, shooter in options}
    assert by_card["JS"] != by_card["KS"]


@pytest.mark.parametrize(
    ("rules", "leads"),
    [
        (Rules(), ["QS"]),
        (Rules(hearts_instead_of_queen=True), ["QS", "2H"]),
        (Rules(must_break_hearts=False), ["QS", "2H"]),
    ],
    ids=["standard", "hearts instead of the queen", "hearts need not be broken"],
)
def test_leads_before_hearts_are_broken(rules, leads):
    state = endgame(["QS 2H", "AS 3H", "4C 5C", "6C 7C"], rules, leader=0, broken=False)
    assert [card.code for card, _, _ in check(state)] == leads


def test_the_queen_breaks_hearts_for_the_next_lead_when_the_rules_say_so():
    # Seat 1 wins the Q♠ with the A♠ and leads next, holding a heart and a club.
    for rules, next_leads in ((Rules(), ["4C"]), (Rules(queen_breaks_hearts=True), ["4C", "3H"])):
        state = endgame(["QS 2C 9C", "AS 3H 4C", "5D 6D 7D", "8D 9D 10D"], rules, leader=0, broken=False)
        check(state)  # the Q♠ played inside the search
        state.play("QS")
        state.play("AS")
        state.play("5D")
        state.play("8D")
        assert state.to_move == 1
        assert [card.code for card, _, _ in check(state)] == next_leads


def test_a_queen_worth_nothing_still_differs_from_her_neighbours_when_she_breaks_hearts():
    # The J♠ and Q♠ are next to each other and both worth 0, but only the Q♠ lets seat 1 lead
    # its heart next. (The past tricks are made up; hearts are taken as not broken.)
    hands = ["4D 2H", "JS QS 3H", "10C QD 10S", "6S 4H 6H"]
    rules = Rules(queen_of_spades_points=0, queen_breaks_hearts=True)
    state = endgame(hands, rules, leader=0, trick="2S", broken=False)
    options = {card.code: outcome for card, *outcome in check(state)}
    assert options["JS"] != options["QS"]


# ----- the API -----


def test_a_hand_that_is_not_in_play_is_refused_or_scored():
    with pytest.raises(ValueError, match="in play"):
        solve_options(HandState.from_seed(1, Rules(), "left"))
    state = played_to(5, Rules(), 1, 0)
    value = solve_value(state)
    state.play(state.legal_cards()[0])
    while not state.is_over:
        state.play(state.legal_cards()[0])
    assert solve_value(state) == (
        state.result.scores,
        -1 if state.result.shooter is None else state.result.shooter,
    )
    assert value == solve_value(state)


def test_a_moon_waiting_for_the_shooters_choice_is_scored_adding_to_the_others():
    state = endgame(["AH", "2C", "3C", "4C"], PRESETS["shooters_choice"], leader=0, winner=0)
    for card in ("AH", "2C", "3C", "4C"):
        state.play(card)
    assert state.phase is Phase.MOON_CHOICE
    assert solve_value(state) == ((0, 26, 26, 26), 0)
    with pytest.raises(ValueError, match="in play"):
        solve_options(state)


def test_solve_value_is_the_best_option_for_the_seat_to_move():
    for seed in range(20):
        state = played_to(seed, Rules(), 3, seed % 4)
        seat = state.to_move
        options = solve_options(state)
        best = min(options, key=lambda option: 4 * option[1][seat] - sum(option[1]))
        assert solve_value(state) == (best[1], best[2])
