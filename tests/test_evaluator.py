"""The evaluator: every option valued, reproducibly, with honest error bars."""

import math
from dataclasses import replace

import pytest

from engine import CardSet, HandState, Rules
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import evaluate_pass, evaluate_play


def queen_under_the_king() -> HandState:
    """A position where spades are led, the K♠ or A♠ is winning, and the seat to move holds
    the Q♠ and other spades: found by playing seeded hands with the policy's lowest cards."""
    for seed in range(500):
        state = HandState.from_seed(seed, Rules(), "hold")
        while not state.is_over:
            trick = state.current_trick
            hand = state.hand(state.to_move)
            if (
                trick.cards
                and trick.led_suit.noun == "spades"
                and {card.code for card in trick.cards} & {"KS", "AS"}
                and "QS" in hand
                and len(hand.of_suit(trick.led_suit)) >= 3
                and max(hand.of_suit(trick.led_suit))
                < max(c for c in trick.cards if c.suit == trick.led_suit)
            ):
                return state
            state.play(state.legal_cards()[0])
    raise AssertionError("no such position in 500 deals")


def mid_hand(seed: int = 21, cards: int = 9) -> HandState:
    state = HandState.from_seed(seed, Rules(), "hold")
    for _ in range(cards):
        state.play(state.legal_cards()[-1])
    return state


def test_every_legal_card_is_valued_and_the_best_has_no_loss():
    view = mid_hand().view(mid_hand().to_move)
    evaluation = evaluate_play(view, PlayBudget(samples=64), seed=1)
    assert {value.option for value in evaluation.options} == set(view.legal_cards)
    assert evaluation.best.loss == 0
    differences = [value.difference for value in evaluation.options]
    assert differences == sorted(differences)
    for value in evaluation.options:
        assert value.points - value.others == pytest.approx(value.difference)
        assert 0 <= value.moon_for <= 1 and 0 <= value.moon_against <= 1
        assert evaluation.loss_of(value.option) == value.loss


def test_same_seed_same_answer_and_the_numpy_path_agrees_with_pure_python():
    view = mid_hand().view(mid_hand().to_move)
    first = evaluate_play(view, PlayBudget(samples=64), seed=7)
    again = evaluate_play(view, PlayBudget(samples=64), seed=7)
    plain = evaluate_play(view, PlayBudget(samples=64), seed=7, vectorized=False)
    assert first.options == again.options
    assert [(v.option, v.difference) for v in first.options] == [
        (v.option, v.difference) for v in plain.options
    ]


def test_dropping_the_queen_under_the_king_or_ace_is_found_best_with_confidence():
    state = queen_under_the_king()
    evaluation = evaluate_play(state.view(state.to_move), PlayBudget(samples=128), seed=2)
    assert evaluation.best.option.code == "QS"
    runner_up = evaluation.options[1]
    assert runner_up.loss > 3 * runner_up.loss_error


def test_standard_errors_shrink_as_samples_grow():
    view = mid_hand(5, 4).view(mid_hand(5, 4).to_move)
    card = view.legal_cards[0]
    small = evaluate_play(view, PlayBudget(samples=32), seed=3).value_of(card).standard_error
    large = evaluate_play(view, PlayBudget(samples=512), seed=3).value_of(card).standard_error
    assert large < small / 2


def test_budget_in_samples_or_seconds_and_progress_is_reported():
    view = mid_hand().view(mid_hand().to_move)
    seen = []
    evaluation = evaluate_play(
        view, PlayBudget(samples=200), seed=1, progress=lambda done, total: seen.append((done, total))
    )
    assert evaluation.samples == 200
    assert seen[-1] == (200, 200) and [done for done, _ in seen] == sorted(done for done, _ in seen)
    quick = evaluate_play(view, PlayBudget(samples=100_000, seconds=0.05), seed=1)
    assert 0 < quick.samples < 100_000


def test_a_seat_without_a_decision_is_refused():
    state = mid_hand()
    other = (state.to_move + 1) % 4
    with pytest.raises(ValueError, match="no card to play"):
        evaluate_play(state.view(other))
    with pytest.raises(ValueError, match="no pass to choose"):
        evaluate_pass(state.view(other))


