"""Do the coach's pass verdicts of "mistake" or worse hold when strong players play both passes out?

Positions: the passes of Normal-bot games dealt from ``--seed`` (one seat a hand, hold hands
skipped). The learner's pass is the Normal bot's; when the coach (``trainer.coach.depth.judge_pass``
at the coach's depth) calls it better than a mistake, a pass drawn at random among those its
screening says lose ``--low``-``--high`` points is judged instead. Verdicts whose band is mistake
or blunder are checked:

1. ``--deals`` deals consistent with the learner's view, dealt as the evaluator imagines them
   (``engine.search.pass_worlds.deal_for_pass``: the unseen cards shuffled among the others);
2. on each deal the three other seats pass as Hard does, once; then the learner's pass and the
   coach's best are each played to the hand's end by Hard at every seat, the same bots with the
   same seeds for both (paired: the luck of the deal and of the bots is shared);
3. realised loss = the learner's score less the others' average after the learner's pass, minus
   the same after the coach's best; its mean and standard error over the deals, against the
   coach's loss (forecast measure, as the learner reads it).

Hard plays on a bounded budget (``--play-samples`` deals a play, the browser's pass budget
``BROWSER_PASS``): the full budget costs seconds a hand and the check needs thousands of hands.
``--strength DEALS`` first plays that Hard against three Normal bots (duplicate deals): at 128
deals a play it beat them by 5.18 +- 1.24 points a hand over 60 deals (full Hard: 4.64 +- 0.54).

The summary counts the verdicts whose realised loss has the coach's sign (above 0) and those
whose coach's loss lies within two standard errors of it, over all and where the two passes
differ in the Q♠ (``queen_differs``).

Every checked verdict goes to a journal (``--journal``, one JSON line a hand), so a run can be
stopped and continued; the summary is written from the journal. ``--block B`` (B > 0) plays
another ``--deals`` deals (their own seeds) for every verdict in the journal, the same two
passes; the summary pools each verdict's blocks.

``--rejudge FILE`` plays nothing: Hard's play-outs do not depend on the coach, only its figure
does, so it reads the coach's loss again, as the coach now stands, for every verdict of a summary
JSON (its ``verdict_rows``, its games' ``seed``) or a journal (``--seed``): the same hand and seat,
the same seed, the loss between the row's two passes (its best kept in the finals), tallied
against the kept realised losses (a minute, not half an hour).

    PYTHONPATH=. nice -n 5 .venv/bin/python benchmarks/pass_vs_hard.py [--verdicts 40] [--deals 48]
        [--play-samples 128] [--strength 60] [--journal /tmp/pass_vs_hard.jsonl]
        [--json benchmarks/results/pass_vs_hard.json]
    PYTHONPATH=. .venv/bin/python benchmarks/pass_vs_hard.py --rejudge benchmarks/results/pass_vs_hard.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine import CardSet, HandState, PlayerView, Rules
from engine.bots.hard import BROWSER_PASS, HardBot
from engine.bots.normal import NormalBot
from engine.game import deal_game_hand
from engine.hand import Phase
from engine.search.budget import PassBudget
from engine.search.pass_worlds import deal_for_pass
from engine.search.threads import one_thread
from engine.tournament import run_tournament, summarize
from trainer.coach.depth import COACH, judge_pass
from trainer.coach.grading import Band, grade

SEED = 5_050_000
BLOCK = 100_003
"""Added to a hand's deal seed for each further block of deals (``--block``)."""
CHECKED = (Band.MISTAKE, Band.BLUNDER)

Bots = Callable[[int], Sequence]
"""Four bots for a seed (the same seed gives bots that play alike)."""


def hard_bots(play_samples: int, passes: PassBudget) -> Bots:
    def make(seed: int) -> list[HardBot]:
        return [
            HardBot(seed * 4 + seat, play_samples=play_samples, passes=passes, play_seconds=None)
            for seat in range(4)
        ]

    return make


