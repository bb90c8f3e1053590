"""The card table widget: ``TableWidget`` for marimo (``mo.ui.anywidget``), and the game
session behind it."""

from .session import TableError, TableSession
from .widget import TableWidget

__all__ = ["TableError", "TableSession", "TableWidget"]
