"""The play-out policy compiled to machine code with numba: the search's fast path.

``engine.search.policy`` and ``engine.search.playout`` are the reference (pure Python, and what runs where
numba cannot, such as Pyodide); this module applies the same rules and the same policy, card
for card, to many games at once, one game after another in a compiled loop. The tests hold it
to the reference on every rule preset.

Why numba rather than numpy alone: the policy branches at every card (who is running for the
moon, who blocks, duck or win), which numpy can only express by computing every branch for
every game; compiled scalar code takes one branch and runs several times faster.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..cards import HEARTS_MASK, SUIT_MASKS, Suit
from ..kernel_compiled import breaks_hearts, exchange, first_leader, legal_mask, trick_taker, trick_winner
from ..moon import BLOCKERS, IMPOSSIBLE, NOBODY, Blocking, moon_cards
from ..rules import ACE_OF_SPADES, KING_OF_SPADES, QUEEN_OF_SPADES, Rules

__all__ = [
    "RulesCode",
    "deal_pass_blocks",
    "hands_after_passes",
    "quick_worlds",
    "run_policy",
    "runner_mismatches",
]

_HEARTS = int(HEARTS_MASK)
_CLUBS = int(SUIT_MASKS[Suit.CLUBS])
_QUEEN = int(QUEEN_OF_SPADES)  # a plain int: numba writes constants into its code as text
_QUEEN_BIT = 1 << _QUEEN
_ACE_OF_SPADES = int(ACE_OF_SPADES)
_KING_OF_SPADES = int(KING_OF_SPADES)
_HIGH_SPADES = (1 << _ACE_OF_SPADES) | (1 << _KING_OF_SPADES)
_SPADES = int(SUIT_MASKS[Suit.SPADES])
_LOW_SPADES = int(SUIT_MASKS[Suit.SPADES]) & ((1 << _QUEEN) - 1)
_SEGMENT = (1 << 13) - 1
_SUIT_MASKS = np.array(SUIT_MASKS, dtype=np.int64)


@dataclass(frozen=True)
class RulesCode:
    """The rule options a play-out needs, and the policy's moon thresholds, as plain integers
    for compiled code. The thresholds travel as arguments, not globals: numba's cache does not
    notice a change to another module's constants, and would run the old ones."""

    players: int
    hand_size: int
    lowest_club: int
    lead_any_club: int
    no_points_on_first_trick: int
    point_mask: int
    must_break_hearts: int
    hearts_instead_of_queen: int
    queen_breaks_hearts: int
    moon_mask: int
    moon_run: int
    moon_guard: int
    cheap_block: int
    deck_mask: int
    shooter: int
    blockers: int
    duckers: int
    queen_droppers: int
    queen_leaders: int

    @classmethod
    def of(cls, rules: Rules, blocking: Blocking = BLOCKERS) -> tuple[int, ...]:
        code = cls(
            rules.players,
            rules.hand_size,
            int(rules.lowest_club),
            int(rules.lead_any_club),
            int(rules.no_points_on_first_trick),
            rules.point_mask,
            int(rules.must_break_hearts),
            int(rules.hearts_instead_of_queen),
            int(rules.queen_breaks_hearts),
            moon_cards(rules),
            blocking.run,
            blocking.guard,
            blocking.cheap,
            rules.deck_mask,
            blocking.shooter,
            blocking.blockers,
            blocking.duckers,
            blocking.queen_droppers,
            blocking.queen_leaders,
        )
        return tuple(code.__dict__.values())


@intrinsic
def _popcount(typing_context, mask):
    """Set bits of a card mask: LLVM's ``ctpop``, one instruction where the machine has one
    (a loop over the bits was about a quarter of every play-out's time)."""

    def generate(context, builder, signature, arguments):
        return builder.ctpop(arguments[0])

    return types.int64(types.int64), generate


