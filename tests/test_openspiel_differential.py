"""Differential test of our rules engine against OpenSpiel's Hearts.

Both engines get the same deal, the same pass direction, the same random passes and the same
random plays (chosen from our legal set with a seeded ``random.Random``). At every pass and
every play the two engines must offer the same cards; at the end they must give the same
points. The hands cover every combination of the seven rule flags the engines share, and every
pass direction, including a hold hand both ways OpenSpiel has of saying it (``pass_cards=false``,
and direction 0 with ``pass_cards=true``).

OpenSpiel is imported at the top on purpose: without it this module fails rather than skips.
A failure names the flags, pass mode, deal, seed and step; ``play_both(Case(...))`` replays it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pyspiel
import pytest

from engine import CARDS, CardSet, HandState, PassDirection, Rules, Suit, parse_card
from engine.deal import deal_from_seed

# (our Rules field, OpenSpiel parameter, our value when the flag is on, our value when off)
FLAGS = (
    ("no_points_on_first_trick", "no_pts_on_first_trick", True, False),
    ("lead_any_club", "can_lead_any_club", True, False),
    ("jack_of_diamonds_points", "jd_bonus", -10, 0),
    ("no_tricks_bonus", "avoid_all_tricks_bonus", -5, 0),
    ("must_break_hearts", "must_break_hearts", True, False),
    ("queen_breaks_hearts", "qs_breaks_hearts", True, False),
    ("hearts_instead_of_queen", "can_lead_hearts_instead_of_qs", True, False),
)
FLAG_COMBINATIONS = tuple(itertools.product((False, True), repeat=len(FLAGS)))


@dataclass(frozen=True)
class PassMode:
    """How one pass direction is said to each engine."""

    name: str
    direction: PassDirection
    openspiel_pass_cards: bool
    openspiel_direction: int  # OpenSpiel's first chance action: 0 none, 1 left, 2 across, 3 right


PASS_MODES = (
    PassMode("left", PassDirection.LEFT, True, 1),
    PassMode("across", PassDirection.ACROSS, True, 2),
    PassMode("right", PassDirection.RIGHT, True, 3),
    PassMode("hold (direction 0)", PassDirection.HOLD, True, 0),
    PassMode("hold (pass_cards=false)", PassDirection.HOLD, False, 0),
)
HANDS_PER_PASS_MODE = 16  # x 5 pass modes x 128 combinations = 10,240 hands
SKEWED_HANDS_PER_PASS_MODE = 8  # x 5 pass modes x 128 combinations = 5,120 more hands
PASS_COUNT = 3
TOTAL_POINTS = 26  # OpenSpiel's returns are 26 - points


def _our_card(action: int) -> int:
    """OpenSpiel's card ``rank * 4 + suit`` (suits C, D, H, S) as ours ``suit * 13 + rank`` (C, D, S, H)."""
    rank, suit = divmod(action, 4)
    return (0, 1, 3, 2)[suit] * 13 + rank


OURS_FROM_OPENSPIEL = tuple(_our_card(action) for action in range(52))
OPENSPIEL_FROM_OURS = tuple(OURS_FROM_OPENSPIEL.index(card) for card in range(52))


def _mask_of_actions(actions: list[int]) -> int:
    mask = 0
    for action in actions:
        mask |= 1 << OURS_FROM_OPENSPIEL[action]
    return mask


def _codes(mask: int) -> str:
    return " ".join(CardSet(mask).codes) or "(none)"


def _mask_of_names(names: list[str]) -> int:
    """A mask from OpenSpiel's card names (``TC``, ``QS``)."""
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


@dataclass(frozen=True)
class Case:
    """One hand: the flags, the pass mode and the seed (of the deal and of the random choices)."""

    flags: tuple[bool, ...]
    mode: PassMode
    seed: int
    skewed: bool = False

    @property
    def rules(self) -> Rules:
        return _rules(self.flags)

    @property
    def dealt(self) -> tuple[int, ...]:
        return skewed_deal(self.seed) if self.skewed else deal_from_seed(self.seed, 4)

    @property
    def openspiel_params(self) -> dict[str, bool]:
        params = {theirs: flag for flag, (_, theirs, _, _) in zip(self.flags, FLAGS, strict=True)}
        return params | {"pass_cards": self.mode.openspiel_pass_cards}

    def where(self, step: str) -> str:
        params = ",".join(f"{name}={str(value).lower()}" for name, value in self.openspiel_params.items())
        deal = "skewed_deal" if self.skewed else "deal_from_seed"
        return f"hearts({params}), pass {self.mode.name}, {deal}({self.seed}), {step}"


