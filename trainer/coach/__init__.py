"""The coach: grades a decision by the evaluator and explains it from the position."""

from .explain import Verdict, coach_pass, coach_play
from .grading import Band, Grade, grade

__all__ = ["Band", "Grade", "Verdict", "coach_pass", "coach_play", "grade"]
