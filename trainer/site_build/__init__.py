"""Hearts Trainer as a static site that runs in the browser with nothing to install
(``hearts-trainer site build OUT``): marimo's WebAssembly export of every page, on Pyodide, with
the project's own wheel. ``build`` writes the site, ``mirror`` the local copy of Pyodide and the
wheels it is built from, ``wheel`` the project's wheel for it.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

USAGE = """usage: hearts-trainer site build OUT [--mirror DIR] [--pages PAGE,...]
       hearts-trainer site mirror [DIR]

  build   write the static site into OUT (every page, or those named: index, lesson, puzzles,
          review, analysis, career; the mirror is made first if missing)
  mirror  make the local mirror of Pyodide and the wheels the site is built from

The mirror is kept in $HEARTS_TRAINER_SITE_MIRROR if set, else in the user's cache
($XDG_CACHE_HOME or ~/.cache)/hearts-trainer/site-build/mirror. The build needs
pip install 'hearts-trainer[site]' and a Chromium; its first run also npm and pip."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    command, *rest = argv
    if command == "build":
        from .build import main as build

        return build(rest)
    if command == "mirror":
        from .mirror import main as mirror

        return mirror(rest)
    print(f"hearts-trainer site: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2
