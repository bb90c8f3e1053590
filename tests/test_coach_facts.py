"""Every sentence the coach says is a fact of the position shown.

Each reason declares the facts it asserts (``trainer.coach.facts``); here they are checked
against the engine's view over thousands of positions dealt from seeds and played by bots, at
tables of 3 to 6 and under several rule presets, for the option the bot chose and for another
one. The evaluations are cheap on purpose: what is tested is the truth of the words, not the
verdict. Each position is judged twice: with its (noisy) evaluation, and with the same options
in a shuffled order and with made-up moon chances, so that every template gets its turn
whichever option the evaluator happens to prefer.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace

import pytest

from engine import Card, CardSet, HandState, Phase, PlayerView, Rules, parse_card, setup_position
from engine.bots import make_bot
from engine.rules import PRESETS
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import Evaluation, OptionValue, Z, evaluate_pass, evaluate_play
from trainer.coach import coach_pass, coach_play
from trainer.coach.explain import TEMPLATES, Stance, Verdict, _seat_name
from trainer.coach.facts import (
    CannotDuck,
    CardOut,
    CardPoints,
    CardsOut,
    Discarding,
    DucksUnder,
    Following,
    Guards,
    HighestInSuit,
    HighHeart,
    Holds,
    LastToPlay,
    Leading,
    LowCard,
    LowSpades,
    MayFall,
    NoHigherOut,
    NoPointCardsOut,
    NoPointsInTrick,
    NoShownVoid,
    OutBetween,
    Outranks,
    PassContains,
    PassMakesVoid,
    PassOption,
    Playable,
    TookEveryPoint,
    TrickPoints,
    Void,
    WinsTrick,
)
from trainer.coach.figures import Figure, MoonChance, MoonsUnder

CARD_NAME = re.compile(r"(?:10|[2-9JQKA])[♣♦♠♥]")
SEAT_NAME = re.compile(r"\b(?:Left|Across|Right|Seat \d)\b")

# (preset, pass directions, bot levels, seeds): 3 to 7 players; Omnibus (the J♦'s
# bonus), Black Maria (the A♠ and K♠ cost points) and Spot Hearts (hearts by pip), where
# sentences about points could slip. Two seeds a table: 2697 positions, every template said in 6 or
# more of them (three seeds: 3528, the same templates and tricks).
TABLES = [
    ("standard", ("left", "right", "across", "hold"), ("normal", "easy"), range(2)),
    ("three_players", ("left", "right"), ("normal", "easy"), range(2)),
    ("five_players", ("left", "right"), ("normal", "easy"), range(2)),
    ("six_players", ("left", "right"), ("normal", "easy"), range(2)),
    ("seven_players", ("left", "right"), ("normal", "easy"), range(1)),
    ("omnibus", ("left", "across"), ("normal", "easy"), range(2)),
    ("black_maria", ("right", "hold"), ("normal", "easy"), range(2)),
    ("spot_hearts", ("across",), ("normal", "easy"), range(2)),
]


def decisions(rules: Rules, direction: str, level: str, seed: int):
    """Every pass and every play with a choice in one seeded hand, as (view, the bot's choice).
    Even seats get ``level``, odd seats the Normal bot, so Easy's odd plays meet sound ones."""
    state = HandState.from_seed(seed, rules, direction)
    bots = {
        seat: make_bot(level if seat % 2 == 0 else "normal", seed * 10 + seat)
        for seat in range(rules.players)
    }
    while state.phase is Phase.PASSING:
        seat = state.seats_to_pass[0]
        view = state.view(seat)
        choice = CardSet(bots[seat].choose_pass(view))
        yield view, choice
        state.pass_cards(seat, list(choice))
    while not state.is_over:
        if state.phase is Phase.MOON_CHOICE:
            seat = state.moon_shooter
            state.choose_moon(bots[seat].choose_moon(state.view(seat)), seat)
            continue
        seat = state.to_move
        view = state.view(seat)
        card = bots[seat].choose_play(view)
        if len(view.legal_cards) > 1:
            yield view, card
        state.play(card, seat)


def scrambled(evaluation: Evaluation, rng: random.Random) -> Evaluation:
    """The same options, ranked at random, with made-up losses and moon chances."""
    options = list(evaluation.options)
    rng.shuffle(options)
    made_up = []
    base = min(value.difference for value in options)
    for rank, value in enumerate(options):
        loss = 0.0 if rank == 0 else rng.choice((0.2, 0.8, 1.8, 4.0, 9.0))
        moon_for = rng.choice((0.0, 0.0, 0.1, 0.35, 0.8))
        moon_against = rng.choice((0.0, 0.0, 0.1, 0.4))
        made_up.append(
            replace(
                value,
                loss=loss,
                difference=base + loss,
                loss_error=0.05,
                loss_low=max(0.0, loss - Z * 0.05),
                loss_high=loss + Z * 0.05,
                moon_for=moon_for,
                moon_against=moon_against,
                moon_by_seat=moons_by_seat(
                    evaluation.seat, len(value.moon_by_seat), moon_for, moon_against, rng
                ),
            )
        )
    return replace(evaluation, options=tuple(made_up))


def moons_by_seat(seat: int, players: int, mine: float, others: float, rng: random.Random) -> tuple:
    """Each seat's moon chance, as an evaluation gives them: the learner's ``mine``, the
    others' ``others`` together, on one other seat or spread over two."""
    if not players:
        return ()
    chances = [0.0] * players
    chances[seat] = mine
    shooters = rng.sample([s for s in range(players) if s != seat], min(2, players - 1))
    chances[shooters[0]] = others * 0.75 if len(shooters) > 1 else others
    if len(shooters) > 1:
        chances[shooters[1]] = others - chances[shooters[0]]
    return tuple(chances)


def names_of_seats(view: PlayerView, seats: set[int]) -> set[str]:
    return {_seat_name(view, seat) for seat in seats}


def holds(view: PlayerView, verdict: Verdict, claim) -> bool:
    """A fact checked against the position, a figure against the verdict's evaluation."""
    return claim.check(verdict.evaluation) if isinstance(claim, Figure) else claim.check(view)


MOON_FIGURE = re.compile(r"(\d+)%")
WHOSE = re.compile(r"\b(?:you|Left|Across|Right|Seat \d|another player|no player)\b", re.IGNORECASE)


def assert_whose_moon(verdict: Verdict) -> None:
    """Every moon chance in the verdict's figures names whose moon it is, and says what the
    evaluation says for that seat and option."""
    for claim in (*verdict.figures, *verdict.headline_figures):
        assert claim.check(verdict.evaluation), (claim, verdict.text)
    assert "a moon in under" not in verdict.text, verdict.text
    for part in re.split(r"[;.]", verdict.numbers):
        if "moon" not in part:
            continue
        for clause in part.split(","):
            if MOON_FIGURE.search(clause):
                assert WHOSE.search(clause), (clause, verdict.numbers)
    # as many chances quoted in the figures as checked moon chances declared for them
    shooters = [claim for claim in verdict.figures if isinstance(claim, (MoonChance, MoonsUnder))]
    quoted = MOON_FIGURE.findall(verdict.numbers.split(":")[0].split(", over")[0])
    assert len(quoted) == len(shooters), (verdict.numbers, shooters)


def assert_truthful(view: PlayerView, verdict: Verdict) -> None:
    """Every declared fact holds; every sentence declares one; every card or seat it names is
    the subject of one of its facts; nothing was withheld (a template said something false);
    reasons shown for a choice graded best never argue against it."""
    assert not verdict.withheld, [
        (r.text, [f for f in r.facts if not holds(view, verdict, f)]) for r in verdict.withheld
    ]
    assert verdict.reasons == tuple(reason.text for reason in verdict.explained)
    assert_whose_moon(verdict)
    for reason in verdict.explained:
        assert reason.template in TEMPLATES and reason.facts, reason
        if verdict.grade.correct:
            if reason.stance is not Stance.FOR:
                assert reason.text.startswith(("Its risk, all the same: ", "What speaks for ")), reason.text
        else:
            assert reason.stance is Stance.AGAINST, reason.text
        for fact in reason.facts:
            assert holds(view, verdict, fact), (fact, reason.text)
        cards = set(CARD_NAME.findall(reason.text))
        seats = set(SEAT_NAME.findall(reason.text))
        if not reason.facts:
            assert not cards and not seats, f"names cards or seats but declares no fact: {reason.text}"
            continue
        about_cards = {str(card) for fact in reason.facts for card in fact.about_cards}
        about_seats = names_of_seats(view, {seat for fact in reason.facts for seat in fact.about_seats})
        assert cards <= about_cards, (reason.text, cards - about_cards)
        assert seats <= about_seats, (reason.text, seats - about_seats)
    assert set(verdict.facts) == {fact for reason in verdict.explained for fact in reason.facts}


def other_option(options: list, chosen: object, rng: random.Random) -> object:
    others = [option for option in options if option != chosen]
    return rng.choice(others) if others else chosen


def test_every_fact_the_coach_states_holds_in_thousands_of_positions():
    positions = 0
    templates: Counter[str] = Counter()
    tricks_seen: set[int] = set()
    tables_seen: set[int] = set()
    for preset, directions, levels, seeds in TABLES:
        rules = PRESETS[preset]
        for direction in directions:
            for level in levels:
                for seed in seeds:
                    rng = random.Random(f"{preset} {direction} {level} {seed}")
                    for view, choice in decisions(rules, direction, level, seed):
                        salt = rng.getrandbits(32)
                        if view.phase is Phase.PASSING:
                            evaluation = evaluate_pass(
                                view, PassBudget(samples=8, stages=((4, 6),)), seed=salt
                            )
                            coach = coach_pass
                        else:
                            evaluation = evaluate_play(view, PlayBudget(samples=16, exact_cards=0), seed=salt)
                            coach = coach_play
                            tricks_seen.add(len(view.tricks) + 1)
                        options = [value.option for value in evaluation.options]
                        other = other_option(options, choice, rng)
                        made_up = scrambled(evaluation, rng)
                        # and against made-up strong blockers: a moon line's words are checked too
                        strong = replace(made_up, strong_blockers=scrambled(evaluation, rng))
                        for judged in (evaluation, made_up, strong):
                            for option in (choice, other):
                                verdict = coach(view, option, judged)
                                assert_truthful(view, verdict)
                                templates.update(reason.template for reason in verdict.explained)
                        positions += 1
                        tables_seen.add(rules.players)
    assert positions >= 2000, positions
    assert tables_seen == {3, 4, 5, 6, 7}
    assert set(range(1, 14)) <= tricks_seen
    # every template the coach has is said, and checked, somewhere in these positions
    assert set(TEMPLATES) == set(templates), set(TEMPLATES) ^ set(templates)


# ----- positions built by hand -----


def evaluation_of(kind: str, seat: int, losses: dict[str, tuple[float, float]]) -> Evaluation:
    """A made-up evaluation: option -> (loss, moon chance for the seat)."""
    options = tuple(
        OptionValue(
            CardSet(option) if kind == "pass" else parse_card(option),
            1.0 + loss,
            5.0,
            loss - 4.0,
            0.3,
            moon_for,
            0.0,
            loss,
            0.05,
            500,
            loss_low=max(0.0, loss - Z * 0.05),
            loss_high=loss + Z * 0.05,
        )
        for option, (loss, moon_for) in losses.items()
    )
    return Evaluation(kind, seat, options, 1, 500, 0.1)


def five_eight_jack_queen() -> PlayerView:
    """Trick 10: Right (seat 3) has won all nine tricks, the Q♠ among them, and leads the 2♥;
    the learner holds 5♦ 8♥ J♥ Q♥ and must follow with a heart above it."""
    state = setup_position(
        [
            "5D 8H JH QH",
            "AC 6H 7H 9H",
            "AS 10H KH AH",
            "3H 4H 5H",
        ],
        tricks=[
            "2C 8C KC 3C",  # seat 1 leads the 2♣; Right's K♣ wins
            "QC 4C 6C 9C",
            "JC 5C 7C 10C",
            "KS 2S 5S 8S",
            "QS 3S 6S 9S",
            "JS 4S 7S 10S",
            "AD 2D 6D 9D",
            "KD 3D 7D 10D",
            "QD 4D 8D JD",
            "2H",
        ],
        first_leader=1,
    )
    view = state.view(0)
    assert view.is_my_turn and view.hand == CardSet("5D 8H JH QH") and len(view.tricks) == 9
    return view


def test_the_jack_of_hearts_is_not_called_the_highest_when_the_queen_is_in_the_hand():
    view = five_eight_jack_queen()
    evaluation = evaluation_of("play", 0, {"JH": (0.0, 0.0), "QH": (1.2, 0.0), "8H": (2.0, 0.0)})
    verdict = coach_play(view, "8H", evaluation)
    assert_truthful(view, verdict)
    text = " ".join(verdict.reasons)
    assert "You cannot stay under the 2♥" in text and "win it with the J♥" in text, text
    assert "highest" not in text, text
    assert HighestInSuit(parse_card("JH")) not in verdict.facts
    # With the Q♥ best, the coach may call it the highest heart, and says so as a checked fact.
    verdict = coach_play(view, "8H", evaluation_of("play", 0, {"QH": (0.0, 0.0), "8H": (2.0, 0.0)}))
    assert "win it with your highest heart, the Q♥" in " ".join(verdict.reasons)
    assert HighestInSuit(parse_card("QH")) in verdict.facts
    assert_truthful(view, verdict)


def lone_heart_pass() -> PlayerView:
    hand = CardSet("AC KC QC JC AD KD QD AS KS QS JS 10S 2H")
    rest = [card for card in CardSet(range(52)) if card not in hand]
    state = HandState.from_deal(
        [hand, CardSet(rest[:13]), CardSet(rest[13:26]), CardSet(rest[26:])], Rules(), "left"
    )
    return state.view(0)


def test_a_lone_heart_hand_is_not_said_to_take_every_trick():
    view = lone_heart_pass()
    evaluation = evaluation_of("pass", 0, {"2H QS JS": (0.0, 0.45), "AC KC QC": (3.0, 0.05)})
    verdict = coach_pass(view, "AC KC QC", evaluation)
    assert_truthful(view, verdict)
    text = " ".join(verdict.reasons)
    assert "every trick" not in text and "can take" not in text, text
    assert "you shoot the moon in 45% of the imagined deals, against 5% after passing" in text, text


def test_passing_the_last_heart_is_explained_as_the_heart_void_it_makes():
    """A pass that gives away the hand's only heart leaves it void in hearts: when hearts are led
    it discards. The coach says so (a fact it checks), as it does for a club or diamond void."""
    view = lone_heart_pass()
    evaluation = evaluation_of("pass", 0, {"2H JS 10S": (0.0, 0.0), "AC JS 10S": (2.0, 0.0)})
    verdict = coach_pass(view, "AC JS 10S", evaluation)
    assert_truthful(view, verdict)
    text = " ".join(verdict.reasons)
    assert "Passing all your hearts (2♥) leaves you void in them" in text, text
    assert "when hearts are led you can discard" in text, text


def test_every_verdict_shows_both_sides_points_the_moon_chances_and_the_unit_of_a_loss():
    view = lone_heart_pass()
    evaluation = evaluation_of("pass", 0, {"2H QS JS": (0.0, 0.45), "AC KC QC": (3.0, 0.05)})
    text = coach_pass(view, "AC KC QC", evaluation).numbers
    assert "With J♠ Q♠ 2♥ you take 1.0 points on average (the others 5.0 each)" in text, text
    assert "with Q♣ K♣ A♣, 4.0 (the others 5.0)" in text, text
    assert "and you shoot the moon in 45%" in text and "and you shoot the moon in 5%" in text, text
    assert "Points lost count your points minus the others' average" in text, text
    assert "26 points of a hand" not in text, text  # a loss of 3 needs no moon swing


def test_a_forecast_verdict_says_its_figures_are_what_strong_players_make_of_such_hands():
    view = lone_heart_pass()
    playouts = evaluation_of("pass", 0, {"2H QS JS": (0.0, 0.45), "AC KC QC": (3.0, 0.05)})
    verdict = coach_pass(view, "AC KC QC", replace(playouts, measure="forecast"))
    assert verdict.grade.measure == "forecast"
    text = " ".join(verdict.reasons)
    assert "you shoot the moon in 45% of such hands between strong players, against 5%" in text, text
    assert "imagined deals" not in text, text
    assert verdict.numbers.startswith("With J♠ Q♠ 2♥ you take 1.0 points on average"), verdict.numbers
    assert (
        "what strong players make of such hands, read from 500 imagined deals played out" in verdict.numbers
    )
    assert "over 500 imagined deals" not in verdict.numbers


def test_a_loss_above_a_hands_26_points_is_explained_as_a_moon_swing_and_names_the_shooter():
    view = five_eight_jack_queen()
    evaluation = evaluation_of("play", 0, {"JH": (0.0, 0.0), "QH": (30.0, 0.0), "8H": (31.0, 0.0)})
    shooters = tuple(0.0 if seat != 3 else 0.9 for seat in range(4))
    options = tuple(
        replace(value, moon_by_seat=shooters, moon_against=0.9) if value.loss > 26 else value
        for value in evaluation.options
    )
    evaluation = replace(evaluation, options=options)
    verdict = coach_play(view, "8H", evaluation)
    assert verdict.headline.startswith("Blunder: 8♥ costs about 31.0 points"), verdict.headline
    assert "A loss above the 26 points of a hand comes from the moon" in verdict.numbers, verdict.numbers
    assert "with 8♥, 32.0 (the others 5.0), and Right shoots the moon in 90%" in verdict.numbers
    assert_truthful(view, verdict)


def test_a_false_reason_is_withheld_and_never_shown():
    from trainer.coach.explain import CoachReason, _checked

    view = five_eight_jack_queen()
    true = CoachReason("Your highest heart is the Q♥.", (HighestInSuit(parse_card("QH")),), "take_last")
    false = CoachReason("Your highest heart is the J♥.", (HighestInSuit(parse_card("JH")),), "take_last")
    assert _checked(view, [true, false]) == ((true,), (false,))


H, D, S, C = (CardSet(code)[0].suit for code in ("2H", "2D", "2S", "2C"))


def card(code: str) -> Card:
    return parse_card(code)


PLAY_FACTS = [
    # (fact, holds in five_eight_jack_queen()); each type has at least one that does not hold.
    (HighestInSuit(card("QH")), True),
    (HighestInSuit(card("JH")), False),
    (Holds(card("JH")), True),
    (Holds(card("KH")), False),
    (Playable(card("8H")), True),
    (Playable(card("5D")), False),  # hearts were led: the 5♦ may not be played
    (CardOut(card("AC")), True),
    (CardOut(card("QS")), False),  # played
    (CardOut(card("QH")), False),  # the learner's own
    (Outranks(card("JH"), card("8H")), True),
    (Outranks(card("8H"), card("JH")), False),
    (Outranks(card("AS"), card("QH")), False),  # two suits
    (NoHigherOut(card("5D")), True),  # every higher diamond has been played
    (NoHigherOut(card("QH")), False),  # the K♥ and A♥ are out
    (OutBetween(card("8H"), card("QH"), 2), True),  # 9♥ 10♥ (the J♥ is the learner's)
    (OutBetween(card("8H"), card("QH"), 3), False),
    (CardsOut(H, 9), True),
    (CardsOut(H, 10), False),  # the 2♥ is on the table
    (NoPointCardsOut(C), True),
    (NoPointCardsOut(H), False),
    (CardPoints(card("QS"), 13), True),
    (CardPoints(card("QS"), 12), False),
    (Void(0, S), True),
    (Void(0, H), False),
    (Void(1, H), False),  # seat 1 has not shown it
    (NoShownVoid(C), True),
    (TookEveryPoint(3), True),
    (TookEveryPoint(1), False),
    (Leading(), False),
    (Following(), True),
    (Discarding(), False),
    (LastToPlay(), False),
    (TrickPoints(1), True),
    (TrickPoints(0), False),
    (NoPointsInTrick(), False),
    (WinsTrick(card("8H")), True),
    (WinsTrick(card("5D")), False),
    (DucksUnder(card("8H"), card("2H")), False),
    (CannotDuck(card("2H")), True),
    (CannotDuck(card("8H")), False),  # not the card winning the trick
    (HighHeart(card("JH")), True),
    (HighHeart(card("10H")), False),
    (LowCard(card("5D")), True),
    (LowCard(card("8H")), False),
]

PASS_FACTS = [
    (PassOption(CardSet("AC KC QC")), True),
    (PassOption(CardSet("AC KC")), False),  # three cards are passed
    (PassOption(CardSet("AC KC AH")), False),  # the A♥ is not in the hand
    (PassContains(CardSet("2H QS JS"), card("QS")), True),
    (PassContains(CardSet("2H QS JS"), card("AS")), False),
    (PassMakesVoid(CardSet("AD KD QD"), D), True),
    (PassMakesVoid(CardSet("AC KC QC"), C), False),  # the J♣ stays
    (Guards(4, CardSet()), True),  # A♠ K♠ J♠ 10♠
    (Guards(2, CardSet("JS 10S 2H")), True),
    (Guards(4, CardSet("JS 10S 2H")), False),
    (LowSpades(2, CardSet()), True),  # J♠ 10♠
    (LowSpades(0, CardSet("JS 10S 2H")), True),
    (LowSpades(1, CardSet()), False),
    (CardOut(card("2C")), True),
    (Playable(card("AC")), False),  # nothing is played while passing
]


@pytest.mark.parametrize(("fact", "holds"), PLAY_FACTS, ids=repr)
def test_each_fact_checks_true_or_false_against_a_play_position(fact, holds):
    assert fact.check(five_eight_jack_queen()) is holds


@pytest.mark.parametrize(("fact", "holds"), PASS_FACTS, ids=repr)
def test_each_pass_fact_checks_true_or_false_against_a_pass_position(fact, holds):
    assert fact.check(lone_heart_pass()) is holds


def test_a_shown_void_is_a_fact_only_once_shown():
    # Play a seeded hand until a seat discards; from then on that void is shown, and not before.
    state = HandState.from_seed(5, Rules(), "hold")
    bots = {seat: make_bot("normal", seat) for seat in range(4)}
    while True:
        trick = state.current_trick
        seat = state.to_move
        card = bots[seat].choose_play(state.view(seat))
        if trick.cards and card.suit != trick.led_suit:
            break
        state.play(card, seat)
    led = state.current_trick.led_suit
    watcher = (seat + 1) % 4
    assert not Void(seat, led).check(state.view(watcher))
    assert NoShownVoid(led).check(state.view(watcher)) is not any(
        led in state.view(watcher).shown_void(s) for s in range(4) if s != watcher
    )
    state.play(card, seat)
    view = state.view(watcher)
    assert Void(seat, led).check(view) and not NoShownVoid(led).check(view)


def test_a_late_verdict_on_every_deal_says_so_and_is_the_same_for_any_seed():
    """Late in a hand with few deals left to imagine, the coach solves every one of them: the
    verdict is exact, so a second look (another seed) gives it word for word, and its figures
    say on how many deals, which are all the view allows."""
    from engine.search.sampling import WorldSampler

    checked = 0
    for seed in range(40):
        state = HandState.from_seed(seed, Rules(), "hold")
        bots = [make_bot("normal", 4 * seed + seat) for seat in range(4)]
        while state.trick_number < 10 or state.current_trick.cards:
            state.play(bots[state.to_move].choose_play(state.view(state.to_move)))
        view = state.view(state.to_move)
        deals = WorldSampler(view).every_world(512)
        if deals is None or len(view.legal_cards) < 2:
            continue
        card = view.legal_cards[-1]
        first, again = coach_play(view, card, seed=1), coach_play(view, card, seed=2)
        assert first.evaluation.every_deal and first.grade.decided
        assert (first.headline, first.numbers) == (again.headline, again.numbers)
        assert f"all {len(deals)} deals the unseen cards allow, each solved exactly" in first.numbers
        checked += 1
        if checked == 3:
            break
    assert checked == 3


# ----- praise says only what it checks (issue 49) -----


def ten_of_diamonds_last_diamond() -> PlayerView:
    """Trick 5, the learner to lead: every other diamond has been played, so the 10♦ is sure to
    win the trick and each other player may discard on it; the Q♠ is still out (Left's)."""
    state = setup_position(
        [
            "10D 5C 6C 2S 3S 2H 3H 4H 5H",
            "QS 7C 8C 4S 5S 6H 7H 8H 9H",
            "9C 10C 6S 7S 8S 10H JH QH KH",
            "JC QC KC 9S 10S JS KS AS AH",
        ],
        tricks=["2C 3C 4C AC", "2D 3D 4D 5D", "6D 7D KD 8D", "AD 9D JD QD"],
        first_leader=0,
    )
    view = state.view(0)
    assert view.is_my_turn and not view.current_trick.cards
    return view


def ace_of_hearts_lead() -> PlayerView:
    """Trick 4, hearts broken, the learner to lead holding the A♥: no heart out beats it."""
    state = setup_position(
        [
            "AH KH 7C 5D 6D 2S 3S 4S 3H 4H",
            "QS 8C 9C 7D 8D 5S 6S 5H 6H 7H",
            "9D 10D JD 7S 8S 9S 8H 9H 10H JH",
            "10C JC QC QD KD 10S JS KS AS QH",
        ],
        tricks=["2C 3C 4C AC", "KC 5C 6C 2H", "2D AD 3D 4D"],
        first_leader=0,
    )
    view = state.view(0)
    assert view.is_my_turn and not view.current_trick.cards
    return view


def ace_of_hearts_on_the_queen(low_heart: bool) -> PlayerView:
    """Last to play to a heart trick on which Right has thrown the Q♠: the A♥ takes her (16
    points). With ``low_heart`` the learner could have ducked with the 3♥ instead."""
    mine, left = ("3H", "9C") if low_heart else ("9C", "3H")
    state = setup_position(
        [
            f"AH KH {mine} 7C 5D 6D 2S 3S 4S 5S",
            f"{left} 8C 7D 8D 6S 7S 4H 6H 7H",
            "9D 10D JD 8S 9S 9H 10H JH QH",
            "10C JC QC QD KD 10S JS KS AS",
        ],
        tricks=["2C 3C 4C AC", "KC 5C 6C 2H", "2D 3D AD 4D", "5H 8H QS"],
        first_leader=0,
    )
    view = state.view(0)
    assert view.is_my_turn and len(view.current_trick.cards) == 3
    return view


def praise(view: PlayerView, card: str, others: tuple[str, ...]) -> Verdict:
    """The verdict on ``card`` when the evaluation calls it the best, the others 1.5 and 3 points
    worse."""
    losses = {card: (0.0, 0.0), **{other: (1.5 + 1.5 * i, 0.0) for i, other in enumerate(others)}}
    verdict = coach_play(view, card, evaluation_of("play", 0, losses))
    assert verdict.grade.correct and verdict.headline.startswith(f"Best: {parse_card(card)} is the best")
    assert_truthful(view, verdict)
    return verdict


STOCK_PRAISE = ("unlikely to come back with points", "safest")


def test_a_lead_sure_to_win_with_the_queen_out_is_said_as_its_risk_not_praised_as_safe():
    view = ten_of_diamonds_last_diamond()
    verdict = praise(view, "10D", ("5C", "2S"))
    text = " ".join(verdict.reasons)
    assert not any(stock in verdict.text for stock in STOCK_PRAISE), verdict.text
    assert verdict.reasons == (
        "Its risk, all the same: no other player holds a diamond, so the 10♦ wins this trick and every "
        "other player may discard points on it, the Q♠ among them.",
    ), text
    assert {CardsOut(D, 0), NoHigherOut(card("10D")), CardOut(card("QS"))} <= set(verdict.facts)


def test_a_heart_lead_that_takes_itself_says_so():
    view = ace_of_hearts_lead()
    verdict = praise(view, "AH", ("7C", "2S"))
    assert not any(stock in verdict.text for stock in STOCK_PRAISE), verdict.text
    assert verdict.reasons == (
        "Its risk, all the same: no other player holds a higher heart, so the A♥ wins this trick and you "
        "take the A♥'s own 1 point; the Q♠ is still out.",
    ), verdict.reasons
    # a low lead is praised with the cards out above it, counted
    verdict = praise(view, "3H", ("7C", "2S"))
    assert verdict.reasons == (
        "8 hearts still out outrank the 3♥: it wins the trick only if none of them is played on it.",
    ), verdict.reasons


def test_an_ace_of_hearts_that_takes_the_queen_is_never_called_safe():
    for low_heart in (False, True):
        view = ace_of_hearts_on_the_queen(low_heart)
        others = ("KH", "3H") if low_heart else ("KH",)
        verdict = praise(view, "AH", others)
        assert not any(stock in verdict.text for stock in STOCK_PRAISE), verdict.text
        risk = (
            "Its risk, all the same: the A♥ wins this trick, and you take 16 points with it, the A♥'s own "
            "included."
        )
        forced = "Every card you may play beats the 8♥: you cannot stay under it."
        assert verdict.reasons == ((risk,) if low_heart else (forced, risk)), verdict.reasons


def test_a_reason_against_the_best_card_is_said_as_its_risk():
    """ "Best: K♠ is the best choice here. The Q♠ is still out: K♠ may catch her." read as a
    reason against the praised card: for a card graded best it is said as the card's risk, and
    for a card as good as the best, what the best has over it is said as the best's."""
    state = setup_position(
        [
            "10D 5C 6C 2S KS 2H 3H 4H 5H",
            "QS 7C 8C 4S 5S 6H 7H 8H 9H",
            "9C 10C 6S 7S 8S 10H JH QH KH",
            "JC QC KC 9S 10S JS 3S AS AH",
        ],
        tricks=["2C 3C 4C AC", "2D 3D 4D 5D", "6D 7D KD 8D", "AD 9D JD QD"],
        first_leader=0,
    )
    view = state.view(0)
    verdict = praise(view, "KS", ("2S", "5C"))
    assert "Its risk, all the same: the Q♠ is still out, so the K♠ may catch her." in verdict.reasons
    assert "The Q♠ is still out" not in " ".join(verdict.reasons).replace("all the same: the Q♠", "")
    # graded best but not the best: the 2♠'s reasons against the K♠ are the 2♠'s
    near = evaluation_of("play", 0, {"2S": (0.0, 0.0), "KS": (0.3, 0.0), "5C": (3.0, 0.0)})
    verdict = coach_play(view, "KS", near)
    assert verdict.grade.correct
    assert_truthful(view, verdict)
    assert any(r.startswith("What speaks for 2♠ all the same: ") for r in verdict.reasons), verdict.reasons
    # and a K♠ graded a mistake hears it as the reason against it, unframed
    wrong = coach_play(view, "KS", evaluation_of("play", 0, {"2S": (0.0, 0.0), "KS": (3.0, 0.0)}))
    assert "The Q♠ is still out, so the K♠ may catch her." in wrong.reasons, wrong.reasons


def test_no_sentence_can_be_made_without_a_checked_fact_or_from_an_unknown_template():
    from trainer.coach.explain import CoachReason

    with pytest.raises(ValueError, match="declares no fact"):
        CoachReason("A lead that is unlikely to come back with points.", (), "praise_lead_under")
    with pytest.raises(ValueError, match="not in TEMPLATES"):
        CoachReason("It keeps your hand safest.", (Leading(),), "praise")


def test_every_moon_figure_names_whose_moon_it_is():
    view = five_eight_jack_queen()
    quiet = evaluation_of("play", 0, {"JH": (0.0, 0.0), "8H": (2.0, 0.0)})
    verdict = coach_play(view, "8H", quiet)
    assert "no player (you included) shoots the moon in 1% or more" in verdict.numbers, verdict.numbers
    assert_truthful(view, verdict)
    # the learner's own moon and Right's in one verdict: each figure says whose it is
    shooters = (0.004, 0.0, 0.0, 0.36)
    options = tuple(replace(value, moon_by_seat=shooters, moon_against=0.36) for value in quiet.options)
    verdict = coach_play(view, "8H", replace(quiet, options=options))
    assert "and Right shoots the moon in 36%" in verdict.numbers, verdict.numbers
    assert "under 1%" not in verdict.numbers
    assert_truthful(view, verdict)
    # a figure quoted for another seat than the evaluation's is caught
    assert not MoonChance(card("8H"), 1, 0.36).check(verdict.evaluation)
    assert MoonChance(card("8H"), 3, 0.36).check(verdict.evaluation)


def test_a_high_spade_played_last_is_not_said_to_catch_a_queen_no_one_can_play():
    """The K♠ played last to a spade trick with no points in it: "the K♠ may catch her" would be
    false (nobody plays after it), so it is not said; what the K♠ does is."""
    state = setup_position(
        [
            "10D 5C 6C 2S KS 2H 3H 4H 5H",
            "QS 7C 8C 5S 6H 7H 8H 9H",
            "9C 10C 7S 8S 10H JH QH KH",
            "JC QC KC 10S JS 3S AS AH",
        ],
        tricks=["2C 3C 4C AC", "2D 3D 4D 5D", "6D 7D KD 8D", "9D AD JD QD", "4S 6S 9S"],
        first_leader=0,
    )
    view = state.view(0)
    assert not MayFall(card("QS")).check(view)
    verdict = praise(view, "KS", ("2S",))
    assert verdict.reasons == ("You play last and the trick holds no points: the K♠ takes it clean.",)
    wrong = coach_play(view, "KS", evaluation_of("play", 0, {"2S": (0.0, 0.0), "KS": (3.0, 0.0)}))
    assert_truthful(view, wrong)
    assert not any("catch her" in reason for reason in wrong.reasons), wrong.reasons
    # leading, with Left (who may hold her) still to play: she may fall
    assert MayFall(card("QS")).check(ten_of_diamonds_last_diamond())
