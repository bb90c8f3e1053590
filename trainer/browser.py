"""What changes when Hearts Trainer runs in the browser (the static site, on Pyodide).

- **Timers.** Pyodide cannot start threads: a bot's next card is scheduled on the browser's event
  loop (``call_later``) instead of a ``threading.Timer``.
- **Progress.** The progress file is the same SQLite file (``trainer.store``), kept in a folder of
  Pyodide's file system that is mounted on the browser's IndexedDB (Emscripten's IDBFS):
  ``restore_progress()`` reads it back when a page opens, and every committed write is saved to
  IndexedDB at once (``Store`` calls ``trainer.store.AFTER_COMMIT``). So every page of the site,
  and a reload, sees the same progress; **Download my progress** on the home page writes it as a
  file the installed version imports (``hearts-trainer import-progress FILE``).
  A save runs in the background, so while it runs the worker says so on the BroadcastChannel
  ``SAVING_CHANNEL``, and every page of the site (``trainer/site_build/save_guard.js``) asks
  before it is closed or left: a tab closed meanwhile would lose the last step.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import uuid
from collections.abc import Callable

__all__ = [
    "IN_BROWSER",
    "PROGRESS_FOLDER",
    "SAVING_CHANNEL",
    "Later",
    "call_later",
    "restore_progress",
    "save_progress",
]

IN_BROWSER = sys.platform == "emscripten"
PROGRESS_FOLDER = "/hearts-trainer"
"""Where the progress file lives in Pyodide's file system (mounted on IndexedDB)."""
SAVING_CHANNEL = "hearts-trainer-saving"
"""The BroadcastChannel on which a page's worker says when a save begins and ends."""
_SAVER = uuid.uuid4().hex
"""This worker's name on that channel (every tab of the site hears every worker)."""

_state = {"mounted": False, "saving": False, "again": False, "saves": 0, "errors": 0}


class Later:
    def __init__(self, handle: object) -> None:
        self._handle = handle

    def cancel(self) -> None:
        self._handle.cancel()


def call_later(delay: float, function: Callable[..., object], *args: object) -> Later:
    """Call ``function(*args)`` after ``delay`` seconds; ``.cancel()`` stops it. A daemon timer
    thread on a server, the browser's event loop under Pyodide (which has no threads)."""
    if IN_BROWSER:
        return Later(asyncio.get_event_loop().call_later(delay, function, *args))
    timer = threading.Timer(delay, function, args=args)
    timer.daemon = True
    timer.start()
    return Later(timer)


_channels: dict[str, object] = {}


def _announce(saving: bool) -> None:
    """Tell every page of the site that this worker's save began (True) or ended (False). Never
    raises: the save matters more than the question before leaving."""
    try:
        import js  # type: ignore[import-not-found]
        from pyodide.ffi import to_js  # type: ignore[import-not-found]

        if "channel" not in _channels:
            _channels["channel"] = js.BroadcastChannel.new(SAVING_CHANNEL)
        message = to_js({"saver": _SAVER, "saving": saving}, dict_converter=js.Object.fromEntries)
        _channels["channel"].postMessage(message)
    except Exception as error:  # any failure here must not stop the save
        print(f"Hearts Trainer could not tell the page a save is running: {error}", file=sys.stderr)


def _sync(populate: bool, done: Callable[[object], None]) -> None:
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    pyodide_js.FS.syncfs(populate, create_once_callable(done))


async def restore_progress() -> None:
    """In the browser: mount the progress folder on IndexedDB and read back what it holds, and
    make every write to the store saved there. Does nothing on a server (or when done already)."""
    if not IN_BROWSER or _state["mounted"]:
        return
    import js  # type: ignore[import-not-found]
    import pyodide_js  # type: ignore[import-not-found]

    from . import store

    fs = pyodide_js.FS
    os.makedirs(PROGRESS_FOLDER, exist_ok=True)
    fs.mount(fs.filesystems.IDBFS, js.Object.new(), PROGRESS_FOLDER)
    loaded = asyncio.get_event_loop().create_future()
    _sync(True, lambda error=None: loaded.set_result(error))
    error = await loaded
    if error:
        print(f"Hearts Trainer could not read the progress kept in this browser: {error}", file=sys.stderr)
    os.environ["HEARTS_TRAINER_HOME"] = PROGRESS_FOLDER
    store.AFTER_COMMIT.append(lambda _store: save_progress())
    _state["mounted"] = True


def save_progress() -> None:
    """Write the progress folder to IndexedDB (in the background; writes made meanwhile are saved
    by one more pass as soon as this one ends)."""
    if not _state["mounted"]:
        return
    if _state["saving"]:
        _state["again"] = True
        return
    _state["saving"], _state["again"] = True, False
    _announce(True)

    def done(error: object = None) -> None:
        _state["saving"] = False
        _state["saves"] += 1
        if error:
            _state["errors"] += 1
            print(f"Hearts Trainer could not save progress in this browser: {error}", file=sys.stderr)
        if _state["again"]:
            save_progress()
        else:
            _announce(False)

    _sync(False, done)
