"""benchmarks/coach_stability.py's reference: the deep look is never a shallower look than the
coach's verdict it checks (both stop once the band is decided)."""

from types import SimpleNamespace

from benchmarks import coach_stability
from trainer.coach.depth import COACH


def test_the_deep_look_uses_at_least_ten_times_the_coachs_deals():
    quick = coach_stability.deep_depth(SimpleNamespace(kind="play", method="policy", samples=3000), 10)
    assert quick.min_samples == 30000 and quick.exact_min_samples == 10 * COACH.exact_min_samples
    spent = coach_stability.deep_depth(
        SimpleNamespace(kind="play", method="policy", samples=COACH.play_samples), 10
    )
    assert spent.min_samples == spent.play_samples == 10 * COACH.play_samples
    assert spent.pass_min_samples == 10 * COACH.pass_min_samples  # a play's look leaves the passes' alone


def test_a_deep_look_at_a_play_solved_exactly_uses_at_least_ten_times_the_coachs_deals():
    late = coach_stability.deep_depth(SimpleNamespace(kind="play", method="exact", samples=448), 10)
    assert late.exact_min_samples == 4480 <= late.exact_samples
    assert late.min_samples == 10 * COACH.min_samples  # the play-outs' minimum is not what it used


def test_a_deep_pass_look_uses_at_least_ten_times_the_coachs_fresh_deals():
    deep = coach_stability.deep_depth(SimpleNamespace(kind="pass", samples=93312), 10)
    assert deep.pass_min_samples == 933120 <= deep.pass_samples
    assert deep.pass_playouts is None  # a cap in play-outs could stop it short of those deals
    assert deep.min_samples == 10 * COACH.min_samples
    assert deep.play_seconds is None and deep.pass_seconds is None  # depth, not the clock
