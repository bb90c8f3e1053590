"""What a step's text says about its table, as facts the tests check against the position.

A step's prose ("Left led the 9♦, Across played the J♦; you hold the A♦...") is a claim about
the table under it. Each step lists those claims in ``Step.facts``, one short line each, and
``fact_problems`` checks them against the position the step sets up (under every variant), so
a text and a table cannot drift apart unnoticed. Seats are named as the table names them
(``trainer.seats``: ``you``, ``Left``, ``Across``, ``Right``, ``Far left``... by table size, or
``seat N``); cards as codes.

- ``turn: Left`` whose turn it is (``turn: nobody`` once the hand is over)
- ``phase: passing`` the hand's phase (``passing``, ``playing``, ``moon_choice``, ``done``)
- ``trick: 9D JD QS`` the cards on the table, in the order played (``trick: none``)
- ``leader: Left`` who led the trick on the table
- ``holds: you QS 5S`` / ``lacks: you 2C`` cards in (or not in) a seat's hand
- ``hand: you QS 5S ...`` a seat's whole hand
- ``void: Right D`` a seat holds no card of a suit
- ``won: Across QS 9H`` cards a seat has taken in its tricks
- ``points: Across 22`` points a seat has taken in this hand
- ``tricks: 3`` tricks finished in this hand
- ``broken: yes`` hearts broken (``no``)
- ``totals: 71 104 71 90`` the game's totals on the score table, learner first
- ``result: 26 0 0 0`` the finished hand's scores
- ``received: 5C 9D QH`` the cards the learner received in the pass
- ``moon: Across`` the one seat that has taken every point card so far (``moon: nobody``)
- ``cards: you 13`` how many cards a seat holds
- ``suit: you 4S QS`` a seat's whole holding in that suit
- ``took: you QS KS JD AH 10H`` the cards a seat has taken that score under some rule (hearts,
  the Q♠, K♠, A♠ and J♦), all of them
- ``tricks_won: Left 12`` how many tricks a seat has won
- ``played: QS`` / ``out: QS`` cards already played (or not yet)
- ``pass: hold`` the hand's pass direction
- ``hand_number: 4`` the hand's number in the game (the score table's rows before it, plus one)
- ``players: 5`` how many seats the table has
- ``last_trick: 3S 2H 2S 4S`` what **Last trick** shows: the last finished trick, in play order
- ``beats: you KH`` the seat may play that card now and it beats every card on the table
- ``totals_after: 64 101 58 89`` the totals once the rest of the hand is played, every card
  forced (the learner's last card, say)
- ``result_after: 1 25 0 0`` the hand's scores once the rest of it is played, every card forced
- ``winners: Across`` the game's winners as the table announces them (``winners: none``)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import HandState, Suit, parse_cards, to_card, winners_if_over
from engine.moon import moon_candidate, moon_cards

from ..seats import seat_called, seat_names

__all__ = ["FACT_KINDS", "fact_problems", "seat_named"]

FACT_KINDS = (
    "turn",
    "phase",
    "trick",
    "leader",
    "holds",
    "lacks",
    "hand",
    "void",
    "won",
    "points",
    "tricks",
    "broken",
    "totals",
    "result",
    "received",
    "moon",
    "cards",
    "suit",
    "took",
    "tricks_won",
    "played",
    "out",
    "pass",
    "hand_number",
    "players",
    "last_trick",
    "beats",
    "totals_after",
    "result_after",
    "winners",
)
_SCORING = "QS KS AS JD 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
_SUITS = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "S": Suit.SPADES, "H": Suit.HEARTS}


def seat_named(name: str, players: int) -> int:
    """The seat a step's text calls ``name``."""
    seat = seat_called(name, players)
    if seat is not None:
        return seat
    if name.startswith("seat ") and name[5:].isdigit() and int(name[5:]) < players:
        return int(name[5:])
    raise ValueError(f"no seat called {name!r} at a table of {players}")


def _seat_and_rest(text: str, players: int) -> tuple[int, str]:
    for name in sorted(
        ("you", *seat_names(players)[1:], *(f"seat {s}" for s in range(players))), key=len, reverse=True
    ):
        if text == name or text.startswith(name + " "):
            return seat_named(name, players), text[len(name) :].strip()
    raise ValueError(f"{text!r} does not start with a seat name")


