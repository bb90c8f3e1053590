"""The Hearts rules engine: pure Python, standard library only (it also runs under Pyodide).

>>> from engine import HandState, Rules
>>> hand = HandState.from_seed(7, Rules())
>>> hand.pass_direction.value
'left'
"""

from .cards import CARDS, Card, CardParseError, CardSet, CardTuple, Suit, parse_card, parse_cards, to_card
from .deal import deal_from_seed, hand_seed, lowest_club, removed_cards
from .game import Game, GameOverError, deal_game_hand, winners_if_over
from .hand import Action, ActionRecord, DealError, HandState, MoonAction, PassAction, Phase, PlayAction, Trick
from .position import setup_position
from .reasons import IllegalAction, Reason, Refusal
from .records import RecordError, game_from_record, game_to_record, hand_from_record, hand_to_record
from .rules import PRESETS, HeartValues, MoonRule, PassDirection, Rules, RulesError, TieRule
from .scoring import HandResult, MoonChoice, score_hand
from .view import PlayerView

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "ActionRecord",
    "Card",
    "CardParseError",
    "CardSet",
    "CardTuple",
    "DealError",
    "Game",
    "GameOverError",
    "HandResult",
    "HandState",
    "HeartValues",
    "IllegalAction",
    "MoonAction",
    "MoonChoice",
    "MoonRule",
    "PassAction",
    "PassDirection",
    "Phase",
    "PlayAction",
    "PlayerView",
    "Reason",
    "RecordError",
    "Refusal",
    "Rules",
    "RulesError",
    "Suit",
    "TieRule",
    "Trick",
    "deal_from_seed",
    "deal_game_hand",
    "game_from_record",
    "game_to_record",
    "hand_from_record",
    "hand_seed",
    "hand_to_record",
    "lowest_club",
    "parse_card",
    "parse_cards",
    "removed_cards",
    "score_hand",
    "setup_position",
    "to_card",
    "winners_if_over",
]
