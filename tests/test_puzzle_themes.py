"""A puzzle's themes name what tells its answer from the natural choice, not incidental features."""

from __future__ import annotations

from engine import CardSet, HandState, Rules
from engine.evaluator import Evaluation, OptionValue
from trainer.puzzles.format import OPTION_COLUMNS, answer_from_evaluation, as_stored
from trainer.puzzles.themes import pass_themes


def passing_view():
    hand = CardSet("2C 3C 9D QS KS AS 2H 5H 9H JH QH 4D 6D")
    rest = [card for card in CardSet(range(52)) if card not in hand]
    state = HandState.from_deal(
        [hand, CardSet(rest[:13]), CardSet(rest[13:26]), CardSet(rest[26:])], Rules(), "left"
    )
    return state.view(0)


def evaluation(best: str, natural: str, moons: tuple[float, float] = (0.0, 0.0)) -> Evaluation:
    def value(option: str, loss: float, moon: float) -> OptionValue:
        return OptionValue(CardSet(option), loss, 0.0, loss, 0.1, moon, 0.0, loss, 0.1, 1000)

    return Evaluation("pass", 0, (value(best, 0.0, moons[0]), value(natural, 3.0, moons[1])), 1, 1000, 0.1)


def test_a_feature_both_passes_share_is_not_a_theme():
    view = passing_view()
    # both void clubs; only the answer passes the Q♠
    themes = pass_themes(view, evaluation("2C 3C QS", "2C 3C JH"), CardSet("2C 3C JH"))
    assert "queen_of_spades" in themes and "voids" not in themes
    # both pass the Q♠; only the answer voids clubs
    themes = pass_themes(view, evaluation("2C 3C QS", "9D QS JH"), CardSet("9D QS JH"))
    assert "voids" in themes and "queen_of_spades" not in themes


def test_the_moon_is_a_theme_only_when_it_tells_the_passes_apart():
    view = passing_view()
    natural = CardSet("2C 3C JH")
    shared = pass_themes(view, evaluation("2C 3C QS", str(natural), (0.30, 0.28)), natural)
    assert "moon_shooting" not in shared
    deciding = pass_themes(view, evaluation("2C 3C QS", str(natural), (0.30, 0.05)), natural)
    assert "moon_shooting" in deciding


def test_a_puzzle_file_s_themes_follow_from_the_figures_it_keeps():
    """A moon gap a hair over the limit before rounding and on it after: the file's themes are
    read from the figures as the file keeps them, so its own figures give them back."""
    view = passing_view()
    natural = CardSet("2C 3C JH")
    full = evaluation("2C 3C QS", str(natural), (0.06460004, 0.0146))
    assert "moon_shooting" in pass_themes(view, full, natural)
    stored = as_stored(full)
    written = answer_from_evaluation(full, ["2C 3C QS"], "")["options"]
    assert [[text, *figures] for text, *figures in written] == [
        [" ".join(v.option.codes), *(getattr(v, name) for name in OPTION_COLUMNS[1:-1]), v.samples]
        for v in stored.options
    ]
    assert "moon_shooting" not in pass_themes(view, stored, natural)