def _codes(cards: Iterable) -> list[str]:
    return [card.code for card in cards]


def _cards(text: str) -> list[str]:
    return [] if text in ("", "none") else [card.code for card in parse_cards(text.split())]


def _taken(state: HandState) -> list[int]:
    taken = [0] * state.players
    for trick in state.tricks:
        for card in trick.cards:
            taken[trick.winner] |= 1 << int(card)
    return taken


def _check(state: HandState, score_rows: Sequence[Sequence[int]], kind: str, value: str) -> str | None:
    """None when the fact holds, else what the table shows instead."""
    players = state.players
    if kind == "turn":
        if value == "nobody":
            return None if state.to_move is None else f"it is seat {state.to_move}'s turn"
        seat = seat_named(value, players)
        return None if state.to_move == seat else f"the turn is seat {state.to_move}'s"
    if kind == "phase":
        return None if state.phase.value == value else f"the phase is {state.phase.value}"
    if kind == "trick":
        shown = _codes(state.current_trick.cards)
        return None if shown == _cards(value) else f"the trick on the table is {' '.join(shown) or 'none'}"
    if kind == "leader":
        leader = state.current_trick.leader if state.current_trick.cards else None
        return None if leader == seat_named(value, players) else f"the trick was led by seat {leader}"
    if kind in ("holds", "lacks", "hand"):
        seat, rest = _seat_and_rest(value, players)
        held = set(_codes(state.hand(seat)))
        wanted = set(_cards(rest))
        if kind == "holds" and not wanted <= held:
            return f"seat {seat} does not hold {' '.join(sorted(wanted - held))}"
        if kind == "lacks" and wanted & held:
            return f"seat {seat} holds {' '.join(sorted(wanted & held))}"
        if kind == "hand" and wanted != held:
            return f"seat {seat} holds {' '.join(sorted(held))}"
        return None
    if kind == "void":
        seat, suit = _seat_and_rest(value, players)
        held = [card.code for card in state.hand(seat) if card.suit is _SUITS[suit]]
        return None if not held else f"seat {seat} holds {' '.join(held)}"
    if kind == "won":
        seat, rest = _seat_and_rest(value, players)
        taken = _taken(state)[seat]
        missing = [code for code in _cards(rest) if not taken >> int(parse_cards([code])[0]) & 1]
        return None if not missing else f"seat {seat} has not taken {' '.join(missing)}"
    if kind == "points":
        seat, rest = _seat_and_rest(value, players)
        points = state.points_taken[seat]
        return None if points == int(rest) else f"seat {seat} has taken {points} points"
    if kind == "tricks":
        return None if len(state.tricks) == int(value) else f"{len(state.tricks)} tricks are finished"
    if kind == "broken":
        broken = "yes" if state.hearts_broken else "no"
        return None if broken == value else f"hearts broken: {broken}"
    if kind == "totals":
        totals = _totals(state, score_rows)
        return None if totals == [int(x) for x in value.split()] else f"the totals are {totals}"
    if kind == "result":
        result = list(state.result.scores) if state.result is not None else None
        return None if result == [int(x) for x in value.split()] else f"the hand's result is {result}"
    if kind == "received":
        received = sorted(_codes(state.received(0) or ()))
        return (
            None if received == sorted(_cards(value)) else f"you received {' '.join(received) or 'nothing'}"
        )
    if kind == "moon":
        runner, _ = moon_candidate(_taken(state), moon_cards(state.rules))
        if value == "nobody":
            return None if runner < 0 else f"seat {runner} has taken every point card so far"
        return None if runner == seat_named(value, players) else f"the moon runner is {runner}"
    if kind == "cards":
        seat, rest = _seat_and_rest(value, players)
        count = len(state.hand(seat))
        return None if count == int(rest) else f"seat {seat} holds {count} cards"
    if kind == "suit":
        seat, rest = _seat_and_rest(value, players)
        wanted = _cards(rest)
        suits = {code[-1] for code in wanted}
        if len(suits) != 1:
            raise ValueError(f"fact 'suit: {value}': name cards of one suit")
        held = sorted(code for code in _codes(state.hand(seat)) if code[-1] in suits)
        return (
            None if held == sorted(wanted) else f"seat {seat} holds {' '.join(held) or 'none'} in that suit"
        )
    if kind == "took":
        seat, rest = _seat_and_rest(value, players)
        took = taken_codes(state, seat) & set(_SCORING.split())
        return None if took == set(_cards(rest)) else f"seat {seat} took {' '.join(sorted(took))}"
    if kind == "tricks_won":
        seat, rest = _seat_and_rest(value, players)
        won = sum(1 for trick in state.tricks if trick.winner == seat)
        return None if won == int(rest) else f"seat {seat} won {won} tricks"
    if kind in ("played", "out"):
        played = {card.code for trick in state.tricks for card in trick.cards} | set(
            _codes(state.current_trick.cards)
        )
        cards = set(_cards(value))
        wrong = cards - played if kind == "played" else cards & played
        return None if not wrong else f"{' '.join(sorted(wrong))} {'not ' if kind == 'played' else ''}played"
    if kind == "pass":
        direction = state.pass_direction.value
        return None if direction == value else f"the hand passes {direction}"
    if kind == "hand_number":
        number = len(score_rows) + 1
        return None if number == int(value) else f"the table shows hand {number}"
    return _check_table(state, score_rows, kind, value)


