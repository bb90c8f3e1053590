"""The puzzle miner: ``python -m trainer.puzzles.mine --out puzzles --passes 5 --plays 5``.

It plays hands with four Normal bots (the rules a careful learner follows) and looks at every
decision. Where a quick evaluation finds that the natural-looking choice (the Normal bot's)
loses to the best option by a clear margin, it values every option again on fresh deals and
keeps the position only if it passes the acceptance rule (``trainer.puzzles.verify``): the
accepted answers within the coach's tolerance of the best, every other option at least
``MIN_LOSS`` points and three standard errors worse. It then writes a puzzle file with the
themes the position implies and an explanation from the coach.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from engine import HandState, Phase, PlayerView, Rules, deal_game_hand
from engine.bots import make_bot
from engine.evaluator import Evaluation, evaluate_pass, evaluate_play

from ..coach import coach_pass, coach_play
from .format import THEMES, answer_from_evaluation, position_state, save_puzzle
from .themes import pass_themes, play_themes
from .verify import MIN_ERRORS, MIN_LOSS, Check, text_of, verify_position

__all__ = ["decisions", "mine", "puzzle_data"]

SCREEN_SAMPLES = {"pass": 192, "play": 192}
MIN_NATURAL_LOSS = 1.5


def decisions(rules: Rules, seed: int, hands: int) -> Iterator[tuple[str, HandState, int, object]]:
    """Every decision of ``hands`` hands played by Normal bots: (kind, state before it, seat,
    the Normal bot's choice)."""
    bots = [make_bot("normal", seat) for seat in range(rules.players)]
    for index in range(hands):
        state = deal_game_hand(rules, seed, index)
        while not state.is_over:
            if state.phase is Phase.PASSING:
                seat = state.seats_to_pass[0]
                choice = bots[seat].choose_pass(state.view(seat))
                yield "pass", state.copy(), seat, choice
                state.pass_cards(seat, choice)
            elif state.phase is Phase.MOON_CHOICE:
                state.choose_moon(bots[state.to_move].choose_moon(state.view(state.to_move)))
            else:
                seat = state.to_move
                view = state.view(seat)
                choice = bots[seat].choose_play(view)
                if len(view.legal_cards) > 1:
                    yield "play", state.copy(), seat, choice
                state.play(choice)


def _screen(kind: str, view: PlayerView, seed: int, natural: object) -> Evaluation:
    if kind == "pass":
        return evaluate_pass(view, samples=SCREEN_SAMPLES[kind], seed=seed, include=[natural])
    return evaluate_play(view, samples=SCREEN_SAMPLES[kind], seed=seed)


def _text(option: object) -> str:
    return text_of(option)


def _position(kind: str, state: HandState, seat: int) -> dict:
    """The position as the file stores it, turned round so that the solver sits at seat 0
    (seat numbers are only labels: left, right and across stay where they were)."""
    players = state.players

    def turned(values: list) -> list:
        return [values[(s + seat) % players] for s in range(players)]

    position: dict = {
        "seat": 0,
        "pass_direction": state.pass_direction.value,
        "hands": turned([_text(state.hand(s)) for s in range(players)]),
    }
    if kind == "pass":
        return position
    tricks = [trick for trick in (*state.tricks, state.current_trick) if trick.cards]
    position["tricks"] = [" ".join(card.code for card in trick.cards) for trick in tricks]
    if state.pass_direction.value != "hold":
        position["passed"] = turned([_text(state.passed(s)) for s in range(players)])
    position["first_leader"] = (tricks[0].leader - seat) % players
    return position


def puzzle_data(
    puzzle_id: str, kind: str, state: HandState, rules: Rules, position: dict, checked: Check, natural: object
) -> dict:
    """A verified position as a puzzle file's plain data."""
    view = state.view(0)
    evaluation = checked.evaluation
    if kind == "pass":
        themes = pass_themes(view, evaluation, natural)
        verdict = coach_pass(view, natural, evaluation)
    else:
        themes = play_themes(view, evaluation, natural)
        verdict = coach_play(view, natural, evaluation)
    explanation = (
        f"The natural-looking {natural} costs about {verdict.grade.loss:.1f} points against the other "
        f"players; {evaluation.best.option} is best. " + " ".join(verdict.reasons)
    ).strip()
    verified = (
        f"All {len(evaluation.options)} options valued on the same {evaluation.samples} fresh imagined "
        f"deals (seed {evaluation.seed}, {evaluation.method} play-outs); every option outside "
        f"'accepted' loses at least {MIN_LOSS} points and {MIN_ERRORS:.0f} standard errors (the "
        f"smallest margin is {checked.margin:.1f} errors)."
    )
    # A first guess at the puzzle's rating, refined by Glicko-2 as learners attempt it: a
    # natural choice that costs little is a subtler mistake to spot.
    natural_loss = evaluation.value_of(natural).loss
    difficulty = 1200 + (250 if natural_loss < 3 else 0) + 50 * (len(themes) - 1)
    return {
        "id": puzzle_id,
        "kind": kind,
        "title": f"{'What would you pass?' if kind == 'pass' else 'What would you play?'} "
        f"{THEMES[themes[0]]}",
        "themes": themes,
        "difficulty": int(difficulty),
        "explanation": explanation,
        "rules": {k: v for k, v in rules.to_dict().items() if v != Rules().to_dict()[k]},
        "position": position,
        "answer": answer_from_evaluation(evaluation, list(checked.accepted), verified),
    }


def mine(
    out: Path, passes: int, plays: int, seed: int = 1, start: int = 1, per_theme: int = 6, log=print
) -> list[Path]:
    """Write up to ``passes`` pass puzzles and ``plays`` play puzzles into ``out``, at most
    ``per_theme`` of each kind led by the same theme, so that the set covers many lessons."""
    rules = Rules()
    wanted = {"pass": passes, "play": plays}
    found = {"pass": 0, "play": 0}
    lead_themes: dict[tuple[str, str], int] = {}
    written: list[Path] = []
    hands = 0
    for kind, state, seat, natural in decisions(rules, seed, 10_000):
        if found[kind] >= wanted[kind]:
            if all(found[k] >= wanted[k] for k in wanted):
                break
            continue
        view = state.view(seat)
        if kind == "pass" and seat == 0:
            hands += 1
        screen = _screen(kind, view, seed + hands, natural)
        value = screen.value_of(natural)
        if value.loss < MIN_NATURAL_LOSS or value.loss < 3 * value.loss_error:
            continue
        # Verify the position exactly as the file will hold it (the solver turned to seat 0),
        # on fresh deals, so that an evaluation of the file reproduces it.
        position = _position(kind, state, seat)
        _, state = position_state(kind, rules, position)
        checked = verify_position(kind, state.view(0), seed + 7919 * (hands + 1), natural)
        if not checked.holds:
            continue
        number = start + found[kind]
        data = puzzle_data(f"{kind}-{number:03d}", kind, state, rules, position, checked, natural)
        if lead_themes.get((kind, data["themes"][0]), 0) >= per_theme:
            continue
        lead_themes[kind, data["themes"][0]] = lead_themes.get((kind, data["themes"][0]), 0) + 1
        path = out / f"{kind}-{number:03d}.toml"
        save_puzzle(data, path)
        found[kind] += 1
        written.append(path)
        log(f"{path}: natural {_text(natural)} loses {checked.evaluation.value_of(natural).loss:.1f}")
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("puzzles"))
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--plays", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="seed of the bot games mined")
    parser.add_argument("--start", type=int, default=1, help="number of the first puzzle written")
    parser.add_argument("--per-theme", type=int, default=6, help="puzzles of a kind led by one theme")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    written = mine(
        args.out,
        args.passes,
        args.plays,
        args.seed,
        args.start,
        args.per_theme,
        log=lambda m: print(m, flush=True),
    )
    print(f"{len(written)} puzzles written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
