"""What the browser draws: a plain-JSON picture of the table as the learner may see it.

The learner's own cards carry the engine's verdict (legal or not, and why not), so the
browser can fade and explain without deciding anything itself. Other seats' cards are
sent only for seats a lesson has opened.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from engine import Phase, to_card
from engine.bots.ladder import level_keys

from ..browser import IN_BROWSER
from ..seats import YOU, seat_names
from .session import Event, TableSession

CONCEALABLE = frozenset({"points", "pass"})
"""What a table can keep back while a lesson question asks for it: the seats' points and the pass
direction (its badge and its Pass button)."""

__all__ = ["REVIEW_LABEL", "announce", "snapshot"]

REVIEW_LABEL = (
    "Your review: this game in its charts →" if IN_BROWSER else "Review this game, decision by decision →"
)
"""The game-over box's link (``review_href``): the static site's review page has a game in its
charts only (a review decision by decision needs the coach's full depth, installed)."""


def _card(code: str) -> dict[str, str]:
    card = to_card(code)
    return {"code": card.code, "name": card.name, "symbol": card.symbol}


def _hand_cards(session: TableSession, my_turn: bool) -> list[dict[str, object]]:
    hand = session.hand
    seat = session.seat
    received = hand.received(seat) if hand.is_first_trick else None
    passed = _passed_waiting(session)
    cards = []
    for card in hand.hand(seat):
        entry: dict[str, object] = _card(card.code)
        refusal = hand.why_not_play(card, seat) if my_turn else None
        entry["legal"] = my_turn and refusal is None
        entry["why"] = refusal.message if refusal else None
        entry["received"] = bool(received) and card in received
        entry["passed"] = bool(passed) and card in passed
        cards.append(entry)
    return cards


def _passed_waiting(session: TableSession):
    """The cards the learner passed while the others still choose theirs: still in the hand
    until the exchange, so they are marked (else a slow table hides what was passed)."""
    hand = session.hand
    if hand.phase is not Phase.PASSING or session.seat in hand.seats_to_pass:
        return None
    return hand.passed(session.seat)


def _status(
    session: TableSession, names: Sequence[str], still: str | None = None, decided: bool = False
) -> str:
    hand = session.hand
    thinking = None if still is not None else session.bot_to_act
    if still is not None and decided:
        return still  # the learner's one decision is made: nothing more happens at this table
    if hand.phase is Phase.PASSING and session.seat in hand.seats_to_pass:
        target = names[hand.pass_target(session.seat)]
        return f"Choose {session.rules.pass_count} cards to pass to {target}."
    if still is not None and session.bot_to_act is not None:
        return still  # the bots will not move: "Left to play." would say they will
    if hand.phase is Phase.PASSING:
        if thinking is not None:
            return f"Waiting for the others to pass: {names[thinking]} is thinking…"
        passed = _passed_waiting(session)
        if passed:
            cards = [f"the {card}" for card in passed]
            listed = ", ".join(cards[:-1]) + " and " + cards[-1] if len(cards) > 1 else cards[0]
            target = names[hand.pass_target(session.seat)]
            return f"You passed {listed} to {target}. Waiting for the others to pass."
        return "Waiting for the others to pass."
    if hand.phase is Phase.DONE:
        if session.winners:
            return "Game over: " + " and ".join(names[s] for s in session.winners) + " won."
        return "Hand over. Press N or New hand for the next one."
    if hand.to_move == session.seat:
        return (
            "Your moon: add it to the others or subtract it from you."
            if hand.phase is Phase.MOON_CHOICE
            else ("Your turn: play a highlighted card.")
        )
    if thinking is not None:
        return f"{names[thinking]} is thinking…"
    return f"{names[hand.to_move]} to play."


def bot_label(name: str) -> str:
    """How a seat's bot is named under it: its level ("easy"), a career level's key in words
    ("level 3", "master")."""
    return name.replace("-", " ") if name in level_keys() else name


def snapshot(
    session: TableSession,
    open_seats: Iterable[int] = (),
    levels: list[str] | None = None,
    still: str | None = None,
    decided: bool = False,
    concealed: Collection[str] = (),
    names: Sequence[str] | None = None,
) -> dict:
    """The table as the page draws it. ``still``: the status line while the bots are to act but
    will not (a table that stops after the learner's decision, as a puzzle's does), and once
    the learner has ``decided`` (then it is not their turn either, even if their card won the
    trick: the position is answered). ``names``: the seats' names (by default "You" and where
    the others sit; a room's table names its people). ``thinking``: the bot seat whose
    decision comes next (the widget always has one on its way while a bot is to act, unless
    the table is still)."""
    hand = session.hand
    players = hand.players
    names = names or seat_names(players, session.seat)
    my_turn = hand.phase is Phase.PLAYING and hand.to_move == session.seat and not decided
    opened = set(open_seats)
    seats = []
    for seat in range(players):
        cards = hand.hand(seat)
        seats.append({
            "seat": seat,
            "name": names[seat],
            "count": len(cards),
            "cards": [c.code for c in cards] if seat in opened and seat != session.seat else None,
            "points": None if "points" in concealed else hand.points_taken[seat],
            "tricks": hand.tricks_won[seat],
            "bot": None if seat == session.seat else ((bot_label(levels[seat]) or None) if levels else "bot"),
        })  # fmt: skip
    trick = hand.current_trick
    last = hand.tricks[-1] if hand.tricks else None
    result = hand.result
    return {
        "players": players,
        "deal": f"{session.game_key}:{session.hand_index}:{session.game.redeals}",
        "seat": session.seat,
        "hand_number": None if session.totals_carried else session.hand_index + 1,  # None: not known
        "totals_carried": session.totals_carried,
        "phase": hand.phase.value,
        "pass_direction": None if "pass" in concealed else hand.pass_direction.value,
        "pass_count": session.rules.pass_count,
        "passing": hand.phase is Phase.PASSING and session.seat in hand.seats_to_pass,
        "my_turn": my_turn,
        "moon_choice": hand.phase is Phase.MOON_CHOICE and hand.to_move == session.seat,
        "to_move": hand.to_move,
        "status": _status(session, names, still, decided),
        "thinking": None if still is not None else session.bot_to_act,
        "hand": _hand_cards(session, my_turn),
        "seats": seats,
        "trick": [{"seat": s, **_card(c.code)} for s, c in trick.plays],
        "tricks_done": len(hand.tricks),
        "last_trick": None
        if last is None
        else {"winner": last.winner, "plays": [{"seat": s, **_card(c.code)} for s, c in last.plays]},
        "hearts_broken": hand.hearts_broken,
        "score_rows": [list(row) for row in session.score_rows],
        "totals": list(session.totals),
        "hand_over": hand.is_over,
        "result": None if result is None else list(result.scores),
        "shooter": None if result is None else result.shooter,
        "winners": list(session.winners),
        "hand_in_progress": session.hand_in_progress,
        "review_href": session.review_href if session.winners and session.game_hands else None,
        "review_label": REVIEW_LABEL,
        "selected": list(session.selected),
        "hint": list(session.hint),
        "hint_text": session.hint_text,
        "practice": session.practice,
        "can_take_back": session.can_take_back,
    }


def announce(event: Event, names: Sequence[str]) -> str:
    """The sentence a screen reader hears for an event."""
    kind = event["type"]
    if kind == "play":
        who = names[event["seat"]]
        return f"{who} play{'' if who == YOU else 's'} the {event['name']}."
    if kind == "trick":
        who = names[event["winner"]]
        return f"{who} take{'' if who == YOU else 's'} the trick."
    if kind == "pass":
        return f"{names[event['seat']]} passed." if event["cards"] else ""
    if kind == "hand_over":
        return "The hand is over. Scores: " + ", ".join(
            f"{names[s]} {p}" for s, p in enumerate(event["scores"])
        )
    return str(event.get("text", ""))