@cache
def _rules(flags: tuple[bool, ...]) -> Rules:
    return Rules(**{ours: on if flag else off for flag, (ours, _, on, off) in zip(flags, FLAGS, strict=True)})


def skewed_deal(seed: int) -> tuple[int, ...]:
    """A deal in which one seat holds the Q♠ and 9 to 12 hearts, so that the rare rules (leading
    a heart instead of the Q♠, a first trick with only point cards in hand) come up often."""
    rng = random.Random(seed)
    hearts = [card for card in CARDS if card.suit is Suit.HEARTS]
    queen = parse_card("QS")
    others = [card for card in CARDS if card.suit is not Suit.HEARTS and card != queen]
    rng.shuffle(hearts)
    rng.shuffle(others)
    count = rng.randint(9, 12)
    heavy = [queen, *hearts[:count], *others[: 12 - count]]
    rest = hearts[count:] + others[12 - count :]
    rng.shuffle(rest)
    hands = [rest[0:13], rest[13:26], rest[26:39]]
    hands.insert(rng.randrange(4), heavy)
    return tuple(CardSet(hand).mask for hand in hands)


@cache
def _game(params: tuple[tuple[str, bool], ...]) -> pyspiel.Game:
    return pyspiel.load_game("hearts", dict(params))


def _new_openspiel_state(case: Case) -> pyspiel.State:
    return _game(tuple(sorted(case.openspiel_params.items()))).new_initial_state()


def _combination_id(flags: tuple[bool, ...]) -> str:
    return "+".join(theirs for flag, (_, theirs, _, _) in zip(flags, FLAGS, strict=True) if flag) or "all-off"


def _check_hands(case: Case, ours: HandState, theirs: pyspiel.State, step: str) -> None:
    their_hands = theirs.to_struct().hands
    for seat in range(4):
        our_hand, their_hand = ours.hand(seat).mask, _mask_of_names(their_hands[seat])
        assert our_hand == their_hand, (
            f"{case.where(step)}: seat {seat} holds\n  ours:      {_codes(our_hand)}\n"
            f"  OpenSpiel: {_codes(their_hand)}"
        )


def _choose_direction(case: Case, theirs: pyspiel.State) -> None:
    offered = theirs.legal_actions()
    assert case.mode.openspiel_direction in offered, (
        f"{case.where('pass direction')}: OpenSpiel offers directions {offered}"
    )
    theirs.apply_action(case.mode.openspiel_direction)


def _deal(ours: HandState, theirs: pyspiel.State) -> None:
    """OpenSpiel's i-th deal action goes to player i % 4: deal our hands round the table."""
    hands = [list(ours.dealt_hand(seat)) for seat in range(4)]
    for cards in zip(*hands, strict=True):
        for card in cards:
            theirs.apply_action(OPENSPIEL_FROM_OURS[card])


def _pass_one_seat(case: Case, ours: HandState, theirs: pyspiel.State, seat: int, rng: random.Random) -> None:
    held = ours.hand(seat).mask
    chosen = rng.sample(list(ours.hand(seat)), PASS_COUNT)
    offered = held
    for i, card in enumerate(chosen):
        where = case.where(f"pass card {i + 1} of seat {seat}")
        assert theirs.current_player() == seat, (
            f"{where}: OpenSpiel has player {theirs.current_player()} passing"
        )
        their_offer = _mask_of_actions(theirs.legal_actions())
        assert their_offer == offered, (
            f"{where}: cards that may be passed differ\n  ours (held, not yet chosen): {_codes(offered)}\n"
            f"  OpenSpiel:                   {_codes(their_offer)}"
        )
        theirs.apply_action(OPENSPIEL_FROM_OURS[card])
        offered &= ~(1 << card)
    where = case.where(f"pass of seat {seat}")
    refusal = ours.why_not_pass(seat, chosen)
    assert refusal is None, f"{where}: ours refuses {_codes(CardSet(chosen).mask)}: {refusal}"
    not_held = next(card for card in range(52) if not held >> card & 1)
    assert not ours.can_pass(seat, [*chosen[:2], not_held]), f"{where}: ours lets it pass an unheld card"
    ours.pass_cards(seat, chosen)


def _pass(case: Case, ours: HandState, theirs: pyspiel.State, rng: random.Random) -> None:
    for seat in range(4):
        _pass_one_seat(case, ours, theirs, seat, rng)
    assert ours.phase == "playing", f"{case.where('after the pass')}: our phase is {ours.phase}"


