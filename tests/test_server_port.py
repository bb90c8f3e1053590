"""The server keeps its port across restarts when it is free, and moves only when it is taken."""

from __future__ import annotations

import socket

import pytest

from trainer.server_port import choose_port, is_free, remember, remembered


@pytest.fixture(autouse=True)
def learner_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path))
    return tmp_path


def _unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _listen_on(port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", port))
    sock.listen()
    return sock


def test_a_first_start_scans_from_the_base_and_remembers_nothing_by_itself() -> None:
    base = _unused_port()
    assert remembered() is None
    assert choose_port(base) == base
    assert remembered() is None


def test_a_restart_reuses_the_remembered_port_when_it_is_free(learner_home) -> None:
    port = _unused_port()
    remember(port)
    assert (learner_home / "server-port").read_text().strip() == str(port)
    assert choose_port(base=1) == port  # not the scan: port 1 would not even be tried


def test_a_taken_remembered_port_falls_back_to_the_scan() -> None:
    port = _unused_port()
    remember(port)
    with _listen_on(port):
        assert not is_free(port)
        chosen = choose_port(base=port)
        assert chosen != port
        assert chosen > port and is_free(chosen)
    assert is_free(port)


def test_a_damaged_port_file_is_ignored(learner_home) -> None:
    (learner_home / "server-port").write_text("not a port")
    assert remembered() is None
    base = _unused_port()
    assert choose_port(base) == base
