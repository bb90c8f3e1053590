"""The secret that lets only the learner into Hearts Trainer's server.

Made once with ``secrets`` and kept in ``server-token`` in the learner's data folder (readable by
the learner alone), beside the remembered port: a tab left open keeps its cookie, so it works
again after a restart, which is why the port is remembered at all. ``$HEARTS_TRAINER_TOKEN``
overrides it (the tests give their servers a token this way).
"""

from __future__ import annotations

import contextlib
import os
import secrets

from trainer.store import data_home

__all__ = ["ENV_VAR", "server_token"]

ENV_VAR = "HEARTS_TRAINER_TOKEN"
FILE_NAME = "server-token"
MIN_LENGTH = 16  # a shorter remembered token is treated as damaged and made again


def server_token() -> str:
    if given := os.environ.get(ENV_VAR):
        return given
    path = data_home() / FILE_NAME
    with contextlib.suppress(OSError):
        kept = path.read_text().strip()
        if len(kept) >= MIN_LENGTH:
            return kept
    token = secrets.token_urlsafe(32)
    _keep(token)
    return token


def _keep(token: str) -> None:
    folder = data_home()
    with contextlib.suppress(OSError):  # unwritable: the server still starts, with a token for this run
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f"{FILE_NAME}.{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(f"{token}\n")
        partial.replace(folder / FILE_NAME)
