"""Keep Hearts Trainer's server to the learner: an ASGI middleware in front of the marimo pages.

- A request must carry the server's token: once as ``?access_token=TOKEN`` (the address start.sh
  prints), which answers with a cookie and the same address without the token; then the cookie.
  Without either the page says where the right address comes from (401), and a WebSocket is refused.
- A request that names another origin (the ``Origin`` header a browser adds to a WebSocket, a POST or
  a cross-site fetch) is refused (403), token or not: another web page the learner visits cannot
  drive their lessons. Requests without an ``Origin`` (the page's own GETs) pass on their cookie.
- The ``Host`` must be one of the server's own names, so a hostile name resolving to 127.0.0.1
  (DNS rebinding) gets nothing either.

``/health`` stays open: it tells only that the server is up, and start.sh waits on it.

The Host and Origin rules alone (``SameSite``, ``OriginGuard``) also keep the rooms for friends
(`trainer.rooms`), which need no token.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlencode

from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["TOKEN_PARAM", "OriginGuard", "SameSite", "ServerGuard", "cookie_name"]

TOKEN_PARAM = "access_token"
OPEN_PATHS = frozenset({"/health", "/healthz"})
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
COOKIE_DAYS = 400  # browsers' cap: a tab or bookmark keeps working as long as the token does
POLICY_VIOLATION = 1008  # WebSocket close code; before the handshake the browser sees HTTP 403

NEEDS_ADDRESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearts Trainer</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem">
<h1>Hearts Trainer</h1>
<p>This page needs the address printed by <code>scripts/start.sh</code> (or <code>hearts-trainer</code>)
when it started: that address carries the key to your lessons, so that no other web page can use them.</p>
<p>Open the address from the terminal, or start Hearts Trainer again.</p>
</body></html>
"""

FOREIGN = PlainTextResponse("Hearts Trainer answers only its own pages.\n", status_code=403)


def cookie_name(port: int) -> str:
    # Cookies ignore the port: each server keeps its own, so two never overwrite each other.
    return f"hearts_trainer_{port}"


class SameSite:
    """The Host and Origin rules: a request for one of the server's own names, from no other origin."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.any_host = host in WILDCARD_HOSTS  # served to the network: its names are not known here
        self.own_names = LOOPBACK_NAMES | {host.strip("[]")}

    def allows(self, connection: HTTPConnection) -> bool:
        return self._own_host(connection) and self._same_origin(connection)

    def _own_host(self, connection: HTTPConnection) -> bool:
        return self.any_host or connection.url.hostname in self.own_names

    @staticmethod
    def _same_origin(connection: HTTPConnection) -> bool:
        origin = connection.headers.get("origin")
        if origin is None:
            return True
        scheme = "https" if connection.url.scheme in ("https", "wss") else "http"
        return origin == f"{scheme}://{connection.headers.get('host', '')}"


class OriginGuard:
    """``SameSite``'s rules alone in front of ``app``: no token (the rooms, which friends open)."""

    def __init__(self, app: ASGIApp, *, host: str = "127.0.0.1") -> None:
        self.app = app
        self.rule = SameSite(host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.rule.allows(HTTPConnection(scope)):
            await _refuse(scope, receive, send, FOREIGN)
            return
        await self.app(scope, receive, send)


class ServerGuard:
    def __init__(self, app: ASGIApp, *, token: str, host: str = "127.0.0.1") -> None:
        if not token:
            raise ValueError("the server needs a token")
        self.app = app
        self.token = token
        # The cookie holds a keyed hash, so a copied cookie does not reveal the token itself.
        self.cookie_value = hmac.new(token.encode(), b"hearts-trainer cookie", hashlib.sha256).hexdigest()
        self.rule = SameSite(host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        if not self.rule.allows(connection):
            await _refuse(scope, receive, send, FOREIGN)
            return
        if self._has_token(connection) and scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            await self._let_in(connection)(scope, receive, send)
            return
        if scope["path"] in OPEN_PATHS or self._has_token(connection) or self._has_cookie(connection):
            await self.app(scope, receive, send)
            return
        await _refuse(scope, receive, send, HTMLResponse(NEEDS_ADDRESS, status_code=401))

    def _has_token(self, connection: HTTPConnection) -> bool:
        return _same_text(connection.query_params.get(TOKEN_PARAM, ""), self.token)

    def _has_cookie(self, connection: HTTPConnection) -> bool:
        cookie = connection.cookies.get(cookie_name(self._port(connection)), "")
        return _same_text(cookie, self.cookie_value)

    def _let_in(self, connection: HTTPConnection) -> RedirectResponse:
        """The same address without the token (kept out of the address bar and history), with the cookie."""
        rest = [(key, value) for key, value in connection.query_params.multi_items() if key != TOKEN_PARAM]
        path = connection.scope.get("root_path", "") + connection.scope["path"]
        response = RedirectResponse(path + (f"?{urlencode(rest)}" if rest else ""), status_code=303)
        response.set_cookie(
            cookie_name(self._port(connection)),
            self.cookie_value,
            max_age=COOKIE_DAYS * 24 * 3600,
            httponly=True,
            samesite="lax",  # not sent with another site's fetches or WebSockets
        )
        return response

    @staticmethod
    def _port(connection: HTTPConnection) -> int:
        server = connection.scope.get("server")
        return server[1] if server else 0


async def _refuse(scope: Scope, receive: Receive, send: Send, response: Response) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": POLICY_VIOLATION})
        return
    await response(scope, receive, send)


def _same_text(given: str, expected: str) -> bool:
    # As bytes: compare_digest refuses non-ASCII text, and anyone can send that.
    return hmac.compare_digest(given.encode(), expected.encode())
