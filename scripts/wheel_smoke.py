"""Smoke test of an installed Hearts Trainer wheel, run by scripts/wheel-smoke.sh with the fresh
venv's Python from a folder outside the checkout: the installed package alone must be enough.

The `hearts-trainer` command lists its tools, bots play a hand, the Hard bot decides, the table's
files, the notebooks and the puzzle files are there, `hearts-trainer site build` without the `site`
extra says what to install (and writes nothing), and `hearts-trainer serve` answers /health,
lets the address with the token in and runs the home page's notebook.
"""

from __future__ import annotations

import http.cookiejar
import os
import pathlib
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request

from websockets.sync.client import connect

SITE = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
SCRIPTS = pathlib.Path(sysconfig.get_paths()["scripts"])
TOKEN = "wheel-smoke-token-0123456789"


def check(what: str, ok: bool) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        sys.exit(1)


def installed_package() -> None:
    import engine
    import trainer

    for module in (engine, trainer):
        check(
            f"{module.__name__} comes from the venv",
            pathlib.Path(module.__file__).resolve().is_relative_to(SITE),
        )


def console_command() -> None:
    shown = subprocess.run(
        [str(SCRIPTS / "hearts-trainer"), "--help"], capture_output=True, text=True, check=True
    ).stdout
    commands = ("lessons", "serve", "play", "tournament", "mine", "export", "check")
    check("`hearts-trainer --help` lists its commands", all(f"\n    {name}" in shown for name in commands))


def bots_play_a_hand() -> None:
    from engine import HandState, Rules
    from engine.bots import make_bot
    from engine.hand import Phase

    hand = HandState.from_seed(7, Rules())
    bots = [make_bot(level, seat) for seat, level in enumerate(("easy", "normal", "easy", "normal"))]
    while hand.phase is Phase.PASSING:
        seat = hand.seats_to_pass[0]
        hand.pass_cards(seat, bots[seat].choose_pass(hand.view(seat)))
    while not hand.is_over:
        seat = hand.to_move
        hand.play(bots[seat].choose_play(hand.view(seat)), seat=seat)
    check(f"bots played a hand to its end: {hand.result.scores}", sum(hand.result.scores) in (26, 78))


def hard_bot_decides() -> None:
    from engine import HandState, Rules
    from engine.bots import make_bot

    hand = HandState.from_seed(11, Rules())
    started = time.perf_counter()
    passed = make_bot("hard", 1).choose_pass(hand.view(0))
    check(f"the Hard bot chose a pass in {time.perf_counter() - started:.1f} s", len(passed) == 3)


def table_files() -> None:
    from importlib.resources import files

    from trainer.data_files import LESSONS_DIR, PUZZLES_DIR

    for name in ("table.js", "table.css"):
        check(f"the table's {name} is installed", len((files("trainer.table") / name).read_text()) > 1000)
    from trainer.site_build.build import SAVE_GUARD

    check("the static site's save guard is installed", "beforeunload" in SAVE_GUARD.read_text())
    check(
        "the notebooks are installed",
        (LESSONS_DIR / "index.py").is_file() and LESSONS_DIR.is_relative_to(SITE),
    )
    check("the puzzle files are installed", len(list(PUZZLES_DIR.glob("*.toml"))) >= 10)
    from trainer.puzzles.board import PuzzleBoard

    board = PuzzleBoard()
    check(f"the puzzles page finds {len(board.trainer.puzzles)} puzzles", len(board.trainer.puzzles) >= 10)
    checked = subprocess.run(
        [str(SCRIPTS / "hearts-trainer"), "check"], capture_output=True, text=True, timeout=120
    )
    check(f"`hearts-trainer check`: {checked.stdout.strip()}", checked.returncode == 0)


def site_build_names_its_needs() -> None:
    """Without the `site` extra, `hearts-trainer site build` says what to install, and writes nothing."""
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "MARIMO_SKIP_UPDATE_CHECK": "1"}
        env.pop("HEARTS_TRAINER_SITE_MIRROR", None)
        done = subprocess.run(
            [str(SCRIPTS / "hearts-trainer"), "site", "build", "site-out"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        said = done.stderr.strip().splitlines()
        check(
            f"`hearts-trainer site build` without the site extra: {said[1:2]}",
            done.returncode != 0
            and "Traceback" not in done.stderr
            and any("pip install 'hearts-trainer[site]'" in line for line in said)
            and not any(work.iterdir()),
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_serves_the_home_page() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    env = {**os.environ, "HEARTS_TRAINER_TOKEN": TOKEN, "MARIMO_SKIP_UPDATE_CHECK": "1"}
    server = subprocess.Popen(
        [str(SCRIPTS / "hearts-trainer"), "serve", "--port", str(port)], env=env, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}health", timeout=1) as answer:
                    check("the server answers /health", answer.status == 200)
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    check("the server answers /health", False)
                time.sleep(0.3)
        try:
            urllib.request.urlopen(base, timeout=10)
            check("the home page without the token is refused", False)
        except urllib.error.HTTPError as refused:
            check("the home page without the token is refused", refused.code == 401)
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(f"{base}?access_token={TOKEN}", timeout=10) as page:
            check(
                "the address with the token serves the home page",
                page.url == base and "<marimo" in page.read().decode(),
            )
        check("the home notebook runs and shows the lessons", home_notebook_output(port))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)


def home_notebook_output(port: int) -> bool:
    """Whether the home page session shows the lessons list: the notebook ran on the installed package."""
    address = f"ws://127.0.0.1:{port}/ws?session_id=s_smoke&access_token={TOKEN}"
    with connect(address, origin=f"http://127.0.0.1:{port}", open_timeout=20, max_size=None) as socket_:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            message = socket_.recv(timeout=deadline - time.monotonic())
            if "Following suit and discarding" in message:
                return True
    return False


if __name__ == "__main__":
    installed_package()
    console_command()
    bots_play_a_hand()
    hard_bot_decides()
    table_files()
    site_build_names_its_needs()
    server_serves_the_home_page()
