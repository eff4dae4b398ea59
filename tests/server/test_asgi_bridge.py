"""The ASGI bridge on a bare Tornado server, seen from a raw socket.

What reaches the wire and when: a quick answer leaves with the response head in one write,
a slow one does not hold the head back, a plain body is sent whole, and a client that goes
away while the head waits leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from jupyter_mcp_lab.server.asgi_bridge import HEAD_HOLD_SECONDS, Message, TornadoASGIBridge, build_scope

SSE_HEAD = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]}
REQUEST = b"POST /app HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"

App = Callable[[Any, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


def event(n: int, more: bool = True) -> Message:
    return {"type": "http.response.body", "body": f"data: {n}\n\n".encode(), "more_body": more}


END: Message = {"type": "http.response.body", "body": b"", "more_body": False}


def nodelay(handler: web.RequestHandler) -> bool:
    sock = handler.request.connection.stream.socket  # type: ignore[union-attr]
    return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))


class Handler(web.RequestHandler):
    def initialize(self, app: App, trace: list[Any]) -> None:
        self.app = app
        self.trace = trace
        self.bridge: TornadoASGIBridge | None = None

    def on_connection_close(self) -> None:
        if self.bridge is not None:
            self.bridge.on_connection_close()

    async def post(self) -> None:
        self.trace.append(self)  # the app may look at its connection
        self.bridge = TornadoASGIBridge(self, build_scope(self, self.request.path))
        await self.bridge.run(self.app)
        if not self._finished:
            self.finish()
        self.trace.append("finished")


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[App], tuple[int, list[Any]]]]:
    servers: list[HTTPServer] = []

    def start(app: App) -> tuple[int, list[Any]]:
        trace: list[Any] = []
        server = HTTPServer(web.Application([("/app", Handler, {"app": app, "trace": trace})]))
        sock, port = bind_unused_port()
        server.add_sockets([sock])
        servers.append(server)
        return port, trace

    yield start
    for server in servers:
        server.stop()
        await server.close_all_connections()


async def chunks(port: int, until: bytes, within: float = 5) -> list[tuple[float, bytes]]:
    """Each read from the socket with its time since the request, until ``until`` arrived."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(REQUEST)
    start = time.monotonic()
    seen: list[tuple[float, bytes]] = []
    try:
        while until not in b"".join(c for _, c in seen):
            data = await asyncio.wait_for(reader.read(65536), within)
            if not data:
                break
            seen.append((time.monotonic() - start, data))
    finally:
        writer.close()
    return seen


async def test_a_quick_answer_leaves_with_the_head_in_one_write(serve: Any) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(SSE_HEAD)
        await send(event(0))  # the priming event
        await asyncio.sleep(0.002)  # the call runs
        await send(event(1))
        delays.append(nodelay(trace[0]))
        await send(END)

    delays: list[bool] = []
    port, trace = serve(app)
    seen = await chunks(port, b"data: 1")
    assert delays == [False]  # one write: no system call for TCP_NODELAY
    assert b"HTTP/1.1 200" in seen[0][1]
    assert b"data: 0" in seen[0][1] and b"data: 1" in seen[0][1], seen


async def test_a_slow_answer_does_not_hold_the_head_back(serve: Any) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(SSE_HEAD)
        await send(event(0))
        await asyncio.sleep(1.0)
        await send(event(1))
        await send(event(2))  # later events go out at once, each (TCP_NODELAY)
        delays.append(nodelay(trace[0]))
        await send(END)

    delays: list[bool] = []
    port, trace = serve(app)
    seen = await chunks(port, b"data: 2")
    first_at, first = seen[0]
    assert b"HTTP/1.1 200" in first and b"data: 0" in first and b"data: 1" not in first
    assert first_at < 0.8, seen  # the hold is HEAD_HOLD_SECONDS, not the call's second
    assert HEAD_HOLD_SECONDS < 0.1
    assert delays == [True]


async def test_a_plain_body_is_sent_whole(serve: Any) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"error": 1}', "more_body": False})

    port, _ = serve(app)
    seen = await chunks(port, b'{"error": 1}')
    response = b"".join(c for _, c in seen)
    assert response.startswith(b"HTTP/1.1 400")
    assert b"Content-Type: application/json" in response
    assert response.endswith(b'{"error": 1}')


async def test_a_client_gone_while_the_head_waits_leaves_nothing_behind(
    serve: Any, caplog: pytest.LogCaptureFixture
) -> None:
    finished = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(SSE_HEAD)
        await send(event(0))
        assert (await receive())["type"] == "http.disconnect"  # the client went away
        await send(event(1))  # ignored: nobody is listening
        finished.set()

    port, trace = serve(app)
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(REQUEST)
    await writer.drain()
    writer.close()
    await asyncio.wait_for(finished.wait(), 5)
    await asyncio.sleep(HEAD_HOLD_SECONDS * 3)  # past the held flush
    assert trace[1:] == ["finished"]
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []
