"""The coach after a room's game: each human seat's own review, and the game kept in progress.

For a finished room game and one seat, ``review_seat`` runs lesson 9's review
(``trainer.review.game.review_hands``) from that seat: every pass and play valued from that
seat's view only, the key moments, the cards/decisions/luck split. Decisions a bot made for the
seat (its timer ran out, or it was away) are valued but not graded as the player's: their cost
falls in *luck* with the others' play, so the three figures still add up to the result.

``review_payload`` is what the room page draws (``static/review.js``): plain JSON holding that
seat's own hands and decisions and what was played face up, never another hand or a pass the seat
did not see. Every sentence in it is one the coach checked (``coach_play``/``coach_pass`` verdicts,
``trainer.review.notes`` hand notes) or a figure of the review said as lesson 9 says it.

``keep_game`` saves the seat's game (and its review, once made) in a progress store, as lesson 9
keeps its games: the review charts count it and its key moments replay as puzzles.
``progress_file`` is the same as a file ``hearts-trainer import-progress`` reads: it is built in a
store of its own, exported as the site's **Download my progress** exports, and read back through
the import's own checks (``read_progress``) before it is handed out.

``Reviewer`` runs reviews in one worker process, one at a time, so the room server's event loop
keeps answering; it reports progress (done, total) and keeps each finished review for the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import queue as queues
import sqlite3
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path

from starlette.responses import JSONResponse, Response

from engine import HandState, Phase
from engine.search.threads import one_thread

from ..coach import coach_pass, coach_play
from ..progress.decisions import now, option_symbols, with_time
from ..progress.games import game_record, save_game
from ..progress.transfer import export_bytes, read_progress
from ..review.game import GameReview, HandReview, Moment, ReviewDepth, review_hands
from ..review.notes import hand_note
from ..review.page import LUCK_AND_SKILL, NO_MOMENTS
from ..review.stored import keep_review
from ..seats import seat_names
from ..store import MEMORY, Store, StoreError

__all__ = [
    "FILE_NAME",
    "Reviewer",
    "RoomGame",
    "keep_game",
    "progress_file",
    "review_payload",
    "review_seat",
]

FILE_NAME = "hearts-trainer-room-game.json"
"""The downloaded file's name (``hearts-trainer import-progress`` reads any name)."""

BANDS = ("best", "good", "inaccuracy", "mistake", "blunder")


def _unseeded(hand: HandState) -> HandState:
    """The hand replayed from its dealt cards with no seed: the record lists the cards dealt and
    never the room's seed, from which every hand of its game could be dealt again."""
    fresh = HandState(hand.rules, hand.dealt, hand.pass_direction)
    for action in hand.history:
        fresh.apply(action)
    return fresh


@dataclass(frozen=True)
class RoomGame:
    """A finished room game, as one seat reviews and keeps it."""

    hands: tuple[HandState, ...]
    """Every hand, finished, in order (``engine.game.Game.hands``); held without their seeds."""
    seat: int
    names: tuple[str, ...]
    """The players' names, by seat."""
    key: str
    """The game's key in a progress store: the same game from the same seat is kept once."""
    bots: dict[int, str] = field(default_factory=dict)
    """Seats a bot filled from the start, with its level (the game's opponents, as lesson 9
    keeps them); seats of people are not listed."""
    bot_made: frozenset[tuple[int, int]] = frozenset()
    """(hand index, index in that hand's history) of this seat's actions a bot made for it."""

    def __post_init__(self) -> None:
        if not self.hands or not all(hand.is_over for hand in self.hands):
            raise ValueError("only a game whose every hand is finished can be reviewed")
        # kept, reviewed and written without the room's seeds (``_unseeded``)
        object.__setattr__(self, "hands", tuple(map(_unseeded, self.hands)))
        players = self.hands[0].players
        if not 0 <= self.seat < players or len(self.names) != players:
            raise ValueError(f"seat {self.seat} and {len(self.names)} names for a table of {players}")
        for hand, index in self.bot_made:
            history = self.hands[hand].history if 0 <= hand < len(self.hands) else ()
            if not 0 <= index < len(history) or getattr(history[index], "seat", None) != self.seat:
                raise ValueError(f"hand {hand + 1}, action {index}: not an action of seat {self.seat}")


def game_key(room: str, game: int, seat: int) -> str:
    """A room game's key: the room's code is hashed (the file may be shared; the code opens the room)."""
    digest = hashlib.sha256(room.encode()).hexdigest()[:16]
    return f"rooms/{digest}/game{game}/seat{seat}"


# ----- the review -----


