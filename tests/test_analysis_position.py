"""The analysis board's positions: a possible position gives the learner's view exactly as the engine
gives it in a real hand; an impossible one is refused with one line naming the field, card or trick,
and the engine's reason."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest

from engine import CardSet, DealError, HandState, Phase, setup_position
from engine.bots import bot_acts, make_bot
from tests.analysis_helpers import decisions, from_learner
from trainer.analysis import AnalysisPosition, PositionError, Trick, from_puzzle, from_view, parse_cards
from trainer.analysis.errors import LONGEST
from trainer.puzzles import load_puzzle
from trainer.puzzles.board import PUZZLES_DIR

TABLES = [
    ("standard", range(4)),
    ("three_players", range(3)),
    ("five_players", range(3)),
    ("seven_players", range(3)),
    ("black_maria", range(2)),
    ("queen_breaks_hearts", range(2)),
    ("points_on_first_trick", range(2)),
    ("omnibus", range(1)),
]


@pytest.mark.parametrize(("preset", "seeds"), TABLES)
def test_the_view_of_a_position_is_the_view_the_engine_gave_in_the_real_hand(preset, seeds):
    checked = 0
    for view in decisions(preset, seeds):
        pos = from_view(view)
        rebuilt = pos.view()
        assert rebuilt == from_learner(view)
        # what the coach reads from a view, said again for the reader of a failure
        assert rebuilt.legal_cards == view.legal_cards
        assert rebuilt.unseen_cards == view.unseen_cards
        for other in range(view.players):
            mine = (other - view.seat) % view.players
            assert rebuilt.shown_void(mine) == view.shown_void(other)
            assert rebuilt.known_cards(mine) == view.known_cards(other)
        assert pos.options() == (
            view.rules.pass_count if view.phase is Phase.PASSING else tuple(view.legal_cards)
        )
        checked += 1
    assert checked > 20


def test_a_puzzle_opens_on_the_board_as_its_solver_sees_it():
    files = sorted(PUZZLES_DIR.glob("*.toml"))  # a dozen spread over the library: only those are read
    for path in files[:: max(1, len(files) // 12)]:
        puzzle = load_puzzle(path)
        assert from_puzzle(puzzle).view() == from_learner(puzzle.view)


@pytest.mark.parametrize("preset", ["standard", "three_players", "six_players", "spot_hearts"])
def test_a_sampled_hand_has_the_learners_view_and_bots_play_it_to_the_end(preset):
    views = [view for view in decisions(preset, range(1)) if view.seat == 1]
    for view in views[:: max(1, len(views) // 4)]:
        pos = from_view(view)
        hidden = set()
        for seed in range(3):
            state = pos.sample_state(seed)
            assert state.view(0, scores=pos.scores) == from_learner(view)
            hidden.add(tuple(state.hand(seat).mask for seat in range(1, view.players)))
            bots = [make_bot("easy", seat) for seat in range(view.players)]
            while not state.is_over:
                bot_acts(state, state.seat_to_act, bots[state.seat_to_act])
            assert sum(len(trick.cards) for trick in state.tricks) == len(CardSet(view.rules.deck_mask))
        if view is views[0]:
            assert len(hidden) > 1  # the seed draws the other hands


# A hold hand at a table of four: Left led the 2♣, you took the first trick with the A♣ and lead.
HAND = "3C 4C AD KD 5D 4D 2S 3S AH KH 2H 3H"
FIRST = Trick(1, tuple(parse_cards("2C 9C KC AC")))


def position(
    hand: str = HAND, *tricks: tuple[int, str], preset: str = "standard", **fields
) -> AnalysisPosition:
    made = tuple(Trick(leader, parse_cards(cards)) for leader, cards in tricks)
    fields.setdefault("direction", "hold")
    return AnalysisPosition(
        fields.pop("players", 4),
        preset,
        fields.pop("moment", "play"),
        parse_cards(hand),
        tricks=(FIRST, *made),
        **fields,
    )


def trick(*parts) -> tuple[Trick, ...]:
    """Tricks written as leader, cards, leader, cards..."""
    return tuple(Trick(parts[i], parse_cards(parts[i + 1])) for i in range(0, len(parts), 2))


def refused(pos: AnalysisPosition) -> PositionError:
    with pytest.raises(PositionError) as caught:
        pos.check()
    error = caught.value
    assert "\n" not in str(error) and len(str(error)) <= LONGEST
    assert str(error).startswith(f"{error.field}: ")
    return error


def test_the_base_position_is_possible_and_it_is_your_lead():
    pos = position()
    pos.check()
    assert pos.options() == tuple(parse_cards("3C 4C 4D 5D KD AD 2S 3S"))


@pytest.mark.parametrize(
    ("pos", "field", "words"),
    [
        # the cards themselves
        (position(HAND.replace("3C", "9C")), "trick 1", ["9♣", "still in your hand"]),
        (position(HAND + " 5S"), "hand", ["13 cards", "you hold 12"]),
        (
            position(HAND.replace("3C", "2D"), players=3, preset="three_players"),
            "hand",
            ["2♦", "not in play"],
        ),
        (position(HAND.replace("AD ", ""), (0, "AD 6D 7D 9C")), "trick 2", ["9♣", "already", "trick 1"]),
        (position(HAND, (0, "AD 6D 7D 8D 9D")), "trick 2", ["5 cards"]),
        # whose turn, who leads
        (position(HAND.replace("AD ", ""), (0, "AD 6D 7D")), "trick 2", ["Right plays next", "not you"]),
        (
            position(HAND.replace("3C ", ""), (2, "5C 6C 3C 8C")),
            "trick 2",
            ["led by Across", "you won trick 1"],
        ),
        (replace(position(), tricks=(Trick(2, FIRST.cards),)), "trick 1", ["Left won it and leads next"]),
        (
            replace(position(HAND.replace("3C", "2C")), tricks=(Trick(1, parse_cards("3C 9C KC AC")),)),
            "trick 1",
            ["led by Left", "you held the 2♣"],
        ),
        (
            replace(position(), tricks=(Trick(1, parse_cards("9C 2C KC AC")),)),
            "trick 1",
            ["led by Left", "Across held the 2♣"],
        ),
        (
            replace(
                position(HAND.replace("4C ", "")), tricks=trick(1, "9C 5C KC AC", 0, "4C 2C 6C 7C", 3, "8C")
            ),
            "trick 1",
            [
                "Left could not have played the 9♣",
                "Left still held the 2♣, played in trick 2",
                "The 2♣ leads",
            ],
        ),
        # the learner's own plays, judged by the engine on the learner's known hand
        (
            position(HAND.replace("AH ", ""), (0, "AH 5H 6H 7H")),
            "trick 2",
            ["you", "A♥", "Hearts are not broken"],
        ),
        (
            replace(position(HAND.replace("2S", "AC")), tricks=trick(1, "2C 9C KC 2S", 3, "5C")),
            "trick 1",
            ["you could not have played the 2♠", "You must follow suit"],
        ),
        # another seat's play, judged on the least it could have held: the cards it played later
        (
            position(HAND.replace("AD ", "").replace("KD ", ""), (0, "AD 5S 7D 8D"), (0, "KD 6D 9D 10D")),
            "trick 2",
            [
                "Left could not have played the 5♠",
                "Left still held the 6♦, played in trick 3",
                "must follow suit",
            ],
        ),
        # no deal: Across threw a heart on the first trick, so it held nothing but points
        (
            replace(position(), tricks=(Trick(1, parse_cards("2C QH KC AC")),)),
            "tricks",
            ["no deal fits", "Across holds 12 cards now, but only 9", "as trick 1 shows"],
        ),
        # ... and Left led a heart before hearts were broken, so it held nothing else
        (
            position(
                HAND.replace("4C ", "").replace("2H ", ""), (0, "4C QC 6C 7C"), (1, "9H 10H JH 2H"), (3, "5S")
            ),
            "tricks",
            [
                "no deal fits",
                "Left holds 10 cards now, but only 6",
                "none of the unseen ♣ ♦ ♠",
                "as trick 3 shows",
            ],
        ),
        # the table and the score
        (
            position(direction="across", players=3, preset="three_players"),
            "direction",
            ["across", "left, right, hold"],
        ),
        (position(scores=(0, 0, 101, 3)), "scores", ["Across has 101", "ended at 100"]),
        (position(scores=(120, 0, 1, 3)), "scores", ["You have 120", "ended at 100"]),
        (position(scores=(0, -5, 1, 3)), "scores", ["Left has -5", "no total is below 0"]),
        (position(scores=(0, 0, 3)), "scores", ["one score a seat"]),
        (position(players=9), "players", ["3 to 7"]),
        (position(preset="chess"), "preset", ["'chess'"]),
        (position(moment="bid"), "moment", ["'bid'"]),
    ],
)
def test_an_impossible_position_is_refused_in_one_line_naming_what_is_wrong(pos, field, words):
    error = refused(pos)
    assert error.field == field, str(error)
    for word in words:
        assert word in str(error), str(error)


def test_hearts_led_after_the_queen_is_legal_only_where_she_breaks_them():
    # trick 2: Across throws the Q♠ on your A♦; trick 3: you lead the A♥
    hand = HAND.replace("AD ", "").replace("AH ", "")
    tricks = ((0, "AD 6D QS 7D"), (0, "AH 4H 6H 5H"))
    assert "Hearts are not broken" in str(refused(position(hand, *tricks)))
    position(hand, *tricks, preset="queen_breaks_hearts").check()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (dict(passed=parse_cards("AD 6S 7S")), "passed", ["A♦", "cannot be in your hand"]),
        (dict(passed=parse_cards("6S 7S")), "passed", ["2 cards", "passes 3"]),
        (
            dict(received=parse_cards("QS JS 10S")),
            "received",
            ["10♠", "neither in your hand nor among your plays"],
        ),
        (
            dict(passed=parse_cards("KC 6S 7S")),
            "passed",
            ["passed the K♣ to Left", "Right played it in trick 1"],
        ),
        (dict(passed=parse_cards("9C 6S 7S")), "passed", ["passed the 9♣ to Left", "Across played it"]),
        (dict(direction="hold"), "passed", ["3 cards", "a hold hand passes none"]),
    ],
)
def test_the_pass_must_fit_the_hand_and_the_tricks(fields, field, words):
    base = dict(direction="left", passed=parse_cards("QS 6S 7S"), received=parse_cards("AH KH AD"))
    position(**base).check()
    error = refused(position(**(base | fields)))
    assert error.field == field, str(error)
    for word in words:
        assert word in str(error), str(error)


def test_at_the_pass_you_hold_the_cards_dealt():
    five = AnalysisPosition(5, "five_players", "pass", parse_cards("3C 4C 5C 6C 7C 8C 9C TC JC QC"), "right")
    five.check()
    assert five.options() == 3
    for cards, words in (
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D", ["14 cards", "13 dealt"]),
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", ["12 cards", "13 dealt"]),
    ):
        error = refused(AnalysisPosition(4, "standard", "pass", parse_cards(cards), "left"))
        assert error.field == "hand"
        for word in words:
            assert word in str(error)
    dealt = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    assert refused(AnalysisPosition(4, "standard", "pass", dealt, "hold")).field == "direction"
    assert refused(AnalysisPosition(4, "no_hold", "play", dealt, "hold")).field == "direction"
    assert refused(AnalysisPosition(4, "standard", "pass", dealt, "left", tricks=(FIRST,))).field == "tricks"


def test_a_view_that_is_not_a_decision_is_refused():
    state = HandState.from_seed(3)
    state.pass_cards(0, CardSet(list(state.hand(0))[:3]))
    with pytest.raises(PositionError, match="not this seat's decision"):
        from_view(state.view(0))


def possible_by_trying_every_deal(pos) -> bool:
    """Whether some deal of the unseen cards replays the position through the engine (hold hands)."""
    players = pos.players
    played = [card for trick in pos.tricks for card in trick.cards]
    held = [len(pos.hand)] + [pos.rules.hand_size for _ in range(players - 1)]
    for trick in pos.tricks:
        for index, _ in enumerate(trick.cards):
            seat = (trick.leader + index) % players
            if seat:
                held[seat] -= 1
    unseen = [card for card in CardSet(pos.rules.deck_mask) if card not in pos.hand and card not in played]
    for first in combinations(unseen, held[1]):
        rest = [card for card in unseen if card not in first]
        for second in combinations(rest, held[2]):
            third = [card for card in rest if card not in second]
            try:
                state = setup_position(
                    [pos.hand, first, second, third],
                    pos.rules,
                    tricks=[trick.cards for trick in pos.tricks],
                    first_leader=pos.tricks[0].leader,
                )
            except DealError:
                continue
            leaders = [trick.leader for trick in (*state.tricks, state.current_trick)][: len(pos.tricks)]
            if leaders == [trick.leader for trick in pos.tricks] and state.to_move == 0:
                return True
    return False


def test_the_check_agrees_with_trying_every_deal_late_in_the_hand():
    rng = random.Random(54)
    views = [view for view in decisions("standard", range(8)) if view.pass_direction.value == "hold"]
    late = [from_view(view) for view in views if len(view.tricks) >= 10 and view.phase is Phase.PLAYING]
    verdicts = []
    for pos in late:
        for _ in range(6):
            # another seat's card in a finished trick becomes an unseen card: a void may no longer fit
            tricks = list(pos.tricks)
            number = rng.randrange(len(tricks) - 1)
            trick = tricks[number]
            places = [i for i in range(len(trick.cards)) if (trick.leader + i) % 4 != 0]
            unseen = list(pos.view().unseen_cards)
            if not unseen:  # the last trick, you playing last
                continue
            index = rng.choice(places)
            cards = list(trick.cards)
            cards[index] = rng.choice(unseen)
            tricks[number] = Trick(trick.leader, tuple(cards))
            moved = replace(pos, tricks=tuple(tricks))
            try:
                moved.check()
                accepted = True
            except PositionError:
                accepted = False
            assert accepted == possible_by_trying_every_deal(moved), moved
            verdicts.append(accepted)
    assert len(verdicts) >= 30 and any(verdicts) and not all(verdicts)


def test_at_five_players_the_three_of_clubs_leads_the_first_trick():
    # the 2♣ and 2♦ are out: the 3♣ is the lowest club, and its holder leads
    hand = parse_cards("3C 9C 4D 5D 6D 2S 3S 4S 2H 3H")
    pos = AnalysisPosition(5, "five_players", "play", hand, "hold")
    pos.check()
    assert pos.options() == parse_cards("3C")
    led = AnalysisPosition(5, "five_players", "play", hand[1:], "hold", tricks=trick(1, "4C 5C 6C 7C 3C"))
    error = refused(led)
    assert error.field == "trick 1" and "you held the 3♣" in str(error), str(error)
    elsewhere = AnalysisPosition(
        5, "five_players", "play", hand[:1] + hand[2:], "hold", tricks=trick(1, "4C 5C 6C 7C 9C")
    )
    error = refused(elsewhere)
    assert error.field == "trick 1" and "you held the 3♣" in str(error), str(error)


@pytest.mark.parametrize("preset", ["new_moon", "shooters_choice", "omnibus"])
def test_a_total_below_zero_is_possible_only_where_a_hand_takes_points_away(preset):
    position(preset=preset, scores=(-16, 30, 26, 26)).check()


def test_a_score_past_the_target_is_possible_only_where_ties_are_played_off():
    assert refused(position(scores=(40, 100, 100, 70))).field == "scores"
    position(preset="play_off_ties", scores=(40, 100, 100, 70)).check()
