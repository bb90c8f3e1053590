"""Fast play-outs: finish a hand with random legal cards in one flat loop over bit masks.

This is what search and evaluation use many thousands of times. It applies exactly the rules
of ``HandState`` (the differential tests hold it to that) but skips everything a learner
needs and a roll-out does not: reasons, history, undo.
"""

from __future__ import annotations

import random

from ..hand import HandState, Phase
from ..kernel import breaks_hearts, legal_mask, trick_winner
from ..moon import BLOCKERS, Blocking, moon_candidate, moon_cards
from ..rules import QUEEN_OF_SPADES
from ..scoring import HandResult, MoonChoice, score_hand
from .policy import choose_card

__all__ = ["heuristic_playout", "playout_result", "random_playout"]


def random_playout(
    state: HandState, rng: random.Random, moon_choice: MoonChoice = MoonChoice.ADD_TO_OTHERS
) -> tuple[int, ...]:
    """Play ``state`` (which is left untouched) to the end with uniformly random legal cards;
    returns each seat's score for the hand. ``moon_choice`` decides a shooter's-choice moon."""
    return playout_result(state, rng, moon_choice).scores


def heuristic_playout(
    state: HandState, moon_choice: MoonChoice = MoonChoice.ADD_TO_OTHERS
) -> tuple[int, ...]:
    """Play ``state`` (left untouched) to the end with ``engine.search.policy`` for every seat."""
    return playout_result(state, None, moon_choice).scores


def playout_result(
    state: HandState,
    rng: random.Random | None,
    moon_choice: MoonChoice = MoonChoice.ADD_TO_OTHERS,
    blocking: Blocking = BLOCKERS,
) -> HandResult:
    """Play ``state`` (left untouched) to the end: uniformly random cards with ``rng``, the
    policy's cards without (playing the moon by ``blocking``). A shooter's-choice moon is
    scored with ``moon_choice``."""
    if state.phase is Phase.PASSING:
        raise ValueError("a play-out starts after the pass")
    rules = state.rules
    players = rules.players
    hand_size = rules.hand_size
    hands = list(state.hand_masks)
    taken = list(state.taken_masks)
    won = list(state.tricks_won)
    trick = list(state.trick_cards)
    leader = state.leader
    seat = state.to_move
    done = state.trick_number
    play_rules = rules.play_rules
    queen_breaks = play_rules.queen_breaks
    broken = state.hearts_broken or not play_rules.must_break
    uniform = rng.random if rng else None
    queen_out = any(hand >> QUEEN_OF_SPADES & 1 for hand in hands)
    moon_mask = moon_cards(rules)
    unplayed = 0
    for hand in hands:
        unplayed |= hand
    runner, runner_cards = moon_candidate(taken, moon_mask)

    while done < hand_size:
        hand = hands[seat]
        legal = legal_mask(hand, trick[0] // 13 if trick else -1, not done, broken, play_rules)
        if uniform:  # the k-th legal card, k uniform
            for _ in range(int(uniform() * legal.bit_count())):
                legal &= legal - 1
            card = (legal & -legal).bit_length() - 1
        else:
            card = choose_card(
                hand,
                legal,
                trick,
                players,
                queen_out,
                seat,
                leader,
                runner,
                moon_mask,
                runner_cards,
                unplayed ^ hand,
                blocking,
            )
            if card == QUEEN_OF_SPADES:
                queen_out = False
        hands[seat] = hand ^ (1 << card)
        unplayed ^= 1 << card
        if not broken and breaks_hearts(1 << card, queen_breaks):
            broken = True
        trick.append(card)
        if len(trick) < players:
            seat = seat + 1 if seat + 1 < players else 0
            continue
        seat, mask = trick_winner(trick, leader, players)
        leader = seat
        taken[seat] |= mask
        won[seat] += 1
        trick = []
        done += 1
        if mask & moon_mask:
            runner, runner_cards = moon_candidate(taken, moon_mask)
    return score_hand(rules, taken, won, moon_choice if rules.moon == "shooters_choice" else None)
