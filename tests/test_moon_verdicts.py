"""Moon verdicts with care: a choice is a mistake for missing a moon only where the moon line
keeps its edge against blockers who block at any price; otherwise the coach calls the moon the
greedy line and says what the safe line costs."""

from __future__ import annotations

from dataclasses import replace

from engine import CardSet, HandState, Rules
from engine.search.evaluator import Evaluation, OptionValue, Z
from trainer.coach import coach_pass, grade
from trainer.coach.depth import Depth, judge
from trainer.coach.grading import Band, moon_dependent
from trainer.coach.hint import hint_from

SMALL = Depth(
    play_samples=1024,
    pass_samples=1024,
    pass_stages=((128, 12),),
    min_samples=128,
    pass_min_samples=128,
    play_seconds=None,
    pass_seconds=None,
)


def value(option: str, difference: float, moon_for: float, best: float, error: float = 0.05) -> OptionValue:
    loss = difference - best
    return OptionValue(
        CardSet(option),
        difference + 6.5,
        6.5,
        difference,
        error,
        moon_for,
        0.0,
        loss,
        error,
        1000,
        moon_by_seat=(moon_for, 0.0, 0.0, 0.0),
        loss_low=max(0.0, loss - Z * error),
        loss_high=loss + Z * error,
    )


def evaluation(
    rows: dict[str, tuple[float, float]], strong: dict[str, tuple[float, float]] | None
) -> Evaluation:
    """A made-up pass evaluation: option -> (difference, moon chance); ``strong``: the same
    against strong blockers."""

    def build(table: dict[str, tuple[float, float]]) -> Evaluation:
        best = min(difference for difference, _ in table.values())
        options = sorted(
            (value(option, difference, moon, best) for option, (difference, moon) in table.items()),
            key=lambda v: v.difference,
        )
        return Evaluation("pass", 0, tuple(options), 1, 1000, 0.1)

    main = build(rows)
    return replace(main, strong_blockers=build(strong) if strong else None)


def moon_hand() -> HandState:
    hand = CardSet("AH KH QH JH 10H AS KS QS AC KC AD KD 2C")
    rest = [card for card in CardSet(range(52)) if card not in hand]
    return HandState.from_deal(
        [hand, CardSet(rest[:13]), CardSet(rest[13:26]), CardSet(rest[26:])], Rules(), "left"
    )


MOON, SAFE = "2C KC AC", "AH KH QH"


def test_a_moon_line_that_does_not_hold_against_strong_blockers_is_the_greedy_line():
    view = moon_hand().view(0)
    judged = evaluation(
        {MOON: (-6.0, 0.45), SAFE: (-2.0, 0.02)},  # the model: the moon line saves 4 points
        {MOON: (-1.0, 0.20), SAFE: (-1.8, 0.02)},  # strong blockers: the safe line is better
    )
    assert moon_dependent(judged, SAFE)
    g = grade(judged, SAFE)
    assert g.moon_line is not None and not g.moon_line.holds
    assert g.band is Band.BEST and g.loss == 0.0  # graded against strong blockers
    verdict = coach_pass(view, SAFE, judged)
    assert verdict.headline.startswith("Best: With 2♣ K♣ A♣ you go for the moon: you shoot it in 45%")
    assert "there Q♥ K♥ A♥ costs about 4.0 points" in verdict.headline
    assert "Against players who block at any price you shoot it in 20%" in verdict.headline
    assert (
        "the safe line, Q♥ K♥ A♥, is as good. The moon is the greedy line here, not a must."
        in verdict.headline
    )
    hint = hint_from(view, SAFE, judged)
    assert hint.text.startswith("Hint: pass the Q♥, the K♥ and the A♥. With 2♣ K♣ A♣ you go for the moon")


def test_a_safe_line_that_costs_something_against_strong_blockers_says_how_much():
    judged = evaluation(
        {MOON: (-6.0, 0.45), SAFE: (-2.0, 0.02)},
        {MOON: (-3.5, 0.30), SAFE: (-2.0, 0.02)},
    )
    g = grade(judged, SAFE)
    assert g.band is Band.INACCURACY and g.loss == 1.5
    verdict = coach_pass(moon_hand().view(0), SAFE, judged)
    assert verdict.headline.startswith("Inaccuracy: ")
    assert "the safe line, Q♥ K♥ A♥, costs about 1.5 points." in verdict.headline


