"""The master table's bot. Starts as Hard; reading its opponents is built on top (issue 53)."""

from __future__ import annotations

from .hard import HardBot

__all__ = ["MasterBot"]


class MasterBot(HardBot):
    """Hard, until it reads its opponents."""

    name = "master"
