"""The ASGI bridge on a bare Tornado server, seen from a raw socket.

What reaches the wire and when: an event stream's head leaves before its first event (the
client sets up while the call runs), a quick answer leaves in one write with the first
event, a slow one does not hold the first event back and later events leave at once, a
plain body is sent whole with its length, and a client that goes away mid-stream leaves
nothing behind.
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

from jupyter_mcp_lab.server.asgi_bridge import FIRST_EVENT_HOLD_SECONDS, Message, TornadoASGIBridge, build_scope

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


class Reader:
    """The client side: reads the response, each read kept apart, and says when a piece of it
    has arrived."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reads: list[bytes] = []
        self._changed = asyncio.Condition()

    @property
    def received(self) -> bytes:
        return b"".join(self.reads)

    async def run(self, until: bytes = b"0\r\n\r\n") -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(REQUEST)
        try:
            while until not in self.received:
                data = await asyncio.wait_for(reader.read(65536), 5)
                if not data:
                    break
                async with self._changed:
                    self.reads.append(data)
                    self._changed.notify_all()
        finally:
            writer.close()

    async def seen(self, piece: bytes) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: piece in self.received), 5)

    def read_with(self, piece: bytes) -> bytes:
        return next(r for r in self.reads if piece in r)


async def test_an_event_stream_head_leaves_before_the_first_event(serve: Any) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(SSE_HEAD)
        await client.seen(b"HTTP/1.1 200")  # a bridge holding the head back times out here
        delays.append(nodelay(trace[0]))
        await send(event(0))  # the priming event
        await asyncio.sleep(0.002)  # the call runs
        await send(event(1))  # the answer
        await send(END)

    delays: list[bool] = []
    port, trace = serve(app)
    client = Reader(port)
    await asyncio.wait_for(client.run(), 10)
    assert delays == [True]  # as uvicorn: no event waits under Nagle's algorithm for an ACK
    assert b"data:" not in client.read_with(b"HTTP/1.1 200")
    assert b"Content-Type: text/event-stream" in client.received
    assert b"Transfer-Encoding: chunked" in client.received
    # A quick answer leaves with the first event: one write, one wake-up of the client.
    assert b"data: 1" in client.read_with(b"data: 0")
    assert client.received.endswith(b"0\r\n\r\n")  # the stream ends properly
    assert trace[1:] == ["finished"]


async def test_a_slow_answer_does_not_hold_the_first_event_back(serve: Any) -> None:
    # Each send waits until the client has what was sent before: the first event within the
    # hold, later ones at once (a bridge holding any of them back for the next times out).
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(SSE_HEAD)
        await send(event(0))
        started = time.monotonic()
        await client.seen(b"data: 0")
        waited.append(time.monotonic() - started)
        await send(event(1))
        await client.seen(b"data: 1")
        await send(event(2))
        await client.seen(b"data: 2")
        await send(END)

    waited: list[float] = []
    port, _ = serve(app)
    client = Reader(port)
    await asyncio.wait_for(client.run(), 10)
    assert FIRST_EVENT_HOLD_SECONDS <= waited[0] < 1, waited
    assert FIRST_EVENT_HOLD_SECONDS < 0.1  # too short for anyone to notice
    assert client.received.endswith(b"0\r\n\r\n")


async def test_a_plain_body_is_sent_whole(serve: Any) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"error": 1}', "more_body": False})

    port, trace = serve(app)
    seen = await chunks(port, b'{"error": 1}')
    response = b"".join(c for _, c in seen)
    assert response.startswith(b"HTTP/1.1 400")
    assert b"Content-Type: application/json" in response
    assert b"Content-Length: 12" in response and b"chunked" not in response  # not flushed early
    assert response.endswith(b'{"error": 1}')
    assert not nodelay(trace[0])


async def test_a_client_gone_mid_stream_leaves_nothing_behind(serve: Any, caplog: pytest.LogCaptureFixture) -> None:
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
    await asyncio.sleep(FIRST_EVENT_HOLD_SECONDS * 3)  # past the held flush
    assert trace[1:] == ["finished"]
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []
