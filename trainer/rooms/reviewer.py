"""The coach after a room's game, for the room server: reviews made in one worker process, one
at a time, so the server's event loop keeps answering (``Reviewer``: progress as (done, total),
each finished review kept for the room); what the hub asks of it (``RoomReviews``: a seat's review
over the WebSocket, the host's game kept when the game ends, a seat's game as a file); and the
download route. What a review is and holds: ``trainer.rooms.review``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import queue as queues
import sqlite3
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from starlette.responses import JSONResponse, Response

from engine.search.threads import one_thread

from ..review.game import GameReview, ReviewDepth
from ..store import Store, StoreError
from .review import FILE_NAME, RoomGame, game_key, keep_game, progress_file, review_payload, review_seat

__all__ = ["Finished", "Reviewer", "RoomReviews", "download_game", "quick_reviews", "room_game"]


# ----- one worker process -----

_progress_queue = None


def _start_worker(progress_queue) -> None:
    global _progress_queue
    _progress_queue = progress_queue
    one_thread()


def _review_job(job: str, game: RoomGame, budget: ReviewDepth | None) -> tuple[GameReview, dict, bytes]:
    """In the worker: the review, its payload and its file; progress on the queue, then an end
    mark (None) after which nothing more of this job comes."""

    def report(done: int, total: int, _label: str) -> None:
        _progress_queue.put((job, done, total))

    try:
        review = review_seat(game, budget, report)
        return review, review_payload(game, review), progress_file(game, review)
    finally:
        _progress_queue.put((job, None, None))


@dataclass
class Finished:
    """A seat's finished review: the page's payload, the review and the progress file."""

    payload: dict
    review: GameReview
    file: bytes


ProgressHandler = Callable[[int, int], Awaitable[None] | None]

END_WAIT = 10.0
"""Seconds to wait for a finished job's last progress to come through (it is already on its way)."""


class Reviewer:
    """Reviews in one worker process (spawned on first use), one at a time; each finished review
    kept by its game's key, so asking again answers at once. Asked twice while it runs, a review is
    made once and both askers hear its progress."""

    def __init__(self, budget: ReviewDepth | None = None, keep: int = 256) -> None:
        self.budget = budget
        self.keep = keep
        self.finished: dict[str, Finished] = {}
        self._running: dict[str, asyncio.Future] = {}
        self._ended: dict[str, asyncio.Event] = {}
        self._listeners: dict[str, list[ProgressHandler]] = {}
        self._progress: dict[str, tuple[int, int]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._queue = None
        self._poller: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # the server has threads: never fork it
            self._queue = context.Queue()
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_start_worker, initargs=(self._queue,)
            )
        return self._pool

    def progress(self, key: str) -> tuple[int, int] | None:
        """(done, total) of a review under way, or None."""
        return self._progress.get(key) if key in self._running else None

    def ahead(self, key: str) -> int:
        """Reviews the worker makes before this one (it makes them in the order asked)."""
        order = list(self._running)
        return order.index(key) if key in order else 0

    async def review(self, game: RoomGame, on_progress: ProgressHandler | None = None) -> Finished:
        """The seat's finished review (made now in the worker, or kept from before)."""
        if game.key in self.finished:
            return self.finished[game.key]
        if on_progress is not None:
            self._listeners.setdefault(game.key, []).append(on_progress)
        running = self._running.get(game.key)
        if running is None:
            loop = asyncio.get_running_loop()
            try:
                running = loop.run_in_executor(self._ensure_pool(), _review_job, game.key, game, self.budget)
            except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
                self._pool = None
                running = loop.run_in_executor(self._ensure_pool(), _review_job, game.key, game, self.budget)
            self._running[game.key] = running
            self._ended[game.key] = asyncio.Event()
            if self._poller is None or self._poller.done():
                self._poller = asyncio.create_task(self._poll())
        ended = self._ended[game.key]
        try:
            review, payload, data = await asyncio.shield(running)
            with contextlib.suppress(TimeoutError):  # every progress report heard before the review
                await asyncio.wait_for(ended.wait(), END_WAIT)
        finally:
            if running.done() and self._running.get(game.key) is running:
                del self._running[game.key]
                self._listeners.pop(game.key, None)
                self._ended.pop(game.key, None)
                self._progress.pop(game.key, None)
                self._tell_waiting()
        done = self.finished.setdefault(game.key, Finished(payload, review, data))
        while len(self.finished) > self.keep:  # the oldest go; asked again, they are made again
            self.finished.pop(next(iter(self.finished)))
        return done

    def _tell_waiting(self) -> None:
        """One review is done: each one waiting hears its progress again (one fewer ahead)."""
        for key in self._running:
            self._call(key, *self._progress.get(key, (0, 0)))

    def _call(self, key: str, done: int, total: int) -> None:
        for listener in list(self._listeners.get(key, ())):
            result = listener(done, total)
            if asyncio.iscoroutine(result):
                task = asyncio.create_task(result)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _poll(self) -> None:
        """Hand the worker's progress to each review's listeners, while reviews run."""
        while self._running:
            await asyncio.sleep(0.1)
            while True:
                try:
                    key, done, total = self._queue.get_nowait()
                except queues.Empty:
                    break
                if done is None:
                    if key in self._ended:
                        self._ended[key].set()
                    continue
                self._progress[key] = (done, total)
                self._call(key, done, total)

    def close(self) -> None:
        """Stop the worker at once (a review under way is dropped: the server's exit must not wait
        for it)."""
        if self._poller is not None:
            self._poller.cancel()
        if self._pool is not None:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


# ----- the room server's side -----

HOST = 0
"""The host's seat (whoever made the room): its game is kept in the server's own progress."""