def _play_step(case: Case, ours: HandState, theirs: pyspiel.State, step: int, rng: random.Random) -> None:
    seat = ours.to_move
    trick = ours.current_trick
    where = case.where(
        f"play {step + 1} (trick {ours.trick_number + 1}, seat {seat}, "
        f"trick so far: {' '.join(card.code for card in trick.cards) or '-'}, "
        f"hearts broken: {ours.hearts_broken})"
    )
    assert theirs.current_player() == seat, f"{where}: OpenSpiel has player {theirs.current_player()} to play"
    legal = ours.legal_cards()
    their_legal = _mask_of_actions(theirs.legal_actions())
    assert legal.mask == their_legal, (
        f"{where}: legal cards differ\n  held:      {_codes(ours.hand(seat).mask)}\n"
        f"  ours:      {_codes(legal.mask)}\n  OpenSpiel: {_codes(their_legal)}"
    )
    assert ours.legal_mask == legal.mask, f"{where}: legal_mask {_codes(ours.legal_mask)} != legal_cards()"
    card = rng.choice(list(legal))
    ours.play(card)
    theirs.apply_action(OPENSPIEL_FROM_OURS[card])


def _check_scores(case: Case, ours: HandState, theirs: pyspiel.State) -> None:
    where = case.where("end of hand")
    assert ours.phase == "done" and theirs.is_terminal(), (
        f"{where}: our phase {ours.phase}, OpenSpiel terminal {theirs.is_terminal()}"
    )
    their_points = tuple(round(TOTAL_POINTS - value) for value in theirs.returns())
    assert ours.result.scores == their_points, (
        f"{where}: points differ\n  ours:      {ours.result.scores} (taken {ours.result.points_taken}, "
        f"tricks {ours.result.tricks_won}, shooter {ours.result.shooter})\n  OpenSpiel: {their_points}"
    )


def play_both(case: Case) -> None:
    """Play one hand through both engines, checking them against each other at every step."""
    rng = random.Random(case.seed)
    ours = HandState(case.rules, case.dealt, case.mode.direction)
    theirs = _new_openspiel_state(case)
    _choose_direction(case, theirs)
    _deal(ours, theirs)
    _check_hands(case, ours, theirs, "after the deal")
    if case.mode.direction is not PassDirection.HOLD:
        _pass(case, ours, theirs, rng)
        _check_hands(case, ours, theirs, "after the exchange")
    for step in range(52):
        _play_step(case, ours, theirs, step, rng)
    _check_scores(case, ours, theirs)


def test_card_encoding_agrees_with_openspiel_card_names():
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(0)  # the pass direction; after it, chance actions are cards
    for action in range(52):
        name = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        assert parse_card(name) == OURS_FROM_OPENSPIEL[action], f"OpenSpiel action {action} is {name}"
        assert OPENSPIEL_FROM_OURS[OURS_FROM_OPENSPIEL[action]] == action


def test_flag_combinations_cover_every_combination_and_pass_mode():
    assert len(set(FLAG_COMBINATIONS)) == 2 ** len(FLAGS) == 128
    assert {mode.openspiel_direction for mode in PASS_MODES} == {0, 1, 2, 3}
    assert {mode.openspiel_pass_cards for mode in PASS_MODES if mode.direction is PassDirection.HOLD} == {
        True,
        False,
    }
    assert len(FLAG_COMBINATIONS) * len(PASS_MODES) * HANDS_PER_PASS_MODE >= 10_000


def _cases(index: int, hands_per_pass_mode: int, *, skewed: bool = False) -> Iterator[Case]:
    """The hands of flag combination ``index``: the same number for each pass mode, each seed used once."""
    flags = FLAG_COMBINATIONS[index]
    first_seed = index * hands_per_pass_mode * len(PASS_MODES)
    for mode_index, mode in enumerate(PASS_MODES):
        for k in range(hands_per_pass_mode):
            yield Case(flags, mode, first_seed + mode_index * hands_per_pass_mode + k, skewed)


COMBINATION_IDS = [_combination_id(flags) for flags in FLAG_COMBINATIONS]


@pytest.mark.parametrize("index", range(len(FLAG_COMBINATIONS)), ids=COMBINATION_IDS)
def test_legal_cards_passes_and_points_match_openspiel(index: int):
    for case in _cases(index, HANDS_PER_PASS_MODE):
        play_both(case)


@pytest.mark.parametrize("index", range(len(FLAG_COMBINATIONS)), ids=COMBINATION_IDS)
def test_rare_rules_match_openspiel_on_skewed_deals(index: int):
    for case in _cases(index, SKEWED_HANDS_PER_PASS_MODE, skewed=True):
        play_both(case)
