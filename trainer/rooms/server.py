"""Play with friends: the rooms' web app, mounted at ``/rooms``, and `hearts-trainer host`.

Starlette's WebSockets carry each room's moves and views: the server is the referee and sends
each page its own seat's view the moment anything changes (polling would lag and cost more).
The rooms need no lesson token (friends have none) but keep the lesson server's Host and Origin
rules (``trainer.server_guard.OriginGuard``).

    hearts-trainer host                      # this computer only: http://127.0.0.1:2719/rooms/
    hearts-trainer host --host 0.0.0.0       # everyone on your network (it says so)
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import pathlib
import socket
from functools import partial

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..server_guard import WILDCARD_HOSTS, OriginGuard
from .hub import MAX_MESSAGE, Hub
from .reviewer import RoomReviews, download_game, quick_reviews
from .room import TARGETS, TIMERS, RoomError, offered_presets
from .store import FileStore, RoomStore

__all__ = ["PREFIX", "build_app", "main", "make_hub"]

PREFIX = "/rooms"
STATIC = pathlib.Path(__file__).with_name("static")
TABLE = pathlib.Path(__file__).parents[1] / "table"
SHARED = {"table.js": TABLE / "table.js", "table.css": TABLE / "table.css"}
DEFAULT_PORT = 2719
GC_THRESHOLDS = (20_000, 50, 1_000)
"""Python's collector less often (defaults 700, 10, 10): with 200 rooms its full passes stopped
every room for ~150 ms every few seconds (benchmarks/DECISIONS.md, room_load)."""
NO_STORE = {"Cache-Control": "no-store"}

NO_ROOM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>No such room · Hearts Trainer</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem">
<h1>No room here</h1>
<p>There is no room at this address: the link may be mistyped, or the room expired after a long
time with nobody in it.</p>
<p><a href="/rooms/">Make a new room</a></p>
</body></html>
"""


def make_hub(
    rooms: str | None = None, redis: str | None = None, alive_seconds: float | None = None, **options
) -> Hub:
    store: RoomStore
    bus = None
    if redis:
        from .redis_store import ALIVE_SECONDS, RedisStore, RedisUnavailableError  # several processes
        from .shared import SharedRooms

        try:
            store = bus = SharedRooms(RedisStore(redis, alive_seconds=alive_seconds or ALIVE_SECONDS))
        except RedisUnavailableError as error:
            raise SystemExit(str(error)) from None
    else:
        store = FileStore(rooms)
    hub = Hub(store, bus, **options)
    hub.reviewer = RoomReviews()  # the coach after the game (reviewer.py)
    return hub


