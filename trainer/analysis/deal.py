"""From what the learner knows to a whole hand the engine has played: the check of a position.

After the learner's own facts (``trainer.analysis.facts``), every card played is judged by the
engine's own rule (``HandState.why_not_play``) on the least the seat could have held then (the
card, the cards it plays later, the cards the learner passed it). Holding more only forbids more
(each rule reads "if you hold a card of this kind, you must play one"), so a play refused there is
impossible on every deal, and a hidden card may go to a seat exactly when no play of that seat is
refused with it added.

The hidden cards are then dealt to the other seats within those limits (a matching: a seat
takes as many cards as it holds now), the other seats' passes chosen among what they hold, and
the whole hand replayed through the engine's actions. No deal: the line says which seats cannot
be given enough cards, and the tricks that showed why.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine import CARDS, CardSet, HandState, PassDirection, Rules
from engine.cards import SUIT_MASKS, Suit, iter_mask
from engine.kernel import breaks_hearts, legal_mask, trick_winner

from ..seats import seat_names
from .errors import PositionError
from .facts import Play, check_fields, check_leaders, first_leader, known

__all__ = ["build"]


def _why_not(rules: Rules, pos, play: Play, holding: int, plays: list[Play]) -> str | None:
    """The engine's refusal of ``play`` by a seat holding ``holding`` then, or None."""
    players = rules.players
    tricks = []
    for number, trick in enumerate(pos.tricks[: play.trick - 1], start=1):
        del number
        tricks.append((trick.leader, tuple(trick.cards), trick_winner(trick.cards, trick.leader, players)[0]))
    current = pos.tricks[play.trick - 1]
    before = sum(1 << other.card for other in plays[: play.order])
    hands = [0] * players
    hands[play.seat] = holding
    state = HandState.imagined(
        rules,
        hands,
        tricks,
        tuple(current.cards[: play.index]),
        current.leader,
        breaks_hearts(before, rules.play_rules.queen_breaks),
    )
    refusal = state.why_not_play(play.card)
    return None if refusal is None else str(refusal)


def _allowed(rules: Rules, pos, play: Play, holding: int, plays: list[Play]) -> bool:
    """Whether the rules let the seat play ``play.card`` holding ``holding`` (the kernel's rule:
    the same as ``_why_not``, without building a hand)."""
    current = pos.tricks[play.trick - 1]
    led = current.cards[0] // 13 if play.index else -1
    before = sum(1 << other.card for other in plays[: play.order])
    broken = breaks_hearts(before, rules.play_rules.queen_breaks)
    return bool(legal_mask(holding, led, play.trick == 1, broken, rules.play_rules) >> play.card & 1)


def _witness(rules, pos, play: Play, least: int, plays: list[Play], name: str, said: dict[int, str]) -> str:
    """Which card the seat must have held that forbids the play: ' (Left still held the 5♣,
    played in trick 6)'."""
    for card in iter_mask(least & ~(1 << play.card)):
        if not _allowed(rules, pos, play, (1 << play.card) | (1 << card), plays):
            return f" ({name} still held the {CARDS[card]}, {said[card]})"
    return ""