def test_pass_evaluation_values_all_286_passes_and_separates_good_from_poor():
    hand = "QS 2S AH KH QH 2C 3C 4C 5D 6D 7D 8D 9D"
    rest = [card for card in CardSet(range(52)) if card not in CardSet(hand)]
    deal = [CardSet(hand), CardSet(rest[:13]), CardSet(rest[13:26]), CardSet(rest[26:])]
    state = HandState.from_deal(deal, Rules(), "left")
    evaluation = evaluate_pass(state.view(0), PassBudget(samples=192), seed=4)
    assert len(evaluation.options) == 286
    assert len({value.option for value in evaluation.options}) == 286
    assert "QS" in evaluation.best.option
    dangerous = evaluation.value_of("QS AH KH")
    harmless = evaluation.value_of("2C 3C 4C")
    assert harmless.loss > dangerous.loss + 3 * (harmless.loss_error + dangerous.loss_error)


# ----- verdicts that are decided, not guessed -----

LIMITS = (0.5, 1.0, 2.5, 6.0)


def duck_position() -> HandState:
    """Lesson 8's duck: Left led the 9♦, Across the J♦, Right threw the Q♠; seat 0 holds
    A♦ 8♦ 5♦ 3♦. The 3♦ loses about 0.46 points to the 8♦: close to the 0.5 limit."""
    from trainer.lessons.deals import D_RIGHT_QUEEN, D_TRICK_1, deal

    return deal(D_RIGHT_QUEEN, Rules(), D_TRICK_1 + " 9D JD QS")


def test_a_clear_verdict_stops_after_the_first_rounds():
    state = duck_position()
    view = state.view(state.to_move)
    evaluation = evaluate_play(
        view, PlayBudget(samples=65536, min_samples=128), seed=1, judge="AD", limits=LIMITS
    )
    value = evaluation.value_of("AD")
    assert evaluation.decided and evaluation.judged.code == "AD"
    assert evaluation.samples == 128  # settled at once: winning the queen costs over 6 points
    assert value.loss_low > 6.0


def test_a_clear_verdict_still_waits_for_its_minimum_of_deals_and_a_small_budget_is_the_minimum():
    state = duck_position()
    view = state.view(state.to_move)
    settings = dict(seed=1, judge="AD", limits=LIMITS)
    waited = evaluate_play(view, PlayBudget(samples=65536, min_samples=2048), **settings)
    assert waited.decided and waited.samples == 2048  # clear at 128 deals, but not called before 2,048
    small = evaluate_play(view, PlayBudget(samples=512, min_samples=2048), **settings)
    assert small.decided and small.samples == 512  # a budget below the minimum: decided at its end


def test_a_play_solved_exactly_has_its_own_minimum_of_deals():
    for seed in range(40):  # a late position with a clearly bad card
        state = late_position(seed, cards_left=4)
        view = state.view(state.to_move)
        worst = max(evaluate_play(view, PlayBudget(samples=64), seed=9).options, key=lambda v: v.loss)
        if worst.loss > 1.5:
            break
    else:
        raise AssertionError("no late position with a card losing 1.5 points in 40 deals")
    settings = dict(seed=9, judge=worst.option, limits=LIMITS)
    budget = PlayBudget(samples=65536, min_samples=2048, exact_samples=512)
    own = evaluate_play(view, replace(budget, exact_min_samples=128), **settings)
    assert own.method == "exact" and own.decided and own.samples < 512
    shared = evaluate_play(view, budget, **settings)
    assert shared.decided and shared.samples == 512  # the play-outs' minimum, cut to the exact budget


def test_a_verdict_near_a_limit_keeps_sampling_and_is_undecided_when_the_budget_ends():
    state = duck_position()
    view = state.view(state.to_move)
    loss = evaluate_play(view, PlayBudget(samples=2048), seed=1).value_of("3D").loss
    assert 0 < loss < 2.5
    at_the_limit = (loss,)  # a band limit right on what these deals will say: never settled
    short = evaluate_play(view, PlayBudget(samples=2048), seed=1, judge="3D", limits=at_the_limit)
    assert not short.decided and short.samples == 2048
    value = short.value_of("3D")
    assert value.loss_low <= loss < value.loss_high
    far = (loss + 1.0,)  # a limit a point away: settled within the budget, early
    early = evaluate_play(view, PlayBudget(samples=65536), seed=1, judge="3D", limits=far)
    assert early.decided and early.samples < 65536 and early.value_of("3D").loss_high <= loss + 1.0


