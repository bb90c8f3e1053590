"""The static site's background saves (``trainer.browser``), outside the browser: Pyodide's file
system sync and the page's BroadcastChannel replaced by recorders. The browser test
(``tests/browser/test_static_site_browser.py``) runs the real ones."""

from __future__ import annotations

import sys
import types

import pytest

from trainer import browser


class FakeChannel:
    def __init__(self, heard: list, fail: bool) -> None:
        self.heard = heard
        self.fail = fail

    def postMessage(self, message: dict) -> None:  # the JS method's name
        if self.fail:
            raise RuntimeError("no BroadcastChannel here")
        self.heard.append((message["saver"], message["saving"]))


@pytest.fixture
def site(monkeypatch):
    """A mounted progress folder whose syncs wait until the test ends them, and what the pages hear."""
    heard: list[tuple[str, bool]] = []
    pending: list = []
    state = {"fail": False}
    js = types.ModuleType("js")
    js.BroadcastChannel = types.SimpleNamespace(new=lambda name: FakeChannel(heard, state["fail"]))
    js.Object = types.SimpleNamespace(fromEntries=dict)
    ffi = types.ModuleType("pyodide.ffi")
    ffi.to_js = lambda value, dict_converter: dict_converter(value.items())
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.setattr(browser, "_sync", lambda populate, done: pending.append((populate, done)))
    monkeypatch.setattr(browser, "_channels", {})
    monkeypatch.setattr(
        browser, "_state", {"mounted": True, "saving": False, "again": False, "saves": 0, "errors": 0}
    )
    return types.SimpleNamespace(heard=heard, pending=pending, state=state)


def test_the_pages_hear_a_save_begin_and_end_and_a_write_meanwhile_saved_by_one_more_pass(site):
    browser.save_progress()
    assert site.heard == [(browser._SAVER, True)]
    browser.save_progress()  # a write while the first save runs: no second sync at once
    assert len(site.pending) == 1
    site.pending.pop()[1]()  # the first save ends: one more pass starts, still saving
    assert len(site.pending) == 1 and site.heard[-1] == (browser._SAVER, True)
    site.pending.pop()[1]()  # that one ends: the pages may let the tab go
    assert site.heard[-1] == (browser._SAVER, False)
    assert browser._state["saves"] == 2 and not browser._state["saving"]


def test_a_save_runs_even_when_the_pages_cannot_be_told(site, capsys):
    site.state["fail"] = True
    browser.save_progress()
    assert [populate for populate, _done in site.pending] == [False]  # the sync to IndexedDB started
    site.pending.pop()[1]()
    assert browser._state["saves"] == 1
    assert "could not tell the page a save is running" in capsys.readouterr().err
