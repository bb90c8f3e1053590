"""Issue 49: a hand's *decisions* figure passing the hand's own points (+42.5 in a 26-point hand)
is explained under the review's table, in sentences whose claims are checked against the review."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Rules
from tests.review.history import play_bot_game
from trainer.progress.games import game_record, load_game, save_game
from trainer.review.game import HandReview, ReviewDepth, review_hands
from trainer.review.notes import AddsUp, LostAt, MoonSwing, hand_note, hand_points
from trainer.review.page import review_markdown
from trainer.review.stored import keep_review, stored_review
from trainer.store import Store

BUDGET = ReviewDepth(play_samples=32, pass_samples=32, pass_seconds=None, pass_stages=((16, 12),))
GAME_SEED = 5  # an Easy learner's game with a hand whose decisions pass its 26 points


@pytest.fixture(scope="module")
def session():
    return play_bot_game(Rules(), GAME_SEED)


@pytest.fixture(scope="module")
def review(session):
    return review_hands(session.game_hands, 0, BUDGET)


def test_a_hand_whose_decisions_pass_its_points_is_explained_and_no_other(review) -> None:
    noted = 0
    for hand in review.hands:
        note = hand_note(hand)
        points = hand_points(hand)
        if hand.decisions_loss <= points:
            assert note is None
            continue
        noted += 1
        assert note is not None and points == 26
        assert note.text.startswith(
            f"**Hand {hand.index + 1}: decisions {hand.decisions_loss:+.1f} in a hand"
        )
        for sentence in note.sentences:
            assert sentence.claims and sentence.holds(hand), sentence.text
        # the costliest decisions are named with their losses, and they are the largest
        losses = sorted((m.loss for m in hand.moments), reverse=True)
        named = [c for s in note.sentences for c in s.claims if isinstance(c, LostAt)]
        assert [c.loss for c in named] == losses[: len(named)]
        assert sum(c.loss for c in named) >= hand.decisions_loss / 2 or len(named) == 3
        assert any(isinstance(c, AddsUp) for s in note.sentences for c in s.claims)
        assert f"add up to the result, {hand.result:+.1f}" in note.text
        assert note.text in review_markdown(review)
    assert noted >= 1


def test_a_claim_that_does_not_hold_is_not_said(review) -> None:
    hand = next(h for h in review.hands if hand_note(h) is not None)
    m = max(hand.moments, key=lambda x: x.loss)
    d = m.decision
    assert LostAt(d.trick, d.choice, d.best, m.loss).check(hand)
    assert not LostAt(d.trick, d.choice, d.best, m.loss + 1).check(hand)
    assert not LostAt(d.trick, d.best, d.choice, m.loss).check(hand)
    assert not AddsUp(hand.cards, hand.decisions_loss, hand.luck + 1, hand.result).check(hand)


def moon_hand(hand: HandReview, shift: float) -> HandReview:
    """The hand with its costliest decision made a 30-point loss whose best option shoots the
    moon ``shift`` more often than the choice."""
    m = max(hand.moments, key=lambda x: x.loss)
    evaluation = m.evaluation
    options = tuple(
        replace(v, moon_for=0.05 + shift) if v.option == evaluation.best.option else replace(v, moon_for=0.05)
        for v in evaluation.options
    )
    moment = replace(
        m, decision=replace(m.decision, loss=30.0), evaluation=replace(evaluation, options=options)
    )
    return replace(hand, moments=tuple(moment if x is m else x for x in hand.moments))


def test_a_single_loss_above_the_hands_points_is_said_to_be_a_moon_only_when_it_is(review) -> None:
    hand = next(h for h in review.hands if h.moments)
    note = hand_note(moon_hand(hand, 0.6))
    assert note is not None
    assert "alone passes 26 points: a moon moves every seat's points at once" in note.text, note.text
    assert "you shoot the moon in 65%" in note.text
    swing = [c for s in note.sentences for c in s.claims if isinstance(c, MoonSwing)]
    assert len(swing) == 1
    # no moon between the best and the choice: the loss is not called a moon
    note = hand_note(moon_hand(hand, 0.0))
    assert note is not None and "a moon moves" not in note.text, note.text


def test_a_kept_review_reopens_with_its_notes(session, review, tmp_path) -> None:
    store = Store(tmp_path / "p.sqlite3")
    game_id = save_game(
        store, game_record(list(session.game_hands), 0, session.opponents), "l09_play/game/g1"
    )
    keep_review(store, replace(review, game_id=game_id))
    again = stored_review(load_game(store, game_id))
    assert again is not None
    notes = [note.text for note in filter(None, map(hand_note, review.hands))]
    assert notes and [hand.note for hand in again.hands if hand.note] == notes
    assert review_markdown(again) == review_markdown(review)
