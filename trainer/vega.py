"""A chart as a Vega-Lite spec (a plain dict), shown by marimo through its ``_mime_`` display.

It needs neither pandas nor Altair, so the same chart shows in the installed version and in the
static site (Pyodide, offline): marimo's front end draws the spec with the Vega it carries.
"""

from __future__ import annotations

import json
import math

__all__ = ["MIME", "SCHEMA", "VegaLite", "plain"]

MIME = "application/vnd.vegalite.v5+json"
SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
"""The spec's version, as Vega-Lite reads it (a name: nothing is fetched from it)."""


def plain(value: object) -> object:
    """``value`` as JSON has it: a number that is not finite (no value) as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class VegaLite:
    """A Vega-Lite v5 chart: ``spec`` is the whole chart, its data inline."""

    def __init__(self, spec: dict) -> None:
        self.spec = {"$schema": SCHEMA, **spec}

    def to_dict(self) -> dict:
        return self.spec

    def _mime_(self) -> tuple[str, str]:
        return MIME, json.dumps(self.spec, allow_nan=False)