def test_a_moon_line_that_holds_against_strong_blockers_is_graded_by_what_holds_there():
    judged = evaluation(
        {MOON: (-20.0, 0.95), SAFE: (0.0, 0.0)},
        {MOON: (-17.0, 0.85), SAFE: (0.0, 0.0)},
    )
    g = grade(judged, SAFE)
    assert g.moon_line is not None and g.moon_line.holds
    assert g.band is Band.BLUNDER and g.loss == 17.0  # the smaller loss: the one blockers leave
    verdict = coach_pass(moon_hand().view(0), SAFE, judged)
    assert verdict.headline.startswith("Blunder: Q♥ K♥ A♥ costs about 17.0 points")
    (first, *_) = verdict.reasons
    assert "you shoot it in 85% of the imagined deals, and 2♣ K♣ A♣ still saves about 17.0 points." in first
    assert sum("shoot the moon in" in reason for reason in verdict.reasons) == 0  # said once, not twice


def test_a_moon_line_worth_less_against_strong_blockers_lowers_the_band_to_what_holds():
    """Found by the stability benchmark: a blunder with the model's blockers, a mistake against
    blockers at any price. The verdict says mistake, so a deeper look cannot take it back."""
    judged = evaluation(
        {MOON: (-9.0, 0.21), SAFE: (0.0, 0.0)},
        {MOON: (-5.0, 0.15), SAFE: (0.0, 0.0)},
    )
    g = grade(judged, SAFE)
    assert g.moon_line is not None and g.moon_line.holds
    assert g.band is Band.MISTAKE and g.loss == 5.0


def test_a_verdict_without_the_check_or_not_about_the_moon_is_graded_as_before():
    unchecked = evaluation({MOON: (-6.0, 0.45), SAFE: (-2.0, 0.02)}, None)
    assert grade(unchecked, SAFE).band is Band.MISTAKE and grade(unchecked, SAFE).moon_line is None
    no_moon = evaluation({MOON: (-6.0, 0.05), SAFE: (-2.0, 0.02)}, {MOON: (0.0, 0.0), SAFE: (0.0, 0.0)})
    assert not moon_dependent(no_moon, SAFE)
    assert grade(no_moon, SAFE).band is Band.MISTAKE


def test_the_coach_checks_a_real_moon_verdict_against_strong_blockers_and_only_that_one():
    view = moon_hand().view(0)
    missed = judge(view, SAFE, 3, SMALL)
    assert missed.best.moon_for > 0.5
    assert missed.strong_blockers is not None
    strong = missed.strong_blockers
    # every pass screened again against strong blockers; the model's finalists and the choice
    # valued there on fresh deals
    assert len(strong.options) == len(missed.options) == 286
    afresh = {v.option for v in strong.options if v.samples == strong.samples}
    assert {v.option for v in missed.options[:12]} | {CardSet(SAFE)} <= afresh
    # strong blockers bring fewer moons home than the play-outs' own blockers (the verdict's
    # figures are the forecast's, another unit)
    assert missed.measure == "forecast" and strong.measure == "playout"
    model = judge(view, SAFE, 3, replace(SMALL, measure="playout"))
    assert strong.value_of(missed.best.option).moon_for <= model.value_of(missed.best.option).moon_for
    line = grade(missed, SAFE).moon_line
    assert line is not None and line.holds  # a hand this strong shoots against anyone
    kept = judge(view, missed.best.option, 3, SMALL)
    assert kept.strong_blockers is None  # the moon line itself needs no check


def test_against_strong_blockers_the_choice_is_measured_against_the_best_there():
    """Found by the stability benchmark: the model's best pass is a moon line, but against strong
    blockers a third pass is best; the choice's loss there is against that pass, and the coach
    names it (measuring against the moon line alone undersold the mistake)."""
    third = "9D JD KD"
    judged = evaluation(
        {MOON: (-6.0, 0.30), third: (-5.8, 0.12), SAFE: (-2.0, 0.05)},
        {MOON: (-4.5, 0.25), third: (-5.5, 0.10), SAFE: (-2.1, 0.04)},
    )
    g = grade(judged, SAFE)
    line = g.moon_line
    assert line is not None and line.strong_leader is not None
    assert line.strong_leader.option == CardSet(third)
    assert line.strong_loss == 2.4  # against the moon line...
    assert g.loss == 3.4 and g.band is Band.MISTAKE  # ...but graded against the best there
    view = moon_hand().view(0)
    verdict = coach_pass(view, SAFE, judged)
    assert "9♦ J♦ K♦ is best there, and Q♥ K♥ A♥ costs about 3.4 points against it" in verdict.text