log = logging.getLogger(__name__)


def room_game(room, seat: int) -> RoomGame:
    """Seat ``seat``'s game in a finished room (``trainer.rooms.room.Room``): its hands, the
    players' names, the seats bots filled, and which of the seat's actions a bot made for it
    (its timer ran out, it was away, or the host handed it to a bot), read from the room's log."""
    hands = tuple(room.game.hands)
    counts = [0] * len(hands)
    hand, bot_made = 0, set()
    for entry in room.log:
        if entry["op"] == "next_hand":
            hand += 1
        elif entry["op"] == "act":
            if entry["seat"] == seat and entry["by"] != "player":
                bot_made.add((hand, counts[hand]))
            counts[hand] += 1
    if counts != [len(h.history) for h in hands]:
        raise ValueError("the room's log does not match its game")
    bots = {k: room.config.bot_level for k, place in enumerate(room.seats) if place.kind == "bot"}
    names = tuple(place.name for place in room.seats)
    return RoomGame(hands, seat, names, game_key(room.code, 1, seat), bots, frozenset(bot_made))


class RoomReviews:
    """What the hub asks of the coach: a seat's review with its progress (``__call__``), the
    host's game kept when the game ends (``game_over``), and a seat's game as a file (``file``).
    ``progress`` is the progress file to keep the host's game in (None: the learner's own)."""

    def __init__(self, reviewer: Reviewer | None = None, progress: str | Path | None = None) -> None:
        self.reviewer = reviewer or Reviewer()
        self.progress = progress
        self._tasks: set[asyncio.Task] = set()

    def keep(self, game: RoomGame, review: GameReview | None = None) -> str | None:
        """Keep the host's game (and review); None, or why it could not be kept."""
        try:
            store = Store(self.progress)
        except StoreError as error:
            return str(error)
        try:
            keep_game(store, game, review)
        except (StoreError, sqlite3.Error) as error:
            return str(error)
        finally:
            store.close()
        return None

    def game_over(self, room) -> None:
        """The game just ended: the host's seat is kept in the progress at once (off the loop)."""
        if room.seats[HOST].kind != "human":
            return
        task = asyncio.create_task(asyncio.to_thread(self._keep_logged, room_game(room, HOST)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _keep_logged(self, game: RoomGame) -> None:
        if (trouble := self.keep(game)) is not None:
            log.warning("the host's room game was not kept: %s", trouble)

    async def __call__(self, room, seat: int, push: Callable[[dict], None]) -> None:
        """Make (or take) the seat's review, telling the page its progress, then the review."""
        game = room_game(room, seat)

        def working(done: int, total: int) -> None:
            ahead = self.reviewer.ahead(game.key)
            push({"type": "review", "status": "working", "done": done, "total": total, "ahead": ahead})

        if game.key not in self.reviewer.finished:
            working(0, 0)
        try:
            finished = await self.reviewer.review(game, working)
        except Exception as error:  # the worker died or a bug: say so, the room goes on
            log.exception("a room review failed")
            text = f"The review could not be made ({type(error).__name__}); ask for it again."
            push({"type": "review", "status": "error", "text": text})
            return
        payload = dict(finished.payload)
        if seat == HOST:
            trouble = await asyncio.to_thread(self.keep, game, finished.review)
            payload["kept"] = (
                "This game and its review are kept in this Hearts Trainer's progress: the review "
                "page charts them, and the key moments replay as puzzles there."
                if trouble is None
                else f"This game could not be kept in this Hearts Trainer's progress ({trouble}): "
                "download it to keep it."
            )
        else:
            payload["kept"] = (
                "To keep this game in your own progress (the review page's charts, the key moments as "
                "puzzles), download it and import it into your Hearts Trainer."
            )
        push(payload)

    async def file(self, room, seat: int) -> bytes:
        """The seat's game as a progress file: with its review once made."""
        game = room_game(room, seat)
        finished = self.reviewer.finished.get(game.key)
        if finished is not None:
            return finished.file
        return await asyncio.to_thread(progress_file, game)

    def close(self) -> None:
        self.reviewer.close()


def quick_reviews(samples: int) -> RoomReviews:
    """Reviews on ``samples`` imagined deals a decision (tests: the coach's depth takes minutes)."""
    stages = ((16, 12),)
    depth = ReviewDepth(play_samples=samples, pass_samples=samples, pass_seconds=None, pass_stages=stages)
    return RoomReviews(Reviewer(depth))


async def download_game(hub, request) -> Response:
    """``POST /rooms/api/rooms/{code}/game`` with ``{"secret": S}`` (in the body: never in an address
    a log keeps): that seat's finished game as a progress file, once the game is over."""
    body = await request.body()
    if len(body) > 4096:
        return _refused("The request is over 4096 bytes.", 413)
    try:
        secret = json.loads(body).get("secret")
    except (ValueError, AttributeError):
        return _refused('The request must be JSON: {"secret": ...}.', 400)
    await hub.start()
    room = hub.room(request.path_params["code"])
    if room is None:
        return _refused("There is no room at this address: it may have expired.", 404)
    seat = room.seat_of(secret)
    if seat is None:
        return _refused("This is not the secret of a seat in this room.", 403)
    if room.status != "over" or hub.reviewer is None:
        return _refused("The game can be downloaded once it is over.", 409)
    data = await hub.reviewer.file(room, seat)
    headers = {"Content-Disposition": f'attachment; filename="{FILE_NAME}"', "Cache-Control": "no-store"}
    return Response(data, media_type="application/json", headers=headers)


def _refused(text: str, status: int) -> JSONResponse:
    return JSONResponse({"type": "error", "text": text}, status_code=status)
