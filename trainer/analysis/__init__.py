"""The analysis board: set up any position of a hand, and the coach ranks every option.

``position`` (what the learner knows, checked by the engine), ``notation`` (cards as people type
them), ``address`` (the position in a page's address), ``analyse`` (the coach's ranking). The page's
logic is ``board``.
"""

from .address import from_address, to_address
from .analyse import Analysis, Row, analyse
from .errors import PositionError
from .notation import format_cards, parse_cards
from .position import AnalysisPosition, Trick, from_puzzle, from_view

__all__ = [
    "Analysis",
    "AnalysisPosition",
    "PositionError",
    "Row",
    "Trick",
    "analyse",
    "format_cards",
    "from_address",
    "from_puzzle",
    "from_view",
    "parse_cards",
    "to_address",
]
