"""`python -m trainer.start` (scripts/start.sh, `hearts-trainer`): the server on a free port,
remembered, and the address with the learner's token printed once the server answers."""

from __future__ import annotations

import http.cookiejar
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def started(tmp_path):
    """The learner's folder and the first line start printed; the server is stopped afterwards."""
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("HEARTS_TRAINER_TOKEN", None)
    env.update(HEARTS_TRAINER_HOME=str(tmp_path), HEARTS_PORT=str(_unused_port()), PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "trainer.start"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        yield tmp_path, process.stdout.readline()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)


def test_start_prints_the_address_with_the_token_once_the_server_answers(started) -> None:
    home, line = started
    found = re.fullmatch(r"Hearts Trainer lessons: (http://127\.0\.0\.1:(\d+)/)\?access_token=(\S+)\n", line)
    assert found, line
    base, port, token = found.groups()
    assert (home / "server-port").read_text().strip() == port
    assert (home / "server-token").read_text().strip() == token
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(base, timeout=10)
    assert refused.value.code == 401
    # As a browser does: the address with the token, then its cookie on every page.
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(f"{base}?access_token={token}", timeout=10) as page:
        assert page.url == base
        assert "<title>" in page.read().decode()
