"""The server's review events (``GET mcp-lab/api/events``, Server-Sent Events) in a kernel.

One reader thread per stream keeps the connection open, reconnects with ``Last-Event-ID``
after a drop, and hands every event to the subscribers (widgets, the Panel board) on that
thread. Reading in the kernel, not in the browser, is what lets the widgets update in any
front end, with or without Jupyter's cookies.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx2

from .discovery import ServerInfo

Subscriber = Callable[[dict[str, Any]], None]
RETRY_SECONDS = 1.0


def parse_sse(lines: Iterator[str]) -> Iterator[tuple[str | None, str, str]]:
    """``(id, event, data)`` for each event of an SSE line stream (comments skipped)."""
    event_id: str | None = None
    event, data = "message", list[str]()
    for line in lines:
        if line == "":
            if data:
                yield event_id, event, "\n".join(data)
            event_id, event, data = None, "message", list[str]()
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "event":
            event = value
        elif name == "id":
            event_id = value


class EventStream:
    """Subscribe with ``unsubscribe = stream.subscribe(fn)``; ``fn(event)`` gets each event dict
    (``type`` is ``suggestion``, ``checkpoint``, ``grant``, ``document`` or ``activity``; or
    ``resync`` when the server could not send every event since the stream's position, on
    its first connection too: a subscriber then fetches what it shows again)."""

    def __init__(self, server: ServerInfo) -> None:
        self.server = server
        self.last_id = 0
        self._positioned = False  # an id was received (0 included: a resync on a new server)
        self.connected = threading.Event()
        self.received = 0
        self.error: str | None = None  # why the stream is not connected, for the widgets to say
        self._subscribers: list[Subscriber] = []
        self._stop = threading.Event()
        self._response: Any = None
        self._thread = threading.Thread(target=self._run, name="jupyter-mcp-lab-events", daemon=True)
        self._thread.start()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def wait_connected(self, timeout: float = 10.0) -> bool:
        return self.connected.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        response = self._response
        if response is not None:
            # response.close() does not wake a read blocked in the reader thread (it would wait
            # for the next keepalive, 15 s); shutting the socket down ends that read at once.
            stream = response.extensions.get("network_stream")
            with contextlib.suppress(Exception):
                stream.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(Exception):  # closing from another thread may race the reader
                response.close()

    def _run(self) -> None:
        timeout = httpx2.Timeout(10, read=60)  # the server sends a keepalive every 15 s
        with httpx2.Client(headers=self.server.headers, timeout=timeout) as http:
            while not self._stop.is_set():
                try:
                    self._read(http)
                except httpx2.HTTPStatusError as exc:
                    self.error = f"the events stream answered HTTP {exc.response.status_code}"
                    if exc.response.status_code in (401, 403):
                        self.error += ": the token was refused; live updates are off"
                        self.connected.clear()
                        return  # retrying will not make the token good
                except Exception as exc:  # dropped, refused, restarted: try again shortly
                    self.error = f"the events stream dropped ({type(exc).__name__}); reconnecting"
                self.connected.clear()
                self._stop.wait(RETRY_SECONDS)

    def _read(self, http: httpx2.Client) -> None:
        headers = {"Last-Event-ID": str(self.last_id)} if self._positioned else {}
        with http.stream("GET", self.server.api_url + "events", headers=headers) as response:
            response.raise_for_status()
            self._response = response
            self.error = None
            self.connected.set()
            for event_id, kind, data in parse_sse(response.iter_lines()):
                if self._stop.is_set():
                    return
                if kind == "stream":
                    continue
                if event_id is not None and event_id.isdigit():
                    self.last_id, self._positioned = int(event_id), True
                try:
                    event = json.loads(data)
                except ValueError:
                    continue
                event.setdefault("type", kind)
                self.received += 1
                for subscriber in list(self._subscribers):
                    with contextlib.suppress(Exception):  # one broken subscriber must not stop the others
                        subscriber(event)
        self._response = None
