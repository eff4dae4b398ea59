"""GET ``events``: the review events (suggestions, checkpoints, grants, documents) as SSE.

The panel keeps one stream open instead of polling. A reconnecting client says where it
left off (``?after=N`` or the ``Last-Event-ID`` header EventSource sends by itself) and
first gets a ``stream`` event ``{after, latest}`` (the replay covers the ids after ``after``
up to ``latest``), then what it missed from the service's replay buffer, then live events.
Each event's data is its model's JSON (``models.events``): the review service publishes
plain records, checked here against what the API documents.
"""

from __future__ import annotations

import asyncio
import json

from jupyter_server.auth.decorator import authorized
from pydantic import ValidationError
from tornado import web
from tornado.iostream import StreamClosedError

from ...core.errors import ArgumentError
from ...core.review.events import Event
from ...ops.context import Services
from ..endpoints import MCPEndpoints
from .base import INTEGER, ApiHandler
from .models import SERVER_EVENT, StreamStart

MAX_ID = 2**53  # what a JavaScript client can count to exactly


class EventsHandler(ApiHandler):
    # Proxies and browsers drop connections that stay silent; a comment line keeps it open.
    keepalive: float = 15.0
    _track_activity = False  # an open panel is not user activity (Jupyter's idle culling)
    query_args = {"GET": frozenset({"after"})}

    def initialize(self, services: Services, endpoints: MCPEndpoints) -> None:
        super().initialize(services, endpoints)
        self._closed = asyncio.Event()

    def on_connection_close(self) -> None:
        self._closed.set()

    def _start(self) -> int:
        after = self.query_int("after", 0, 0, MAX_ID)
        header = self.request.headers.get("Last-Event-ID")
        if header is not None:
            if not INTEGER.fullmatch(header.strip()) or not 0 <= int(header) <= MAX_ID:
                raise ArgumentError(f"Last-Event-ID must be an event id, not {header!r}", "Last-Event-ID")
            after = max(after, int(header))
        return after

    @web.authenticated
    @authorized
    async def get(self) -> None:
        after = self._start()
        events = self.services.reviews.events
        queue = events.subscribe()  # before the replay: nothing published in between is lost
        try:
            self.set_header("Content-Type", "text/event-stream; charset=utf-8")
            self.set_header("Cache-Control", "no-cache")
            self.set_header("X-Accel-Buffering", "no")  # reverse proxies must not buffer a stream
            await self._send("retry: 3000\n\n")  # sends the headers now: the client knows it is connected
            recent = events.since(0)
            if after > events.last_id:
                after = 0  # ids past the newest: the server restarted and began counting again
            # Where the replay ends: a UI tells replayed events (say, old "created" ones it
            # should not notify about) from live ones. No id: Last-Event-ID stays as it was.
            latest = events.last_id
            start = StreamStart(after=after, latest=latest).model_dump(mode="json")
            await self._send(f"event: stream\ndata: {json.dumps(start)}\n\n")
            replayed = 0
            for old in (e for e in recent if e["id"] > after):
                await self._event(old)
                replayed = old["id"]
            while not self._closed.is_set():
                live = await self._next(queue)
                if live is None:
                    await self._send(": keepalive\n\n")
                elif live["id"] > replayed:  # the replay may already have sent it
                    await self._event(live)
        except StreamClosedError:
            pass  # the client went away: that is how a stream ends
        finally:
            events.unsubscribe(queue)
        if not self._closed.is_set():
            self.finish(set_content_type="text/event-stream; charset=utf-8")

    async def _next(self, queue: asyncio.Queue[Event]) -> Event | None:
        """The next event, or None after ``keepalive`` seconds or when the client left."""
        getter = asyncio.ensure_future(queue.get())
        closer = asyncio.ensure_future(self._closed.wait())
        try:
            await asyncio.wait({getter, closer}, timeout=self.keepalive, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closer.cancel()
            if not getter.done():
                getter.cancel()
        return getter.result() if getter.done() and not getter.cancelled() else None

    async def _event(self, event: Event) -> None:
        try:
            body = SERVER_EVENT.dump_python(SERVER_EVENT.validate_python(event), mode="json")
        except ValidationError:
            # A server bug (a record grew a field the API does not document): say so in the
            # log, but keep the stream going; stopping it would stop every panel's updates.
            self.log.error("mcp-lab events: a %r event does not match its model", event.get("type"), exc_info=True)
            body = event
        data = json.dumps(body, separators=(",", ":"), default=str)  # one line: SSE data ends at a newline
        await self._send(f"id: {event['id']}\nevent: {event['type']}\ndata: {data}\n\n")

    async def _send(self, text: str) -> None:
        if self._closed.is_set():
            raise StreamClosedError()
        self.write(text)
        await self.flush()
