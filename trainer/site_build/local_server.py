"""A folder served on a free localhost port, for the build's and the bytecode step's Chromium (and
the browser tests). Its own module, so that ``bytecode`` and ``build`` do not import each other."""

from __future__ import annotations

import contextlib
import functools
import http.server
import pathlib
import threading
from collections.abc import Iterator

__all__ = ["serve_folder"]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    missing: list[str]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code == 404:
            self.missing.append(self.path)
        super().send_error(code, message, explain)

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def serve_folder(folder: pathlib.Path) -> Iterator[tuple[str, list[str]]]:
    """Serve FOLDER on a free localhost port: yields (base URL, paths answered 404)."""
    missing: list[str] = []
    handler = type("Handler", (_QuietHandler,), {"missing": missing})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", missing
    finally:
        server.shutdown()
        server.server_close()
