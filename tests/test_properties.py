"""Properties of whole hands, over random seeded deals and random (legal) choices.

Every preset in ``PRESETS`` is played at every table size from 3 to 7 (the preset's own size and
the preset with the other sizes), in every pass direction that exists at that size. Hypothesis
draws the deal's seed, the seed of the ``random.Random`` that chooses passes and plays, and how
the seats play (at random, or one seat trying to win every trick). The hand is played to the
end through the public API only, checking at every step:

- the legal set is never empty while playing, is part of the mover's hand, and is what the
  written rules allow (an independent reading of ``Rules``' documented options);
- every legal card is accepted by ``play`` and every other held card is refused with a
  ``Refusal`` (``why_not_play``), a refusal leaving the hand exactly as it was;
- each seat's view holds its own hand and no card of another seat's hand it cannot know.

and at the end: every card in play was played once and lies in exactly one taken pile (the
trick winner's), the hand had ``hand_size`` tricks, the points add up to the deck's value, the
scores follow the moon rule, and taking every action back returns to the deal, from which the
same actions give the same result.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    PRESETS,
    Card,
    CardSet,
    HandState,
    HeartValues,
    IllegalAction,
    MoonAction,
    MoonChoice,
    MoonRule,
    PassAction,
    PassDirection,
    Phase,
    PlayAction,
    Reason,
    Refusal,
    Rules,
    RulesError,
    Suit,
    Trick,
    removed_cards,
)
from engine.scoring import HandResult

PLAYER_COUNTS = (3, 4, 5, 6, 7)
PRESET_NAMES = sorted(PRESETS)
QUEEN_OF_SPADES = Card.of(12, Suit.SPADES)
JACK_OF_DIAMONDS = Card.of(11, Suit.DIAMONDS)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
POLICIES = st.sampled_from(["random", "shoot"])

FAST = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----- what the rules say, written out independently of the engine -----


def cards_in_play(players: int) -> set[Card]:
    return set(CARDS) - set(removed_cards(players))


def lowest_club_in_play(players: int) -> Card:
    return min(card for card in cards_in_play(players) if card.suit is Suit.CLUBS)


def directions_at(players: int) -> list[PassDirection]:
    """Left, right and hold at any table; across only where there is a seat across."""
    directions = [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.HOLD]
    if players % 2 == 0:
        directions.append(PassDirection.ACROSS)
    return directions


def pass_offset(direction: PassDirection, players: int) -> int:
    return {"left": 1, "right": players - 1, "across": players // 2}[direction.value]


def penalty_cards(rules: Rules) -> set[Card]:
    """Cards that cost points when taken (value above 0)."""
    return {card for card in cards_in_play(rules.players) if rules.card_values[card] > 0}


def hearts_broken_by(rules: Rules, played: list[Card]) -> bool:
    return any(
        card.suit is Suit.HEARTS or (card == QUEEN_OF_SPADES and rules.queen_breaks_hearts) for card in played
    )


def allowed_cards(state: HandState) -> set[Card]:
    """The cards the seat to move may play, read from the rules' documented options."""
    rules = state.rules
    hand = set(state.hand(state.to_move))
    trick = list(state.current_trick.cards)
    first_trick = not state.tricks
    if trick:
        follow = {card for card in hand if card.suit is trick[0].suit}
        if follow:
            return follow
        if first_trick and rules.no_points_on_first_trick and hand - penalty_cards(rules):
            return hand - penalty_cards(rules)
        return hand
    if first_trick:
        if rules.lead_any_club:
            return {card for card in hand if card.suit is Suit.CLUBS}
        return {lowest_club_in_play(rules.players)}
    played = [card for done in state.tricks for card in done.cards]
    if hearts_broken_by(rules, played) or not rules.must_break_hearts:
        return hand
    others = {card for card in hand if card.suit is not Suit.HEARTS}
    if not others or (rules.hearts_instead_of_queen and others == {QUEEN_OF_SPADES}):
        return hand
    return others


def trick_winner(leader: int, cards: tuple[Card, ...], players: int) -> int:
    led = cards[0].suit
    best = max((card, i) for i, card in enumerate(cards) if card.suit is led)[1]
    return (leader + best) % players


