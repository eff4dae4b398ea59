"""Events for the UIs and for agents waiting on decisions: one stream, many listeners."""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from typing import Any

Event = dict[str, Any]


# Live only: a tool call per event would push the review events out of the replay buffer
# and wake every waiting ``review.wait``; UIs fetch what they missed from their own route.
TRANSIENT = frozenset({"activity"})


class Listener(asyncio.Queue[Event]):
    """One subscriber's events; ``dropped`` counts those it lost by falling behind."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize)
        self.dropped = 0


class Events:
    """Numbered events with a short replay buffer (a reconnecting stream sends ``after``)."""

    def __init__(self, keep: int = 500, queue_size: int = 1000) -> None:
        self._seq = itertools.count(1)
        self._recent: deque[Event] = deque(maxlen=keep)
        self._queues: set[Listener] = set()
        self._queue_size = queue_size
        self._changed: asyncio.Event | None = None
        self.last_id = 0  # of any event, replayable or not
        self.evicted = 0  # the newest replayable event the buffer no longer holds

    def publish(self, kind: str, **data: Any) -> Event:
        event = {"id": next(self._seq), "type": kind, **data}
        self.last_id = event["id"]
        for q in list(self._queues):
            if q.full():  # a stalled listener loses its oldest events, never blocks others
                q.get_nowait()
                q.dropped += 1
            q.put_nowait(event)
        if kind in TRANSIENT:
            return event
        if len(self._recent) == self._recent.maxlen:
            self.evicted = self._recent[0]["id"]
        self._recent.append(event)
        if self._changed is not None:
            self._changed.set()
            self._changed = None
        return event

    @property
    def listening(self) -> bool:
        """Whether anyone subscribes (a transient event nobody hears need not be made)."""
        return bool(self._queues)

    def since(self, after: int) -> list[Event]:
        return [e for e in self._recent if e["id"] > after]

    def subscribe(self) -> Listener:
        q = Listener(self._queue_size)
        self._queues.add(q)
        return q

    def unsubscribe(self, q: Listener) -> None:
        self._queues.discard(q)

    async def next_change(self, seconds: float) -> bool:
        """Wait until a review event is published (True) or ``seconds`` pass (False)."""
        if self._changed is None:
            self._changed = asyncio.Event()
        try:
            await asyncio.wait_for(self._changed.wait(), seconds)
            return True
        except TimeoutError:
            return False
