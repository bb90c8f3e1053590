"""Every rule option in one frozen value, with the variants people play as named presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from .cards import HEARTS_MASK, Card, Suit, parse_card
from .deal import MAX_PLAYERS, MIN_PLAYERS, deck_mask, hand_size, lowest_club
from .excerpt import excerpt
from .kernel import PlayRules, play_rules

__all__ = ["PRESETS", "HeartValues", "MoonRule", "PassDirection", "Rules", "RulesError", "TieRule"]

QUEEN_OF_SPADES = parse_card("QS")
KING_OF_SPADES = parse_card("KS")
ACE_OF_SPADES = parse_card("AS")
JACK_OF_DIAMONDS = parse_card("JD")


class RulesError(ValueError):
    """A rule option with a value that is not allowed; the message names the option."""


RANGES: dict[str, tuple[int, int]] = {
    "target": (1, 1000),
    "queen_of_spades_points": (0, 50),
    "jack_of_diamonds_points": (-26, 0),
    "no_tricks_bonus": (-26, 0),
}
"""Allowed values of the point options: a penalty stays a penalty, a bonus a bonus, and every
score stays a size a learner can read (wider than any variant played: Omnibus J♦ -10, the
no-trick bonus -5, a game to 26..100)."""


class PassDirection(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    def offset(self, players: int) -> int:
        """How many seats round the table (in playing order) the cards travel."""
        if self is PassDirection.LEFT:
            return 1
        if self is PassDirection.RIGHT:
            return players - 1
        if self is PassDirection.ACROSS:
            if players % 2:
                raise RulesError(f"there is no seat across the table with {players} players")
            return players // 2
        return 0


class HeartValues(StrEnum):
    FLAT = "flat"  # every heart 1
    SPOT = "spot"  # Spot Hearts: 2..10 at face value, J 11, Q 12, K 13, A 14


class MoonRule(StrEnum):
    OFF = "off"  # taking every point card scores them like any other hand
    ADD_TO_OTHERS = "add_to_others"  # shooter 0, every other player + the moon's value
    SUBTRACT_FROM_SHOOTER = "subtract_from_shooter"  # "new moon": shooter minus the moon's value
    SHOOTERS_CHOICE = "shooters_choice"  # the shooter decides between the two, each time


class TieRule(StrEnum):
    SHARED = "shared"  # every player tied for the lowest score wins
    PLAY_OFF = "play_off"  # further hands until one player alone is lowest


@dataclass(frozen=True)
class Rules:
    """The rules of a game of Hearts. The defaults are standard four-player Hearts."""

    players: int = 4
    """3 to 7. Cards are removed so every hand is equal (3: 2♦; 5: 2♦ 2♣; 6: 2♦ 3♦ 3♣ 4♣;
    7: 2♦ 3♦ 3♣)."""

    pass_count: int = 3
    """Cards each player passes; 0 plays every hand as dealt."""

    hold_hand: bool = True
    """Whether the pass cycle has a hand without passing. Four players pass left, right,
    across, hold; other table sizes left, right, hold. False is the house variant that drops
    the hold hand."""

    lead_any_club: bool = False
    """The first trick may be led with any club, not only the lowest club in play."""

    no_points_on_first_trick: bool = True
    """No point card (a heart, the Q♠, and in Black Maria the K♠ and A♠) may be played on the
    first trick, unless the player holds nothing else."""

    must_break_hearts: bool = True
    """Hearts may not be led until a heart has been played (or the Q♠, when she breaks
    hearts). A player holding only hearts may always lead one: otherwise they would have no
    legal lead, so that part is not an option."""

    queen_breaks_hearts: bool = False
    """Playing the Q♠ breaks hearts, as a heart does."""

    hearts_instead_of_queen: bool = False
    """While hearts are unbroken, a player whose only non-heart is the Q♠ may lead a heart
    instead of being forced to lead her (OpenSpiel's ``can_lead_hearts_instead_of_qs``)."""

    heart_values: HeartValues = HeartValues.FLAT
    """Each heart 1 point, or by pip in Spot Hearts."""

    queen_of_spades_points: int = 13

    jack_of_diamonds_points: int = 0
    """Omnibus Hearts: -10 for taking the J♦."""

    moon_needs_jack: bool = False
    """In Omnibus, a moon also requires taking the J♦."""

    black_maria: bool = False
    """Black Maria: the K♠ costs 10 and the A♠ 7, besides the Q♠."""

    no_tricks_bonus: int = 0
    """Points (usually -5) for taking no trick at all in a hand; not given when someone shoots
    the moon."""

    moon: MoonRule = MoonRule.ADD_TO_OTHERS
    """What taking every point card does."""

    target: int = 100
    """The game ends after the hand in which someone reaches this score (100, or 50 for a
    short game)."""

    ties: TieRule = TieRule.SHARED
    """What happens when the game ends with several players on the lowest score."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.type in ("int", "bool") and type(value).__name__ != field.type:
                raise RulesError(f"rules.{field.name}: expected {field.type}, got {excerpt(value)}")
        for name, kind in (
            ("heart_values", HeartValues),
            ("moon", MoonRule),
            ("ties", TieRule),
        ):
            value = getattr(self, name)
            try:
                if not isinstance(value, str):  # Enum's own refusal repr()s the value whole
                    raise ValueError
                object.__setattr__(self, name, kind(value))
            except ValueError:
                allowed = ", ".join(repr(member.value) for member in kind)
                raise RulesError(f"rules.{name}: {excerpt(value)} is not one of {allowed}") from None
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(
                f"rules.players: Hearts is played by {MIN_PLAYERS} to {MAX_PLAYERS}, "
                f"not {excerpt(self.players)}"
            )
        if not 0 <= self.pass_count < hand_size(self.players):
            raise RulesError(
                f"rules.pass_count: must be 0 to {hand_size(self.players) - 1} with "
                f"{self.players} players, not {excerpt(self.pass_count)}"
            )
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise RulesError(f"rules.{name}: must be {low} to {high}, not {excerpt(value)}")
        if self.moon_needs_jack and not self.jack_of_diamonds_points:
            raise RulesError("rules.moon_needs_jack: only makes sense with a J♦ bonus (Omnibus)")

    # Derived tables, computed once per Rules value.

    @cached_property
    def deck_mask(self) -> int:
        return deck_mask(self.players)

    @cached_property
    def hand_size(self) -> int:
        return hand_size(self.players)

    @cached_property
    def lowest_club(self) -> Card:
        return lowest_club(self.players)

    @cached_property
    def pass_cycle(self) -> tuple[PassDirection, ...]:
        if self.pass_count == 0:
            return (PassDirection.HOLD,)
        cycle = [PassDirection.LEFT, PassDirection.RIGHT]
        if self.players == 4:
            cycle.append(PassDirection.ACROSS)
        if self.hold_hand:
            cycle.append(PassDirection.HOLD)
        return tuple(cycle)

    def pass_direction(self, hand_index: int) -> PassDirection:
        """The pass direction of hand ``hand_index`` (0-based) of a game."""
        return self.pass_cycle[hand_index % len(self.pass_cycle)]

    @cached_property
    def card_values(self) -> tuple[int, ...]:
        """Points for taking each card (index = card), 0 for cards out of play."""
        values = [0] * 52
        for card in range(52):
            if not self.deck_mask >> card & 1:
                continue
            if card // 13 == Suit.HEARTS:
                values[card] = 1 if self.heart_values is HeartValues.FLAT else card % 13 + 2
        values[QUEEN_OF_SPADES] = self.queen_of_spades_points
        if self.black_maria:
            values[KING_OF_SPADES] = 10
            values[ACE_OF_SPADES] = 7
        values[JACK_OF_DIAMONDS] = self.jack_of_diamonds_points
        return tuple(values)

    @cached_property
    def point_mask(self) -> int:
        """Cards that cost points: what "no points on the first trick" forbids."""
        return sum(1 << card for card, value in enumerate(self.card_values) if value > 0)

    @cached_property
    def scored_cards(self) -> tuple[tuple[int, int], ...]:
        """(card, value) for every card whose value is not 0."""
        return tuple((card, value) for card, value in enumerate(self.card_values) if value)

    @cached_property
    def scored_mask(self) -> int:
        return sum(1 << card for card, _ in self.scored_cards)

    @cached_property
    def moon_mask(self) -> int:
        """The cards one player must take to shoot the moon."""
        mask = self.point_mask
        if self.moon_needs_jack:
            mask |= 1 << JACK_OF_DIAMONDS
        return mask

    @cached_property
    def moon_value(self) -> int:
        """What a moon is worth: all the penalty points of a hand (26 in standard Hearts)."""
        return sum(value for value in self.card_values if value > 0)

    @cached_property
    def play_rules(self) -> PlayRules:
        """The options the rules kernel's legal-card and hearts-broken rules read."""
        return play_rules(self)

    @cached_property
    def hearts_mask(self) -> int:
        return HEARTS_MASK & self.deck_mask

    def points_in(self, mask: int) -> int:
        """Points of a set of taken cards, before any moon."""
        if (
            self.heart_values is HeartValues.FLAT
            and not self.black_maria
            and not self.jack_of_diamonds_points
        ):
            return (mask & HEARTS_MASK).bit_count() + (
                self.queen_of_spades_points if mask >> QUEEN_OF_SPADES & 1 else 0
            )
        total = 0
        for card, value in self.scored_cards:
            if mask >> card & 1:
                total += value
        return total

    # Conversion to and from plain data (records, puzzle files).

    def to_dict(self) -> dict[str, Any]:
        """Every option, enum values as their strings."""
        return {
            field.name: (value.value if isinstance(value, StrEnum) else value)
            for field in dataclasses.fields(self)
            for value in [getattr(self, field.name)]
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "rules") -> Rules:
        """Rules from plain data; missing options take their standard value. A preset name may
        be given as ``{"preset": "omnibus", ...}`` with overrides beside it."""
        if not isinstance(data, dict):
            raise RulesError(f"{where}: expected an object of rule options, got {type(data).__name__}")
        data = dict(data)
        base = cls()
        if "preset" in data:
            name = data.pop("preset")
            if not isinstance(name, str) or name not in PRESETS:
                raise RulesError(
                    f"{where}.preset: unknown preset {excerpt(name, 30)}; known: {', '.join(PRESETS)}"
                )
            base = PRESETS[name]
        known = {field.name for field in dataclasses.fields(cls)}
        for key in data:
            if key not in known:
                name = key if isinstance(key, str) and key.isidentifier() and len(key) <= 40 else excerpt(key)
                raise RulesError(f"{where}.{name}: unknown rule option")
        try:
            return dataclasses.replace(base, **data)
        except RulesError as error:
            raise RulesError(str(error).replace("rules.", f"{where}.", 1)) from None

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def describe(self) -> list[str]:
        """The options that differ from standard Hearts, in words."""
        standard = Rules()
        return [
            f"{field.name.replace('_', ' ')}: {getattr(self, field.name)}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) != getattr(standard, field.name)
        ]


STANDARD = Rules()

PRESETS: dict[str, Rules] = {
    "standard": STANDARD,
    "short_game": Rules(target=50),
    "no_hold": Rules(hold_hand=False),
    "queen_breaks_hearts": Rules(queen_breaks_hearts=True),
    "points_on_first_trick": Rules(no_points_on_first_trick=False),
    "new_moon": Rules(moon=MoonRule.SUBTRACT_FROM_SHOOTER),
    "shooters_choice": Rules(moon=MoonRule.SHOOTERS_CHOICE),
    "omnibus": Rules(jack_of_diamonds_points=-10),
    "spot_hearts": Rules(heart_values=HeartValues.SPOT),
    "black_maria": Rules(black_maria=True),
    "play_off_ties": Rules(ties=TieRule.PLAY_OFF),
    # OpenSpiel's defaults: the Q♠ breaks hearts.
    "openspiel": Rules(queen_breaks_hearts=True),
    "three_players": Rules(players=3),
    "five_players": Rules(players=5),
    "six_players": Rules(players=6),
    "seven_players": Rules(players=7),
}

PRESET_TITLES: dict[str, str] = {
    "standard": "Standard",
    "short_game": "Short game (to 50)",
    "no_hold": "No hold pass",
    "queen_breaks_hearts": "Queen breaks hearts",
    "points_on_first_trick": "Points on the first trick",
    "new_moon": "New moon",
    "shooters_choice": "Shooter's choice",
    "omnibus": "Omnibus (J♦ −10)",
    "spot_hearts": "Spot Hearts",
    "black_maria": "Black Maria",
    "play_off_ties": "Ties played off",
    "openspiel": "OpenSpiel's rules",
    "three_players": "Standard",
    "five_players": "Standard",
    "six_players": "Standard",
    "seven_players": "Standard",
}
"""What a page calls each preset (``preset_title`` adds the table's size)."""


def preset_title(name: str) -> str:
    """The preset's title for a page, with its players: "Black Maria, 4 players"."""
    return f"{PRESET_TITLES[name]}, {PRESETS[name].players} players"
