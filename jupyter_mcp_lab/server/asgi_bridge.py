"""Run an ASGI app (the SDK's session manager) for one Tornado request, on Tornado's loop.

Tornado has already read the body; ``receive`` hands it over once, then waits until the
client goes away. ``send`` streams the response chunk by chunk (SSE needs each event
flushed) and turns a closed stream into a disconnect instead of an error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from tornado.iostream import IOStream, StreamClosedError
from tornado.web import RequestHandler

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

# Tornado frames the body itself (chunked or by length); passing these on would garble it.
HOP_BY_HOP = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"})
EVENT_STREAM = b"text/event-stream"

# How long an event stream's first event may wait for the next one (see ``send``). Longer than
# a quick call takes, too short for any client to notice.
FIRST_EVENT_HOLD_SECONDS = 0.02


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
        self._status = 500
        self._events: int | None = None  # events sent so far, for an event stream
        self._held: asyncio.TimerHandle | None = None  # the first event's flush (see ``send``)

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
        h = self.handler
        kind = message["type"]
        if kind == "http.response.start":
            self._status = message["status"]
            h.set_status(self._status)
            h.clear_header("Content-Type")
            events = False
            for raw_name, raw_value in message.get("headers", []):
                name = raw_name.decode("latin-1")
                lower = name.lower()
                if lower in HOP_BY_HOP:
                    continue
                if lower == "content-type":
                    events = raw_value.startswith(EVENT_STREAM)
                h.add_header(name, raw_value.decode("latin-1"))
            if events:
                self._events = 0
                # An event stream's head goes out at once, as uvicorn sends it: the client reads it
                # and sets up its event reader while the call is still running rather than after
                # the answer (on an idle machine about 0.3 ms of a 4 ms call). Events follow in
                # writes of their own, so Nagle's algorithm must not hold one back until the client
                # acknowledges the one before (uvicorn sets TCP_NODELAY on every connection;
                # Tornado only when a response ends).
                stream = self._stream()
                if stream is not None:
                    stream.set_nodelay(True)
                await self._flush()
            return
        if kind != "http.response.body":
            return
        body = message.get("body", b"")
        if body:
            h.write(body)
        if not message.get("more_body", False):
            # The app is done: the handler's finish() sends what is left in one write.
            self._release()
            self._disconnected.set()
            return
        if self._events is not None:
            self._events += 1
        if self._events == 1:
            # An event stream's first event (the SDK's priming event, the id a client resumes
            # from) waits a moment for the next one: a quick call's answer then leaves with it,
            # one write and one wake-up of the client instead of two.
            self._held = asyncio.get_running_loop().call_later(FIRST_EVENT_HOLD_SECONDS, self._flush_held)
            return
        self._release()
        await self._flush()

    def _stream(self) -> IOStream | None:
        return getattr(self.handler.request.connection, "stream", None)

    async def _flush(self) -> None:
        written = self.handler.flush()
        stream = self._stream()
        if stream is None or not stream.writing():
            # The socket took it all (the usual case). Tornado resolves the future only after
            # another turn of the loop; the app need not wait for that, and a closed stream
            # answers a finished future with nothing to raise.
            return
        try:
            await written  # back-pressure: the client reads slower than events come
        except StreamClosedError:
            self._disconnected.set()

    async def run(self, app: ASGIApp) -> int:
        await app(self.scope, self.receive, self.send)
        return self._status