def test_a_verdict_is_a_function_of_position_seed_and_budget_and_the_clock_says_when_it_cut_in():
    state = duck_position()
    view = state.view(state.to_move)
    first = evaluate_play(view, PlayBudget(samples=4096), seed=2, judge="5D", limits=LIMITS)
    again = evaluate_play(view, PlayBudget(samples=4096), seed=2, judge="5D", limits=LIMITS)
    assert first.options == again.options and first.samples == again.samples
    assert not first.clock_stopped
    rushed = evaluate_play(view, PlayBudget(samples=4096, seconds=1e-9), seed=2, judge="3D", limits=LIMITS)
    assert rushed.clock_stopped and rushed.samples < 4096 and not rushed.decided


def test_the_interval_of_a_judged_option_is_against_every_rival():
    view = mid_hand().view(mid_hand().to_move)
    evaluation = evaluate_play(
        view, PlayBudget(samples=512), seed=4, judge=view.legal_cards[-1], limits=LIMITS
    )
    judged = evaluation.value_of(evaluation.judged)
    assert judged.loss_low <= judged.loss <= judged.loss_high
    assert judged.loss == pytest.approx(judged.difference - evaluation.best.difference)


def test_pass_finalists_and_the_judged_pass_are_valued_on_fresh_deals_only():
    hand = "QS 2S AH KH QH 2C 3C 4C 5D 6D 7D 8D 9D"
    rest = [card for card in CardSet(range(52)) if card not in CardSet(hand)]
    deal = [CardSet(hand), CardSet(rest[:13]), CardSet(rest[13:26]), CardSet(rest[26:])]
    view = HandState.from_deal(deal, Rules(), "left").view(0)
    stages = ((32, 12), (64, 3))
    evaluation = evaluate_pass(
        view, PassBudget(samples=256, stages=stages), seed=5, judge="2C 3C 4C", limits=LIMITS
    )
    finalists = evaluation.options[:4]  # three survivors and the judged pass, ranked together
    assert evaluation.value_of("2C 3C 4C").samples == evaluation.samples <= 256
    assert all(v.samples <= evaluation.samples for v in finalists)  # a finalist out of the race stops
    assert CardSet("2C 3C 4C") in {v.option for v in finalists}
    screened = evaluation.options[4:]
    assert {v.samples for v in screened} <= {32, 96}  # screening deals only: never mixed in
    # The same finalists valued again on other fresh deals: their values come only from those.
    other = evaluate_pass(
        view, PassBudget(samples=256, stages=stages), seed=6, judge="2C 3C 4C", limits=LIMITS
    )
    assert other.value_of("2C 3C 4C").difference != evaluation.value_of("2C 3C 4C").difference


def test_pass_finals_race_finalists_that_cannot_change_the_judged_loss():
    """Racing: once a finalist's gap to the judged pass lies wholly below another finalist's, it
    no longer bears on the loss and is played no more; the judged loss is what all finalists on
    every deal give."""
    view = HandState.from_seed(21, Rules(), "left").view(0)
    stages = ((64, 40), (128, 12))
    first = evaluate_pass(view, PassBudget(samples=256, stages=stages), seed=1)
    near = min(first.options[1:12], key=lambda v: min(abs(v.loss - limit) for limit in LIMITS))
    judged = near.option  # close to a band's limit: a long race
    raced = evaluate_pass(view, PassBudget(samples=8192, stages=stages), seed=3, judge=judged, limits=LIMITS)
    finalists = [v for v in raced.options if v.samples > 192]
    assert raced.value_of(judged).samples == raced.samples > 1024
    assert min(v.samples for v in finalists) < raced.samples, "some finalist left the race early"
    # The same finalists, every one on every deal (other deals): the same loss, within the errors.
    full = evaluate_pass(view, PassBudget(samples=raced.samples), seed=9, only=[v.option for v in finalists])
    mine, theirs = raced.value_of(judged), full.value_of(judged)
    assert abs(mine.loss - theirs.loss) <= 3 * math.hypot(mine.loss_error, theirs.loss_error)


