"""Fixtures the lesson tests share: a progress store and lesson runners on it."""

from __future__ import annotations

import pytest

from trainer.lessons.catalog import LESSONS
from trainer.lessons.runner import LessonRunner
from trainer.store import Store


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "p.sqlite3")


@pytest.fixture
def runner_for(store, monkeypatch):
    """``runner_for(key)``: the lesson's runner on ``store``, bots acting at once; closed after."""
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    made = []

    def make(key: str) -> LessonRunner:
        runner = LessonRunner(LESSONS[key], store)
        made.append(runner)
        return runner

    yield make
    for runner in made:
        runner.close()
