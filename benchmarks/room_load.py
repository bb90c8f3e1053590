"""How many rooms one server process holds: N rooms, 4 scripted players each, whole games at once.

The benchmark starts one rooms server (``hearts-trainer host``'s app) on a free loopback port in
its own process, then plays from this process: ``--rooms`` rooms, each created as the "Play with
friends" form does, joined by 4 scripted WebSocket players (``benchmarks/room_client.py``) who
decide from their own views after ``--think`` seconds (drawn between half and one and a half
times it). A room whose game ends is replaced by a new one, so the count holds. Once every room
is playing, it measures for ``--seconds``: each card played, from the moment its player sends it
to the moment the last of the room's 4 players has a state showing it. Then it stops everything.
Several ``--rooms`` counts: one fresh server for each, one after the other.

Reported: rooms held, the p50 / p95 / max of that time, plays measured, the server's and the
players' CPU use (the players share this process: when it is near 100% of a core, the players,
not the server, set the pace) and the server's memory; the load average before and after.

    PYTHONPATH=. .venv/bin/python -m benchmarks.room_load [--rooms 10 ...] [--seconds 30] [--think 1.0]
        [--json benchmarks/results/room_load.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.room_client import RoomClient, create_room

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
SETTLE_TIMEOUT = 120.0  # seconds every room may take to be created, joined and started


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, rooms_dir: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "trainer.cli", "host", "--port", str(port), "--rooms", rooms_dir]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = Path(rooms_dir) / "server.log"  # a file, not a pipe: a pipe nobody reads would stop the server
    with log.open("w") as errors:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    deadline = time.monotonic() + 60
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"room_load: the server stopped at once: {log.read_text()[-400:]}")
        with contextlib.suppress(OSError):
            opener.open(f"http://127.0.0.1:{port}/rooms/", timeout=2).close()
            return server
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"room_load: the server on port {port} did not answer within 60 s")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> dict[str, float]:
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return {key: int(status[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Watch:
    """Each play's time from its sending to the last of its room's players seeing it."""

    def __init__(self) -> None:
        self.measuring = False
        self.times: list[float] = []
        self.pending: dict[tuple[str, int, str], tuple[float, set[int]]] = {}
        self.messages = 0
        self.games = 0
        self.errors: list[str] = []

    def sent(self, client: RoomClient, messages: list[dict], at: float) -> None:
        for message in messages:
            if message["type"] == "play" and client.view is not None:
                self.pending[(client.code, client.view["hand_number"], message["card"])] = (at, set())

    def received(self, client: RoomClient, message: dict, at: float) -> None:
        self.messages += 1
        if message.get("type") == "error":
            self.errors.append(str(message.get("text")))
        if message.get("type") != "state":
            return
        view = message["view"]
        hand = view.get("hand_number")
        if hand is None:
            return
        shown = {play["code"] for play in view.get("trick") or ()}
        if view.get("last_trick"):
            shown |= {play["code"] for play in view["last_trick"]["plays"]}
        for key in [k for k in self.pending if k[0] == client.code]:
            _, played_in, card = key
            if played_in < hand or (played_in == hand and card in shown):
                started, seen = self.pending[key]
                seen.add(client.seat)
                if len(seen) == PLAYERS:
                    del self.pending[key]
                    if self.measuring:
                        self.times.append(at - started)


async def one_room(
    base: str, number: int, args: argparse.Namespace, watch: Watch, ready: asyncio.Event
) -> None:
    """A room and its 4 players, a new room each time a game ends, until cancelled."""
    game = 0
    while True:
        made = await asyncio.to_thread(
            create_room,
            base,
            preset="standard",
            target=args.target,
            bot_level="easy",
            timer=0,
            name="P0",
        )
        clients = [
            RoomClient(
                base,
                made["code"],
                f"P{seat}",
                made["secret"] if seat == 0 else None,
                think=args.think,
                seed=number * 1000 + game * 10 + seat,
                on_message=watch.received,
                on_send=watch.sent,
            )
            for seat in range(PLAYERS)
        ]
        tasks = [asyncio.ensure_future(client.play()) for client in clients]
        try:
            for client in clients:  # every seat taken before the host starts
                await client.welcomed.wait()
            await clients[0].send({"type": "start"})
            ready.set()
            await asyncio.gather(*tasks)
            watch.games += 1
        finally:
            for task in tasks:
                task.cancel()
        game += 1


async def run(base: str, args: argparse.Namespace, count: int, server_pid: int) -> dict:
    """``count`` rooms played at once against the server at ``base``; their figures."""
    watch = Watch()
    readies = [asyncio.Event() for _ in range(count)]
    rooms = []
    started = time.monotonic()
    for number in range(count):  # one at a time: a burst of joins is not what is measured
        rooms.append(asyncio.ensure_future(one_room(base, number, args, watch, readies[number])))
        await asyncio.sleep(0.02)
    try:
        await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), SETTLE_TIMEOUT)
        settled = time.monotonic() - started
        server_cpu, own_cpu, wall = cpu_seconds(server_pid), time.process_time(), time.monotonic()
        watch.measuring = True
        await asyncio.sleep(args.seconds)
        watch.measuring = False
        wall = time.monotonic() - wall
        server_cpu, own_cpu = cpu_seconds(server_pid) - server_cpu, time.process_time() - own_cpu
        failed = [room for room in rooms if room.done() and room.exception() is not None]
    finally:
        for room in rooms:
            room.cancel()
        await asyncio.gather(*rooms, return_exceptions=True)
    times = sorted(watch.times)
    if failed:
        raise SystemExit(f"room_load: {len(failed)} rooms failed: {failed[0].exception()!r}")
    if not times:
        raise SystemExit("room_load: no play was measured: raise --seconds or lower --think")
    return {
        "rooms": count,
        "measured_seconds": round(wall, 1),
        "settle_seconds": round(settled, 1),
        "plays_measured": len(times),
        "games_finished": watch.games,
        "plays_per_second": round(len(times) / wall, 1),
        "play_to_all_ms": {
            "p50": round(1000 * statistics.median(times), 1),
            "p95": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1),
            "max": round(1000 * times[-1], 1),
        },
        "server_cpu_share": round(server_cpu / wall, 2),
        "server_cpu_ms_per_play": round(1000 * server_cpu / len(times), 2),
        "players_cpu_share": round(own_cpu / wall, 2),
        "server_memory_mb": {k: round(v, 1) for k, v in memory_mb(server_pid).items()},
        "errors": len(watch.errors),
        "first_error": watch.errors[0] if watch.errors else None,
    }


def measure(args: argparse.Namespace, count: int) -> dict:
    """One fresh server, ``count`` rooms against it, then the server stopped."""
    before = load_average()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="room-load-", dir=args.dir) as rooms_dir:
        server = start_server(port, rooms_dir)
        try:
            result = asyncio.run(run(f"http://127.0.0.1:{port}", args, count, server.pid))
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
    return {**result, "loadavg_before": before, "loadavg_after": load_average()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rooms", type=int, nargs="+", default=[10], help="rooms played at once; several: one run each (10)"
    )
    parser.add_argument(
        "--seconds", type=float, default=30.0, help="seconds measured once every room plays (30)"
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="a player's mean seconds before a decision (1.0)"
    )
    parser.add_argument("--target", type=int, default=50, choices=(50, 100), help="the games' target (50)")
    parser.add_argument(
        "--dir",
        default=None,
        help="where the server saves the rooms: a temporary directory in it (the system's)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    if not all(1 <= count <= 1000 for count in args.rooms) or not 1 <= args.seconds <= 1800:
        parser.error("--rooms must be 1..1000 and --seconds 1..1800 (the run is bounded)")
    runs = []
    for count in args.rooms:
        runs.append(measure(args, count))
        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    result = {
        "players_per_room": PLAYERS,
        "think_seconds": args.think,
        "target": args.target,
        "rooms_saved_in": args.dir or tempfile.gettempdir(),
        "cpus": os.cpu_count(),
        "runs": runs,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