def strength(deals: int, play_samples: int, seed: int) -> dict:
    """The bounded Hard against three Normal bots (duplicate rotation, ``engine.tournament``):
    points a hand each and the margin, so the play-outs' "strong" is a figure."""

    def factory(name: str, bot_seed: int):
        if name == "hard":
            return HardBot(bot_seed, play_samples=play_samples, passes=BROWSER_PASS, play_seconds=None)
        return NormalBot(bot_seed)

    table = summarize(
        run_tournament(["hard", "normal", "normal", "normal"], Rules(), deals, seed, 1, factory)
    )
    margin = table["differences"]["hard - normal"]
    return {
        "deals": deals,
        "hard_points_per_hand": round(table["bots"]["hard"]["points_per_hand"], 2),
        "normal_points_per_hand": round(table["bots"]["normal"]["points_per_hand"], 2),
        "margin": round(margin["points_per_hand"], 2),
        "interval_95": round(margin["interval_95"], 2),
    }


def difference(scores: Sequence[int], seat: int) -> float:
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def play_both(
    view: PlayerView, options: Sequence[CardSet], hands: Sequence[int], seed: int, bots: Bots
) -> dict:
    """One deal (``hands``, the learner's hand in it) played out after each of ``options``: the
    other seats' passes chosen once (bots of ``seed``), each option's hand played by fresh bots
    of ``seed + 1``. The learner's score less the others' average, per option."""
    seat, rules = view.seat, view.rules
    dealt = HandState(rules, list(hands), view.pass_direction)
    passers = bots(seed)
    others = {s: passers[s].choose_pass(dealt.view(s)) for s in range(rules.players) if s != seat}
    outcomes = []
    for option in options:
        state = dealt.copy()
        for s in range(rules.players):
            state.pass_cards(s, option if s == seat else others[s])
        players = bots(seed + 1)
        while not state.is_over:
            mover = state.to_move
            if state.phase is Phase.MOON_CHOICE:
                state.choose_moon(players[mover].choose_moon(state.view(mover)), mover)
            else:
                state.play(players[mover].choose_play(state.view(mover)), mover)
        result = state.result
        outcomes.append(
            {
                "dealt": list(state.dealt),
                "passes": [int(state.passed(s).mask) for s in range(rules.players)],
                "difference": difference(result.scores, seat),
                "shooter": -1 if result.shooter is None else result.shooter,
            }
        )
    return {"outcomes": outcomes}


def play_outs(view: PlayerView, options: Sequence[CardSet], deals: int, seed: int, bots: Bots) -> list[dict]:
    """``play_both`` on ``deals`` deals consistent with ``view``, as the evaluator imagines them."""
    hands, _ = deal_for_pass(view, seed, deals)
    return [play_both(view, options, row, seed * 1000 + number * 2, bots) for number, row in enumerate(hands)]


def coach_best(evaluation, chosen_grade) -> CardSet:
    """The pass the verdict's loss is measured against (the strong blockers' best when the
    verdict was graded against them)."""
    line = chosen_grade.moon_line
    if line is not None and chosen_grade.loss == line.strong_chosen.loss:
        return evaluation.strong_blockers.best.option
    return evaluation.best.option


def verdict(view: PlayerView, cards: CardSet, seed: int) -> tuple:
    evaluation = judge_pass(view, cards, seed=seed, depth=COACH)
    return evaluation, grade(evaluation, cards)


def check_hand(index: int, args: argparse.Namespace, bots: Bots) -> dict:
    """One hand's journal line: its checked verdict, or why none was checked."""
    rules = Rules()
    state = deal_game_hand(rules, args.seed, index)
    line: dict = {"hand": index}
    if state.phase is not Phase.PASSING:
        return line | {"skipped": "hold"}
    seat = index % rules.players
    view = state.view(seat)
    start = time.process_time()
    chosen = NormalBot(index).choose_pass(view)
    evaluation, graded = verdict(view, chosen, SEED + index)
    source = "normal"
    if graded.band not in CHECKED:
        rng = random.Random(SEED + index)
        within = [v.option for v in evaluation.options if args.low <= v.loss <= args.high]
        if not within:
            return line | {"skipped": "no pass in range", "coach_seconds": time.process_time() - start}
        chosen = rng.choice(within)
        evaluation, graded = verdict(view, chosen, SEED + index + 1)
        source = "random"
    coach_seconds = time.process_time() - start
    if graded.band not in CHECKED:
        return line | {"skipped": f"judged {graded.label}", "coach_seconds": coach_seconds}
    best = coach_best(evaluation, graded)
    start = time.process_time()
    deals = play_outs(view, [chosen, best], args.deals, SEED * 7 + index, bots)
    losses = [d["outcomes"][0]["difference"] - d["outcomes"][1]["difference"] for d in deals]
    mean, error = mean_error(losses)
    return line | {
        "seat": seat,
        "direction": str(view.pass_direction),
        "hand_cards": str(view.hand),
        "source": source,
        "pass": str(chosen),
        "best": str(best),
        "band": graded.label,
        "coach_loss": graded.loss,
        "coach_error": graded.loss_error,
        "realised": mean,
        "realised_error": error,
        "losses": losses,
        "moons": [[d["outcomes"][0]["shooter"], d["outcomes"][1]["shooter"]] for d in deals],
        "coach_seconds": coach_seconds,
        "playout_seconds": time.process_time() - start,
    }


