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

``trainer.rooms.reviewer`` runs these in one worker process for the room server.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine import HandState, Phase

from ..coach import coach_pass, coach_play
from ..progress.decisions import now, option_symbols, with_time
from ..progress.games import game_record, is_seat_action, save_game
from ..progress.transfer import export_bytes, read_progress
from ..review.game import GameReview, HandReview, Moment, ReviewDepth, review_hands, without_bot_made
from ..review.notes import hand_note
from ..review.page import LUCK_AND_SKILL, NO_MOMENTS
from ..review.stored import keep_review
from ..seats import seat_names
from ..store import MEMORY, Store

__all__ = [
    "FILE_NAME",
    "RoomGame",
    "game_key",
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
            if not is_seat_action(self.hands, self.seat, hand, index):
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
    review = without_bot_made(review_hands(game.hands, game.seat, budget, progress, workers=1), game.bot_made)
    at = now()
    hands = tuple(
        replace(hand, moments=tuple(replace(m, decision=with_time(m.decision, at)) for m in hand.moments))
        for hand in review.hands
    )
    return GameReview(review.seat, hands, review.game_id)


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
    return game_record(game.hands, game.seat, game.bots, game.bot_made)


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
