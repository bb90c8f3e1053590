"""A recorded history whose chart figures are known by hand, and a short game played by bots.

Twelve graded decisions over three days (see the table in ``HISTORY``): every chart's numbers in
``tests/review/test_charts.py`` are worked out from it by hand.
"""

from __future__ import annotations

from engine import HandState, Phase, Rules, hand_to_record
from engine.bots import make_bot
from trainer.progress.decisions import Decision, record_decisions
from trainer.progress.games import game_record, save_game
from trainer.store import Store
from trainer.table import TableSession

# (day, source, kind, phase, pass direction, themes, loss, band)
HISTORY = [
    ("2026-01-01", "lesson", "pass", "pass", "left", ("queen_of_spades",), 4.0, "mistake"),
    ("2026-01-01", "lesson", "play", "early", "left", ("ducking",), 0.0, "best"),
    ("2026-01-01", "puzzle", "play", "middle", "right", ("ducking", "counting"), 2.0, "inaccuracy"),
    ("2026-01-01", "puzzle", "play", "late", "right", ("endgame",), 0.0, "best"),
    ("2026-01-02", "game", "pass", "pass", "right", ("queen_of_spades", "voids"), 7.0, "blunder"),
    ("2026-01-02", "game", "play", "early", "across", ("ducking",), 0.5, "good"),
    ("2026-01-02", "game", "play", "middle", "across", ("queen_of_spades",), 3.0, "mistake"),
    ("2026-01-02", "game", "play", "late", "hold", ("endgame",), 0.0, "best"),
    ("2026-01-03", "game", "play", "early", "hold", ("ducking",), 0.0, "best"),
    ("2026-01-03", "game", "play", "middle", "left", ("counting",), 0.0, "best"),
    ("2026-01-03", "game", "play", "late", "left", ("endgame",), 0.0, "best"),
    ("2026-01-03", "puzzle", "pass", "pass", "across", ("voids",), 1.0, "good"),
]
TRICKS = {"pass": 0, "early": 2, "middle": 7, "late": 12}


def history_decisions(game_id: int | None = None) -> list[Decision]:
    position = hand_to_record(HandState.from_seed(1, Rules()))
    decisions = []
    for number, (day, source, kind, phase, direction, themes, loss, band) in enumerate(HISTORY):
        decisions.append(
            Decision(
                source=source,
                kind=kind,
                seat=0,
                position=position,
                choice="QS" if kind == "play" else "QS AH KH",
                best="2C" if kind == "play" else "2C 3C 4C",
                loss=loss,
                loss_error=0.1,
                band=band,
                themes=themes,
                phase=phase,
                pass_direction=direction,
                trick=TRICKS[phase],
                ref=f"ref-{number}",
                game_id=game_id if source == "game" else None,
                hand_index=0 if source == "game" else None,
                at=f"{day}T10:{number:02d}:00",
            )
        )
    return decisions


def play_bot_game(rules: Rules, seed: int, learner: str = "easy", others: str = "normal") -> TableSession:
    """A whole game at the table, the learner's seat played by a ``learner`` bot."""
    session = TableSession(rules, seed, 0, dict.fromkeys(range(1, rules.players), others))
    return finish_game(session, learner, seed)


def finish_game(session: TableSession, learner: str = "easy", seed: int = 0) -> TableSession:
    """Play the table's game on to its end, the learner's seat played by a ``learner`` bot."""
    me = make_bot(learner, seed)
    seat = session.seat
    while not session.winners:
        if session.hand.is_over:
            session.new_hand()
        elif session.bot_to_act is not None:
            session.bot_step()
        else:
            view = session.hand.view(seat)
            if session.hand.phase is Phase.PASSING:
                session.pass_selected(me.choose_pass(view).codes)
            elif session.hand.phase is Phase.PLAYING:
                session.play(me.choose_play(view).code)
            else:
                session.choose_moon(me.choose_moon(view).value)
    return session


def record_history(store: Store, game_seed: int = 5, target: int = 26) -> int:
    """The twelve decisions and one finished short game (not yet reviewed); the game's id."""
    session = play_bot_game(Rules(target=target), game_seed)
    game_id = save_game(store, game_record(session.game_hands, 0, session.opponents), session.game_key)
    record_decisions(store, history_decisions(game_id))
    return game_id
