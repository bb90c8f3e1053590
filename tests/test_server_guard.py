"""The server's guard, driven as ASGI without a server: who gets through to the pages and who not."""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest

from trainer.server_guard import ServerGuard, cookie_name

TOKEN = "a-token-for-the-guard-tests"
PORT = 2718
OWN = f"127.0.0.1:{PORT}"


async def _page(scope, receive, send) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.accept"})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the page"})


def ask(
    path: str = "/",
    *,
    query: str = "",
    host: str = OWN,
    origin: str | None = None,
    cookie: str | None = None,
    kind: str = "http",
    method: str = "GET",
    bind: str = "127.0.0.1",
) -> tuple[int, dict[str, str]]:
    """The guard's answer: the status (101 for an accepted WebSocket) and the response headers."""
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    scope = {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
        "server": ("127.0.0.1", PORT),
    }
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    # In a thread of its own: the browser tests' Playwright keeps an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, ServerGuard(_page, token=TOKEN, host=bind)(scope, receive, send)).result()
    first = sent[0]
    if first["type"] == "websocket.accept":
        return 101, {}
    if first["type"] == "websocket.close":
        return 403, {}
    return first["status"], {key.decode(): value.decode() for key, value in first["headers"]}


def signed_cookie() -> str:
    _, headers = ask(query=f"access_token={TOKEN}")
    return headers["set-cookie"].split(";")[0]


def test_without_the_token_a_page_is_refused_and_says_which_address_to_open() -> None:
    status, headers = ask("/lesson/")
    assert status == 401
    assert headers["content-type"].startswith("text/html")


def test_the_token_answers_with_the_cookie_and_the_same_address_without_it() -> None:
    status, headers = ask("/lesson/", query=f"lesson=l03_following&access_token={TOKEN}")
    assert status == 303
    assert headers["location"] == "/lesson/?lesson=l03_following"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"{cookie_name(PORT)}=")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert TOKEN not in cookie


def test_the_cookie_lets_in_and_a_forged_one_does_not() -> None:
    assert ask("/review/", cookie=signed_cookie())[0] == 200
    assert ask("/review/", cookie=f"{cookie_name(PORT)}={TOKEN}")[0] == 401
    assert ask("/review/", cookie=signed_cookie().replace(str(PORT), str(PORT + 1)))[0] == 401


@pytest.mark.parametrize("wrong", ["", "a-token", TOKEN + "x", "tökén"])
def test_a_wrong_token_is_refused(wrong) -> None:
    assert ask(query=f"access_token={wrong}")[0] == 401


def test_another_origin_is_refused_with_the_token_or_the_cookie() -> None:
    assert ask(method="POST", origin="http://evil.example", cookie=signed_cookie())[0] == 403
    assert ask(kind="websocket", origin="http://evil.example", query=f"access_token={TOKEN}")[0] == 403
    assert ask(kind="websocket", origin=f"http://localhost:{PORT}", cookie=signed_cookie())[0] == 403


def test_the_page_itself_gets_its_websocket_and_posts() -> None:
    assert ask("/ws", kind="websocket", origin=f"http://{OWN}", cookie=signed_cookie())[0] == 101
    assert ask("/ws", kind="websocket", origin=f"http://{OWN}")[0] == 403  # but not without the cookie
    assert ask("/api/kernel/run", method="POST", origin=f"http://{OWN}", cookie=signed_cookie())[0] == 200


def test_a_foreign_host_name_is_refused_even_for_health() -> None:
    # A hostile name made to resolve to 127.0.0.1 (DNS rebinding) is same-origin for its own page.
    assert ask("/health", host=f"evil.example:{PORT}")[0] == 403
    assert ask("/", host=f"evil.example:{PORT}", origin=f"http://evil.example:{PORT}")[0] == 403
    assert ask("/", host=f"evil.example:{PORT}", bind="0.0.0.0", query=f"access_token={TOKEN}")[0] == 303


def test_health_answers_without_the_token() -> None:
    assert ask("/health")[0] == 200
    assert ask("/health", host=f"localhost:{PORT}")[0] == 200
