"""Setting up a hand part-way through, as a lesson or puzzle describes it.

A position is given the way a person would write it down: the cards each seat holds now, the
cards each seat passed, and the tricks so far as cards in the order played. The deal is
worked out backwards from that and the whole hand is replayed through the engine, so a
position that could not have happened is refused with the engine's own reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import CardSet, iter_mask, parse_cards, to_card
from .hand import DealError, HandState, Phase, _to_mask
from .kernel import first_leader as kernel_first_leader
from .kernel import trick_winner
from .rules import STANDARD, PassDirection, Rules

__all__ = ["setup_position"]

CardsLike = int | CardSet | str | Iterable


def setup_position(
    hands: Sequence[CardsLike],
    rules: Rules | None = None,
    *,
    pass_direction: PassDirection | str = PassDirection.HOLD,
    passed: Sequence[CardsLike] | None = None,
    tricks: Sequence[CardsLike] = (),
    first_leader: int | None = None,
) -> HandState:
    """A hand in play.

    ``hands``: the cards each seat holds now. ``passed``: what each seat passed (required
    unless the hand is a hold hand). ``tricks``: each trick's cards in the order played, the
    last one possibly unfinished. ``first_leader``: the seat that led the first trick, needed
    only when it cannot be told from the hands (the lowest club has been played).
    """
    rules = rules or STANDARD
    direction = PassDirection(pass_direction)
    players = rules.players
    if len(hands) != players:
        raise DealError(f"hands: {len(hands)} hands given; these rules seat {players} players")
    now = [_to_mask(hand, f"hands[{seat}]") for seat, hand in enumerate(hands)]
    played = [[to_card(card) for card in parse_cards(trick)] for trick in tricks]
    for number, trick in enumerate(played[:-1], start=1):
        if len(trick) != players:
            raise DealError(
                f"tricks[{number - 1}]: trick {number} has {len(trick)} cards; "
                "only the last may be unfinished"
            )
    if played and not 0 < len(played[-1]) <= players:
        raise DealError(f"tricks[{len(played) - 1}]: a trick has 1 to {players} cards")

    leader = first_leader
    if leader is None:
        lowest = rules.lowest_club
        try:
            leader = kernel_first_leader(now, lowest)
        except ValueError:
            if played:
                raise DealError(
                    f"first_leader: {lowest} has been played, so say which seat led the first trick"
                ) from None
    if leader is not None and not 0 <= leader < players:
        raise DealError(f"first_leader: there is no seat {leader} at a table of {players}")

    # Give each played card back to the seat that played it.
    before_play = list(now)
    seen: dict[int, str] = {}
    for seat, mask in enumerate(now):
        for card in iter_mask(mask):
            if card in seen:
                raise DealError(f"hands[{seat}]: {card} is held twice: by {seen[card]} and seat {seat}")
            seen[card] = f"seat {seat}"
    seat = leader
    for number, trick in enumerate(played):
        for card in trick:
            if card in seen:
                raise DealError(f"tricks[{number}]: {card} appears twice (also in {seen[card]})")
            seen[card] = f"tricks[{number}]"
            before_play[seat] |= 1 << card
            seat = (seat + 1) % players
        if len(trick) == players:
            seat = trick_winner(trick, seat, players)[0]

    dealt = before_play
    if direction is not PassDirection.HOLD and rules.pass_count:
        if passed is None:
            raise DealError(f"passed: a {direction.value} hand needs the cards each seat passed")
        if len(passed) != players:
            raise DealError(f"passed: {len(passed)} passes given for {players} players")
        offset = direction.offset(players)
        passes = [_to_mask(cards, f"passed[{seat}]") for seat, cards in enumerate(passed)]
        for seat, mask in enumerate(passes):
            if mask.bit_count() != rules.pass_count:
                raise DealError(
                    f"passed[{seat}]: this pass could not happen: "
                    f"Pass exactly {rules.pass_count} cards: you chose {mask.bit_count()}."
                )
        dealt = []
        for seat in range(players):
            received = passes[(seat - offset) % players]
            if received & ~before_play[seat]:
                missing = CardSet(received & ~before_play[seat])
                raise DealError(
                    f"passed[{(seat - offset) % players}]: seat {seat} received {missing} "
                    "but does not hold it now or in the tricks"
                )
            dealt.append((before_play[seat] & ~received) | passes[seat])
    state = HandState(rules, dealt, direction)
    if state.phase is Phase.PASSING:
        for seat in range(players):
            if refusal := state.why_not_pass(seat, CardSet(passes[seat])):
                raise DealError(f"passed[{seat}]: this pass could not happen: {refusal}")
            state.pass_cards(seat, CardSet(passes[seat]))
    for number, trick in enumerate(played):
        for card in trick:
            if refusal := state.why_not_play(card):
                raise DealError(
                    f"tricks[{number}]: seat {state.to_move} could not have played the {card}: {refusal}"
                )
            state.play(card)
    return state
