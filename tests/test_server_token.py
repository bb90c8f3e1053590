"""The server's token: made once, kept for the learner alone, overridden by the environment."""

from __future__ import annotations

import stat

import pytest

from trainer.server_token import ENV_VAR, server_token


@pytest.fixture(autouse=True)
def learner_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path))
    monkeypatch.delenv(ENV_VAR, raising=False)
    return tmp_path


def test_a_first_start_makes_a_long_token_that_only_the_learner_can_read(learner_home) -> None:
    token = server_token()
    assert len(token) >= 40
    kept = learner_home / "server-token"
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert list(learner_home.iterdir()) == [kept]  # no partial file left behind


def test_a_restart_keeps_the_token_so_an_open_tab_still_gets_in() -> None:
    assert server_token() == server_token()


def test_two_learners_get_different_tokens(tmp_path, monkeypatch) -> None:
    first = server_token()
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "other"))
    assert server_token() != first


def test_a_damaged_token_file_is_made_again(learner_home) -> None:
    (learner_home / "server-token").write_text("short\n")
    token = server_token()
    assert token != "short" and len(token) >= 40


def test_the_environment_overrides_the_kept_token(learner_home, monkeypatch) -> None:
    server_token()
    monkeypatch.setenv(ENV_VAR, "given-by-the-tests")
    assert server_token() == "given-by-the-tests"