@intrinsic
def _leading_zeros(typing_context, mask):
    """LLVM's ``ctlz``: 64 for 0."""

    def generate(context, builder, signature, arguments):
        return builder.ctlz(arguments[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), generate


@intrinsic
def _trailing_zeros(typing_context, mask):
    """LLVM's ``cttz``: 64 for 0."""

    def generate(context, builder, signature, arguments):
        return builder.cttz(arguments[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), generate


@njit(cache=True, inline="always")
def _top(mask: int) -> int:
    """Index of the highest set bit of a positive mask."""
    return 63 - _leading_zeros(mask)


@njit(cache=True, inline="always")
def _bottom(mask: int) -> int:
    """Index of the lowest set bit of a positive mask."""
    return _trailing_zeros(mask)


@njit(cache=True)
def _lowest_by_rank(mask: int) -> int:
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SEGMENT
    rank = _bottom(ranks)
    for suit in range(4):
        if mask >> (13 * suit + rank) & 1:
            return 13 * suit + rank
    return -1


@njit(cache=True)
def _highest_by_rank(mask: int) -> int:
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SEGMENT
    rank = _top(ranks)
    for suit in range(3, -1, -1):
        if mask >> (13 * suit + rank) & 1:
            return 13 * suit + rank
    return -1


@njit(cache=True)
def _discard(legal: int, queen_out: bool) -> int:
    if legal & _QUEEN_BIT:
        return _QUEEN
    if queen_out and legal & _HIGH_SPADES:
        return _top(legal & _HIGH_SPADES)
    if legal & _HEARTS:
        return _top(legal & _HEARTS)
    return _highest_by_rank(legal)


@njit(cache=True)
def _queen_lead(hand: int, legal: int) -> int:
    """``engine.search.policy.queen_lead``: clubs, diamonds, hearts in that order, ties to the first."""
    best = -1
    fewest = 14
    for suit in (0, 1, 3):
        mask = legal & _SUIT_MASKS[suit]
        if mask:
            count = _popcount(hand & _SUIT_MASKS[suit])
            if count < fewest:
                best = _bottom(mask)
                fewest = count
    return best


@njit(cache=True)
def _has_loser(hand: int, outstanding: int, players: int) -> bool:
    """``engine.moon.has_loser``: answered at the first suit with a loser."""
    for suit in range(4):
        mine = hand & _SUIT_MASKS[suit]
        out = outstanding & _SUIT_MASKS[suit]
        if not mine or not out:
            continue
        tops = _popcount(mine >> (_top(out) + 1))
        if tops * (players - 1) < _popcount(out) and _popcount(mine) > tops:
            return True
    return False


@njit(cache=True)
def _choose(
    hand: int,
    legal: int,
    trick: np.ndarray,
    length: int,
    players: int,
    queen_out: bool,
    seat: int,
    leader: int,
    runner: int,
    moon_mask: int,
    runner_cards: int,
    outstanding: int,
    moon_run: int,
    moon_guard: int,
    cheap_block: int,
    shooter: int,
    blockers: int,
    duckers: int,
    queen_droppers: int,
    queen_leaders: int,
) -> int:
    """``engine.search.policy.choose_card``, line for line."""
    running = runner_cards >= moon_run
    guarding = runner_cards >= moon_guard
    led = winning = position = trick_mask = 0
    if length:
        led = trick[0] // 13
        position, trick_mask = trick_taker(trick, length)
        winning = trick[position]
    shooting = runner == seat and running
    if not shooting and moon_mask and (runner == seat or runner == NOBODY):  # noqa: SIM109 (numba)
        shooting = seat == shooter or not _has_loser(hand, outstanding, players)
    if shooting:
        if not length:
            return _highest_by_rank(legal)
        points = trick_mask & moon_mask
        if legal & _SUIT_MASKS[led]:
            top = _top(legal)
            if top > winning:
                return top
            if not points:
                return _bottom(legal)
        elif not points:
            quiet = legal & ~moon_mask
            return _lowest_by_rank(quiet if quiet else legal)
    blocking = runner >= 0 and runner != seat and (blockers >> seat) & 1 != 0
    if not length:
        if blocking and guarding and legal & _HEARTS:
            return _top(legal & _HEARTS)
        low_spades = legal & _LOW_SPADES
        if queen_out and low_spades and not hand & (_QUEEN_BIT | _HIGH_SPADES):
            return _bottom(low_spades)
        if hand & _QUEEN_BIT and (queen_leaders >> seat) & 1:
            card = _queen_lead(hand, legal)
            if card >= 0:
                return card
        return _lowest_by_rank(legal)
    runner_winning = blocking and (leader + position) % players == runner
    if legal & _SUIT_MASKS[led]:
        if runner_winning:
            over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
            taken = trick_mask & moon_mask
            cheap = taken != 0 and not taken & ~_HEARTS and _popcount(taken) <= cheap_block
            if over and (guarding or cheap):
                return _bottom(over)
        under = legal & ((1 << winning) - 1)
        if runner_winning and under & ~_QUEEN_BIT:
            under &= ~_QUEEN_BIT
        if under:
            if runner_winning and led == 3:  # hearts
                return _bottom(under)
            if not runner_winning and (duckers >> seat) & 1 == 0:
                over = legal & ~((1 << winning) - 1) & ~_QUEEN_BIT
                if over:
                    return _top(over)
            return _top(under)
        if length == players - 1:
            if legal != _QUEEN_BIT:
                return _top(legal & ~_QUEEN_BIT)
            return _QUEEN
        return _bottom(legal)
    beatable = outstanding & _SUIT_MASKS[led] & ~((2 << winning) - 1)
    later = length < players - 1
    if blocking and runner_winning and not guarding and later and beatable and legal & _HEARTS:
        return _bottom(legal & _HEARTS)
    if blocking and (runner_winning or (guarding and (runner - leader) % players > length)):
        quiet = legal & ~moon_mask
        if quiet:
            return _highest_by_rank(quiet)
    if legal & ~_QUEEN_BIT and (queen_droppers >> seat) & 1 == 0:
        legal &= ~_QUEEN_BIT
    return _discard(legal, queen_out)


@njit(cache=True)
def _candidate(taken: np.ndarray, players: int, moon_mask: int) -> tuple[int, int]:
    """``engine.moon.moon_candidate``."""
    if not moon_mask:
        return IMPOSSIBLE, 0
    runner = NOBODY
    cards = 0
    for seat in range(players):
        held = taken[seat] & moon_mask
        if held:
            if runner >= 0:
                return IMPOSSIBLE, 0
            runner = seat
            cards = _popcount(held)
    return runner, cards


@njit(cache=True, nogil=True)  # nogil: a batch's parts run in threads (``engine.search.threads``)
def run_policy(
    hands: np.ndarray,
    trick: np.ndarray,
    trick_length: int,
    leader: np.ndarray,
    tricks_done: int,
    broken: np.ndarray,
    taken: np.ndarray,
    won: np.ndarray,
    rules: tuple,
) -> None:
    """Play every game (row) to the end of the hand with the policy, updating ``hands``,
    ``taken`` and ``won`` in place (``engine.search.playout.playout_result``'s loop)."""
    (
        players,
        hand_size,
        lowest_club,
        lead_any_club,
        no_points,
        point_mask,
        must_break,
        hearts_for_queen,
        queen_breaks,
        moon_mask,
        moon_run,
        moon_guard,
        cheap_block,
        _deck_mask,
        shooter,
        blockers,
        duckers,
        queen_droppers,
        queen_leaders,
    ) = rules
    # ``engine.kernel.PlayRules``, by index: first lead, safe cards, hearts for the queen, must break
    play_rules = (_CLUBS if lead_any_club else 1 << lowest_club, ~point_mask if no_points else -1,
                  hearts_for_queen, must_break, queen_breaks)  # fmt: skip
    current = np.empty(players, dtype=np.int64)
    for game in range(hands.shape[0]):
        row_hands = hands[game]
        row_taken = taken[game]
        length = trick_length
        for index in range(length):
            current[index] = trick[game, index]
        lead = leader[game]
        seat = (lead + length) % players
        done = tricks_done
        hearts_broken = broken[game] or not must_break
        queen_out = False
        for other in range(players):
            if row_hands[other] & _QUEEN_BIT:
                queen_out = True
        runner, runner_cards = _candidate(row_taken, players, moon_mask)
        unplayed = 0
        for other in range(players):
            unplayed |= row_hands[other]
        while done < hand_size:
            hand = row_hands[seat]
            led = current[0] // 13 if length else -1
            legal = legal_mask(hand, led, done == 0, hearts_broken, play_rules)
            card = _choose(
                hand,
                legal,
                current,
                length,
                players,
                queen_out,
                seat,
                lead,
                runner,
                moon_mask,
                runner_cards,
                unplayed ^ hand,
                moon_run,
                moon_guard,
                cheap_block,
                shooter,
                blockers,
                duckers,
                queen_droppers,
                queen_leaders,
            )
            if card == _QUEEN:
                queen_out = False
            row_hands[seat] = hand ^ (1 << card)
            unplayed ^= 1 << card
            if not hearts_broken and breaks_hearts(1 << card, queen_breaks):
                hearts_broken = True
            current[length] = card
            length += 1
            if length < players:
                seat = seat + 1 if seat + 1 < players else 0
                continue
            lead, mask = trick_winner(current, lead, players)
            seat = lead
            row_taken[seat] |= mask
            won[game, seat] += 1
            length = 0
            done += 1
            if mask & moon_mask:
                runner, runner_cards = _candidate(row_taken, players, moon_mask)
        leader[game] = lead
        broken[game] = hearts_broken


# ----- imagined deals for a pass (``engine.search.pass_worlds`` is the reference) -----

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _next_u64(state: np.ndarray) -> np.uint64:
    """``engine.rng.SplitMix64.next_u64``; ``state`` is a one-element uint64 array."""
    z = state[0] + _GOLDEN_GAMMA
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _below(state: np.ndarray, bound: int) -> int:
    """``SplitMix64.below``: rejection sampling, no modulo bias."""
    ubound = np.uint64(bound)
    rest = (np.uint64(0) - ubound) % ubound  # 2**64 mod bound
    while True:
        value = _next_u64(state)
        if rest == 0 or value < np.uint64(0) - rest:
            return int(value % ubound)


@njit(cache=True, inline="always")
def _below_within(state: np.ndarray, bound: int, limit: np.uint64) -> int:
    """``_below`` with its threshold given: ``limit`` is 2**64 minus (2**64 mod bound), or 0
    where bound divides 2**64 (every value is taken)."""
    ubound = np.uint64(bound)
    while True:
        value = _next_u64(state)
        if limit == 0 or value < limit:
            return int(value % ubound)


@njit(cache=True)
def _card_danger(card: int, spades: int, has_queen: bool) -> float:
    """``engine.passing.card_danger``."""
    suit = card // 13
    rank = card % 13
    if card == _QUEEN:
        return 40.0 if spades <= 4 else 4.0
    if card == _ACE_OF_SPADES or card == _KING_OF_SPADES:  # noqa: SIM109 (numba)
        guarded = spades >= 5 or (has_queen and spades >= 4)
        return 3.0 if guarded else 30.0 + rank
    if suit == 2:
        return rank / 4 - 3
    if suit == 3:
        return rank * 1.6 - 6
    return rank * 1.2 - 5


@njit(cache=True)
def _rule_of_thumb_pass(hand: int, count: int) -> int:
    """``engine.passing.rule_of_thumb_pass``. Each card's danger is worked out where it is
    compared: no array a call (this runs three times for every imagined deal of a pass)."""
    spades = _popcount(hand & _SPADES)
    has_queen = (hand & _QUEEN_BIT) != 0
    short_clubs = _popcount(hand & _SUIT_MASKS[0])
    short_diamonds = _popcount(hand & _SUIT_MASKS[1])
    chosen = 0
    for _ in range(count):
        best = -1
        best_danger = 0.0
        rest = hand & ~chosen
        while rest:  # highest card first: it keeps a tie, as the reference's sort does
            card = _top(rest)
            rest ^= 1 << card
            danger = _card_danger(card, spades, has_queen)
            held = short_clubs if card < 13 else short_diamonds if card < 26 else 0
            if 0 < held <= count:
                danger += 6.0 - 2.0 * held
            if best < 0 or danger > best_danger:
                best = card
                best_danger = danger
        chosen |= 1 << best
    return chosen


@njit(cache=True, nogil=True)  # nogil: a call's blocks are dealt in threads (``engine.search.threads``)
def deal_pass_blocks(
    unseen: np.ndarray,
    room: np.ndarray,
    own: int,
    seat: int,
    pass_count: int,
    seed: np.uint64,
    block_size: int,
    first: int,
    last: int,
    hands: np.ndarray,
    passes: np.ndarray,
) -> None:
    """``engine.search.pass_worlds.deal_for_pass``, rows ``first`` to ``last``: the imagined deals
    (every seat's hand) and the others' rule-of-thumb passes, written into ``hands`` and
    ``passes``. ``first`` starts a block (a multiple of ``block_size``, ``PASS_DEAL_BLOCK``
    there: an argument, as numba's cache would not see that constant change)."""
    players = room.shape[0]
    state = np.empty(1, dtype=np.uint64)
    cards = unseen.copy()
    # ``_below``'s rejection threshold for every bound the shuffle uses, worked out once.
    limits = np.empty(cards.shape[0] + 1, dtype=np.uint64)
    for bound in range(1, cards.shape[0] + 1):
        ubound = np.uint64(bound)
        limits[bound] = np.uint64(0) - (np.uint64(0) - ubound) % ubound
    for deal in range(first, last):
        if deal % block_size == 0:  # each block its own stream, from the cards in order
            block = deal // block_size
            state[0] = seed if block == 0 else _world_seed(seed, block)
            cards[:] = unseen
        for i in range(cards.shape[0] - 1, 0, -1):
            j = _below_within(state, i + 1, limits[i + 1])
            cards[i], cards[j] = cards[j], cards[i]
        position = 0
        for other in range(players):
            if other == seat:
                hands[deal, other] = own
                continue
            mask = 0
            for _ in range(room[other]):
                mask |= 1 << cards[position]
                position += 1
            hands[deal, other] = mask
            passes[deal, other] = _rule_of_thumb_pass(mask, pass_count)


@njit(cache=True)
def hands_after_passes(
    hands: np.ndarray, passes: np.ndarray, candidates: np.ndarray, seat: int, offset: int, lowest: int
) -> tuple[np.ndarray, np.ndarray]:
    """``engine.search.outcomes.hands_after_pass`` for each candidate pass in each deal, candidate-major
    (row ``k * deals + d``): every seat's hand once the passes are made, and who leads."""
    deals, players = hands.shape
    after = np.empty((candidates.shape[0] * deals, players), dtype=np.int64)
    leader = np.zeros(candidates.shape[0] * deals, dtype=np.int64)
    given = np.empty(players, dtype=np.int64)
    for k in range(candidates.shape[0]):
        for deal in range(deals):
            row = k * deals + deal
            for other in range(players):
                given[other] = candidates[k] if other == seat else passes[deal, other]
            after[row] = exchange(hands[deal], given, offset)
            leader[row] = first_leader(after[row], lowest)
    return after, leader


@njit(cache=True, nogil=True)
def card_points(taken: np.ndarray, masks: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each seat's points in each game: ``values[i]`` for every card of ``masks[i]`` it took."""
    points = np.zeros(taken.shape, dtype=np.int64)
    for game in range(taken.shape[0]):
        for seat in range(taken.shape[1]):
            total = 0
            for group in range(masks.shape[0]):
                total += _popcount(taken[game, seat] & masks[group]) * values[group]
            points[game, seat] = total
    return points


# ----- imagined deals during play (``engine.search.sampling`` is the reference) -----


@njit(cache=True)
def _world_seed(seed: np.uint64, world: int) -> np.uint64:
    """``engine.search.sampling.world_seed``."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed + np.uint64(world) * _GOLDEN_GAMMA
    return _next_u64(state)


@njit(cache=True)
def _quick_deal(
    cards: np.ndarray, seats_of: np.ndarray, free: np.ndarray, state: np.ndarray, dealt: np.ndarray
) -> bool:
    """``engine.search.sampling._quick_deal`` (cards in order, each with its mask of allowed seats)."""
    players = free.shape[0]
    room = free.copy()
    dealt[:] = 0
    for index in range(cards.shape[0]):
        allowed = seats_of[index]
        total = 0
        for seat in range(players):
            if allowed >> seat & 1 and room[seat]:
                total += room[seat]
        if total == 0:
            return False
        pick = _below(state, total)
        chosen = -1
        for seat in range(players):
            if allowed >> seat & 1 and room[seat]:
                pick -= room[seat]
                if pick < 0:
                    chosen = seat
                    break
        dealt[chosen] |= 1 << cards[index]
        room[chosen] -= 1
    return True


@njit(cache=True)
def quick_worlds(
    cards: np.ndarray,
    seats_of: np.ndarray,
    sizes: np.ndarray,
    free: np.ndarray,
    fixed: np.ndarray,
    seed: np.uint64,
    first: int,
    count: int,
    retries: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``engine.search.sampling.WorldSampler.world`` for worlds ``first`` .. ``first + count - 1``:
    (hands, whether the quick deal succeeded, each stream's state afterwards). ``sizes[k]`` is
    how many seats card k may go to (the key the cards are kept sorted by)."""
    players = free.shape[0]
    hands = np.zeros((count, players), dtype=np.int64)
    done = np.zeros(count, dtype=np.bool_)
    states = np.zeros(count, dtype=np.uint64)
    dealt = np.zeros(players, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for world in range(count):
        state[0] = _world_seed(seed, first + world)
        order = cards.copy()
        masks = seats_of.copy()
        keys = sizes.copy()
        for _ in range(retries):
            if _quick_deal(order, masks, free, state, dealt):
                for seat in range(players):
                    hands[world, seat] = fixed[seat] | dealt[seat]
                done[world] = True
                break
            # SplitMix64.shuffle, then a stable sort by the number of allowed seats.
            for i in range(order.shape[0] - 1, 0, -1):
                j = _below(state, i + 1)
                order[i], order[j] = order[j], order[i]
                masks[i], masks[j] = masks[j], masks[i]
                keys[i], keys[j] = keys[j], keys[i]
            for i in range(1, order.shape[0]):
                card, mask, key = order[i], masks[i], keys[i]
                j = i - 1
                while j >= 0 and keys[j] > key:
                    order[j + 1], masks[j + 1], keys[j + 1] = order[j], masks[j], keys[j]
                    j -= 1
                order[j + 1], masks[j + 1], keys[j + 1] = card, mask, key
        states[world] = state[0]
    return hands, done, states


# ----- reading a moon runner's hand (``engine.search.inference`` is the reference) -----


@njit(cache=True)
def runner_mismatches(
    hands: np.ndarray,
    runner: int,
    cards: np.ndarray,
    tricks: np.ndarray,
    lengths: np.ndarray,
    leaders: np.ndarray,
    first: np.ndarray,
    broken: np.ndarray,
    queen_out: np.ndarray,
    runners: np.ndarray,
    runner_cards: np.ndarray,
    played: np.ndarray,
    later: np.ndarray,
    rules: tuple,
) -> np.ndarray:
    """``engine.search.inference.mismatches`` for the runner's hand (``hands[w]``) of every world."""
    (
        players,
        _hand_size,
        lowest_club,
        lead_any_club,
        no_points,
        point_mask,
        must_break,
        hearts_for_queen,
        queen_breaks,
        moon_mask,
        moon_run,
        moon_guard,
        cheap_block,
        deck_mask,
        shooter,
        blockers,
        duckers,
        queen_droppers,
        queen_leaders,
    ) = rules
    # ``engine.kernel.PlayRules``, by index: first lead, safe cards, hearts for the queen, must break
    play_rules = (_CLUBS if lead_any_club else 1 << lowest_club, ~point_mask if no_points else -1,
                  hearts_for_queen, must_break, queen_breaks)  # fmt: skip
    counts = np.zeros(hands.shape[0], dtype=np.int64)
    trick = np.zeros(players, dtype=np.int64)
    for world in range(hands.shape[0]):
        count = 0
        for k in range(cards.shape[0]):
            held = hands[world] | later[k]
            length = lengths[k]
            for index in range(length):
                trick[index] = tricks[k, index]
            led = trick[0] // 13 if length else -1
            legal = legal_mask(held, led, first[k], broken[k], play_rules)
            if legal & (legal - 1) == 0:
                continue
            card = _choose(
                held,
                legal,
                trick,
                length,
                players,
                queen_out[k],
                runner,
                leaders[k],
                runners[k],
                moon_mask,
                runner_cards[k],
                deck_mask & ~played[k] & ~held,
                moon_run,
                moon_guard,
                cheap_block,
                shooter,
                blockers,
                duckers,
                queen_droppers,
                queen_leaders,
            )
            if card != cards[k]:
                count += 1
        counts[world] = count
    return counts
