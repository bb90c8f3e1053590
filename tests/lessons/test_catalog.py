"""The lesson catalog: the nine lessons in order, each built only when asked for."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.browser.conftest import ROOT
from trainer.lessons.catalog import LESSONS, next_lesson


def test_the_catalog_holds_the_nine_lessons_in_order_by_their_keys():
    lessons = list(LESSONS.values())
    assert [lesson.key for lesson in lessons] == list(LESSONS)
    assert [lesson.number for lesson in lessons] == list(range(1, 10))
    assert "l01_game" in LESSONS and "steps" not in LESSONS and LESSONS.get("l10_nothing") is None
    assert next_lesson("l08_strategy") is LESSONS["l09_play"] and next_lesson("l09_play") is None


def test_a_lessons_page_builds_that_lesson_and_the_next_not_all_nine():
    # Lesson 1's page (the site's first cold load) opens lesson 1, its step and its link onward;
    # lesson 8, whose steps read puzzle files, is not built for it.
    probe = (
        "import sys\n"
        "from trainer.lessons.runner import open_lesson\n"
        "from trainer.store import MEMORY, Store\n"
        "runner = open_lesson('l01_game', Store(MEMORY))\n"
        "runner.go(runner.index); runner.header_markdown(); runner.step_markdown(); runner.next_link()\n"
        "print(sorted(name for name in sys.modules if name.startswith('trainer.lessons.l0')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["['trainer.lessons.l01_game',", "'trainer.lessons.l02_passing']"]
