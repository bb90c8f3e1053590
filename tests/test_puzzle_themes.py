"""A puzzle's themes name what tells its answer from the natural choice, not incidental features."""

from __future__ import annotations

import json

from engine import CardSet, HandState, Rules, Suit, parse_card
from engine.search.evaluator import Evaluation, OptionValue
from trainer.puzzles.commands import main as puzzles_command
from trainer.puzzles.format import OPTION_COLUMNS, PUZZLES_DIR, answer_from_evaluation, as_stored, save_puzzle
from trainer.puzzles.source import read_toml
from trainer.puzzles.themes import pass_themes, play_themes


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


def view_of(hand: str, rest: str = ""):
    """Seat 0 holding ``hand`` (the other seats the rest of the deck, ``rest`` first), before the pass."""
    held = CardSet(hand)
    first = [card for card in CardSet(rest)]
    others = first + [card for card in CardSet(range(52)) if card not in held and card not in first]
    hands = [held, CardSet(others[:13]), CardSet(others[13:26]), CardSet(others[26:])]
    return HandState.from_deal(hands, Rules(), "left").view(0)


def test_a_pass_is_themed_by_what_its_kept_hand_shows_never_by_the_suits_it_touches():
    """No fact above the fallback tells the passes apart: the theme names what does. Passing the
    hand's one heart, the 8♥, instead of the K♣ is a heart void, not a high heart; a different
    suit left short is 'which suit to shorten'; the same suits kept is 'which card of a suit'."""
    view = view_of("3C 4C 6C KC 2D 4D 6D 8D 10D JD QS KS 8H")
    natural = CardSet("KC QS KS")
    themes = pass_themes(view, evaluation("QS KS 8H", str(natural)), natural)
    assert themes == ["voids"]  # hearts led later: the hand discards
    natural = CardSet("KC 2D 4D")
    themes = pass_themes(view, evaluation("3C 4C 2D", str(natural)), natural)
    assert themes == ["short_suits"]  # clubs left 3 against 2: no void, no high card
    natural = CardSet("3C 2D 4D")
    themes = pass_themes(view, evaluation("4C 2D 4D", str(natural)), natural)
    assert themes == ["high_or_low"]
    assert "high_hearts" not in pass_themes(view, evaluation("8H 2D 4D", "KC 2D 4D"), CardSet("KC 2D 4D"))


def play_evaluation(best: str, natural: str) -> Evaluation:
    def value(option: str, loss: float) -> OptionValue:
        return OptionValue(parse_card(option), loss, 0.0, loss, 0.1, 0.0, 0.0, loss, 0.1, 1000)

    return Evaluation("play", 0, (value(best, 0.0), value(natural, 3.0)), 1, 1000, 0.1)


def following(hand: str):
    """Seat 0 to play third to a club trick: seat 2 led the 2♣ (its other cards spades), seat 3
    played the 10♣."""
    held = CardSet(hand)
    spades = [card for card in CardSet(range(52)) if card.suit is Suit.SPADES][:12]
    led, second = CardSet(["2C", *spades]), CardSet("10C")
    rest = [
        card for card in CardSet(range(52)) if card not in held and card not in led and card not in second
    ]
    hands = [held, CardSet(rest[:13]), led, CardSet([*second, *rest[13:]])]
    state = HandState.from_deal(hands, Rules(), "hold")
    state.play("2C")
    state.play("10C")
    return state.view(0)


def test_a_play_is_themed_ducking_only_where_a_card_could_go_under_the_winner():
    with_duck = following("9C KC 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert "ducking" in play_themes(with_duck, play_evaluation("9C", "KC"), parse_card("KC"))
    without = following("JC KC 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    themes = play_themes(without, play_evaluation("KC", "JC"), parse_card("JC"))
    assert "cannot_duck" in themes and "ducking" not in themes


def test_stale_themes_are_found_and_rewritten_from_the_file_s_own_figures(tmp_path, capsys):
    """``python -m trainer.puzzles themes [--write]``: a file whose themes its figures no longer
    give (here the old "high hearts" for a pass of the hand's one heart, the 8♥) is listed and the
    check fails; --write rewrites its themes, its title and the index, and nothing else."""
    source = PUZZLES_DIR / "pass-standard-102-029-01.toml"
    stale, kept = tmp_path / source.name, tmp_path / "pass-004.toml"
    data = read_toml(source)
    save_puzzle(
        {**data, "themes": ["high_hearts"], "title": "What would you pass? What to do with high hearts"},
        stale,
    )
    kept.write_bytes((PUZZLES_DIR / kept.name).read_bytes())
    broken = tmp_path / "pass-broken.toml"
    broken.write_text(kept.read_text(encoding="utf-8").replace('kind = "pass"', 'kind = "bid"'), "utf-8")
    assert puzzles_command(["themes", str(tmp_path)]) == 1
    said = capsys.readouterr().out
    assert f"{stale}: high_hearts -> voids" in said
    assert f"{broken}: kind:" in said and "1 files left out" in said
    before = broken.read_bytes()
    assert puzzles_command(["themes", str(tmp_path), "--write"]) == 1  # the broken file, left alone
    assert broken.read_bytes() == before
    broken.unlink()
    rewritten = read_toml(stale)
    assert (
        rewritten["themes"] == ["voids"]
        and rewritten["title"] == "What would you pass? Building and using voids"
    )
    assert {k: v for k, v in rewritten.items() if k not in ("themes", "title")} == {
        k: v for k, v in data.items() if k not in ("themes", "title")
    }
    assert kept.read_bytes() == (PUZZLES_DIR / kept.name).read_bytes()
    index = json.loads((tmp_path / "index.json").read_text())["puzzles"]
    listed = {entry["file"]: entry.get("themes") for entry in index}
    assert listed[stale.name] == ["voids"]
    assert puzzles_command(["themes", str(tmp_path)]) == 0
