"""Why an action is not allowed: a code for programs and a sentence for a learner."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["IllegalAction", "Reason", "Refusal"]


class Reason(StrEnum):
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    NO_SUCH_SEAT = "no_such_seat"
    NOT_IN_HAND = "not_in_hand"
    MUST_LEAD_LOWEST_CLUB = "must_lead_lowest_club"
    MUST_LEAD_A_CLUB = "must_lead_a_club"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    HEARTS_NOT_BROKEN = "hearts_not_broken"
    NO_POINTS_ON_FIRST_TRICK = "no_points_on_first_trick"
    NO_PASS_THIS_HAND = "no_pass_this_hand"
    WRONG_PASS_COUNT = "wrong_pass_count"
    CARD_REPEATED = "card_repeated"
    ALREADY_PASSED = "already_passed"
    NOT_THE_SHOOTER = "not_the_shooter"
    NOT_A_MOON_CHOICE = "not_a_moon_choice"
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"


@dataclass(frozen=True)
class Refusal:
    """The engine's answer to "why may I not do this?"."""

    reason: Reason
    message: str

    def __str__(self) -> str:
        return self.message


class IllegalAction(ValueError):
    """An action the rules do not allow. The state is unchanged."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal

    @property
    def reason(self) -> Reason:
        return self.refusal.reason