def coach_loss_between(view: PlayerView, chosen: CardSet, best: CardSet, seed: int) -> dict:
    """The coach's loss of ``chosen`` against ``best`` (a best read earlier, kept in the finals):
    against strong blockers where the coach grades ``chosen`` against them, as ``coach_best``."""
    evaluation = judge_pass(view, chosen, seed=seed, depth=COACH, include=[best])
    graded = grade(evaluation, chosen)
    line = graded.moon_line
    source = evaluation
    if line is not None and graded.loss == line.strong_chosen.loss:
        source = evaluation.strong_blockers
    loss = source.value_of(chosen).loss - source.value_of(best).loss
    return {"coach_loss": loss, "band": graded.label, "coach_best": str(coach_best(evaluation, graded))}


def rejudge(rows: list[dict], args: argparse.Namespace) -> list[dict]:
    """Checked verdicts (journal lines or a summary's ``verdict_rows``) with the coach's figure
    read again by the coach as it is now, between the same two passes. Hard's play-outs do not
    depend on the coach: the realised losses are kept."""
    rules = Rules()
    out = []
    for row in rows:
        index = row["hand"]
        view = deal_game_hand(rules, args.seed, index).view(index % rules.players)
        if "hand_cards" in row and CardSet(row["hand_cards"]) != view.hand:
            raise SystemExit(
                f"hand {index}: the row's hand {row['hand_cards']} is not game seed {args.seed}'s"
            )
        seed = SEED + index + (1 if row["source"] == "random" else 0)
        start = time.process_time()
        now = coach_loss_between(view, CardSet(row["pass"]), CardSet(row["best"]), seed)
        out.append(
            row
            | {"coach_loss_before": row["coach_loss"], "band_before": row["band"]}
            | now
            | {"coach_seconds": time.process_time() - start}
        )
        print(
            f"hand {index}: coach {row['coach_loss']:.2f} -> {now['coach_loss']:.2f}, "
            f"realised {row['realised']:.2f} ± {row['realised_error']:.2f}",
            flush=True,
        )
    return out


def more_deals(first: dict, block: int, args: argparse.Namespace, bots: Bots) -> dict:
    """Another ``--deals`` deals (block ``block``, its own deals and bots) for a checked verdict:
    the same two passes, read from its first journal line, not judged again."""
    rules = Rules()
    index = first["hand"]
    view = deal_game_hand(rules, args.seed, index).view(first["seat"])
    start = time.process_time()
    options = [CardSet(first["pass"]), CardSet(first["best"])]
    deals = play_outs(view, options, args.deals, SEED * 7 + index + BLOCK * block, bots)
    return {
        "hand": index,
        "block": block,
        "losses": [d["outcomes"][0]["difference"] - d["outcomes"][1]["difference"] for d in deals],
        "moons": [[d["outcomes"][0]["shooter"], d["outcomes"][1]["shooter"]] for d in deals],
        "playout_seconds": time.process_time() - start,
    }


