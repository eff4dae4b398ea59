"""GET ``events``: the review events (suggestions, checkpoints, grants, documents) as SSE.

The panel keeps one stream open instead of polling. A reconnecting client says where it
left off (``?after=N`` or the ``Last-Event-ID`` header EventSource sends by itself) and
first gets a ``stream`` event ``{after, latest}`` (the replay covers the ids after ``after``
up to ``latest``), then what it missed from the service's replay buffer, then live events.
Each event's data is its model's JSON (``models.events``): the review service publishes
plain records, checked here against what the API documents.

A replay is complete or not sent: when the events after the client's position are more
than ``replay_max_events`` or ``replay_max_bytes``, are no longer all buffered, or the
client gave no position, a ``resync`` event follows ``stream`` instead and the client
fetches its lists (cheaper than megabytes of old events, and what it does on connecting
anyway). Every event is encoded once for all streams, and sent in chunks with a turn of
the event loop after each: a flush the socket absorbs at once does not yield, and 50
streams replaying megabytes each held every other request of the server for seconds.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from weakref import WeakKeyDictionary

from jupyter_server.auth.decorator import authorized
from pydantic import ValidationError
from tornado import web
from tornado.iostream import StreamClosedError

from ...core.errors import ArgumentError
from ...core.review.events import Event, Events, Listener
from ...ops.context import Services
from ..endpoints import MCPEndpoints
from .base import INTEGER, ApiHandler
from .models import SERVER_EVENT, Resync, StreamStart
from .models.events import ResyncReason

MAX_ID = 2**53  # what a JavaScript client can count to exactly


class Frames:
    """Events as SSE frames, encoded once for every stream that sends them (newest kept,
    up to ``max_bytes``; the newest frame stays whatever its size)."""

    def __init__(self, max_bytes: int = 32 * 2**20) -> None:
        self.max_bytes = max_bytes
        self._frames: OrderedDict[int, bytes] = OrderedDict()
        self._bytes = 0

    def get(self, event: Event) -> bytes | None:
        return self._frames.get(event["id"])

    def put(self, event: Event, frame: bytes) -> None:
        self._frames[event["id"]] = frame
        self._bytes += len(frame)
        while self._bytes > self.max_bytes and len(self._frames) > 1:
            self._bytes -= len(self._frames.popitem(last=False)[1])


# One cache per event series (a server's review service); ids are unique within one.
_FRAMES: WeakKeyDictionary[Events, Frames] = WeakKeyDictionary()


class EventsHandler(ApiHandler):
    # Proxies and browsers drop connections that stay silent; a comment line keeps it open.
    keepalive: float = 15.0
    # The longest replay sent; past either, the client gets a resync instead (README).
    replay_max_events: int = 200
    replay_max_bytes: int = 2**20
    # Large events go out in pieces of this size, each followed by a turn of the loop.
    chunk_bytes: int = 64 * 1024
    _track_activity = False  # an open panel is not user activity (Jupyter's idle culling)
    query_args = {"GET": frozenset({"after"})}

    def initialize(self, services: Services, endpoints: MCPEndpoints) -> None:
        super().initialize(services, endpoints)
        self._closed = asyncio.Event()

    def on_connection_close(self) -> None:
        self._closed.set()

    def _position(self) -> int | None:
        """Where the client left off: ``after`` or Last-Event-ID, the later; None if neither."""
        after = self.query_int("after", 0, 0, MAX_ID) if self.query("after") is not None else None
        header = self.request.headers.get("Last-Event-ID")
        if header is not None:
            if not INTEGER.fullmatch(header.strip()) or not 0 <= int(header) <= MAX_ID:
                raise ArgumentError(f"Last-Event-ID must be an event id, not {header!r}", "Last-Event-ID")
            after = max(after or 0, int(header))
        return after

    @web.authenticated
    @authorized
    async def get(self) -> None:
        position = self._position()
        events = self.services.reviews.events
        queue = events.subscribe()  # before the replay: nothing published in between is lost
        try:
            self.set_header("Content-Type", "text/event-stream; charset=utf-8")
            self.set_header("Cache-Control", "no-cache")
            self.set_header("X-Accel-Buffering", "no")  # reverse proxies must not buffer a stream
            await self._send(b"retry: 3000\n\n")  # sends the headers now: the client knows it is connected
            # Where the replay ends: a UI tells replayed events (say, old "created" ones it
            # should not notify about) from live ones. No id: Last-Event-ID stays as it was.
            latest = events.last_id
            replay, reason = self._replay(events, position, latest)
            after = latest if position is None or reason is not None else position
            await self._send(_frame("stream", StreamStart(after=after, latest=latest)))
            if reason is not None:
                # Its id is where the client stands once it has fetched its lists: a
                # reconnect (EventSource's Last-Event-ID) resumes from there.
                await self._send(_frame("resync", Resync(reason=reason), latest))
            replayed = 0
            for event_id, frame in replay:
                await self._send(frame)
                replayed = event_id
            dropped = queue.dropped
            while not self._closed.is_set():
                live = await self._next(queue)
                if queue.dropped != dropped:  # it fell behind: what it missed is gone
                    dropped = queue.dropped
                    await self._send(_frame("resync", Resync(reason="fell-behind")))
                if live is None:
                    await self._send(b": keepalive\n\n")
                elif live["id"] > replayed:  # the replay may already have sent it
                    await self._send(self._encode(events, live))
        except StreamClosedError:
            pass  # the client went away: that is how a stream ends
        finally:
            events.unsubscribe(queue)
        if not self._closed.is_set():
            self.finish(set_content_type="text/event-stream; charset=utf-8")

    def _replay(
        self, events: Events, position: int | None, latest: int
    ) -> tuple[list[tuple[int, bytes]], ResyncReason | None]:
        """The frames to replay after ``position``, or why there is no replay."""
        if position is None:
            return [], "new"
        if position > latest:
            return [], "restarted"  # ids count from 1 again after a restart
        if position < events.evicted:
            return [], "expired"
        missed = events.since(position)
        if len(missed) > self.replay_max_events:
            return [], "too-large"
        frames, size = [], 0
        for event in missed:
            frame = self._encode(events, event)
            size += len(frame)
            if size > self.replay_max_bytes:
                return [], "too-large"
            frames.append((event["id"], frame))
        return frames, None

    async def _next(self, queue: Listener) -> Event | None:
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

    def _encode(self, events: Events, event: Event) -> bytes:
        frames = _FRAMES.get(events)
        if frames is None:
            frames = _FRAMES[events] = Frames()
        frame = frames.get(event)
        if frame is None:
            frame = self._frame_of(event)
            frames.put(event, frame)
        return frame

    def _frame_of(self, event: Event) -> bytes:
        try:
            body = SERVER_EVENT.dump_python(SERVER_EVENT.validate_python(event), mode="json")
        except ValidationError:
            # A server bug (a record grew a field the API does not document): say so in the
            # log, but keep the stream going; stopping it would stop every panel's updates.
            self.log.error("mcp-lab events: a %r event does not match its model", event.get("type"), exc_info=True)
            body = event
        data = json.dumps(body, separators=(",", ":"), default=str)  # one line: SSE data ends at a newline
        return f"id: {event['id']}\nevent: {event['type']}\ndata: {data}\n\n".encode()

    async def _send(self, data: bytes) -> None:
        for start in range(0, len(data), self.chunk_bytes):
            if self._closed.is_set():
                raise StreamClosedError()
            self.write(data[start : start + self.chunk_bytes])
            await self.flush()
            # A flush the socket absorbs at once completes without yielding: give every
            # other request (and stream) its turn before the next piece.
            await asyncio.sleep(0)


def _frame(kind: str, body: StreamStart | Resync, event_id: int | None = None) -> bytes:
    """A frame of the stream itself; without an id EventSource's Last-Event-ID stays as it was."""
    head = "" if event_id is None else f"id: {event_id}\n"
    return f"{head}event: {kind}\ndata: {json.dumps(body.model_dump(mode='json'))}\n\n".encode()
