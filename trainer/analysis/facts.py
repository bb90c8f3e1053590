"""The learner's own facts, checked one field at a time before any deal is tried: the table and its
rules, the cards (in play, not twice, as many as the table deals), the passes, the tricks' sizes,
who leads each trick and whose turn it is. Each refusal is one line naming its field.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Card, PassDirection, Rules
from engine.cards import iter_mask
from engine.excerpt import excerpt
from engine.kernel import trick_winner
from engine.rules import MoonRule

from ..seats import seat_names
from .errors import PositionError

__all__ = ["SCORE_LIMIT", "Play", "check_fields", "check_leaders", "first_leader", "known", "word"]

SCORE_LIMIT = 1000
"""Scores a game may show (well beyond any target)."""


@dataclass(frozen=True)
class Play:
    """One card of the tricks: where, by whom (seats numbered from the learner)."""

    trick: int
    """1-based, as the learner counts tricks."""
    index: int
    """Position in the trick."""
    seat: int
    card: Card
    order: int
    """Cards played before it in the hand."""


def _cards(value: object, where: str, rules: Rules) -> tuple[Card, ...]:
    if not isinstance(value, tuple):
        raise PositionError(where, f"expected a list of cards, got {excerpt(value, 40)}")
    for card in value:
        if type(card) is not Card:
            raise PositionError(where, f"{excerpt(card, 30)} is not a card")
        if not rules.deck_mask >> card & 1:
            raise PositionError(
                where,
                f"the {card} is not in play at a table of {rules.players} (removed so hands are equal)",
            )
    return value


def _mask(cards: tuple[Card, ...], where: str, what: str = "") -> int:
    mask = 0
    for card in cards:
        if mask >> card & 1:
            raise PositionError(where, f"the {card} is listed twice{what}")
        mask |= 1 << card
    return mask


def below_zero(rules: Rules) -> bool:
    """Whether a game's total can fall below 0: only a hand that takes points away does it (a
    moon taken off the shooter, a negative J♦ or a bonus for no tricks)."""
    takes_away = rules.moon in (MoonRule.SUBTRACT_FROM_SHOOTER, MoonRule.SHOOTERS_CHOICE)
    return takes_away or rules.jack_of_diamonds_points < 0 or rules.no_tricks_bonus < 0


def check_fields(pos) -> Rules:
    if type(pos.players) is not int or not 3 <= pos.players <= 7:
        raise PositionError("players", f"Hearts is played by 3 to 7, not {excerpt(pos.players, 30)}")
    rules = pos.rules
    if pos.moment not in ("pass", "play"):
        raise PositionError("moment", f"{excerpt(pos.moment, 30)} is neither 'pass' nor 'play'")
    if not isinstance(pos.direction, PassDirection):
        raise PositionError("direction", f"{excerpt(pos.direction, 30)} is not left, right, across or hold")
    if pos.direction not in rules.pass_cycle:
        cycle = ", ".join(direction.value for direction in rules.pass_cycle)
        raise PositionError(
            "direction", f"{pos.direction.value} is not a pass of this table (it passes: {cycle})"
        )
    scores = pos.scores
    if not isinstance(scores, tuple) or len(scores) != pos.players:
        raise PositionError("scores", f"give one score a seat ({pos.players}), not {excerpt(scores, 40)}")
    names = seat_names(pos.players)
    for seat, score in enumerate(scores):
        if type(score) is not int or not -SCORE_LIMIT < score < SCORE_LIMIT:
            raise PositionError("scores", f"{names[seat]}: {excerpt(score, 30)} is not a game's score")
        has = "You have" if seat == 0 else f"{names[seat]} has"
        if score >= rules.target and rules.ties.value == "shared":
            ended = f"the game ended at {rules.target}, before this hand"
            raise PositionError("scores", f"{has} {score}: {ended}")
        if score < 0 and not below_zero(rules):
            never = "under these rules no hand takes points away, so no total is below 0"
            raise PositionError("scores", f"{has} {score}: {never}")
    if not isinstance(pos.tricks, tuple):
        raise PositionError("tricks", f"expected a list of tricks, got {excerpt(pos.tricks, 40)}")
    return rules


def known(pos, rules: Rules):
    """The learner's facts, checked: (hand, passed, received, plays)."""
    players, size = rules.players, rules.hand_size
    hand = _mask(_cards(pos.hand, "hand", rules), "hand")
    passed = _mask(_cards(pos.passed, "passed", rules), "passed")
    received = _mask(_cards(pos.received, "received", rules), "received")
    if pos.moment == "pass":
        for name in ("passed", "received"):
            if getattr(pos, name):
                raise PositionError(name, "at the pass no card has been passed yet")
        if pos.tricks:
            raise PositionError("tricks", "at the pass no card has been played yet")
        if pos.direction is PassDirection.HOLD:
            raise PositionError("direction", "a hold hand has no pass: set up a play instead")
        if len(pos.hand) != size:
            raise PositionError(
                "hand", f"{len(pos.hand)} cards: at the pass you hold the {size} dealt ({players} players)"
            )
        return hand, 0, 0, []
    count = rules.pass_count if pos.direction is not PassDirection.HOLD else 0
    for name, cards in (("passed", pos.passed), ("received", pos.received)):
        if len(cards) != count:
            said = f"a {pos.direction.value} hand passes {count}" if count else "a hold hand passes none"
            raise PositionError(name, f"{len(cards)} cards: {said}")
    if len(pos.tricks) > size:
        raise PositionError("tricks", f"{len(pos.tricks)} tricks: a hand of {players} players has {size}")
    plays: list[Play] = []
    seen: dict[int, int] = {}
    order = 0
    for number, trick in enumerate(pos.tricks, start=1):
        where = f"trick {number}"
        if not hasattr(trick, "leader") or not hasattr(trick, "cards"):
            raise PositionError(where, f"expected a trick (a leader and cards), got {excerpt(trick, 40)}")
        if type(trick.leader) is not int or not 0 <= trick.leader < players:
            raise PositionError(where, f"{excerpt(trick.leader, 20)} is not a seat at a table of {players}")
        cards = _cards(trick.cards, where, rules)
        last = number == len(pos.tricks)
        if not 0 < len(cards) <= players or (not last and len(cards) != players):
            need = f"1 to {players} cards" if last else f"{players} cards (only the last may be unfinished)"
            raise PositionError(where, f"{len(cards)} cards: a trick has {need}")
        for index, card in enumerate(cards):
            if card in seen:
                raise PositionError(where, f"the {card} was played already, in trick {seen[card]}")
            if hand >> card & 1:
                raise PositionError(where, f"the {card} is played here and still in your hand")
            seen[card] = number
            plays.append(Play(number, index, (trick.leader + index) % players, card, order))
            order += 1
    mine = sum(1 << play.card for play in plays if play.seat == 0)
    played_by_me = mine.bit_count()
    if len(pos.hand) != size - played_by_me:
        raise PositionError(
            "hand",
            f"{len(pos.hand)} cards: you were dealt {size} and played {played_by_me}, "
            f"so you hold {size - played_by_me}",
        )
    after_pass = hand | mine
    if passed & after_pass:
        card = next(iter_mask(passed & after_pass))
        where = "be in your hand" if hand >> card & 1 else f"have been your play in trick {seen[card]}"
        raise PositionError("passed", f"you passed the {card}, so it cannot {where}")
    if received & ~after_pass:
        card = next(iter_mask(received & ~after_pass))
        raise PositionError("received", f"the {card} is neither in your hand nor among your plays")
    if passed:
        target = pos.direction.offset(players)
        names = seat_names(players)
        for play in plays:
            if passed >> play.card & 1 and play.seat != target:
                raise PositionError(
                    "passed",
                    f"you passed the {play.card} to {names[target]}, but {names[play.seat]} played it "
                    f"in trick {play.trick}",
                )
    return hand, passed, received, plays


