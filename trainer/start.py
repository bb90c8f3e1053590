"""Start Hearts Trainer for the learner: `python -m trainer.start` (what scripts/start.sh and the
`hearts-trainer` command run).

The server listens on the port of its last start when that is free (`trainer.server_port`), prints
the home page's address with the learner's token once it answers, and opens it in a browser where
there is a desktop (a headless machine just prints it).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import urllib.request
import webbrowser

from trainer import server_port
from trainer.server_token import server_token

HOST = "127.0.0.1"
READY_WITHIN = 60.0  # seconds for the server to answer /health before the address is printed anyway


def has_desktop() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in (
        "darwin",
        "win32",
    )


def wait_until_ready(port: int, within: float = READY_WITHIN) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/health", timeout=1) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def announce_address(port: int, address: str, open_browser: bool) -> None:
    ready = wait_until_ready(port)
    print(f"Hearts Trainer lessons: {address}", flush=True)
    if ready and open_browser and has_desktop():
        webbrowser.open_new_tab(address)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Start Hearts Trainer: the lessons, in your browser.")
    parser.add_argument("--port", type=int, help="this port instead of the remembered or first free one")
    parser.add_argument("--no-browser", action="store_true", help="only print the address")
    args = parser.parse_args(argv)
    os.environ.setdefault("MARIMO_SKIP_UPDATE_CHECK", "1")
    from trainer.serve import entry_address, run  # marimo loads here, after the setting above

    base = int(os.environ.get("HEARTS_PORT") or server_port.DEFAULT_PORT)
    port = args.port or server_port.choose_port(base)
    server_port.remember(port)
    token = server_token()
    address = entry_address(HOST, port, token)
    threading.Thread(target=announce_address, args=(port, address, not args.no_browser), daemon=True).start()
    run(HOST, port, token)


if __name__ == "__main__":
    main()
