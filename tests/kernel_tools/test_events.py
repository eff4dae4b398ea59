"""``EventStream``: the server's review events (SSE) read in the kernel. Against the real
server: a suggestion an agent stages arrives as an event, and so does the person's decision;
after the connection drops (a TCP proxy in between cuts it and refuses for a while) the
stream comes back with ``Last-Event-ID`` and gets what it missed, once. ``parse_sse`` on
its own, on the corner cases of the format.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kernel_tools import Lab as LabClient
from kernel_tools.discovery import ServerInfo
from kernel_tools.events import EventStream, parse_sse
from kernel_tools.target import Target
from tests.kernel_tools.conftest import Lab, note
from tests.kernel_tools.test_client import stage


def wait_for(predicate: Any, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def suggestion_events(events: list[dict[str, Any]], path: str) -> list[tuple[str, str]]:
    return [
        (e["action"], e["suggestion"]["id"])
        for e in list(events)
        if e["type"] == "suggestion" and e["suggestion"]["path"] == path
    ]


# --- against the server ------------------------------------------------------------------


def test_a_staged_suggestion_and_its_decision_arrive(lab: LabClient, lab_server: Lab) -> None:
    path = note(lab_server, "events/staged.md")
    stream = lab.events
    assert lab.events is stream  # one stream per client, shared by its widgets
    got: list[dict[str, Any]] = []
    unsubscribe = stream.subscribe(got.append)
    assert stream.wait_connected(10)
    sid = stage(lab_server, path, "first", "1st", agent="events-agent")
    wait_for(lambda: ("created", sid) in suggestion_events(got, path))
    created = next(e for e in got if e["type"] == "suggestion" and e["suggestion"]["id"] == sid)
    assert created["suggestion"]["author"] == "events-agent" and created["suggestion"]["status"] == "pending"
    assert isinstance(created["id"], int) and stream.last_id >= created["id"]

    lab.review.accept(sid)  # the person decides (here: through the REST API, as the widgets do)
    wait_for(lambda: ("accepted", sid) in suggestion_events(got, path))
    wait_for(lambda: any(e["type"] == "document" and e.get("path") == path for e in got))

    unsubscribe()
    count = len(got)
    stage(lab_server, path, "second", "2nd", agent="events-agent")
    time.sleep(0.5)
    assert len(got) == count  # unsubscribed: nothing more


def test_a_broken_subscriber_does_not_stop_the_others(lab: LabClient, lab_server: Lab) -> None:
    path = note(lab_server, "events/broken.md")

    def broken(event: dict[str, Any]) -> None:
        raise RuntimeError("a widget with a bug")

    got: list[dict[str, Any]] = []
    lab.events.subscribe(broken)
    lab.events.subscribe(got.append)
    assert lab.events.wait_connected(10)
    sid = stage(lab_server, path, "first", "1st")
    wait_for(lambda: ("created", sid) in suggestion_events(got, path))


class Proxy:
    """A TCP proxy to the server that can cut every connection and refuse new ones: a network drop."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.refusing = False
        self.requests: list[bytes] = []  # the first bytes each client connection sent
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self._open += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, record: bool) -> None:
        first = True
        try:
            while data := src.recv(65536):
                if record and first:
                    self.requests.append(data)
                first = False
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def drop(self) -> None:
        """Cut every connection, and refuse new ones until ``restore()``."""
        self.refusing = True
        for s in self._open:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self._open.clear()

    def restore(self) -> None:
        self.refusing = False

    def close(self) -> None:
        self.drop()
        self.listener.close()


@pytest.fixture
def proxy(lab_server: Lab) -> Iterator[Proxy]:
    port = int(lab_server.base.rsplit(":", 1)[1])
    p = Proxy(port)
    yield p
    p.close()


