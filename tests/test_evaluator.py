"""The evaluator: every option valued, reproducibly, with honest error bars."""

import pytest

from engine import CardSet, HandState, Rules
from engine.evaluator import evaluate_pass, evaluate_play


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
    evaluation = evaluate_play(view, samples=64, seed=1)
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
    first = evaluate_play(view, samples=64, seed=7)
    again = evaluate_play(view, samples=64, seed=7)
    plain = evaluate_play(view, samples=64, seed=7, vectorized=False)
    assert first.options == again.options
    assert [(v.option, v.difference) for v in first.options] == [
        (v.option, v.difference) for v in plain.options
    ]


def test_dropping_the_queen_under_the_king_or_ace_is_found_best_with_confidence():
    state = queen_under_the_king()
    evaluation = evaluate_play(state.view(state.to_move), samples=128, seed=2)
    assert evaluation.best.option.code == "QS"
    runner_up = evaluation.options[1]
    assert runner_up.loss > 3 * runner_up.loss_error


def test_standard_errors_shrink_as_samples_grow():
    view = mid_hand(5, 4).view(mid_hand(5, 4).to_move)
    card = view.legal_cards[0]
    small = evaluate_play(view, samples=32, seed=3).value_of(card).standard_error
    large = evaluate_play(view, samples=512, seed=3).value_of(card).standard_error
    assert large < small / 2


def test_budget_in_samples_or_seconds_and_progress_is_reported():
    view = mid_hand().view(mid_hand().to_move)
    seen = []
    evaluation = evaluate_play(
        view, samples=200, seed=1, progress=lambda done, total: seen.append((done, total))
    )
    assert evaluation.samples == 200
    assert seen[-1] == (200, 200) and [done for done, _ in seen] == sorted(done for done, _ in seen)
    quick = evaluate_play(view, samples=100_000, seconds=0.05, seed=1)
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
    evaluation = evaluate_pass(state.view(0), samples=192, seed=4)
    assert len(evaluation.options) == 286
    assert len({value.option for value in evaluation.options}) == 286
    assert "QS" in evaluation.best.option
    dangerous = evaluation.value_of("QS AH KH")
    harmless = evaluation.value_of("2C 3C 4C")
    assert harmless.loss > dangerous.loss + 3 * (harmless.loss_error + dangerous.loss_error)