def pooled(lines: list[dict]) -> list[dict]:
    """Each checked verdict with the losses of all its blocks: realised loss and its SE over them."""
    extra: dict[int, list[float]] = {}
    for line in lines:
        if line.get("block"):
            extra.setdefault(line["hand"], []).extend(line["losses"])
    checked = []
    for line in lines:
        if "realised" in line:
            losses = line["losses"] + extra.get(line["hand"], [])
            realised, error = mean_error(losses)
            checked.append(line | {"realised": realised, "realised_error": error, "deals": len(losses)})
    return checked


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


ROW_KEYS = ("hand", "source", "hand_cards", "direction", "pass", "best", "band", "coach_loss")
ROW_KEYS += ("realised", "realised_error", "deals")
REJUDGED_KEYS = ("coach_loss_before", "band_before", "coach_best")


def _within(line: dict) -> bool:
    return abs(line["realised"] - line["coach_loss"]) <= 2 * line["realised_error"]


def _queen(line: dict) -> bool:
    """The two passes differ in the Q♠ (one passes it, the other keeps it)."""
    return ("Q♠" in line["pass"]) != ("Q♠" in line["best"])


def _queen_in_both(line: dict) -> bool:
    return "Q♠" in line["pass"] and "Q♠" in line["best"]


def tally(checked: list[dict]) -> dict:
    """How many verdicts Hard's play-outs bear out: the loss's sign, and the coach's figure
    within two standard errors of the realised loss."""
    count = len(checked)
    agree = sum(line["realised"] > 0 for line in checked)
    within = sum(_within(line) for line in checked)
    return {
        "verdicts": count,
        "sign_agrees": agree,
        "within_2_se": within,
        "sign_agrees_share": round(agree / count, 3) if count else None,
        "within_2_se_share": round(within / count, 3) if count else None,
        "mean_coach_loss": round(sum(x["coach_loss"] for x in checked) / count, 2) if count else None,
        "mean_realised_loss": round(sum(x["realised"] for x in checked) / count, 2) if count else None,
    }


def summary(lines: list[dict], args: argparse.Namespace) -> dict:
    checked = pooled(lines)
    cpu = sum(line.get("coach_seconds", 0) + line.get("playout_seconds", 0) for line in lines)
    return {
        "command": f"benchmarks/pass_vs_hard.py --seed {args.seed} --deals {args.deals} "
        f"--play-samples {args.play_samples} --low {args.low} --high {args.high}",
        "seed": args.seed,
        "hands_looked_at": sum(not line.get("block") for line in lines),
        "deals_a_verdict": sorted({line["deals"] for line in checked}),
        **tally(checked),
        "queen_differs": tally([line for line in checked if _queen(line)]),
        "queen_in_both": tally([line for line in checked if _queen_in_both(line)]),
        "hard": {"play_samples": args.play_samples, "pass": BROWSER_PASS.__dict__ | {"seconds": None}},
        "cpu_seconds": round(cpu),
        "verdict_rows": [
            {key: round(line[key], 2) if isinstance(line[key], float) else line[key] for key in ROW_KEYS}
            for line in checked
        ],
    }


