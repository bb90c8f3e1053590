"""Seat names come from one place (``trainer.seats``) and agree with the engine's pass directions:
the seat called Left gets your cards on a left pass, Right on a right pass, Across on an across one."""

from __future__ import annotations

import pytest

from engine import PassDirection, Rules
from engine.deal import MAX_PLAYERS, MIN_PLAYERS
from trainer.coach.explain import lower_first
from trainer.seats import YOU, seat_called, seat_name, seat_names, seat_word
from trainer.table import TableWidget


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("learner", [0, 2])
def test_every_seat_has_one_name_and_left_right_across_are_where_the_passes_go(players, learner) -> None:
    names = seat_names(players, learner)
    assert len(set(names)) == players and names[learner] == YOU
    directions = [PassDirection.LEFT, PassDirection.RIGHT] + [PassDirection.ACROSS] * (players % 2 == 0)
    for direction in directions:
        target = (learner + direction.offset(players)) % players
        assert names[target] == direction.value.capitalize()
    for seat, name in enumerate(names):
        assert seat_called(name, players, learner) == seat
        assert seat_word(seat, players, learner) == ("you" if seat == learner else name)


def test_a_table_of_another_size_than_hearts_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="no seat names for a table of 8"):
        seat_names(8)


def test_the_table_and_the_coach_call_a_seat_alike() -> None:
    """At five players the table shows "Far left"; the coach's sentence that starts with that
    seat keeps its capital after a frame's colon, like Left does."""
    widget = TableWidget(rules=Rules(players=5), seed=3, seat=2, autoplay=False)
    shown = [seat["name"] for seat in widget.table["seats"]]
    assert shown == [seat_name(seat, 5, widget.session.seat) for seat in range(5)]
    assert lower_first("Far left has shown no clubs.") == "Far left has shown no clubs."
    assert lower_first("Left has shown no clubs.") == "Left has shown no clubs."
    assert lower_first("The K♠ wins.") == "the K♠ wins."
    widget.close()