def expected_scores(rules: Rules, result: HandResult, taken: list[set[Card]]) -> tuple[int, ...]:
    """Scores from the cards taken: the moon rule when one seat took every penalty card (and the
    J♦ when a moon needs it), else points plus the no-tricks bonus."""
    players = rules.players
    points = [sum(rules.card_values[card] for card in pile) for pile in taken]
    moon_cards = penalty_cards(rules) | ({JACK_OF_DIAMONDS} if rules.moon_needs_jack else set())
    shooters = [seat for seat in range(players) if moon_cards <= taken[seat]]
    if rules.moon is MoonRule.OFF or not shooters:
        assert result.shooter is None and result.moon_choice is None
        return tuple(
            points[seat] + (rules.no_tricks_bonus if result.tricks_won[seat] == 0 else 0)
            for seat in range(players)
        )
    (shooter,) = shooters
    assert result.shooter == shooter
    moon_value = sum(rules.card_values[card] for card in penalty_cards(rules))
    choice = {
        MoonRule.ADD_TO_OTHERS: MoonChoice.ADD_TO_OTHERS,
        MoonRule.SUBTRACT_FROM_SHOOTER: MoonChoice.SUBTRACT_FROM_SHOOTER,
    }.get(rules.moon, result.moon_choice)
    assert result.moon_choice is choice
    # The penalty cards no longer count against the shooter; a bonus card (the J♦) still does.
    bonus = sum(rules.card_values[card] for card in taken[shooter] if rules.card_values[card] < 0)
    scores = list(points)
    if choice is MoonChoice.ADD_TO_OTHERS:
        scores = [bonus if seat == shooter else points[seat] + moon_value for seat in range(players)]
    else:
        scores[shooter] = bonus - moon_value
    return tuple(scores)


# ----- observing a hand from outside -----


def snapshot(state: HandState) -> tuple:
    """Everything observable about a hand."""
    seats = range(state.players)
    return (
        state.phase,
        tuple(state.hand(seat) for seat in seats),
        tuple(state.passed(seat) for seat in seats),
        tuple(state.received(seat) for seat in seats),
        tuple(state.taken(seat) for seat in seats),
        state.seats_to_pass,
        state.to_move,
        state.current_trick,
        state.tricks,
        state.hearts_broken,
        state.points_taken,
        state.tricks_won,
        state.history,
        state.actions_made,
        state.legal_cards(),
        state.legal_mask,
        state.is_over,
        state.moon_shooter,
        state.result,
    )


