"""The `hearts-trainer` command: with no subcommand it starts the lessons; each subcommand runs one
of the project's tools, exactly as `python -m MODULE ARGS` would (its own options and --help).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

PROG = "hearts-trainer"
DEFAULT = "lessons"
# subcommand → (module whose main(argv) runs it, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "lessons": ("trainer.start", "start the lessons and open them in a browser (the default)"),
    "serve": ("trainer.serve", "only serve the lessons: --host, --port"),
    "play": ("trainer.play", "play a game in the terminal against bots"),
    "tournament": ("engine.tournament", "bots against each other in duplicate rotation"),
    "mine": ("trainer.puzzles.mine", "find new puzzles in bot games"),
    "export": ("trainer.progress.export", "write your record as CSV files"),
    "check": ("trainer.puzzles.__main__", "check the puzzle files"),
}


def module_and_arguments(name: str) -> tuple[str, list[str]]:
    """The module to run and the arguments that go before the learner's."""
    module = COMMANDS[name][0]
    if name != "check":
        return module, []
    # `python -m trainer.puzzles check` where that exists, else the check module on its own.
    if importlib.util.find_spec(module) is not None:
        return module, ["check"]
    if importlib.util.find_spec("trainer.puzzles.check") is not None:
        return "trainer.puzzles.check", []
    raise SystemExit(f"{PROG} check: this version has no puzzle file check (trainer.puzzles check)")


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
    module, before = module_and_arguments(name)
    sys.argv = [f"{PROG} {name}", *before, *rest]  # the tool's usage line names this command
    raise SystemExit(importlib.import_module(module).main([*before, *rest]))


if __name__ == "__main__":
    main()