def first_leader(pos, rules: Rules, hand: int, passed: int, plays: list[Play]) -> int:
    """The seat that leads the first trick: the lowest club's holder after the pass."""
    lowest = rules.lowest_club
    names = seat_names(rules.players)
    holder = None
    if hand >> lowest & 1 or any(play.card == lowest and play.seat == 0 for play in plays):
        holder = 0
    elif passed >> lowest & 1:
        holder = pos.direction.offset(rules.players)
    else:
        holder = next((play.seat for play in plays if play.card == lowest), None)
    if not pos.tricks:
        if holder != 0:
            raise PositionError(
                "tricks",
                f"no card is played yet, so the {lowest}'s holder leads, and you do not hold it",
            )
        return 0
    leader = pos.tricks[0].leader
    if holder is not None and holder != leader:
        who = "you" if holder == 0 else names[holder]
        raise PositionError(
            "trick 1",
            f"led by {names[leader]}, but {who} held the {lowest}, and its holder leads the first trick",
        )
    return leader


def word(names: tuple[str, ...], seat: int) -> str:
    """A seat's name inside a sentence ("you" for the learner)."""
    return "you" if seat == 0 else names[seat]


def check_leaders(pos, players: int) -> None:
    """Each trick led by the winner of the one before, and the learner to play now."""
    names = seat_names(players)
    leader = None
    for number, trick in enumerate(pos.tricks, start=1):
        if leader is not None and trick.leader != leader:
            raise PositionError(
                f"trick {number}",
                f"led by {names[trick.leader]}, but {word(names, leader)} won trick {number - 1} and lead"
                f"{'' if leader == 0 else 's'} next",
            )
        leader = trick_winner(trick.cards, trick.leader, players)[0]
    if pos.tricks:
        last = pos.tricks[-1]
        complete = len(last.cards) == players
        to_play = leader if complete else (last.leader + len(last.cards)) % players
        if to_play != 0:
            said = f"{names[to_play]} won it and leads next" if complete else f"{names[to_play]} plays next"
            raise PositionError(
                f"trick {len(pos.tricks)}", f"{said}, not you: the board analyses your decisions"
            )
        if complete and len(pos.tricks) == pos.rules.hand_size:
            raise PositionError(
                f"trick {len(pos.tricks)}", "every trick has been played: no decision is left"
            )