def _limits(pos, rules: Rules, hand: int, passed: int, plays: list[Play], leader: int):
    """Check every play; return each other seat's cards known to be held now (``fixed``), its
    cards played, and the hidden cards it may hold (``allowed``)."""
    players = rules.players
    names = seat_names(players)
    target = pos.direction.offset(players) if passed else None
    played = sum(1 << play.card for play in plays)
    fixed = [0] * players
    said: dict[int, str] = {}
    if target is not None:
        fixed[target] = passed & ~played
        for card in iter_mask(fixed[target]):
            said[card] = "which you passed"
    lowest = rules.lowest_club
    hidden = rules.deck_mask & ~hand & ~played & ~passed
    if pos.tricks and hidden >> lowest & 1:
        fixed[leader] |= 1 << lowest  # the first trick's leader held the lowest club
        said[lowest] = "as the first trick's leader"
        hidden &= ~(1 << lowest)
    for play in plays:
        said[play.card] = f"played in trick {play.trick}"
    allowed = [0] * players
    mine = hand
    for play in reversed(plays):  # the learner's hand then: the cards now and those played after
        if play.seat == 0:
            mine |= 1 << play.card
    for play in plays:
        if play.seat == 0:
            refusal = _why_not(rules, pos, play, mine, plays)
            if refusal:
                raise PositionError(
                    f"trick {play.trick}", f"you could not have played the {play.card}: {refusal}"
                )
            mine &= ~(1 << play.card)
            continue
        least = fixed[play.seat] | sum(
            1 << later.card for later in plays[play.order :] if later.seat == play.seat
        )
        refusal = _why_not(rules, pos, play, least, plays)
        if refusal:
            witness = _witness(rules, pos, play, least, plays, names[play.seat], said)
            raise PositionError(
                f"trick {play.trick}",
                f"{names[play.seat]} could not have played the {play.card}{witness}: "
                f"the engine says “{refusal}”",
            )
    for seat in range(1, players):
        own = [play for play in plays if play.seat == seat]
        free = 0
        for card in iter_mask(hidden):
            if all(
                _allowed(
                    rules,
                    pos,
                    play,
                    fixed[seat]
                    | (1 << card)
                    | sum(1 << later.card for later in own if later.order >= play.order),
                    plays,
                )
                for play in own
            ):
                free |= 1 << card
        allowed[seat] = free
    counts = [rules.hand_size - sum(1 for play in plays if play.seat == seat) for seat in range(players)]
    for seat in range(1, players):
        if fixed[seat].bit_count() > counts[seat]:
            raise PositionError(
                "passed",
                f"{names[seat]} holds {counts[seat]} cards now, fewer than the cards you passed "
                f"that are still unplayed ({CardSet(fixed[seat] & passed)})",
            )
    need = [counts[seat] - fixed[seat].bit_count() for seat in range(players)]
    need[0] = 0
    return fixed, need, allowed, hidden


def _match(hidden: int, need: list[int], allowed: list[int], rng: random.Random | None) -> list[int] | None:
    """Each hidden card given to one seat that may hold it, each seat given ``need`` cards; None
    when no such deal exists (Kuhn's matching of cards to the seats' places). With ``rng``, the
    cards and places are tried in a random order."""
    cards = list(iter_mask(hidden))
    places = [seat for seat, count in enumerate(need) for _ in range(count)]
    if len(cards) != len(places):
        return None
    if rng is not None:
        rng.shuffle(cards)
        rng.shuffle(places)
    taken: list[int | None] = [None] * len(places)

    def place(card: int, tried: set[int]) -> bool:
        for index, seat in enumerate(places):
            if index in tried or not allowed[seat] >> card & 1:
                continue
            tried.add(index)
            if taken[index] is None or place(taken[index], tried):
                taken[index] = card
                return True
        return False

    for card in cards:
        if not place(card, set()):
            return None
    hands = [0] * len(need)
    for index, card in enumerate(taken):
        hands[places[index]] |= 1 << card
    return hands


def _no_deal(
    rules: Rules, need: list[int], allowed: list[int], hidden: int, plays: list[Play]
) -> PositionError:
    """Which seats cannot all be given their cards, and the tricks that showed why."""
    names = seat_names(rules.players)
    others = [seat for seat in range(1, rules.players) if need[seat]]
    for size in range(1, len(others) + 1):
        for group in combinations(others, size):
            wanted = sum(need[seat] for seat in group)
            room = 0
            for seat in group:
                room |= allowed[seat]
            room &= hidden
            if room.bit_count() < wanted:
                shown = sorted({play.trick for play in plays if play.seat in group and _showed(play, plays)})
                who = " and ".join(names[seat] for seat in group)
                missing = [
                    suit.symbol for suit in Suit if hidden & SUIT_MASKS[suit] and not room & SUIT_MASKS[suit]
                ]
                why = f"; none of the unseen {' '.join(missing)}" if missing else ""
                tricks = ""
                if shown:
                    several = len(shown) > 1
                    numbers = ", ".join(map(str, shown))
                    tricks = f" (as tricks {numbers} show)" if several else f" (as trick {numbers} shows)"
                return PositionError(
                    "tricks",
                    f"no deal fits: {who} hold{'s' if size == 1 else ''} {wanted} cards now, but only "
                    f"{room.bit_count()} of the unseen cards can be theirs{why}{tricks}",
                )
    return PositionError("tricks", "no deal of the unseen cards fits these tricks")