def rejudged_summary(source: Path, args: argparse.Namespace) -> dict:
    """``--rejudge``: the verdicts of a summary JSON (its ``verdict_rows``) or a journal, their
    realised losses kept and the coach's figures read again; the tallies before and now."""
    text = source.read_text(encoding="utf-8")
    if source.suffix == ".jsonl":
        earlier, rows = None, pooled([json.loads(line) for line in text.splitlines() if line.strip()])
    else:
        earlier = json.loads(text)
        rows = earlier["verdict_rows"]
        args.seed = earlier.get("seed", args.seed)  # the games the verdicts came from
    checked = rejudge(rows, args)
    before = [row | {"coach_loss": row["coach_loss_before"]} for row in checked]
    report = {
        "command": f"benchmarks/pass_vs_hard.py --seed {args.seed} --rejudge {source}",
        "seed": args.seed,
        "rejudged": "the coach's figures read again between the same two passes; Hard's play-outs kept",
        "deals_a_verdict": sorted({row["deals"] for row in checked}),
        "before": tally(before) | {"queen_differs": tally([r for r in before if _queen(r)])},
        **tally(checked),
        "queen_differs": tally([row for row in checked if _queen(row)]),
        "queen_in_both": tally([row for row in checked if _queen_in_both(row)]),
        "coach_cpu_seconds": round(sum(row["coach_seconds"] for row in checked)),
        "verdict_rows": [
            {
                key: round(row[key], 2) if isinstance(row[key], float) else row[key]
                for key in ROW_KEYS + REJUDGED_KEYS
            }
            for row in checked
        ],
    }
    for key in ("hard", "hard_vs_normal"):
        if earlier is not None and key in earlier:
            report[key] = earlier[key]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verdicts", type=int, default=40, help="stop once this many verdicts are checked")
    parser.add_argument("--deals", type=int, default=48, help="deals both passes are played out on")
    parser.add_argument("--play-samples", type=int, default=128, help="Hard's imagined deals a play")
    parser.add_argument("--seed", type=int, default=20261206, help="seed of the Normal-bot games")
    parser.add_argument("--low", type=float, default=2.5, help="a random pass's screened loss, at least")
    parser.add_argument("--high", type=float, default=12.0, help="... and at most")
    parser.add_argument("--minutes", type=float, default=40.0, help="stop starting hands after this (CPU)")
    parser.add_argument("--journal", type=Path, default=Path("/tmp/pass_vs_hard.jsonl"))
    parser.add_argument("--json", type=Path, help="write the summary here")
    parser.add_argument(
        "--block", type=int, default=0, help="above 0: another --deals deals for each verdict already checked"
    )
    parser.add_argument(
        "--strength", type=int, default=0, metavar="DEALS", help="first: the bounded Hard against Normal"
    )
    parser.add_argument(
        "--rejudge",
        type=Path,
        metavar="FILE",
        help="only re-read the coach's figures of the verdicts in FILE (a summary JSON or a journal)",
    )
    args = parser.parse_args()
    one_thread()
    if args.rejudge is not None:
        report = rejudged_summary(args.rejudge, args)
        print(
            f"{report['verdicts']} verdicts re-judged: sign agrees {report['sign_agrees']} "
            f"(before {report['before']['sign_agrees']}), within 2 SE {report['within_2_se']} "
            f"(before {report['before']['within_2_se']}); {report['coach_cpu_seconds']} CPU s"
        )
        if args.json:
            report["date"] = datetime.date.today().isoformat()
            args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        return
    bounded = strength(args.strength, args.play_samples, args.seed) if args.strength else None
    if bounded is not None:
        print("bounded Hard against three Normal bots:", bounded)
    lines = []
    if args.journal.exists():
        lines = [json.loads(text) for text in args.journal.read_text().splitlines() if text.strip()]
    done = {line["hand"] for line in lines if not line.get("block")}
    bots = hard_bots(args.play_samples, BROWSER_PASS)
    start = time.process_time()
    if args.block > 0:
        extended = {line["hand"] for line in lines if line.get("block") == args.block}
        for first in [line for line in lines if "realised" in line and line["hand"] not in extended]:
            if time.process_time() - start > args.minutes * 60:
                break
            line = more_deals(first, args.block, args, bots)
            lines.append(line)
            with args.journal.open("a") as journal:
                journal.write(json.dumps(line) + "\n")
            print(f"hand {first['hand']}: block {args.block} played", flush=True)
    index = 0
    while args.block == 0 and sum("realised" in line for line in lines) < args.verdicts:
        if time.process_time() - start > args.minutes * 60:
            break
        if index not in done:
            line = check_hand(index, args, bots)
            lines.append(line)
            with args.journal.open("a") as journal:
                journal.write(json.dumps(line) + "\n")
            if "realised" in line:
                print(
                    f"hand {index}: {line['pass']} ({line['band']}, coach {line['coach_loss']:.2f}) vs "
                    f"{line['best']}: realised {line['realised']:.2f} ± {line['realised_error']:.2f}",
                    flush=True,
                )
        index += 1
    report = summary(lines, args)
    if bounded is not None:
        report["hard_vs_normal"] = bounded
    print(
        f"{report['verdicts']} verdicts: sign agrees {report['sign_agrees']}, "
        f"within 2 SE {report['within_2_se']}; {report['cpu_seconds']} CPU s"
    )
    if args.json:
        report["date"] = datetime.date.today().isoformat()
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
