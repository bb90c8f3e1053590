"""Serve Hearts Trainer: the home page at `/`, the lesson page, puzzles and review beside it, to
the learner alone (`trainer.server_guard`: the token in the address, no other origin); and the
rooms for playing with friends at `/rooms/` (`trainer.rooms`: no token, the same Host and Origin rules).

`marimo run lessons/` would put marimo's own file gallery at `/` and a "Back" link to it on every
page; mounting each notebook at its own address (`trainer.site.PAGES`) leaves neither, so the only
way home is the Hearts home page.

    python -m trainer.serve --port 2718

The token is the learner's (`trainer.server_token`); `python -m trainer.start` (scripts/start.sh)
also picks the port, waits for the server and opens the browser.
"""

from __future__ import annotations

import argparse
from urllib.parse import urlencode

import marimo
import uvicorn

from trainer.data_files import LESSONS_DIR
from trainer.rooms.server import PREFIX as ROOMS_PREFIX
from trainer.rooms.server import build_app as rooms_app
from trainer.rooms.server import make_hub
from trainer.server_guard import TOKEN_PARAM, WILDCARD_HOSTS, ServerGuard
from trainer.server_token import server_token
from trainer.site import HOME, PAGES

__all__ = ["build_app", "entry_address", "run"]


def build_app(token: str, host: str = "127.0.0.1", rooms: str | None = None):
    builder = marimo.create_asgi_app(quiet=True)
    for address, notebook in PAGES.items():
        mount = address.rstrip("/") or "/"  # marimo redirects /lesson to /lesson/
        builder = builder.with_app(path=mount, root=str(LESSONS_DIR / notebook))
    lessons = ServerGuard(builder.build(), token=token, host=host)
    friends = rooms_app(make_hub(rooms), host)

    async def app(scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "lifespan" and (path == ROOMS_PREFIX or path.startswith(ROOMS_PREFIX + "/")):
            await friends(scope, receive, send)  # the rooms start with their first request
        else:
            await lessons(scope, receive, send)

    return app


def entry_address(host: str, port: int, token: str) -> str:
    """The home page's address with the token: the one way in."""
    shown = "127.0.0.1" if host in WILDCARD_HOSTS else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}{HOME}?{urlencode({TOKEN_PARAM: token})}"


def run(host: str, port: int, token: str) -> None:
    uvicorn.run(build_app(token, host), host=host, port=port, log_level="warning")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2718)
    args = parser.parse_args(argv)
    token = server_token()
    print(f"Hearts Trainer lessons: {entry_address(args.host, args.port, token)}", flush=True)
    run(args.host, args.port, token)


if __name__ == "__main__":
    main()