def test_reconnects_after_a_drop_and_resumes_where_it_left_off(lab_server: Lab, proxy: Proxy) -> None:
    path = note(lab_server, "events/dropped.md")
    server = ServerInfo(f"http://127.0.0.1:{proxy.port}/", lab_server.token, "test proxy")
    stream = EventStream(server)
    got: list[dict[str, Any]] = []
    stream.subscribe(got.append)
    try:
        assert stream.wait_connected(10)
        before = stage(lab_server, path, "first", "1st")
        wait_for(lambda: ("created", before) in suggestion_events(got, path))
        seen = stream.last_id

        proxy.drop()
        wait_for(lambda: not stream.connected.is_set())
        missed = stage(lab_server, path, "second", "2nd")  # while the stream is down
        time.sleep(1.5)  # a retry or two is refused
        assert ("created", missed) not in suggestion_events(got, path)
        proxy.restore()

        assert stream.wait_connected(10)
        wait_for(lambda: ("created", missed) in suggestion_events(got, path))
        after = stage(lab_server, path, "# Notes", "# Notebook")
        wait_for(lambda: ("created", after) in suggestion_events(got, path))
    finally:
        stream.close()
    # It asked for what came after the last event it had, and got each event once.
    resumed = [r for r in proxy.requests if b"Last-Event-ID" in r]
    assert resumed and f"Last-Event-ID: {seen}".lower().encode() in resumed[-1].lower(), proxy.requests
    ids = [e["id"] for e in got if e["type"] != "resync"]
    assert ids == sorted(set(ids)), ids
    assert suggestion_events(got, path) == [("created", before), ("created", missed), ("created", after)]
    # Its first connection had no position (a resync, for the subscribers to fetch); the
    # second resumed with one, and got the events it missed instead.
    assert [e for e in got if e["type"] == "resync"] == [{"type": "resync", "reason": "new"}]


def test_a_drop_too_long_to_replay_makes_the_widgets_fetch_again(lab_server: Lab, proxy: Proxy) -> None:
    path = note(lab_server, "events/resync.md")
    # The widgets need the REST API and the events, not an MCP session: none is opened.
    server = ServerInfo(f"http://127.0.0.1:{proxy.port}/", lab_server.token, "test proxy")
    client = LabClient(Target(url=server.mcp_url("lab"), headers=server.headers, server=server))
    try:
        got: list[dict[str, Any]] = []
        client.events.subscribe(got.append)
        widget = client.review_widget(path)
        widget.ready.result(15)
        # Connected without a position: a resync, whose id is the stream's position now.
        wait_for(lambda: {"type": "resync", "reason": "new"} in got)
        proxy.drop()
        wait_for(lambda: not client.events.connected.is_set())
        # While the stream is down: one suggestion of 1.2 MB, more than a replay may carry
        # (1 MiB): the server answers the stream's return with a resync, not the event.
        big = stage(lab_server, path, "first", "x" * 1_200_000)
        proxy.restore()
        wait_for(lambda: {"type": "resync", "reason": "too-large"} in got)
        assert ("created", big) not in suggestion_events(got, path)
        # The widget fetched its list again: the suggestion is there all the same.
        wait_for(lambda: big in [c["id"] for c in widget.cards])
        widget.close()
    finally:
        client.close()


def test_close_stops_the_reader(lab_server: Lab) -> None:
    stream = EventStream(ServerInfo(lab_server.base + "/", lab_server.token, "test"))
    assert stream.wait_connected(10)
    time.sleep(0.5)  # the reader is now blocked reading, between keepalives (15 s apart)
    stream.close()
    stream._thread.join(3)
    assert not stream._thread.is_alive(), [t.name for t in threading.enumerate()]
    assert not stream.connected.is_set()


def test_a_refused_token_stops_the_stream_and_says_why(lab_server: Lab) -> None:
    stream = EventStream(ServerInfo(lab_server.base + "/", "not-the-token", "test"))
    stream._thread.join(10)  # it gives up: retrying will not make the token good
    assert not stream._thread.is_alive()
    assert stream.error is not None and ("HTTP 403" in stream.error or "HTTP 401" in stream.error), stream.error
    assert "token was refused" in str(stream.error)
    assert not stream.connected.is_set()


# --- parse_sse ----------------------------------------------------------------------------


def test_parse_sse() -> None:
    lines = [
        ": a comment, and the retry field are skipped",
        "retry: 3000",
        "",
        "event: stream",
        'data: {"after": 0, "latest": 2}',
        "",
        "id: 1",
        "event: suggestion",
        'data: {"a": 1}',
        "",
        ": keepalive",
        "",
        "id: 2",
        "data:no space after the colon",
        "data:  two spaces keep one",
        "data",
        "",
        "id: 3",
        "event: document",
        "data: {}",
        # no blank line: the stream ended mid-event, which is not delivered
    ]
    assert list(parse_sse(iter(lines))) == [
        (None, "stream", '{"after": 0, "latest": 2}'),
        ("1", "suggestion", '{"a": 1}'),
        ("2", "message", "no space after the colon\n two spaces keep one\n"),
    ]


def test_parse_sse_resets_between_events() -> None:
    lines = ["id: 7", "event: grant", "data: x", "", "data: y", ""]
    assert list(parse_sse(iter(lines))) == [("7", "grant", "x"), (None, "message", "y")]