def build_app(hub: Hub, host: str = "127.0.0.1") -> OriginGuard:
    """The rooms' routes, all under ``/rooms``, behind the Host and Origin rules."""

    async def page(_: Request) -> Response:
        return FileResponse(STATIC / "room.html", headers=NO_STORE)

    async def room_page(request: Request) -> Response:
        if await hub.find(request.path_params["code"]) is None:
            return HTMLResponse(NO_ROOM, status_code=404)
        return FileResponse(STATIC / "room.html", headers=NO_STORE)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        path = SHARED.get(name) or (STATIC / name if name in _own_files() else None)
        if path is None:
            return Response("Not found\n", status_code=404, media_type="text/plain")
        return FileResponse(path, headers=NO_STORE)

    async def open_seat(request: Request) -> Response:
        """Whether a newcomer can take a seat: the page asks before offering its join form."""
        room = await hub.find(request.path_params["code"])
        if room is None:
            gone = "There is no room at this address: it may have expired. Make a new one."
            return JSONResponse({"open": False, "text": gone}, status_code=404, headers=NO_STORE)
        why = room.closed_to_newcomers()
        return JSONResponse({"open": why is None, "text": why or ""}, headers=NO_STORE)

    async def presets(_: Request) -> Response:
        return JSONResponse({"presets": offered_presets()}, headers=NO_STORE)

    async def create(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_MESSAGE:
            return _refused(f"The request is over {MAX_MESSAGE} bytes.")
        try:
            data = json.loads(body)
        except ValueError:
            return _refused("The request must be JSON: the room's settings and your name.")
        if not isinstance(data, dict):
            return _refused("The request must be a JSON object.")
        name = data.pop("name", "")
        try:
            room, secret = await hub.create(data, name)
        except RoomError as error:
            return _refused(error.text)
        base = hub.address or f"{request.url.scheme}://{request.headers.get('host', '')}"
        link = f"{base}{PREFIX}/r/{room.code}"
        return JSONResponse({"code": room.code, "secret": secret, "link": link}, headers=NO_STORE)

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()

        async def receive() -> str | None:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return None
                if message.get("text") is not None:
                    return message["text"]
                if message.get("bytes") is not None:
                    return message["bytes"].decode("utf-8", "replace")

        try:
            await hub.session(ws.path_params["code"], receive, ws.send_text)
        except WebSocketDisconnect:
            return
        # The page may have gone first: closing then raises (RuntimeError or, from uvicorn's
        # send, WebSocketDisconnect), and a gone page is no error to log.
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await ws.close()

    routes = [
        Route("/health", lambda _: PlainTextResponse("ok\n")),  # `host` alone: up yet? (tests, scripts)
        Route(PREFIX, lambda _: RedirectResponse(f"{PREFIX}/")),
        Mount(
            PREFIX,
            routes=[
                Route("/", page),
                Route("/api/rooms", create, methods=["POST"]),
                Route("/api/presets", presets),
                Route("/api/rooms/{code}/seat", open_seat),
                Route("/r/{code}", room_page),
                Route("/static/{name}", static),
                WebSocketRoute("/ws/{code}", websocket),
                Route("/api/rooms/{code}/game", partial(download_game, hub), methods=["POST"]),
            ],
        ),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        await hub.start()  # rooms kept before a restart play on (bots, timers) at once
        yield
        await stop_rooms(hub)

    return OriginGuard(Starlette(routes=routes, lifespan=lifespan), host=host)


async def stop_rooms(hub: Hub) -> None:
    """The rooms' end with the server's: their drivers, and the reviews' worker, mid-review too
    (reviewer.py). Also for a server that mounts the rooms (trainer.serve), where their own
    lifespan does not run."""
    await hub.stop()
    if hub.reviewer is not None:
        hub.reviewer.close()


def _own_files() -> set[str]:
    return {path.name for path in STATIC.iterdir() if path.is_file()}


def _refused(text: str) -> JSONResponse:
    return JSONResponse({"type": "error", "text": text}, status_code=400)


def shared_address(host: str, port: int) -> str:
    """The address friends open: this computer's address on the network for a wildcard host."""
    shown = host
    if host in WILDCARD_HOSTS:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(("10.255.255.255", 1))  # no packet is sent: it only picks the route
                shown = probe.getsockname()[0]
            except OSError:
                shown = "127.0.0.1"
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}{PREFIX}/"


def is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


def banner(host: str, port: int) -> str:
    """What `host` prints: the address, and plainly who can open it."""
    address = shared_address(host, port)
    if is_loopback(host):
        return f"Hearts Trainer rooms (this computer only): {address}"
    return (
        f"Hearts Trainer rooms: {address}\n"
        f"Anyone on this network can open the rooms at that address (listening on {host}). "
        "Stop with Ctrl+C; start without --host to keep them to this computer."
    )


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="hearts-trainer host", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: this computer only)"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument(
        "--rooms", help="directory where rooms are kept (default: rooms/ beside your progress)"
    )
    parser.add_argument("--redis", help="redis://… URL: keep rooms in Redis, shared by several processes")
    parser.add_argument(
        "--grace", type=float, default=30.0, help="seconds a disconnected player keeps their seat"
    )
    parser.add_argument("--bot-delay", type=float, default=0.8, help="seconds before a bot's card")
    parser.add_argument(
        "--hand-pause", type=float, default=20.0, help="seconds before the next hand is dealt"
    )
    # Hidden, for tests that would otherwise wait on the product's clocks:
    hidden = argparse.SUPPRESS
    parser.add_argument("--short-timer", type=int, default=0, help=hidden)  # a turn timer of N s
    parser.add_argument("--short-target", type=int, default=0, help=hidden)  # a game to N points
    parser.add_argument("--trick-pause", type=float, default=None, help=hidden)  # seconds a done trick shows
    parser.add_argument("--alive-seconds", type=float, default=None, help=hidden)  # Redis presence expiry
    parser.add_argument("--review-samples", type=int, default=0, help=hidden)  # fast reviews
    args = parser.parse_args(argv)
    timing = {"grace": args.grace, "bot_delay": args.bot_delay, "hand_pause": args.hand_pause}
    if args.bot_delay == 0:
        timing["trick_pause"] = 0
    if args.trick_pause is not None:
        timing["trick_pause"] = args.trick_pause
    timers = TIMERS + ((args.short_timer,) if args.short_timer else ())
    targets = TARGETS + ((args.short_target,) if args.short_target else ())
    hub = make_hub(args.rooms, args.redis, args.alive_seconds, timing=timing, timers=timers, targets=targets)
    if args.review_samples:
        hub.reviewer = quick_reviews(args.review_samples)
    if not is_loopback(args.host):
        hub.address = shared_address(args.host, args.port).removesuffix(f"{PREFIX}/")
    print(banner(args.host, args.port), flush=True)
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(build_app(hub, args.host), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
