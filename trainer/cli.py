"""The `hearts-trainer` command: with no subcommand it starts the lessons; each subcommand runs one
of the project's tools, exactly as `python -m MODULE ARGS` would (its own options and --help).
"""

from __future__ import annotations

import argparse
import importlib
import runpy
import sys

PROG = "hearts-trainer"
DEFAULT = "lessons"
# subcommand → (module whose main(argv) runs it, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "lessons": ("trainer.start", "start the lessons and open them in a browser (the default)"),
    "serve": ("trainer.serve", "only serve the lessons: --host, --port"),
    "host": ("trainer.rooms.server", "play with friends: serve rooms (--host to share on your network)"),
    "play": ("trainer.play", "play a game in the terminal against bots"),
    "tournament": ("engine.tournament", "bots against each other in duplicate rotation"),
    "mine": ("trainer.puzzles.mine", "find new puzzles in bot games"),
    "export": ("trainer.progress.export", "write your record as CSV files"),
    "check": ("trainer.puzzles", "report every problem in puzzle files"),
    "site": ("trainer.site_build", "build the static site that runs in the browser: site build OUT"),
    "import-progress": ("trainer.progress.transfer", "import progress downloaded from the browser version"),
}


def run_check(rest: list[str]) -> None:
    """`python -m trainer.puzzles check REST`, run as that command line runs it."""
    sys.argv = [f"{PROG} check", "check", *rest]
    runpy.run_module("trainer.puzzles", run_name="__main__")


def parser() -> argparse.ArgumentParser:
    described = argparse.ArgumentParser(
        prog=PROG,
        description="Hearts Trainer: lessons, puzzles, review and games against bots. "
        "With no command it starts the lessons.",
        epilog=f"`{PROG} COMMAND --help` shows a command's own options.",
    )
    commands = described.add_subparsers(title="commands", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        commands.add_parser(name, help=help_text, add_help=False)
    return described


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = [DEFAULT, *argv]  # `hearts-trainer --no-browser` passes the lessons' own option
    name, *rest = argv
    if name not in COMMANDS:
        parser().parse_args(argv)  # --help, or an error naming the commands
        return
    if name == "check":
        run_check(rest)
        return
    sys.argv = [f"{PROG} {name}", *rest]  # the tool's usage line names this command
    raise SystemExit(importlib.import_module(COMMANDS[name][0]).main(rest))


if __name__ == "__main__":
    main()
