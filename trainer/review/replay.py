"""A key moment of a reviewed game, replayed as a puzzle.

The moment becomes a puzzle in the puzzles' own format (``trainer.puzzles.format``): the position
turned so the learner sits at seat 0, the review's evaluation as the stored answer (every option
within the grading tolerance of the best is accepted), the themes the position implies and the
coach's explanation. It is written under the learner's data folder and opened on a puzzle board.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..coach import coach_pass, coach_play
from ..coach.grading import TOLERANCE
from ..progress.decisions import option_symbols, option_text
from ..puzzles.board import PuzzleBoard
from ..puzzles.format import answer_from_evaluation, load_puzzle, save_puzzle
from ..puzzles.tasks import position_of
from ..store import data_home
from .game import Moment, ReviewDepth

__all__ = ["moment_id", "moment_puzzle", "replay_board", "save_moment_puzzle"]


def moment_id(game_id: int | None, hand_index: int, trick: int) -> str:
    """A key moment's puzzle id: its game, hand (from 1) and trick (0 for the pass)."""
    return f"review-g{game_id or 0}-h{hand_index + 1}-t{trick}"


def moment_puzzle(moment: Moment, puzzle_id: str) -> dict:
    """The moment as a puzzle's plain data (what ``save_puzzle`` writes)."""
    decision = moment.decision
    state, seat, evaluation = moment.state, decision.seat, moment.evaluation
    kind = decision.kind
    position = position_of(kind, state, seat)
    players = state.players
    position["scores"] = [moment.scores[(s + seat) % players] for s in range(players)]
    view = state.view(seat, scores=moment.scores)
    coach = coach_pass if kind == "pass" else coach_play
    verdict = coach(view, decision.choice, evaluation)
    accepted = [option_text(v.option) for v in evaluation.options if v.loss <= TOLERANCE]
    where = "the pass" if kind == "pass" else f"trick {decision.trick}"
    rules = state.rules.to_dict()
    defaults = type(state.rules)().to_dict()
    return {
        "id": puzzle_id,
        "kind": kind,
        "title": f"From your game: hand {moment.hand_index + 1}, {where}",
        "themes": list(decision.themes),
        "difficulty": 1500,
        # the learner reads cards as the table shows them (K♠), never as codes (KS)
        "explanation": f"In the game you chose {option_symbols(decision.choice)}. {verdict.headline} "
        + " ".join(verdict.reasons),
        "rules": {k: v for k, v in rules.items() if v != defaults[k]},
        "position": position,
        "answer": answer_from_evaluation(
            evaluation,
            accepted,
            f"From a game review: {len(evaluation.options)} options on {evaluation.samples:,} "
            "imagined deals.",
            moment_stages(moment),
            [decision.choice] if kind == "pass" else [],
        ),
    }


def moment_stages(moment: Moment) -> tuple:
    return ReviewDepth().pass_stages if moment.decision.kind == "pass" else ()


def save_moment_puzzle(moment: Moment, folder: str | Path | None = None, game_id: int | None = None) -> Path:
    """Write the moment's puzzle file (by default under the learner's data folder); its path. A
    moment of a kept review (``trainer.review.stored``) brings its puzzle's data with it."""
    decision = moment.decision
    game = game_id if game_id is not None else decision.game_id
    puzzle_id = moment_id(game, moment.hand_index, decision.trick)
    folder = Path(folder) if folder is not None else data_home() / "review-puzzles" / puzzle_id
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{puzzle_id}.toml"
    kept = getattr(moment, "puzzle", None)
    save_puzzle({**kept, "id": puzzle_id} if kept is not None else moment_puzzle(moment, puzzle_id), path)
    load_puzzle(path)  # refuses a file that would not load, naming the field
    return path


def replay_board(
    moment: Moment, folder: str | Path | None = None, opponents: Mapping[str | int, str] | None = None
) -> PuzzleBoard:
    """A puzzle board showing the moment, to try it again. ``opponents`` (the kept game's, by
    seat) label the other seats with the levels the game was played against."""
    path = save_moment_puzzle(moment, folder)
    board = PuzzleBoard(path.parent)
    board.show_next()
    if opponents:
        # The puzzle turns the table so the learner sits at seat 0: seat s was the game's seat + s.
        players = getattr(moment, "players", None) or moment.state.players
        seat = moment.decision.seat
        levels = {int(s): str(level) for s, level in opponents.items()}
        table = {s: levels[(s + seat) % players] for s in range(1, players) if (s + seat) % players in levels}
        board.widget.set_bots(table)
    return board
