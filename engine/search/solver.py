"""An exact perfect-information solver for late hands.

Late in a hand (every seat holding a few cards) an imagined deal of the hidden cards can be
solved outright instead of played out with the heuristic policy: every seat sees every hand
and plays perfectly for itself.

The model is max^n: the seat to move picks the card that minimises its own ranking key, the
evaluator's ``difference`` (its final score minus the average final score of the other
seats); among cards with the same key the lowest card (lowest card number) is played. The
game is not zero-sum, so there is no alpha-beta; the search is made fast, and stays exact, by

* a memo on trick boundaries, keyed on what the rest of the hand can depend on: the hands,
  the leader, whether hearts are broken, who can still shoot the moon (nobody, anyone, or the
  one seat that has taken every moon card so far), and (only with a no-tricks bonus) which
  seats have won a trick. Scores already taken are left out of the key: the memo keeps what
  the rest of the hand adds to each score (see ``_Outcome``), and a constant added to a seat's
  score does not change any seat's choice. (Within one search the hands imply whether hearts
  are broken; the flag is in the key all the same.) From four cards a seat up, a second memo
  keys the position up to renaming cards (``canonical``), so that positions differing only in
  which cards are gone share one search;
* playing one card of each run of equivalent cards (see ``_classes``) and giving its outcome
  to the others of the run;
* stopping a seat's search once a card reaches the lowest key the seat could ever get (no
  more points for it, or its moon): a later, higher card could only tie, and ties go to the
  lower card.

Everything works on plain ints: a card is 0..51 (``card // 13`` is the suit: clubs,
diamonds, spades, hearts; a higher number is a higher card of its suit), a hand is a bit mask.
Legality mirrors ``HandState.legal_cards`` (and ``engine.search.playout``) exactly. Pure Python,
standard library only.
"""

from __future__ import annotations

from ..cards import CARDS, SUIT_MASKS, Card
from ..hand import HandState, Phase
from ..kernel import breaks_hearts, legal_mask, trick_taker
from ..rules import QUEEN_OF_SPADES, MoonRule, Rules
from ..scoring import MoonChoice, score_hand

__all__ = ["solve_options", "solve_value"]

# Cards a rule singles out beyond their value: the Q♠ (she may break hearts, and she is the card
# ``hearts_instead_of_queen`` speaks of). The J♦ of Omnibus and the K♠ and A♠ of Black Maria
# differ from their suits by value already; the lowest club matters only for the first lead,
# which is its holder's only legal card (or any club, under ``lead_any_club``).
_SPECIAL = frozenset({QUEEN_OF_SPADES})

# A search outcome is ``(added, total, shooter)``: ``added[seat]`` is what the rest of the hand
# (from the node searched) adds to the seat's score, moon and no-tricks bonus included, so the
# final score is the points taken before that node plus ``added``; ``total`` is
# ``sum(added)``; ``shooter`` is the seat that shoots the moon, or -1.
_Outcome = tuple[tuple[int, ...], int, int]

# Moon-status values: who can still shoot the moon given the moon cards taken so far.
_ANYONE = -2  # no moon card taken yet
_NOBODY = -1  # two seats have taken moon cards (or the rules score no moon)
_NO_FLOOR = -(1 << 60)
# The second, renamed memo is used from this many cards a seat: below, renaming costs more
# than it saves (measured). The tests set it to 0 to check the renaming on small positions.
_RENAME_FROM = 4