def cards_shown(value: object) -> set[Card]:
    """Every card anywhere inside a view's field (cards, card sets, tricks, tuples)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, CardSet):
        return set(value)
    if isinstance(value, Trick):
        return set(value.cards)
    if isinstance(value, (tuple, list, frozenset, set)):
        return set().union(*(cards_shown(item) for item in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return cards_shown(tuple(getattr(value, f.name) for f in dataclasses.fields(value)))
    return set()


def check_views(state: HandState) -> None:
    players = state.players
    exchanged = state.pass_direction is not PassDirection.HOLD and state.phase is not Phase.PASSING
    for seat in range(players):
        view = state.view(seat)
        assert view.hand == state.hand(seat)
        others = set().union(*(set(state.hand(other)) for other in range(players) if other != seat))
        assert set(view.unseen_cards) == others
        assert view.legal_cards == state.legal_cards(seat)
        assert view.hand_sizes == tuple(len(state.hand(other)) for other in range(players))
        # The only cards of other hands a seat may know are those it passed, once they arrived.
        known_elsewhere = set(state.passed(seat) or ()) if exchanged else set()
        secret = others - known_elsewhere
        for field in dataclasses.fields(view):
            leaked = cards_shown(getattr(view, field.name)) & secret
            assert not leaked, f"seat {seat}'s view.{field.name} shows {sorted(leaked)} held by others"


def check_refusals(state: HandState, rng: random.Random) -> None:
    """Every legal card is accepted; every other held card refused without changing anything."""
    before = snapshot(state)
    seat = state.to_move
    legal = state.legal_cards()
    for card in state.hand(seat):
        if card in legal:
            assert state.why_not_play(card) is None and state.can_play(card)
            state.play(card, seat)
            assert state.history[-1] == PlayAction(seat, card)
            assert card not in state.hand(seat)
            state.take_back()
        else:
            refusal = state.why_not_play(card)
            assert isinstance(refusal, Refusal) and refusal.message
            assert not state.can_play(card)
            with pytest.raises(IllegalAction) as error:
                state.play(card)
            assert error.value.refusal == refusal
        assert snapshot(state) == before
    # Cards held by someone else, and plays out of turn, are refused too.
    holders = [other for other in range(state.players) if other != seat and state.hand(other)]
    if not holders:
        return
    other = rng.choice(holders)
    foreign = rng.choice(list(state.hand(other)))
    assert state.why_not_play(foreign).reason is Reason.NOT_IN_HAND
    with pytest.raises(IllegalAction):
        state.play(foreign)
    with pytest.raises(IllegalAction) as error:
        state.play(foreign, other)
    assert error.value.reason is Reason.NOT_YOUR_TURN
    assert snapshot(state) == before


def choose_play(state: HandState, rng: random.Random, policy: str, shooter: int) -> Card:
    legal = list(state.legal_cards())
    if policy == "shoot":
        return legal[-1] if state.to_move == shooter else legal[0]
    return rng.choice(legal)


def play_hand(state: HandState, rng: random.Random, policy: str = "random", full_checks: bool = True) -> None:
    """Play ``state`` to the end with the public API, checking every step."""
    rules = state.rules
    shooter = rng.randrange(state.players)
    if full_checks:
        check_views(state)
    order = list(state.seats_to_pass)
    rng.shuffle(order)
    for seat in order:
        assert state.phase is Phase.PASSING and state.to_move is None
        assert state.legal_cards() == CardSet()
        assert state.why_not_play(state.hand(seat)[0]).reason is Reason.WRONG_PHASE
        state.pass_cards(seat, rng.sample(list(state.hand(seat)), rules.pass_count))
        if full_checks:
            check_views(state)
    while state.phase is Phase.PLAYING:
        legal = state.legal_cards()
        assert legal, "no legal card while playing"
        # The tuple, the mask and the view tell the same cards, in hand order.
        assert tuple(legal) == tuple(CardSet.from_mask(state.legal_mask)) and not state.is_over
        assert set(legal) <= set(state.hand(state.to_move))
        assert set(legal) == allowed_cards(state)
        assert state.hearts_broken == hearts_broken_by(
            rules, [card for trick in (*state.tricks, state.current_trick) for card in trick.cards]
        )
        if full_checks:
            check_refusals(state, rng)
        state.play(choose_play(state, rng, policy, shooter))
        if full_checks:
            check_views(state)
    if state.phase is Phase.MOON_CHOICE:
        assert rules.moon is MoonRule.SHOOTERS_CHOICE
        assert state.to_move == state.moon_shooter is not None
        assert state.result is None and state.legal_cards() == CardSet()
        before = snapshot(state)
        bystander = (state.to_move + 1) % state.players
        assert state.why_not_choose_moon("add_to_others", bystander).reason is Reason.NOT_THE_SHOOTER
        with pytest.raises(IllegalAction):
            state.choose_moon("add_to_others", bystander)
        with pytest.raises(IllegalAction) as error:
            state.play(CARDS[0])
        assert error.value.reason is Reason.WRONG_PHASE
        assert snapshot(state) == before
        state.choose_moon(rng.choice(list(MoonChoice)), state.to_move)
        if full_checks:
            check_views(state)
    assert state.phase is Phase.DONE and state.is_over


def check_finished_hand(state: HandState) -> None:
    rules = state.rules
    players = rules.players
    deck = cards_in_play(players)
    seats = range(players)

    # The deal: every card in play once, none of the removed ones, equal hands.
    dealt = [set(state.dealt_hand(seat)) for seat in seats]
    assert Counter(card for hand in dealt for card in hand) == Counter(deck)
    assert all(len(hand) == rules.hand_size for hand in dealt)

    # The exchange: each seat played what it was dealt less what it passed plus what it got.
    plays = [action for action in state.history if isinstance(action, PlayAction)]
    held_at_start = [set() for _ in seats]
    for action in plays:
        held_at_start[action.seat].add(action.card)
    if state.pass_direction is PassDirection.HOLD:
        assert held_at_start == dealt
        assert not [action for action in state.history if isinstance(action, PassAction)]
    else:
        offset = pass_offset(state.pass_direction, players)
        for seat in seats:
            passed = set(state.passed(seat))
            assert len(passed) == rules.pass_count and passed <= dealt[seat]
            assert state.received((seat + offset) % players) == state.passed(seat)
            source = (seat - offset) % players
            assert held_at_start[seat] == (dealt[seat] - passed) | set(state.passed(source))

    # Every card in play is played exactly once, and taken by exactly one seat.
    assert Counter(action.card for action in plays) == Counter(deck)
    taken = [set(state.taken(seat)) for seat in seats]
    for card in deck:
        assert sum(card in pile for pile in taken) == 1, f"{card} is in {sum(card in p for p in taken)} piles"
    assert all(not state.hand(seat) for seat in seats)

    # Tricks: hand_size of them, each won by the highest card of the led suit, whose player
    # leads the next; the winner takes the cards.
    tricks = state.tricks
    assert len(tricks) == rules.hand_size
    assert sum(state.tricks_won) == rules.hand_size
    assert tricks[0].leader == next(
        seat for seat in seats if lowest_club_in_play(players) in held_at_start[seat]
    )
    winners = []
    expected_taken = [set() for _ in seats]
    for number, trick in enumerate(tricks):
        assert len(trick.cards) == players
        winner = trick_winner(trick.leader, trick.cards, players)
        assert trick.winner == winner
        winners.append(winner)
        expected_taken[winner] |= set(trick.cards)
        if number + 1 < len(tricks):
            assert tricks[number + 1].leader == winner
        assert [action.card for action in plays[number * players : (number + 1) * players]] == list(
            trick.cards
        )
        assert [action.seat for action in plays[number * players : (number + 1) * players]] == [
            seat for seat, _ in trick.plays
        ]
    assert taken == expected_taken
    assert state.tricks_won == tuple(winners.count(seat) for seat in seats)

    # Points: each pile's card values; together, the value of the whole deck.
    points = tuple(sum(rules.card_values[card] for card in pile) for pile in taken)
    assert state.points_taken == points
    assert sum(state.points_taken) == sum(rules.card_values[card] for card in deck)

    result = state.result
    assert result is not None
    assert result.points_taken == points and result.tricks_won == state.tricks_won
    assert result.scores == expected_scores(rules, result, taken)
    moons = [action for action in state.history if isinstance(action, MoonAction)]
    if rules.moon is MoonRule.SHOOTERS_CHOICE and result.shooter is not None:
        assert moons == [MoonAction(result.shooter, result.moon_choice)]
    else:
        assert moons == []


def check_take_back_and_replay(state: HandState, fresh: HandState) -> None:
    """Taking every action back returns to the deal; replaying them gives the same hand."""
    at_start = snapshot(fresh)
    at_end = snapshot(state)
    actions = state.history
    state.take_back(state.actions_made)
    assert snapshot(state) == at_start
    for target in (state, fresh):
        for action in actions:
            if isinstance(action, PassAction):
                target.pass_cards(action.seat, action.cards)
            elif isinstance(action, PlayAction):
                target.play(action.card, action.seat)
            else:
                target.choose_moon(action.choice, action.seat)
        assert snapshot(target) == at_end


def deal_and_play(
    rules: Rules, direction: PassDirection | None, seed: int, choices: int, policy: str
) -> None:
    state = HandState.from_seed(seed, rules, direction)
    fresh = HandState.from_seed(seed, rules, direction)
    assert state.pass_direction is (
        PassDirection.HOLD if rules.pass_count == 0 else direction or rules.pass_cycle[0]
    )
    play_hand(state, random.Random(choices), policy)
    check_finished_hand(state)
    check_take_back_and_replay(state, fresh)


# ----- the properties -----


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
@FAST
@given(seed=SEEDS, choices=SEEDS, policy=POLICIES, data=st.data())
def test_every_preset_at_every_table_size_plays_a_consistent_hand(
    preset, players, seed, choices, policy, data
):
    rules = PRESETS[preset].replace(players=players)
    if players % 2:
        with pytest.raises(RulesError, match=f"no seat across the table with {players} players"):
            HandState.from_seed(seed, rules, PassDirection.ACROSS)
    direction = data.draw(st.sampled_from([None, *directions_at(players)]), label="direction")
    deal_and_play(rules, direction, seed, choices, policy)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, choices=SEEDS, policy=POLICIES)
def test_each_preset_at_its_own_table_size_plays_the_first_hand_of_its_cycle(preset, seed, choices, policy):
    deal_and_play(PRESETS[preset], None, seed, choices, policy)


@st.composite
def rule_variants(draw: st.DrawFn) -> Rules:
    """Options beyond the presets, in combination."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    jack = draw(st.sampled_from([0, 0, -10, -5]))
    return Rules(
        players=players,
        pass_count=draw(st.integers(0, min(4, 52 // players - 1))),
        hold_hand=draw(st.booleans()),
        lead_any_club=draw(st.booleans()),
        no_points_on_first_trick=draw(st.booleans()),
        must_break_hearts=draw(st.booleans()),
        queen_breaks_hearts=draw(st.booleans()),
        hearts_instead_of_queen=draw(st.booleans()),
        heart_values=draw(st.sampled_from(list(HeartValues))),
        queen_of_spades_points=draw(st.sampled_from([13, 0, 20])),
        jack_of_diamonds_points=jack,
        moon_needs_jack=bool(jack) and draw(st.booleans()),
        black_maria=draw(st.booleans()),
        no_tricks_bonus=draw(st.sampled_from([0, -5])),
        moon=draw(st.sampled_from(list(MoonRule))),
    )


@settings(max_examples=30, deadline=None)
@given(rules=rule_variants(), seed=SEEDS, choices=SEEDS, policy=POLICIES, data=st.data())
def test_combined_rule_options_play_a_consistent_hand(rules, seed, choices, policy, data):
    if data.draw(st.booleans(), label="moon deal"):
        # A hold hand in which one seat wins every trick, so every moon rule gets scored.
        hands = [CardSet(hand) for hand in moon_deal(rules, seed % rules.players, random.Random(seed))]
        state = HandState.from_deal(hands, rules, "hold")
        play_hand(state, random.Random(choices), policy)
        check_finished_hand(state)
        check_take_back_and_replay(state, HandState.from_deal(hands, rules, "hold"))
        return
    direction = data.draw(st.sampled_from([None, *directions_at(rules.players)]), label="direction")
    deal_and_play(rules, direction, seed, choices, policy)


def moon_deal(rules: Rules, shooter: int, rng: random.Random) -> list[set[Card]]:
    """A deal in which ``shooter`` wins every trick whatever anyone plays: it holds the highest
    clubs (and, with three players, the top spades too), every other seat is shuffled the rest."""
    deck = cards_in_play(rules.players)
    clubs = sorted((card for card in deck if card.suit is Suit.CLUBS), reverse=True)
    spades = sorted((card for card in deck if card.suit is Suit.SPADES), reverse=True)
    strong = set((clubs + spades)[: rules.hand_size])
    rest = sorted(deck - strong)
    rng.shuffle(rest)
    hands: list[set[Card]] = []
    for seat in range(rules.players):
        if seat == shooter:
            hands.append(strong)
        else:
            hands.append(set(rest[: rules.hand_size]))
            rest = rest[rules.hand_size :]
    return hands


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=2, deadline=None)
@given(choices=SEEDS, data=st.data())
def test_a_seat_that_wins_every_trick_shoots_the_moon_and_scores_by_the_moon_rule(
    preset, players, choices, data
):
    bonus = data.draw(st.sampled_from([0, -5]), label="no_tricks_bonus")
    rules = PRESETS[preset].replace(players=players, no_tricks_bonus=bonus)
    rng = random.Random(choices)
    shooter = data.draw(st.integers(0, players - 1), label="shooter")
    hands = moon_deal(rules, shooter, rng)
    state = HandState.from_deal([CardSet(hand) for hand in hands], rules, "hold")
    fresh = HandState.from_deal([CardSet(hand) for hand in hands], rules, "hold")
    play_hand(state, rng, full_checks=False)
    assert state.tricks_won[shooter] == rules.hand_size
    assert state.result.shooter == (None if rules.moon is MoonRule.OFF else shooter)
    check_finished_hand(state)
    check_take_back_and_replay(state, fresh)


def test_an_unknown_moon_choice_is_refused_with_a_refusal_and_changes_nothing():
    # why_not_choose_moon answers with a Refusal (or None) like every why_not_x, can_choose_moon
    # with a bool, and choose_moon refuses with IllegalAction, leaving the moon still to choose.
    rules = PRESETS["shooters_choice"]
    state = HandState.from_deal(
        [CardSet(hand) for hand in moon_deal(rules, 0, random.Random(1))], rules, "hold"
    )
    while state.phase is Phase.PLAYING:
        state.play(state.legal_cards()[0])
    assert state.phase is Phase.MOON_CHOICE
    before = snapshot(state)
    choice = "sideways"
    assert isinstance(state.why_not_choose_moon(choice), Refusal)
    assert state.can_choose_moon(choice) is False
    with pytest.raises(IllegalAction):
        state.choose_moon(choice)
    assert snapshot(state) == before