def test_a_pass_budget_in_play_outs_counts_each_deal_once_per_pass_still_playing():
    """Finals where every pass plays every deal: a cap of three passes' worth of 1,024 deals is
    a budget of 1,024 deals (the same rounds, so the same values); not the clock's stop."""
    view = HandState.from_seed(8, Rules(), "right").view(2)
    three = [
        value.option for value in evaluate_pass(view, PassBudget(samples=64, stages=()), seed=1).options[:3]
    ]
    capped = evaluate_pass(view, PassBudget(samples=4096, playouts=3 * 1024), seed=2, only=three)
    dealt = evaluate_pass(view, PassBudget(samples=1024), seed=2, only=three)
    assert capped.samples == dealt.samples == 1024 and not capped.clock_stopped
    assert [(v.option, v.difference) for v in capped.options] == [
        (v.option, v.difference) for v in dealt.options
    ]
    # Judged near a limit, the race drops passes that cannot change the loss: the same cap in
    # play-outs then buys more deals than the six finals passes could all play.
    settings = dict(seed=4, judge=three[2], limits=LIMITS)
    budget = PassBudget(samples=65536, stages=((64, 40), (128, 5)))
    free = evaluate_pass(view, budget, **settings)
    capped = evaluate_pass(view, replace(budget, playouts=6 * 4096), **settings)
    assert free.samples == 65536 and not free.decided
    assert 4096 < capped.samples < free.samples and not capped.decided and not capped.clock_stopped


def test_every_pass_on_the_same_fresh_deals_when_screening_is_skipped():
    view = HandState.from_seed(8, Rules(), "right").view(2)
    evaluation = evaluate_pass(view, PassBudget(samples=64, stages=()), seed=1)
    assert len(evaluation.options) == 286 and {v.samples for v in evaluation.options} == {64}


def test_the_compiled_and_pure_python_passes_agree_exactly():
    view = HandState.from_seed(11, Rules(), "left").view(0)
    fast = evaluate_pass(view, PassBudget(samples=64, stages=((16, 6),)), seed=3, vectorized=True)
    slow = evaluate_pass(view, PassBudget(samples=64, stages=((16, 6),)), seed=3, vectorized=False)
    assert [(v.option, v.difference, v.moon_by_seat) for v in fast.options] == [
        (v.option, v.difference, v.moon_by_seat) for v in slow.options
    ]


def test_strong_blockers_agree_compiled_and_pure_python_and_only_values_just_the_passes_asked():
    from engine.moon import STRONG_BLOCKERS

    view = HandState.from_seed(11, Rules(), "left").view(0)
    two = [CardSet(view.hand.mask).codes[:3], CardSet(view.hand.mask).codes[-3:]]
    runs = [
        evaluate_pass(
            view, PassBudget(samples=64), seed=3, only=two, blocking=STRONG_BLOCKERS, vectorized=fast
        )
        for fast in (True, False)
    ]
    assert [len(run.options) for run in runs] == [2, 2]
    assert {v.option for v in runs[0].options} == {CardSet(codes) for codes in two}
    assert [(v.option, v.difference, v.moon_by_seat) for v in runs[0].options] == [
        (v.option, v.difference, v.moon_by_seat) for v in runs[1].options
    ]
    play = mid_hand().view(mid_hand().to_move)
    fast = evaluate_play(play, PlayBudget(samples=64), seed=7, blocking=STRONG_BLOCKERS)
    slow = evaluate_play(play, PlayBudget(samples=64), seed=7, blocking=STRONG_BLOCKERS, vectorized=False)
    assert [(v.option, v.difference) for v in fast.options] == [
        (v.option, v.difference) for v in slow.options
    ]


def late_position(seed: int = 3, cards_left: int = 3) -> HandState:
    state = HandState.from_seed(seed, Rules(), "hold")
    while len(state.hand(0)) > cards_left or state.current_trick.cards:
        state.play(state.legal_cards()[-1])
    while len(state.legal_cards()) < 2:
        state.play(state.legal_cards()[0])
    return state


