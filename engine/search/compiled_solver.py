"""The exact late-hand solver compiled with numba: ``engine.search.solver`` is its reference.

The same max^n search (every seat minimising its own score minus the others' average, the lowest
card among equals), the same legality, the same equivalent cards and the same floor, so every
option's outcome is the reference's, card for card; the tests hold it to the reference on
thousands of positions and every rule preset it takes. Only the memo differs: one table keyed
on the hands at trick boundaries (the reference's second, renamed memo saves little here).

An outcome travels packed in one int: each seat's points added from the node on in 13 bits
(offset by 4,096), the moon's shooter plus one above them, so adding a trick's points is one
addition. That fits four seats; other tables use the reference (``supports``). Where numba
is missing (Pyodide) ``engine.search.outcomes`` solves with the reference.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..kernel_compiled import breaks_hearts, legal_mask
from ..rules import Rules
from .compiled import _bottom, _top
from .solver import _ANYONE, _NO_FLOOR, _NOBODY, _root, _tables

__all__ = ["solve_options_compiled", "supports"]

_BITS = 13
_FIELD = (1 << _BITS) - 1
_OFFSET = 1 << (_BITS - 1)
_MAX_SEATS = 4
_SHOOTER_SHIFT = _BITS * _MAX_SEATS
_ZERO = sum(_OFFSET << (_BITS * seat) for seat in range(_MAX_SEATS))
"""Every seat adds nothing, nobody shoots (shooter field 0 = -1 + 1)."""

# params: the rule options as ints (``_params``)
(
    P_N,
    P_MOON_MASK,
    P_MOON_VALUE,
    P_MOON_ADD,
    P_BONUS,
    P_FIRST_LEAD,
    P_ANY_CLUB,
    P_NO_POINTS,
    P_SAFE_MASK,
    P_QUEEN_BREAKS,
    P_HEARTS_FOR_QUEEN,
    P_SCORED_MASK,
    P_NEGATIVE_MASK,
) = range(13)

_KEY = types.UniTuple(types.int64, 6)
_MEMO_KEY = _KEY
_MEMO_VALUE = types.int64


def supports(rules: Rules) -> bool:
    """Whether the packed outcomes hold these rules' scores: at most four seats, and every seat's
    points for a hand (moon included) well inside 13 bits."""
    tables = _tables(rules)
    most = sum(abs(v) for v in tables.values) + 2 * abs(tables.moon_value) + abs(tables.bonus)
    return rules.players <= _MAX_SEATS and most < _OFFSET


@njit(cache=True)
def _play_rules(params: np.ndarray) -> tuple:
    """The kernel's ``PlayRules`` from the params, as ``kernel_compiled.legal_mask`` reads them
    (must-break reads 1: the search's ``broken`` already says whether hearts may be led)."""
    return (params[P_FIRST_LEAD], params[P_SAFE_MASK], params[P_HEARTS_FOR_QUEEN], 1, params[P_QUEEN_BREAKS])


@njit(cache=True, inline="always")
def _seat(packed: int, seat: int) -> int:
    return ((packed >> (_BITS * seat)) & _FIELD) - _OFFSET


@njit(cache=True)
def _suit_total(points: np.ndarray, mask: int) -> int:
    return (
        points[0, mask & 8191]
        + points[1, (mask >> 13) & 8191]
        + points[2, (mask >> 26) & 8191]
        + points[3, (mask >> 39) & 8191]
    )


@njit(cache=True)
def _leaf(params: np.ndarray, status: int, won: int) -> int:
    n = params[P_N]
    out = _ZERO
    if status >= 0:
        moon = params[P_MOON_VALUE]
        if params[P_MOON_ADD]:
            for seat in range(n):
                out += (-moon if seat == status else moon) << (_BITS * seat)
        else:
            out += (-2 * moon) << (_BITS * status)
        return out + ((status + 1) << _SHOOTER_SHIFT)
    bonus = params[P_BONUS]
    if bonus:
        for seat in range(n):
            if not (won >> seat) & 1:
                out += bonus << (_BITS * seat)
    return out


@njit(cache=True)
def _add_points(out: int, seat: int, points: int) -> int:
    return out + (points << (_BITS * seat))


@njit(cache=True)
def _last_trick(params, points, hands, leader, left, status, won) -> int:
    """Every seat holds one card: the trick plays itself."""
    n = params[P_N]
    lead = hands[leader]
    lead_suit = _top(lead) // 13
    suit_mask = (1 << 13) - 1 << (lead_suit * 13)
    win_cards = left & suit_mask
    win_bit = 1 << _top(win_cards)
    win_seat = leader
    if lead != win_bit:
        for seat in range(n):
            if hands[seat] == win_bit:
                win_seat = seat
                break
    if left & params[P_MOON_MASK]:
        if status == _ANYONE:
            status = win_seat
        elif status != win_seat:
            status = _NOBODY
    if params[P_BONUS]:
        won |= 1 << win_seat
    else:
        won = 0
    out = _leaf(params, status, won)
    taken = _suit_total(points, left)
    if taken:
        out = _add_points(out, win_seat, taken)
    return out


# frame columns of the explicit stack (one row per node being searched)
(
    F_LEADER,
    F_POS,
    F_WIN_CARD,
    F_WIN_SEAT,
    F_TRICK_MASK,
    F_TRICK_POINTS,
    F_BROKEN,
    F_STATUS,
    F_WON,
    F_FIRST,
    F_LIVE,
    F_COLLECT,
    F_SEAT,
    F_HAND,
    F_LEGAL,
    F_TOP,
    F_FLOOR,
    F_BEST,
    F_HAVE_BEST,
    F_BEST_KEY,
    F_PREVIOUS,
    F_PREVIOUS_CLASS,
    F_OUT,
    F_KEYED,
    F_TAKER,
    F_GOT,
    F_CARD,
    F_KEY,
) = range(28)
_COLUMNS = F_KEY + 6
_DEPTH = 13 * 7 + 2
"""More plies than any hand has: the stack never runs out."""


@njit(cache=True)
def _enter(
    frames,
    d,
    memo,
    params,
    points,
    hands,
    leader,
    pos,
    win_card,
    win_seat,
    trick_mask,
    trick_points,
    broken,
    status,
    won,
    first,
    live,
    collect,
) -> int:
    """Set up row ``d`` for the node at this position (``engine.search.solver``'s ``node`` up to its
    loop over cards); or, where the node needs no search (nothing left to score, or the memo
    has it), its packed outcome (-1 otherwise: outcomes are never negative)."""
    n = params[P_N]
    bonus = params[P_BONUS]
    every_seat = (1 << n) - 1 if bonus else 0
    row = frames[d]
    row[F_KEYED] = 0
    if pos == 0:
        if not first and not collect:
            if not live & params[P_SCORED_MASK] and won == every_seat:
                return _leaf(params, status, won)
            key = (hands[0], hands[1], hands[2], hands[3], leader, (broken * 16 + status + 2) * 64 + won)
            found = memo.get(key, -1)
            if found != -1:
                return found
            row[F_KEYED] = 1
            for k in range(6):
                row[F_KEY + k] = key[k]
        seat = leader
        hand = hands[seat]
        legal = legal_mask(hand, -1, first, broken, _play_rules(params))
        top = 0
    else:
        seat = leader + pos
        if seat >= n:
            seat -= n
        hand = hands[seat]
        suit = win_card // 13
        legal = legal_mask(hand, suit, first, broken, _play_rules(params))
        top = suit * 13 + 13
    if not collect and won == every_seat and not live & params[P_NEGATIVE_MASK]:
        points_left = _suit_total(points, live)
        if status in (seat, _ANYONE):
            floor = (n - 1) * (points_left - 2 * params[P_MOON_VALUE])
        else:
            floor = -points_left
    else:
        floor = _NO_FLOOR
    row[F_LEADER] = leader
    row[F_POS] = pos
    row[F_WIN_CARD] = win_card
    row[F_WIN_SEAT] = win_seat
    row[F_TRICK_MASK] = trick_mask
    row[F_TRICK_POINTS] = trick_points
    row[F_BROKEN] = broken
    row[F_STATUS] = status
    row[F_WON] = won
    row[F_FIRST] = first
    row[F_LIVE] = live
    row[F_COLLECT] = collect
    row[F_SEAT] = seat
    row[F_HAND] = hand
    row[F_LEGAL] = legal
    row[F_TOP] = top
    row[F_FLOOR] = floor
    row[F_HAVE_BEST] = 0
    row[F_BEST] = 0
    row[F_BEST_KEY] = 0
    row[F_PREVIOUS] = -1
    row[F_PREVIOUS_CLASS] = 0
    row[F_OUT] = 0
    return -1


@njit(cache=True)
def _solve(
    params,
    values,
    classes,
    points,
    hands,
    leader,
    pos,
    win_card,
    win_seat,
    trick_mask,
    trick_points,
    broken,
    status,
    won,
    first,
    live,
    collected,
) -> None:
    """Every legal card's packed outcome into ``collected[card]``: ``engine.search.solver``'s search,
    its recursion kept on an explicit stack (numba cannot cache a recursive function)."""
    n = params[P_N]
    bonus = params[P_BONUS]
    memo = Dict.empty(key_type=_MEMO_KEY, value_type=_MEMO_VALUE)
    frames = np.zeros((_DEPTH, _COLUMNS), dtype=np.int64)
    _enter(
        frames,
        0,
        memo,
        params,
        points,
        hands,
        leader,
        pos,
        win_card,
        win_seat,
        trick_mask,
        trick_points,
        broken,
        status,
        won,
        first,
        live,
        True,
    )
    d = 0
    pending = False
    child = 0
    while True:
        row = frames[d]
        seat = row[F_SEAT]
        stop = False
        if pending:
            # A card's outcome is in: the reference's loop body after its recursive call.
            pending = False
            out = child
            if row[F_GOT]:
                out = _add_points(out, row[F_TAKER], row[F_GOT])
            hands[seat] = row[F_HAND]
            total = 0
            for other in range(n):
                total += _seat(out, other)
            key_value = n * _seat(out, seat) - total
            row[F_OUT] = out
            if not row[F_HAVE_BEST] or key_value < row[F_BEST_KEY]:
                row[F_BEST] = out
                row[F_HAVE_BEST] = 1
                row[F_BEST_KEY] = key_value
                if key_value <= row[F_FLOOR]:
                    stop = True
            if row[F_COLLECT] and not stop:
                collected[row[F_CARD]] = out
        legal = row[F_LEGAL]
        if stop or not legal:
            best = row[F_BEST]
            if row[F_KEYED]:
                memo[
                    (
                        row[F_KEY],
                        row[F_KEY + 1],
                        row[F_KEY + 2],
                        row[F_KEY + 3],
                        row[F_KEY + 4],
                        row[F_KEY + 5],
                    )
                ] = best
            if d == 0:
                return
            d -= 1
            child = best
            pending = True
            continue
        low = legal & -legal
        row[F_LEGAL] = legal ^ low
        card = _bottom(low)
        card_class = classes[card]
        live = row[F_LIVE]
        previous = row[F_PREVIOUS]
        if card_class == row[F_PREVIOUS_CLASS] and not live & (low - (2 << previous)):
            # Equivalent to the card before it, whose outcome it shares.
            row[F_PREVIOUS] = card
            if row[F_COLLECT]:
                collected[card] = row[F_OUT]
            continue
        row[F_PREVIOUS] = card
        row[F_PREVIOUS_CLASS] = card_class
        row[F_CARD] = card
        hand = row[F_HAND]
        hands[seat] = hand ^ low
        broken = row[F_BROKEN]
        now_broken = 1 if (broken or breaks_hearts(low, params[P_QUEEN_BREAKS])) else 0
        pos = row[F_POS]
        win_card = row[F_WIN_CARD]
        if pos == 0 or (win_card < card and card < row[F_TOP]):
            taker_card = card
            taker = seat
        else:
            taker_card = win_card
            taker = row[F_WIN_SEAT]
        status = row[F_STATUS]
        won = row[F_WON]
        row[F_TAKER] = taker
        row[F_GOT] = 0
        if pos + 1 != n:
            value = _enter(
                frames,
                d + 1,
                memo,
                params,
                points,
                hands,
                row[F_LEADER],
                pos + 1,
                taker_card,
                taker,
                row[F_TRICK_MASK] | low,
                row[F_TRICK_POINTS] + values[card],
                now_broken,
                status,
                won,
                row[F_FIRST],
                live,
                0,
            )
        else:
            mask = row[F_TRICK_MASK] | low
            row[F_GOT] = row[F_TRICK_POINTS] + values[card]
            new_status = status
            if mask & params[P_MOON_MASK]:
                if status == _ANYONE:
                    new_status = taker
                elif status != taker:
                    new_status = _NOBODY
            left = live & ~mask
            last = hands[taker]
            new_won = won | (1 << taker) if bonus else 0
            if last and not last & (last - 1):
                # (broken 2 marks this key: no trick-start key has it)
                k2 = (hands[0], hands[1], hands[2], hands[3], taker, (2 * 16 + new_status + 2) * 64 + new_won)
                value = memo.get(k2, -1)
                if value == -1:
                    value = _last_trick(params, points, hands, taker, left, new_status, new_won)
                    memo[k2] = value
            elif left:
                value = _enter(
                    frames,
                    d + 1,
                    memo,
                    params,
                    points,
                    hands,
                    taker,
                    0,
                    0,
                    0,
                    0,
                    0,
                    now_broken,
                    new_status,
                    new_won,
                    0,
                    left,
                    0,
                )
            else:
                value = _leaf(params, new_status, new_won)
        if value == -1:
            d += 1
        else:
            child = value
            pending = True


_ARRAYS: dict[Rules, tuple] = {}


def _arrays(rules: Rules) -> tuple:
    arrays = _ARRAYS.get(rules)
    if arrays is None:
        t = _tables(rules)
        params = np.array(
            [
                rules.players,
                t.moon_mask,
                t.moon_value,
                int(t.moon_add),
                t.bonus,
                t.first_lead,
                int(t.any_club),
                int(t.no_points),
                t.safe_mask & ((1 << 52) - 1),
                int(t.queen_breaks),
                int(t.hearts_for_queen),
                t.scored_mask,
                t.negative_mask,
            ],
            dtype=np.int64,
        )
        if len(_ARRAYS) > 64:
            _ARRAYS.clear()
        arrays = _ARRAYS[rules] = (
            params,
            np.array(t.values, dtype=np.int64),
            np.array(t.classes, dtype=np.int64),
            np.array(t.suit_points, dtype=np.int64),
        )
    return arrays


def solve_options_compiled(state) -> list[tuple[int, tuple[int, ...], int]]:
    """``engine.search.solver.solve_options`` of ``state``, compiled (``supports(state.rules)``), as
    ``(card number, final_scores, shooter)`` per legal card in card order."""
    _, args, taken_points = _root(state)
    (hands, leader, pos, win_card, win_seat, trick_mask, trick_points, broken, status, won, first, live) = (
        args
    )
    n = len(hands)
    padded = np.zeros(_MAX_SEATS, dtype=np.int64)
    padded[:n] = hands
    params, values, classes, points = _arrays(state.rules)
    collected = np.full(52, -1, dtype=np.int64)
    _solve(
        params,
        values,
        classes,
        points,
        padded,
        leader,
        pos,
        win_card,
        win_seat,
        trick_mask,
        trick_points,
        int(bool(broken)),
        status,
        won,
        int(bool(first)),
        live,
        collected,
    )
    rows = []
    legal = state.legal_cards()
    for card in legal:
        out = int(collected[int(card)])
        scores = tuple(taken_points[seat] + _unpack(out, seat) for seat in range(n))
        rows.append((int(card), scores, ((out >> _SHOOTER_SHIFT) & 15) - 1))
    return rows


def _unpack(out: int, seat: int) -> int:
    return ((out >> (_BITS * seat)) & _FIELD) - _OFFSET
