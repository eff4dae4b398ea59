"""A bounded in-memory event store, so SSE clients can resume a stream after a reconnect.

Long calls (waiting for a person's decision, indexing) outlive flaky connections; with
event ids the client reconnects with ``Last-Event-ID`` and misses nothing. Memory is
bounded: the oldest events go first. Events are kept as JSON bytes, not message objects:
replays are rare, and thousands of parsed messages would lengthen every garbage collection.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage, jsonrpc_message_adapter


class BoundedEventStore(EventStore):
    def __init__(self, max_events: int = 10_000) -> None:
        self.max_events = max_events
        self._events: OrderedDict[int, tuple[StreamId, bytes | None]] = OrderedDict()
        self._ids = itertools.count(1)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = next(self._ids)
        data = (
            None if message is None else jsonrpc_message_adapter.dump_json(message, by_alias=True, exclude_unset=True)
        )
        self._events[event_id] = (stream_id, data)
        while len(self._events) > self.max_events:
            self._events.popitem(last=False)
        return str(event_id)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        try:
            last = int(last_event_id)
        except ValueError:
            return None
        entry = self._events.get(last)
        if entry is None:
            return None
        stream_id = entry[0]
        for event_id, (sid, data) in list(self._events.items()):
            if event_id > last and sid == stream_id and data is not None:
                message = jsonrpc_message_adapter.validate_json(data)
                await send_callback(EventMessage(message, str(event_id)))
        return stream_id