def test_late_hands_are_solved_exactly_in_every_imagined_deal():
    from engine.search.outcomes import PlayWorlds, public_play
    from engine.search.solver import solve_options

    state = late_position()
    view = state.view(state.to_move)
    evaluation = evaluate_play(view, PlayBudget(samples=64), seed=9)
    assert evaluation.method == "exact"
    worlds = PlayWorlds(view, 9, "compiled").next(64)
    tricks, trick, leader, broken = public_play(view)
    totals = {}
    for hands in worlds:
        imagined = HandState.imagined(view.rules, hands, tricks, trick, leader, broken)
        for card, scores, _ in solve_options(imagined):
            totals[card] = totals.get(card, 0) + scores[view.seat]
    for value in evaluation.options:
        assert value.points == pytest.approx(totals[value.option] / 64)
    assert evaluate_play(view, PlayBudget(samples=64, exact_cards=0), seed=9).method == "policy"


def test_the_weighted_statistics_reduce_to_the_plain_ones_when_every_deal_counts_the_same():
    from engine.search.evaluator import _weighted

    values = [1.0, 4.0, -2.0, 7.5, 3.0]
    mean, error = _weighted(values, [1.0] * 5)
    plain = sum(values) / 5
    variance = sum((v - plain) ** 2 for v in values) / 4
    assert mean == pytest.approx(plain) and error == pytest.approx((variance / 5) ** 0.5)
    # Doubling every weight changes nothing; one deal with all the weight leaves no error estimate.
    assert _weighted(values, [2.0] * 5) == pytest.approx((mean, error))
    assert _weighted(values, [1.0, 0, 0, 0, 0])[1] == float("inf")


