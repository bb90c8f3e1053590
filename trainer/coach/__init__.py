"""The coach: grades a decision by the evaluator and explains it from the position."""

from .explain import Verdict, coach_pass, coach_play
from .grading import Band, Grade, grade
from .hint import Hint, HintSource, coach_hint

__all__ = [
    "Band",
    "Grade",
    "Hint",
    "HintSource",
    "Verdict",
    "coach_hint",
    "coach_pass",
    "coach_play",
    "grade",
]