def _totals(state: HandState, score_rows: Sequence[Sequence[int]]) -> list[int]:
    totals = [sum(row[seat] for row in score_rows) for seat in range(state.players)]
    if state.result is not None:
        totals = [t + p for t, p in zip(totals, state.result.scores, strict=True)]
    return totals


def played_out_forced(state: HandState) -> HandState:
    """The hand played to its end when every card left is forced (one legal card each time)."""
    state = state.copy()
    while state.phase.value == "playing":
        legal = list(state.legal_cards())
        if len(legal) != 1:
            raise ValueError(
                f"the rest of the hand is not forced: seat {state.to_move} may play {len(legal)} cards"
            )
        state.play(legal[0])
    return state


def _check_table(state: HandState, score_rows: Sequence[Sequence[int]], kind: str, value: str) -> str | None:
    """The facts about what the table draws around the hand: its seats, Last trick, the end."""
    players = state.players
    if kind == "players":
        return None if players == int(value) else f"the table seats {players}"
    if kind == "last_trick":
        shown = _codes(state.tricks[-1].cards) if state.tricks else []
        return None if shown == _cards(value) else f"Last trick shows {' '.join(shown) or 'nothing'}"
    if kind == "beats":
        seat, rest = _seat_and_rest(value, players)
        card = to_card(rest)
        if state.to_move != seat or state.why_not_play(card, seat) is not None:
            return f"seat {seat} cannot play the {card} now"
        trick = state.current_trick
        led = trick.led_suit or card.suit
        beaten = all(c.suit is not led or c.rank < card.rank for c in trick.cards) and card.suit is led
        return None if beaten else f"the {card} does not beat the trick on the table"
    if kind == "totals_after":
        totals = _totals(played_out_forced(state), score_rows)
        return None if totals == [int(x) for x in value.split()] else f"the totals will be {totals}"
    if kind == "result_after":
        result = list(played_out_forced(state).result.scores)
        return None if result == [int(x) for x in value.split()] else f"the hand will score {result}"
    if kind == "winners":
        winners = winners_if_over(state.rules, tuple(_totals(state, score_rows))) if state.is_over else ()
        named = [seat_named(name, players) for name in value.split()] if value != "none" else []
        return None if list(winners) == named else f"the table announces winners {list(winners) or 'none'}"
    raise ValueError(f"unknown fact {kind!r}: use one of {', '.join(FACT_KINDS)}")


def taken_codes(state: HandState, seat: int) -> set[str]:
    """The cards ``seat`` has taken in its tricks."""
    return {card.code for trick in state.tricks if trick.winner == seat for card in trick.cards}


def fact_problems(state: HandState, score_rows: Sequence[Sequence[int]], facts: Iterable[str]) -> list[str]:
    """Every fact that the position does not bear out, with what the table shows instead."""
    problems = []
    for fact in facts:
        kind, sep, value = fact.partition(":")
        if not sep:
            raise ValueError(f"fact {fact!r}: write it as 'kind: value'")
        wrong = _check(state, score_rows, kind.strip(), value.strip())
        if wrong:
            problems.append(f"{fact!r}: {wrong}")
    return problems
