"""A finished review is kept whole with its game: it reopens with the same figures and key
moments without the evaluator, its moments replay as puzzles labelled with the game's bots,
and a kept summary that does not read back (an older version's, or a damaged one) offers the
review again instead of breaking the page."""

from __future__ import annotations

import json
import re

import pytest

import trainer.review.game as review_module
from tests.review.test_review import BUDGET, learner_hand
from trainer.progress.games import game_record, load_game, save_game
from trainer.review.game import review_game
from trainer.review.page import kept_note, moments_markdown, review_markdown
from trainer.review.replay import replay_board
from trainer.review.stored import keep_review, stored_review
from trainer.store import Store

CODE = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")  # a card code such as QS or 10H


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A one-hand game with a known blunder against Hard bots, reviewed and kept."""
    hand, made = learner_hand(blunder=True)
    assert made is not None
    store = Store(tmp_path_factory.mktemp("kept") / "p.sqlite3")
    opponents = {1: "hard", 2: "hard", 3: "hard"}
    game_id = save_game(store, game_record([hand], 0, opponents), "l09_play/game/g1")
    review = review_game(load_game(store, game_id), BUDGET, workers=1)
    keep_review(store, review)
    return store, game_id, review


def test_a_kept_review_reopens_with_the_same_figures_and_moments_without_the_evaluator(
    kept, monkeypatch
) -> None:
    store, game_id, review = kept

    def no_evaluation(*_args, **_kwargs):
        raise AssertionError("reopening a kept review must not evaluate again")

    monkeypatch.setattr(review_module, "evaluate_decision", no_evaluation)
    monkeypatch.setattr(review_module, "judge", no_evaluation)
    again = stored_review(load_game(store, game_id))
    assert again is not None
    assert review_markdown(again) == review_markdown(review)
    assert [m.label for m in again.key_moments()] == [m.label for m in review.key_moments()]
    assert moments_markdown(again.key_moments()) == moments_markdown(review.key_moments())
    assert "kept from" in kept_note(again) and kept_note(review) == ""
    assert review.bands()["blunder"] == 1 and ", 1 blunder." in review_markdown(review)


def test_key_moments_show_cards_as_the_table_does_not_as_codes(kept) -> None:
    _store, _game_id, review = kept
    (moment,) = review.key_moments()
    table = moments_markdown([moment])
    assert not CODE.search(table) and not CODE.search(moment.label), table
    assert re.search(r"[♠♥♦♣]", table) and re.search(r"best .*[♠♥♦♣]", moment.label)


def test_a_kept_moment_replays_with_the_games_bots_named(kept, tmp_path) -> None:
    store, game_id, review = kept
    moment = stored_review(load_game(store, game_id)).key_moments()[0]
    game = load_game(store, game_id)
    board = replay_board(moment, tmp_path / "replay", opponents=game.opponents)
    try:
        assert board.trainer.current.kind == review.key_moments()[0].decision.kind
        assert [seat["bot"] for seat in board.widget.table["seats"]] == [None, "hard", "hard", "hard"]
    finally:
        board.widget.close()


def test_a_summary_from_before_or_damaged_offers_the_review_again(kept, tmp_path) -> None:
    store, game_id, _review = kept
    summary = load_game(store, game_id).review
    other = Store(tmp_path / "p.sqlite3")
    hand = load_game(store, game_id).hands
    other_id = save_game(other, game_record(list(hand), 0, {}), "g")
    for bad in (
        {k: v for k, v in summary.items() if k not in ("stored", "moments")},  # an older version's
        {**summary, "accuracy": "NaN"},
        {**summary, "moments": [{"hand": 0}]},
        {**summary, "per_hand": [{**summary["per_hand"][0], "points": 10**7}]},
        # a replay puzzle that would not load (its position's hand is not a hand)
        {
            **summary,
            "moments": [
                {
                    **summary["moments"][0],
                    "puzzle": {**summary["moments"][0]["puzzle"], "position": {"hand": 7}},
                }
            ],
        },
        {**summary, "notes": {"0": 5}},
    ):
        with other.transaction() as db:
            db.execute(
                "UPDATE games SET reviewed_at = ?, review = ? WHERE id = ?",
                ("2026-01-01T00:00:00", json.dumps(bad), other_id),
            )
        assert stored_review(load_game(other, other_id)) is None
