"""The port Hearts Trainer's server listens on: the one it used last time when that is free, so a
tab the learner left open finds the app again after a restart; else the first free one upward.

The port is remembered in ``server-port`` in the learner's data folder (``trainer.store.data_home()``,
beside ``progress.sqlite3``). ``python -m trainer.server_port`` prints the port and remembers it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys

from trainer.store import data_home

__all__ = ["DEFAULT_PORT", "choose_port", "is_free", "remember", "remembered"]

DEFAULT_PORT = 2718
FILE_NAME = "server-port"
SCAN = 200  # ports tried above the first choice before giving up


def is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as probe:
        # As the server binds (SO_REUSEADDR): a port left in TIME_WAIT by the last run is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
        return True


def remembered() -> int | None:
    try:
        port = int((data_home() / FILE_NAME).read_text().strip())
    except (OSError, ValueError):
        return None
    return port if 0 < port < 65536 else None


def remember(port: int) -> None:
    folder = data_home()
    with contextlib.suppress(OSError):  # a read-only folder only costs the reuse next time
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f"{FILE_NAME}.{os.getpid()}"
        partial.write_text(f"{port}\n")
        partial.replace(folder / FILE_NAME)


def choose_port(base: int = DEFAULT_PORT) -> int:
    """The remembered port if it is free, else the first free port from ``base`` upward."""
    last = remembered()
    if last is not None and is_free(last):
        return last
    for port in range(base, min(base + SCAN, 65536)):
        if is_free(port):
            return port
    raise OSError(f"no free port between {base} and {base + SCAN - 1}")


def main() -> None:
    base = int(os.environ.get("HEARTS_PORT") or DEFAULT_PORT)
    port = choose_port(base)
    remember(port)
    print(port)


if __name__ == "__main__":
    sys.exit(main())