def review_seat(
    game: RoomGame,
    budget: ReviewDepth | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> GameReview:
    """Lesson 9's review of ``game`` from its seat (in this process), without the decisions a bot
    made for the seat; each decision stamped once, so wherever it is kept it is the same row."""
    review = review_hands(game.hands, game.seat, budget, progress, workers=1)
    at = now()
    hands = []
    for hand in review.hands:
        mine = tuple(
            replace(m, decision=with_time(m.decision, at))
            for m in hand.moments
            if (hand.index, m.state.actions_made) not in game.bot_made
        )
        hands.append(replace(hand, moments=mine))
    return GameReview(review.seat, tuple(hands), review.game_id)


def _for_game(review: GameReview, game_id: int) -> GameReview:
    """The same review, its decisions pointing at ``game_id`` (the game as one store numbers it)."""
    hands = tuple(
        replace(
            hand,
            moments=tuple(replace(m, decision=replace(m.decision, game_id=game_id)) for m in hand.moments),
        )
        for hand in review.hands
    )
    return GameReview(review.seat, hands, game_id)


# ----- the page's payload -----


def _many(count: int, one: str, more: str = "") -> str:
    return f"{count} {one if count == 1 else more or one + 's'}"


def summary_lines(review: GameReview) -> list[str]:
    """The review's headline and its count of decisions, as lesson 9's review page says them."""
    bands = review.bands()
    return [
        f"Accuracy {review.accuracy:.0f}% · {review.loss_per_hand:.1f} points lost a hand",
        f"{_many(review.decisions, 'decision')}: {bands['best'] + bands['good']} best or good, "
        f"{_many(bands['inaccuracy'], 'inaccuracy', 'inaccuracies')}, {_many(bands['mistake'], 'mistake')}, "
        f"{_many(bands['blunder'], 'blunder')}.",
    ]


def _where(moment: Moment) -> str:
    where = "the pass" if moment.decision.kind == "pass" else f"trick {moment.decision.trick}"
    return f"hand {moment.hand_index + 1}, {where}"


def _seen(moment: Moment, names: Sequence[str]) -> dict:
    """What the seat saw when it decided: its own cards and, for a play, the trick so far."""
    state, seat = moment.state, moment.decision.seat
    seen: dict = {"hand": [str(card) for card in state.hand(seat)]}
    if state.phase is Phase.PASSING:
        seen["pass_direction"] = state.pass_direction.value
    else:
        seen["trick"] = [{"name": names[s], "card": str(card)} for s, card in state.current_trick.plays]
    return seen


def _moment(moment: Moment, names: Sequence[str]) -> dict:
    d = moment.decision
    view = moment.state.view(d.seat, scores=moment.scores)
    verdict = (coach_pass if d.kind == "pass" else coach_play)(view, d.choice, moment.evaluation)
    return {
        "where": _where(moment),
        "kind": d.kind,
        "choice": option_symbols(d.choice),
        "best": option_symbols(d.best),
        "loss": round(d.loss, 1),
        "band": d.band,
        "seen": _seen(moment, names),
        # the coach's own sentences: each reason's facts checked against this seat's view
        "verdict": [verdict.headline, *verdict.reasons, verdict.numbers],
    }


def _hand(hand: HandReview) -> dict:
    note = hand_note(hand)
    return {
        "hand": hand.index + 1,
        "pass": hand.pass_direction,
        "points": hand.points,
        "cards": round(hand.cards, 1),
        "decisions": round(hand.decisions_loss, 1),
        "luck": round(hand.luck, 1),
        "result": round(hand.result, 1),
        "note": [s.text for s in note.sentences] if note else [],
    }


def review_payload(game: RoomGame, review: GameReview) -> dict:
    """The review as the room page draws it (JSON): this seat's figures, hand by hand, and its key
    moments with the coach's verdicts; of the other seats, their names and points only."""
    players = len(game.names)
    totals = [sum(hand.result.scores[s] for hand in game.hands) for s in range(players)]
    words = seat_names(players, game.seat)  # the coach's names for the seats, from this one
    around = [(game.seat + offset) % players for offset in range(1, players)]
    return {
        "type": "review",
        "status": "done",
        "seat": game.seat,
        "players": [
            {"name": name, "total": totals[s], "you": s == game.seat} for s, name in enumerate(game.names)
        ],
        "seat_words": [{"seat": words[s], "name": game.names[s]} for s in around],
        "scores": [list(hand.result.scores) for hand in game.hands],
        "lines": summary_lines(review) + _bot_line(game),
        "explain": LUCK_AND_SKILL,
        "no_moments": NO_MOMENTS,
        "bands": review.bands(),
        "accuracy": round(review.accuracy, 1),
        "hands": [_hand(hand) for hand in review.hands],
        "all": {
            "points": review.points,
            "cards": round(review.cards, 1),
            "decisions": round(review.total_loss, 1),
            "luck": round(review.luck, 1),
            "result": round(review.result, 1),
        },
        "moments": [_moment(m, game.names) for m in review.key_moments()],
    }


def _bot_line(game: RoomGame) -> list[str]:
    count = len(game.bot_made)
    if not count:
        return []
    return [
        f"{_many(count, 'pass or play', 'passes and plays')} of yours {'was' if count == 1 else 'were'} "
        "made by a bot for you (your time ran out, or you were away): not graded as yours; what "
        f"{'it' if count == 1 else 'they'} cost counts in *luck*, with the others' play."
    ]


# ----- the game kept in progress -----


def _record(game: RoomGame) -> dict:
    return game_record(game.hands, game.seat, game.bots)


def keep_game(store: Store, game: RoomGame, review: GameReview | None = None) -> int:
    """Keep the seat's game in ``store`` under its key, once, with its review when made (its
    decisions for the charts, its key moments as puzzles); the game's id. Without a review, a game
    kept already is left as it is (its review is not thrown away)."""
    if review is None:  # kept already (with its review, perhaps): left as it is
        rows = store.query("SELECT id FROM games WHERE key = ?", (game.key,))
        if rows:
            return rows[0][0]
    game_id = save_game(store, _record(game), game.key)
    if review is not None:
        keep_review(store, _for_game(review, game_id))
    return game_id


def progress_file(game: RoomGame, review: GameReview | None = None) -> bytes:
    """The seat's game (and review) as a progress file, checked as ``import-progress`` checks it."""
    store = Store(MEMORY)
    try:
        keep_game(store, game, review)
        data = export_bytes(store)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / FILE_NAME
            path.write_bytes(data)
            read_progress(path, store)  # raises ProgressFileError naming the field
    finally:
        store.close()
    return data


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
