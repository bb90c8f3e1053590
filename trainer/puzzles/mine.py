"""The puzzle miner: ``python -m trainer.puzzles.mine --out puzzles --passes 5 --plays 5``.

It plays hands with four Normal bots (the rules a careful learner follows) and looks at every
decision. Where the evaluator finds that the natural-looking choice (the Normal bot's) loses to
the best option by a clear margin, it evaluates the position again, deeply, and keeps it only if
the accepted answers (those within the grading tolerance of the best) beat every other option
by more than three standard errors of the difference and ``MIN_MARGIN`` points. It then writes a puzzle
file with the themes the position implies and an explanation from the coach.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine import CardSet, HandState, Phase, PlayerView, Rules, deal_game_hand
from engine.bots import make_bot
from engine.evaluator import PASS_STAGES, Evaluation, evaluate_pass, evaluate_play

from ..coach import coach_pass, coach_play
from ..coach.grading import tolerance_for
from .format import THEMES, answer_from_evaluation, position_state, save_puzzle
from .themes import pass_themes, play_themes

__all__ = ["Candidate", "decisions", "mine", "verify"]

SCREEN_SAMPLES = {"pass": 192, "play": 192}
DEEP_SAMPLES = {"pass": 1200, "play": 1500}
MIN_NATURAL_LOSS = 1.5
MAX_RECHECKS = 48
MIN_MARGIN = 0.75
"""Every option outside the accepted ones must lose at least this much (and 3 standard errors)."""


@dataclass
class Candidate:
    kind: str
    seat: int
    natural: object
    evaluation: Evaluation
    accepted: list[str]
    margin: float
    """Smallest (loss / its standard error) among the rejected options."""
    include: list[str]
    """Passes evaluated at full depth whatever their screening (to reproduce the evaluation)."""


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


def _evaluate(kind: str, view: PlayerView, samples: int, seed: int, include: list) -> Evaluation:
    if kind == "pass":
        return evaluate_pass(view, samples=samples, seed=seed, include=include)
    return evaluate_play(view, samples=samples, seed=seed)


def _unsettled(evaluation: Evaluation) -> list:
    """Options the evaluation cannot yet place: accepted on few deals, or rejected without a
    clear, significant margin."""
    full = evaluation.samples
    unsettled = []
    for value in evaluation.options:
        accepted = value.loss <= tolerance_for(value)
        clear = value.loss >= MIN_MARGIN and value.loss >= 3 * value.loss_error
        if (accepted and value.samples < full) or (not accepted and not clear):
            unsettled.append(value.option)
    return unsettled


def verify(kind: str, view: PlayerView, natural: object, seed: int) -> Candidate | None:
    """The deep evaluation; None unless the accepted answers stand clear of all the rest.

    Passes screened out early carry wide error bars, so any pass the deep evaluation cannot yet
    place is evaluated again at full depth (up to ``MAX_RECHECKS`` of them, in a few rounds)."""
    include = [natural]
    for _ in range(3):
        evaluation = _evaluate(kind, view, DEEP_SAMPLES[kind], seed, include)
        unsettled = [option for option in _unsettled(evaluation) if option not in include]
        if not unsettled:
            break
        include += unsettled
        if len(include) > MAX_RECHECKS:
            return None
    else:
        return None
    if _unsettled(evaluation):
        return None
    accepted = [v for v in evaluation.options if v.loss <= tolerance_for(v)]
    natural_value = evaluation.value_of(natural)
    if natural_value in accepted or natural_value.loss < MIN_NATURAL_LOSS:
        return None
    rejected = [v for v in evaluation.options if v.loss > tolerance_for(v)]
    margin = min(v.loss / v.loss_error if v.loss_error else float("inf") for v in rejected)
    texts = [_text(v.option) for v in accepted]
    return Candidate(kind, view.seat, natural, evaluation, texts, margin, [_text(o) for o in include])


def _text(option: object) -> str:
    return " ".join(option.codes) if isinstance(option, CardSet) else option.code  # type: ignore[attr-defined]


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


def _puzzle_data(number: int, candidate: Candidate, state: HandState, rules: Rules, position: dict) -> dict:
    kind = candidate.kind
    view = state.view(candidate.seat)
    evaluation = candidate.evaluation
    if kind == "pass":
        themes = pass_themes(view, evaluation, candidate.natural)
        verdict = coach_pass(view, candidate.natural, evaluation)
    else:
        themes = play_themes(view, evaluation, candidate.natural)
        verdict = coach_play(view, candidate.natural, evaluation)
    natural = str(candidate.natural)
    best = str(evaluation.best.option)
    explanation = (
        f"The natural-looking {natural} costs about {verdict.grade.loss:.1f} points against the other "
        f"players; {best} is best. " + " ".join(verdict.reasons)
    ).strip()
    verified = (
        f"{len(evaluation.options)} options evaluated on {evaluation.samples} imagined deals (seed "
        f"{evaluation.seed}); every option outside 'accepted' loses at least {MIN_MARGIN} points and "
        f"at least {candidate.margin:.1f} standard errors against the best."
    )
    # A first guess at the puzzle's rating, refined by Glicko-2 as learners attempt it: a
    # natural choice that costs little is a subtler mistake to spot.
    natural_loss = evaluation.value_of(candidate.natural).loss
    difficulty = 1200 + (250 if natural_loss < 3 else 0) + 50 * (len(themes) - 1)
    return {
        "id": f"{kind}-{number:03d}",
        "kind": kind,
        "title": f"{'What would you pass?' if kind == 'pass' else 'What would you play?'} "
        f"{THEMES[themes[0]]}",
        "themes": themes,
        "difficulty": int(difficulty),
        "explanation": explanation,
        "rules": {k: v for k, v in rules.to_dict().items() if v != Rules().to_dict()[k]},
        "position": position,
        "answer": answer_from_evaluation(
            evaluation,
            candidate.accepted,
            verified,
            PASS_STAGES if kind == "pass" else (),
            candidate.include if kind == "pass" else [],
        ),
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
        screen = _evaluate(kind, view, SCREEN_SAMPLES[kind], seed + hands, [natural])
        value = screen.value_of(natural)
        if value.loss < MIN_NATURAL_LOSS or value.loss < 3 * value.loss_error:
            continue
        # Evaluate the position exactly as the file will hold it (the solver turned to seat
        # 0), so that a fresh evaluation of the file reproduces it.
        position = _position(kind, state, seat)
        _, state = position_state(kind, rules, position)
        candidate = verify(kind, state.view(0), natural, seed + 7919 * (hands + 1))
        if candidate is None:
            continue
        number = start + found[kind]
        data = _puzzle_data(number, candidate, state, rules, position)
        if lead_themes.get((kind, data["themes"][0]), 0) >= per_theme:
            continue
        lead_themes[kind, data["themes"][0]] = lead_themes.get((kind, data["themes"][0]), 0) + 1
        path = out / f"{kind}-{number:03d}.toml"
        save_puzzle(data, path)
        found[kind] += 1
        written.append(path)
        log(f"{path}: natural {_text(natural)} loses {candidate.evaluation.value_of(natural).loss:.1f}")
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
