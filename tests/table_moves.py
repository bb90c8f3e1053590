"""Playing a table session forward in tests: one simple move at a time, by whoever is to act."""

from __future__ import annotations

from trainer.table import TableSession


def next_move(session: TableSession, last_legal: bool = False) -> None:
    """One move: the next hand once this one is over, a bot's decision, else the learner passes
    their first three cards or plays their first (or last) legal card."""
    hand = session.hand
    if hand.is_over:
        session.new_hand()
    elif session.bot_to_act is not None:
        session.bot_step()
    elif hand.phase.value == "passing":
        session.pass_selected([card.code for card in list(hand.hand(session.seat))[:3]])
    else:
        legal = hand.legal_cards()
        session.play((legal[-1] if last_legal else legal[0]).code)
