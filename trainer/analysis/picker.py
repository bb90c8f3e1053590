"""The analysis board's deck picker as an anywidget: the 52 cards and the places they go (the
learner's hand, what they passed and received, each trick so far).

The browser draws ``setup`` and reports each request (a card clicked into a place, a pasted
text, a trick added, its leader chosen); ``on_request`` hands them to the board
(``trainer.analysis.board``), which checks them and sets ``setup`` and ``message`` back.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import anywidget
import traitlets

__all__ = ["DeckPicker"]

_HERE = pathlib.Path(__file__).parent


class DeckPicker(anywidget.AnyWidget):
    """In marimo: ``mo.ui.anywidget(DeckPicker())``."""

    _esm = _HERE / "picker.js"
    _css = _HERE / "picker.css"

    setup = traitlets.Dict().tag(sync=True)
    """``{"moment": "pass" | "play", "hand": [codes], "passed": [...], "received": [...],
    "tricks": [{"leader": seat, "cards": [codes in the order played]}]}``."""
    target = traitlets.Unicode("hand").tag(sync=True)
    """Where a clicked card goes: "hand", "passed", "received" or "trick:N"."""
    seats = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The seats' names, seat 0 the learner (who led a trick)."""
    message = traitlets.Unicode("").tag(sync=True)
    """One line: why the last request changed nothing, or why the set-up is not yet a position."""

    def __init__(self, **traits: object) -> None:
        super().__init__(**traits)
        self._handlers: list[Callable[[dict], None]] = []
        self.on_msg(lambda _widget, content, _buffers: self._request(content))

    def on_request(self, handler: Callable[[dict], None]) -> None:
        self._handlers.append(handler)

    def _request(self, content: object) -> None:
        if not isinstance(content, dict):
            return
        for handler in self._handlers:
            handler(content)

    def pasted(self) -> None:
        """Tell the page a pasted text was taken (its box empties; a refused one stays)."""
        self.send({"type": "pasted"})
