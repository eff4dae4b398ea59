"""Run an ASGI app (the SDK's session manager) for one Tornado request, on Tornado's loop.

Tornado has already read the body; ``receive`` hands it over once, then waits until the
client goes away. ``send`` streams the response chunk by chunk (SSE needs each event
flushed) and turns a closed stream into a disconnect instead of an error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

# How long the response head and first event may wait for the next event (see ``send``).
# Longer than a quick call takes, too short for any client to notice.
HEAD_HOLD_SECONDS = 0.02

# Tornado frames the body itself (chunked or by length); passing these on would garble it.
HOP_BY_HOP = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"})


def build_scope(handler: RequestHandler, path: str, extra: dict[str, Any] | None = None) -> Scope:
    req = handler.request
    host, _, port = (req.host or "localhost").partition(":")
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in req.headers.get_all()]
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": req.version.removeprefix("HTTP/") or "1.1",
        "method": req.method or "GET",
        "scheme": req.protocol,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": req.query.encode("latin-1"),
        "headers": headers,
        "client": (req.remote_ip, 0),
        "server": (host, int(port) if port.isdigit() else (443 if req.protocol == "https" else 80)),
        "state": {},
    }
    if extra:
        scope.update(extra)
    return scope


class TornadoASGIBridge:
    """One request's worth of ASGI plumbing; ``await bridge.run(app)``."""

    def __init__(self, handler: RequestHandler, scope: Scope) -> None:
        self.handler = handler
        self.scope = scope
        self._body_sent = False
        self._disconnected = asyncio.Event()
        self._started = False
        self._status = 500
        self._held: asyncio.TimerHandle | None = None  # the held head's flush (see ``send``)
        self._head_out = False
        self._sent = False  # something was written to the socket
        self._nodelay = False

    def on_connection_close(self) -> None:
        self._disconnected.set()
        self._release()

    def _release(self) -> None:
        if self._held is not None:
            self._held.cancel()
            self._held = None

    def _flush_held(self) -> None:
        self._held = None
        if not self._disconnected.is_set() and not self.handler._finished:
            self._sent = True
            self.handler.flush()  # a closed stream answers a finished future, nothing raised

    async def receive(self) -> Message:
        if not self._body_sent:
            self._body_sent = True
            return {
                "type": "http.request",
                "body": self.handler.request.body or b"",
                "more_body": False,
            }
        await self._disconnected.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        if self._disconnected.is_set():
            return
        kind = message["type"]
        h = self.handler
        if kind == "http.response.start":
            self._started = True
            self._status = message["status"]
            h.set_status(self._status)
            h.clear_header("Content-Type")
            for raw_name, raw_value in message.get("headers", []):
                name = raw_name.decode("latin-1")
                if name.lower() in HOP_BY_HOP:
                    continue
                h.add_header(name, raw_value.decode("latin-1"))
        elif kind == "http.response.body":
            body = message.get("body", b"")
            more = message.get("more_body", False)
            if body:
                h.write(body)
            if not more:
                # The app is done: the handler's finish() sends what is left in one write.
                self._release()
                self._disconnected.set()
                return
            if not self._head_out:
                # The head and the first event (an SSE stream's priming event) wait a moment
                # for the next one: a quick call's answer then leaves in the same packet, one
                # write and one wake-up of the client instead of two.
                self._head_out = True
                self._held = asyncio.get_running_loop().call_later(HEAD_HOLD_SECONDS, self._flush_held)
                return
            self._release()
            if self._sent and not self._nodelay:
                # Later events go out at once, as uvicorn sends them: with Nagle's algorithm an
                # event written while the previous write is unacknowledged waits for the
                # client's (possibly delayed) ACK. A first write never waits (nothing is in
                # flight), so a quick call needs no extra system call. Tornado sets this
                # itself only when the response ends.
                self._nodelay = True
                stream = getattr(h.request.connection, "stream", None)
                if stream is not None:
                    stream.set_nodelay(True)
            self._sent = True
            try:
                await h.flush()
            except StreamClosedError:
                self._disconnected.set()

    async def run(self, app: ASGIApp) -> int:
        await app(self.scope, self.receive, self.send)
        return self._status