class _Tables:
    """What the search needs from a ``Rules``, as plain ints and tuples."""

    __slots__ = (
        "any_club",
        "bonus",
        "classes",
        "first_lead",
        "hearts_for_queen",
        "moon_add",
        "moon_mask",
        "moon_value",
        "must_break",
        "negative_mask",
        "no_points",
        "play_rules",
        "queen_breaks",
        "raw_suits",
        "safe_mask",
        "scored_mask",
        "shapes",
        "suit_points",
        "values",
    )

    def __init__(self, rules: Rules) -> None:
        self.values = rules.card_values
        self.moon_mask = 0 if rules.moon is MoonRule.OFF else rules.moon_mask
        self.moon_value = rules.moon_value
        # Shooter's choice is scored as "add to the others", as engine.search.playout does by default.
        self.moon_add = rules.moon is not MoonRule.SUBTRACT_FROM_SHOOTER
        self.bonus = rules.no_tricks_bonus
        # The legal-card rule's options (``engine.kernel``).
        code = self.play_rules = rules.play_rules
        self.first_lead = code.first_lead
        self.any_club = rules.lead_any_club
        self.no_points = rules.no_points_on_first_trick
        self.safe_mask = code.safe
        self.must_break = code.must_break
        self.queen_breaks = code.queen_breaks
        self.hearts_for_queen = code.hearts_for_queen
        self.classes = _classes(rules)
        self.shapes, self.raw_suits = _suit_shapes(self.classes, rules.deck_mask)
        # Every card that changes a score when taken (the moon's cards included).
        self.scored_mask = rules.scored_mask | self.moon_mask
        self.negative_mask = sum(1 << card for card, value in enumerate(self.values) if value < 0)
        # Points of any set of cards of one suit, indexed by its 13-bit mask.
        self.suit_points = tuple(_suit_points(self.values[suit * 13 : suit * 13 + 13]) for suit in range(4))


def _classes(rules: Rules) -> tuple[int, ...]:
    """An equivalence class per card. Two cards of one seat's hand with the same class and no
    other live card (in any hand or in the trick on the table) ranked between them are
    interchangeable: they take or lose to exactly the same cards, score the same, and order the
    same against every other live card, so swapping their names maps the whole game tree onto
    itself, card order (the tie-break) included. The class is the suit and the value; every
    card that some rule singles out gets a class of its own.

    A card of the same hand but of another class between them (the J♠ and K♠ around one's own
    Q♠) is not allowed: the swap would turn "Q♠ below K♠" into "J♠ below Q♠", and the lowest
    card tie-break then sheds a different card (tests/test_solver.py has such a position)."""
    return tuple(
        -1 - card if card in _SPECIAL else (card // 13) * 100_000 + value + 50_000
        for card, value in enumerate(rules.card_values)
    )


def _suit_shapes(classes: tuple[int, ...], deck: int) -> tuple[list[tuple[int, int]], int]:
    """For the canonical memo key: the suits whose cards all share one class but for a few
    (``(shift, mask of the odd cards)``), and the mask of the other suits, kept as they are."""
    shapes = []
    raw = 0
    for suit in range(4):
        cards = [card for card in range(suit * 13, suit * 13 + 13) if deck >> card & 1]
        counts: dict[int, int] = {}
        for card in cards:
            counts[classes[card]] = counts.get(classes[card], 0) + 1
        base = max(counts, key=counts.__getitem__)
        odd = sum(1 << (card - suit * 13) for card in cards if classes[card] != base)
        if odd.bit_count() <= 3:
            shapes.append((suit * 13, odd))
        else:
            raw |= SUIT_MASKS[suit]
    return shapes, raw


def _suit_points(values: tuple[int, ...]) -> list[int]:
    points = [0] * 8192
    for mask in range(1, 8192):
        low = mask & -mask
        points[mask] = points[mask ^ low] + values[low.bit_length() - 1]
    return points


def _pext(bits: int, mask: int) -> int:
    """The bits of ``bits`` at the places of ``mask``'s bits, packed together."""
    out = 0
    place = 1
    while mask:
        low = mask & -mask
        if bits & low:
            out |= place
        place <<= 1
        mask ^= low
    return out


_PACKED: dict[int, int] = {}
"""``_pext(bits, mask)`` of 13-bit suits by ``mask << 13 | bits``, filled as the searches meet
them (and emptied past ``_PACKED_LIMIT`` entries)."""
_PACKED_LIMIT = 1 << 16

_TABLES: dict[Rules, _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    tables = _TABLES.get(rules)
    if tables is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        tables = _TABLES[rules] = _Tables(rules)
    return tables


def _search(tables: _Tables, players: int):
    """A fresh search (with its own memo) for one position: returns ``node``."""
    values = tables.values
    classes = tables.classes
    moon_mask = tables.moon_mask
    moon_value = tables.moon_value
    moon_add = tables.moon_add
    bonus = tables.bonus
    play_rules = tables.play_rules
    queen_breaks = tables.queen_breaks
    suit_masks = SUIT_MASKS
    n = players
    seats = range(n)
    clubs_points, diamonds_points, spades_points, hearts_points = tables.suit_points
    scored_mask = tables.scored_mask
    # With a no-tricks bonus, the rest of the hand is a formality only once every seat has a
    # trick; without one, ``won`` is always 0.
    every_seat = (1 << n) - 1 if bonus else 0
    negative_mask = tables.negative_mask
    memo: dict[tuple, _Outcome] = {}
    memo_get = memo.get
    leaves: dict[tuple[int, int], _Outcome] = {}

    rename_from = _RENAME_FROM
    shape_memo: dict[tuple, _Outcome] = {}
    shapes_get = shape_memo.get
    suit_shapes = tables.shapes
    raw_suits = tables.raw_suits
    packed = _PACKED
    packed_get = packed.get

    def canonical(hands: list[int], live: int) -> tuple:
        """The hands up to renaming cards: in each suit (but Spot Hearts' hearts, whose cards
        all differ in value) the live cards are renumbered 0, 1, 2... in rank order, and the
        few cards whose class differs from the rest of their suit (the Q♠, the J♦ of Omnibus,
        Black Maria's spades) are named with their new numbers. The renaming keeps every
        comparison between live cards, every card's value and rule, and the card order within
        each hand (the tie-break), so positions with the same canonical hands (and leader,
        hearts, moon status and tricks won) have the same outcome."""
        parts = [hand & raw_suits for hand in hands] if raw_suits else []
        for shift, odd in suit_shapes:
            suit_live = live >> shift & 8191
            if not suit_live:
                parts.append(0)
                continue
            code = suit_live & odd
            if code:
                index = suit_live << 13 | code
                compressed = packed_get(index)
                if compressed is None:
                    compressed = packed[index] = _pext(code, suit_live)
                    if len(packed) > _PACKED_LIMIT:
                        packed.clear()
                code = code << 13 | compressed
            for hand in hands:
                index = suit_live << 13 | hand >> shift & 8191
                compressed = packed_get(index)
                if compressed is None:
                    compressed = packed[index] = _pext(index & 8191, suit_live)
                    if len(packed) > _PACKED_LIMIT:
                        packed.clear()
                code = code << 13 | compressed
            parts.append(code)
        return tuple(parts)

    def leaf(status: int, won: int) -> _Outcome:
        """The hand is over: the moon and the no-tricks bonus."""
        out = leaves.get((status, won))
        if out is None:
            if status >= 0:
                if moon_add:
                    added = [moon_value] * n
                    added[status] = -moon_value
                else:
                    added = [0] * n
                    added[status] = -2 * moon_value
                out = (tuple(added), sum(added), status)
            elif bonus:
                added = [0 if won >> seat & 1 else bonus for seat in seats]
                out = (tuple(added), sum(added), -1)
            else:
                out = ((0,) * n, 0, -1)
            leaves[(status, won)] = out
        return out

    def last_trick(hands: list[int], leader: int, left: int, status: int, won: int) -> _Outcome:
        """Every seat holds one card (``left`` is the four, or n, of them): the trick plays
        itself."""
        lead = hands[leader]
        win_bit = left & suit_masks[(lead.bit_length() - 1) // 13]
        win_bit = 1 << win_bit.bit_length() - 1
        win_seat = leader
        if lead != win_bit:
            for seat in seats:
                if hands[seat] == win_bit:
                    win_seat = seat
                    break
        if left & moon_mask:
            if status == _ANYONE:
                status = win_seat
            elif status != win_seat:
                status = _NOBODY
        out = leaf(status, won | 1 << win_seat if bonus else 0)
        points = (
            clubs_points[left & 8191]
            + diamonds_points[left >> 13 & 8191]
            + spades_points[left >> 26 & 8191]
            + hearts_points[left >> 39]
        )
        if points:
            added = list(out[0])
            added[win_seat] += points
            out = (tuple(added), out[1] + points, out[2])
        return out

    def node(
        hands: list[int],
        leader: int,
        pos: int,
        win_card: int,
        win_seat: int,
        trick_mask: int,
        trick_points: int,
        broken: bool,
        status: int,
        won: int,
        first: bool,
        live: int,
        collect: list | None,
    ) -> _Outcome:
        """The outcome of perfect play from a position: ``pos`` cards of the trick led by
        ``leader`` are on the table (``win_card`` of ``win_seat`` taking it so far,
        ``trick_mask`` and ``trick_points`` its cards and points); ``broken`` says whether
        hearts may be led; ``status`` who can still shoot the moon; ``won`` which seats have
        taken a trick (kept only with a no-tricks bonus); ``live`` every card in a hand or on
        the table. With ``collect``, (card, outcome) of every legal card is appended to it."""
        if pos == 0:
            if not first and collect is None:
                if not live & scored_mask and won == every_seat:
                    # No card left changes a score: the rest of the hand is a formality.
                    return leaf(status, won)
                key = (*hands, leader, broken, status, won)
                out = memo_get(key)
                if out is not None:
                    return out
                big = hands[leader].bit_count() >= rename_from
                if big:
                    shape_key = (canonical(hands, live), leader, broken, status, won)
                    out = shapes_get(shape_key)
                    if out is not None:
                        memo[key] = out
                        return out
            seat = leader
            hand = hands[seat]
            legal = legal_mask(hand, -1, first, broken, play_rules)
            top = 0
        else:
            seat = leader + pos
            if seat >= n:
                seat -= n
            hand = hands[seat]
            legal = legal_mask(hand, win_card // 13, first, broken, play_rules)
            top = win_card // 13 * 13 + 13
        closes = pos + 1 == n
        best = None
        best_key = 0
        # The lowest key the seat could reach (with no bonus pending and no card worth less
        # than nothing left): shooting the moon if it still can, else taking no more points
        # (key -points left, the others taking them all). Once a card reaches it, a higher
        # card can at best tie, and ties go to the lower card: the search of this node stops.
        if collect is None and won == every_seat and not live & negative_mask:
            points_left = (
                clubs_points[live & 8191]
                + diamonds_points[live >> 13 & 8191]
                + spades_points[live >> 26 & 8191]
                + hearts_points[live >> 39]
            )
            # A seat that could still shoot the moon: n * (left - moon) - (left - moon +
            # (n - 1) * moon) adding the moon to the others, n * (left - 2 moon) - (left -
            # 2 moon) subtracting it; both (n - 1) * (left - 2 moon), below -left.
            floor = (n - 1) * (points_left - 2 * moon_value) if status in (seat, _ANYONE) else -points_left
        else:
            floor = _NO_FLOOR
        previous = -1
        previous_class = 0
        out = None
        while legal:
            low = legal & -legal
            legal ^= low
            card = low.bit_length() - 1
            card_class = classes[card]
            if card_class == previous_class and not live & (low - (2 << previous)):
                # Equivalent to the card before it, whose outcome it shares.
                previous = card
                if collect is not None:
                    collect.append((card, out))
                continue
            previous = card
            previous_class = card_class
            hands[seat] = hand ^ low
            now_broken = broken or breaks_hearts(low, queen_breaks)
            if pos == 0 or win_card < card < top:
                taker_card = card
                taker = seat
            else:
                taker_card = win_card
                taker = win_seat
            if not closes:
                out = node(
                    hands,
                    leader,
                    pos + 1,
                    taker_card,
                    taker,
                    trick_mask | low,
                    trick_points + values[card],
                    now_broken,
                    status,
                    won,
                    first,
                    live,
                    None,
                )
            else:
                mask = trick_mask | low
                points = trick_points + values[card]
                new_status = status
                if mask & moon_mask:
                    if status == _ANYONE:
                        new_status = taker
                    elif status != taker:
                        new_status = _NOBODY
                left = live & ~mask
                last = hands[taker]
                if last and not last & (last - 1):
                    nw = won | 1 << taker if bonus else 0
                    k2 = (*hands, taker, new_status, nw)
                    out = memo_get(k2)
                    if out is None:
                        out = memo[k2] = last_trick(hands, taker, left, new_status, nw)
                elif left:
                    out = node(
                        hands,
                        taker,
                        0,
                        0,
                        0,
                        0,
                        0,
                        now_broken,
                        new_status,
                        won | 1 << taker if bonus else 0,
                        False,
                        left,
                        None,
                    )
                else:
                    out = leaf(new_status, won | 1 << taker if bonus else 0)
                if points:
                    added = list(out[0])
                    added[taker] += points
                    out = (tuple(added), out[1] + points, out[2])
            hands[seat] = hand
            key_value = n * out[0][seat] - out[1]
            if best is None or key_value < best_key:
                best = out
                best_key = key_value
                if key_value <= floor:
                    break
            if collect is not None:
                collect.append((card, out))
        if pos == 0 and not first and collect is None:
            memo[key] = best
            if big:
                shape_memo[shape_key] = best
        return best

    return node


def _root(state: HandState) -> tuple[_Tables, list, list[int]]:
    """The search and its arguments for ``state``, and the points each seat has taken."""
    if state.phase is not Phase.PLAYING:
        raise ValueError(f"the solver needs a hand in play, not one in phase {state.phase.value}")
    rules = state.rules
    tables = _tables(rules)
    players = rules.players
    hands = list(state.hand_masks)
    trick = list(state.trick_cards)
    leader = state.leader
    live = 0
    for hand in hands:
        live |= hand
    if trick:
        best, trick_mask = trick_taker(trick)
        win_card = trick[best]
        win_seat = (leader + best) % players
        trick_points = sum(tables.values[card] for card in trick)
    else:
        win_card = win_seat = trick_mask = trick_points = 0
    live |= trick_mask
    status = _NOBODY
    moon_mask = tables.moon_mask
    taken = 0
    for mask in state.taken_masks:
        taken |= mask
    if moon_mask and not moon_mask & ~(taken | live):
        # (A made-up position missing a moon card has no moon, as score_hand would say.)
        takers = [seat for seat, mask in enumerate(state.taken_masks) if mask & moon_mask]
        status = _ANYONE if not takers else takers[0] if len(takers) == 1 else _NOBODY
    won = 0
    if tables.bonus:
        for seat, count in enumerate(state.tricks_won):
            if count:
                won |= 1 << seat
    args = [
        hands,
        leader,
        len(trick),
        win_card,
        win_seat,
        trick_mask,
        trick_points,
        state.hearts_broken or not tables.must_break,
        status,
        won,
        state.is_first_trick,
        live,
    ]
    taken_points = list(state.points_taken)
    return tables, args, taken_points


def _final(taken_points: list[int], out: _Outcome) -> tuple[tuple[int, ...], int]:
    return tuple(before + added for before, added in zip(taken_points, out[0], strict=True)), out[2]


def solve_options(state: HandState) -> list[tuple[Card, tuple[int, ...], int]]:
    """For every legal card of the seat to move, in card order: ``(card, final_scores,
    shooter)``, the whole hand's scores (as ``score_hand`` gives them, a shooter's-choice moon
    added to the others) and the seat that shoots the moon (-1 for none) when that card is
    played and then every seat plays perfectly with every hand in view. ``state`` (a hand in
    play) is left unchanged."""
    tables, args, taken_points = _root(state)
    node = _search(tables, state.rules.players)
    collect: list[tuple[int, _Outcome]] = []
    node(*args, collect)
    return [(CARDS[card], *_final(taken_points, out)) for card, out in collect]


def solve_value(state: HandState) -> tuple[tuple[int, ...], int]:
    """``(final_scores, shooter)`` when every seat plays perfectly from ``state``. A finished
    hand gives its score (a shooter's-choice moon still to be chosen is added to the others)."""
    if state.phase in (Phase.DONE, Phase.MOON_CHOICE):
        rules = state.rules
        choice = MoonChoice.ADD_TO_OTHERS if rules.moon is MoonRule.SHOOTERS_CHOICE else None
        result = score_hand(rules, state.taken_masks, state.tricks_won, choice)
        return result.scores, -1 if result.shooter is None else result.shooter
    tables, args, taken_points = _root(state)
    node = _search(tables, state.rules.players)
    return _final(taken_points, node(*args, None))