def _showed(play: Play, plays: list[Play]) -> bool:
    """A play that tells something of the seat's hand: a card off the led suit, or a lead."""
    if play.index == 0:
        return play.trick > 1  # the first lead is the rule's, not a choice
    led = next(other for other in plays if other.trick == play.trick and other.index == 0)
    return play.card.suit != led.card.suit


def _passes(pos, rules: Rules, after: list[int], passed: int, received: int, rng: random.Random) -> list[int]:
    """Every seat's pass: the learner's and the one they received as given, the others' drawn
    from what their receiver holds after the exchange."""
    players, count = rules.players, rules.pass_count
    offset = pos.direction.offset(players)
    passes = [0] * players
    for seat in range(players):
        receiver = (seat + offset) % players
        if seat == 0:
            passes[seat] = passed
        elif receiver == 0:
            passes[seat] = received
        else:
            cards = list(iter_mask(after[receiver]))
            passes[seat] = sum(1 << card for card in rng.sample(cards, count))
    return passes


def build(pos, seed: int | None = None) -> HandState:
    """The hand at the learner's decision, every card dealt, replayed through the engine; raises
    ``PositionError`` when no deal makes the position happen. ``seed`` None: the first deal
    found (the check); else a deal drawn from it."""
    rules = check_fields(pos)
    players = rules.players
    hand, passed, received, plays = known(pos, rules)
    rng = random.Random(0 if seed is None else seed)
    if pos.moment == "pass":
        rest = list(iter_mask(rules.deck_mask & ~hand))
        if seed is not None:
            rng.shuffle(rest)
        size = rules.hand_size
        dealt = [hand] + [
            sum(1 << card for card in rest[i * size : (i + 1) * size]) for i in range(players - 1)
        ]
        return HandState(rules, dealt, pos.direction)
    leader = first_leader(pos, rules, hand, passed, plays)
    check_leaders(pos, players)
    fixed, need, allowed, hidden = _limits(pos, rules, hand, passed, plays, leader)
    hands = _match(hidden, need, allowed, rng if seed is not None else None)
    if hands is None:
        raise _no_deal(rules, need, allowed, hidden, plays)
    after = [hands[seat] | fixed[seat] for seat in range(players)]
    after[0] = hand
    for play in plays:
        after[play.seat] |= 1 << play.card
    passes = [0] * players
    dealt = list(after)
    if pos.direction is not PassDirection.HOLD and rules.pass_count:
        passes = _passes(pos, rules, after, passed, received, rng)
        offset = pos.direction.offset(players)
        dealt = [(after[seat] & ~passes[(seat - offset) % players]) | passes[seat] for seat in range(players)]
    return _replay(pos, rules, dealt, passes, plays)


def _replay(pos, rules: Rules, dealt: list[int], passes: list[int], plays: list[Play]) -> HandState:
    """The deal played through the engine's actions: any refusal is the engine's, said plainly."""
    names = seat_names(rules.players)
    state = HandState(rules, dealt, pos.direction)
    if state.seats_to_pass:
        for seat in range(rules.players):
            if refusal := state.why_not_pass(seat, CardSet(passes[seat])):
                raise PositionError("passed", f"{names[seat]} could not have passed: {refusal}")
            state.pass_cards(seat, CardSet(passes[seat]))
    for play in plays:
        if state.to_move != play.seat:
            raise PositionError(
                f"trick {play.trick}",
                f"{names[play.seat]} plays the {play.card}, but it is {names[state.to_move]}'s turn",
            )
        if refusal := state.why_not_play(play.card):
            raise PositionError(
                f"trick {play.trick}", f"{names[play.seat]} could not have played the {play.card}: {refusal}"
            )
        state.play(play.card)
    return state