def test_the_engine_gives_the_same_verdicts_with_the_standard_library_alone():
    """Under Pyodide there is no numba (and offline no numpy): the engine must import and answer
    the same without them. A child process with both blocked evaluates a play and a pass."""
    import json
    import subprocess
    import sys

    script = """
import json, sys
sys.modules["numpy"] = None
sys.modules["numba"] = None
from engine import HandState, Rules
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import evaluate_pass, evaluate_play
from engine.search.outcomes import HAVE_COMPILED
state = HandState.from_seed(21, Rules(), "hold")
for _ in range(9):
    state.play(state.legal_cards()[-1])
view = state.view(state.to_move)
play = evaluate_play(view, PlayBudget(samples=64), seed=7, judge=state.legal_cards()[0], limits=(0.5,))
other = HandState.from_seed(11, Rules(), "left").view(0)
passing = evaluate_pass(other, PassBudget(samples=32, stages=((8, 4),)), seed=3)
print(json.dumps([HAVE_COMPILED, [[v.option.code, v.difference] for v in play.options],
                  [[" ".join(v.option.codes), v.difference] for v in passing.options[:6]]]))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    compiled, plays, passes = json.loads(result.stdout)
    assert compiled is False
    state = mid_hand()
    view = state.view(state.to_move)
    play = evaluate_play(view, PlayBudget(samples=64), seed=7, judge=state.legal_cards()[0], limits=(0.5,))
    assert plays == [[v.option.code, v.difference] for v in play.options]
    passing = evaluate_pass(
        HandState.from_seed(11, Rules(), "left").view(0), PassBudget(samples=32, stages=((8, 4),)), seed=3
    )
    assert passes == [[" ".join(v.option.codes), v.difference] for v in passing.options[:6]]


def test_the_warm_up_compiles_every_compiled_function():
    """In a fresh interpreter: after ``engine.search.warm_up`` every compiled function has a compiled
    signature, so a learner's first verdict loads them from the cache."""
    import subprocess
    import sys

    script = (
        "import engine.search.compiled as c\n"
        "from engine.search.warm_up import warm_up\n"
        "warm_up()\n"
        "functions = {n: getattr(c, n) for n in c.__all__}\n"
        "missing = [n for n, f in functions.items() if hasattr(f, 'signatures') and not f.signatures]\n"
        "print(missing)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_play_verdicts_race_cards_that_cannot_change_the_judged_loss():
    """The duck: winning with the A♦ takes the Q♠, far worse than the judged 3♦, so it leaves the
    race after the first rounds; the 3♦'s loss (near the 0.5 limit: a long race) is what every
    card on every deal gives, and the ranking is the same."""
    state = duck_position()
    view = state.view(state.to_move)
    raced = evaluate_play(view, PlayBudget(samples=4096, min_samples=128), seed=3, judge="3D", limits=LIMITS)
    assert raced.value_of("3D").samples == raced.samples > 512
    assert raced.value_of("AD").samples < raced.samples / 4, "the ace left the race early"
    full = evaluate_play(view, PlayBudget(samples=raced.samples), seed=9)
    assert {v.samples for v in full.options} == {raced.samples}
    mine, theirs = raced.value_of("3D"), full.value_of("3D")
    assert abs(mine.loss - theirs.loss) <= 3 * math.hypot(mine.loss_error, theirs.loss_error)
    assert raced.best.option == full.best.option
    assert raced.options[-1].option.code == full.options[-1].option.code == "AD"


def test_a_verdict_waits_until_the_weighted_deals_make_enough_effective_deals(monkeypatch):
    """A runner's read can give a few deals nearly all the weight; an interval from those few is
    too narrow to stop on. Here one deal in 64 weighs a thousand times the rest: the clear
    blunder that stops at 128 evenly weighted deals keeps sampling until the weights make 128
    effective deals, and is still a blunder."""
    from engine.search import outcomes

    state = duck_position()
    view = state.view(state.to_move)
    even = evaluate_play(view, PlayBudget(samples=65536, min_samples=128), seed=1, judge="AD", limits=LIMITS)
    assert even.decided and even.samples == 128

    def skewed(self, worlds):
        return [1.0 if index % 64 == 0 else 0.001 for index in range(len(worlds))]

    monkeypatch.setattr(outcomes.PlayWorlds, "weights", skewed)
    uneven = evaluate_play(
        view, PlayBudget(samples=65536, min_samples=128), seed=1, judge="AD", limits=LIMITS
    )
    weights = skewed(None, range(uneven.samples))
    assert sum(weights) ** 2 / sum(w * w for w in weights) >= 128
    assert uneven.decided and uneven.samples > 1024
    assert uneven.value_of("AD").loss_low > 6.0


def test_a_late_play_valued_on_every_deal_is_exact_whatever_the_seed():
    """With ``every_deal``, a position solved exactly with few enough deals is valued on each of
    them once: the values are their exact means, the intervals have no width, the band is
    decided, and no seed (or deeper look) changes a figure."""
    from engine.search.outcomes import public_play
    from engine.search.sampling import WorldSampler
    from engine.search.solver import solve_options

    state = late_position(seed=1)
    view = state.view(state.to_move)
    deals = WorldSampler(view).every_world(10_000)
    assert deals is not None and 1 < len(deals) <= 1024
    tricks, trick, leader, broken = public_play(view)
    totals: dict = {}
    for hands in deals:
        imagined = HandState.imagined(view.rules, hands, tricks, trick, leader, broken)
        for card, scores, _ in solve_options(imagined):
            own = scores[view.seat]
            difference = own - (sum(scores) - own) / (view.players - 1)
            totals[card] = totals.get(card, 0.0) + difference
    exact = {card: total / len(deals) for card, total in totals.items()}
    best = min(exact.values())
    worst = max(exact, key=exact.get)
    assert exact[worst] - best > 1.0
    runs = [
        evaluate_play(
            view, PlayBudget(samples=1024, every_deal=True), seed=seed, judge=worst, limits=(1.0, 2.5)
        )
        for seed in (1, 2)
    ]
    for evaluation in runs:
        assert evaluation.every_deal and evaluation.decided and evaluation.samples == len(deals)
        for value in evaluation.options:
            assert value.difference == pytest.approx(exact[value.option])
            assert value.standard_error == 0.0
        judged = evaluation.value_of(worst)
        assert judged.loss == pytest.approx(exact[worst] - best)
        assert judged.loss_low == judged.loss_high == pytest.approx(judged.loss)
    assert [v.loss for v in runs[0].options] == [v.loss for v in runs[1].options]
    # More deals than the budget: sampled as before, with an interval.
    sampled = evaluate_play(view, PlayBudget(samples=len(deals) - 1, every_deal=True), seed=1, judge=worst)
    assert not sampled.every_deal and sampled.samples <= len(deals) - 1
