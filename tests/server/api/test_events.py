"""The events stream (SSE): live events, replay after a reconnect, keepalives, disconnects."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from jupyter_mcp_lab.server.api.events import EventsHandler

from ...conftest import LabServer
from .conftest import Api, assert_error, sse_events, suggest_replace


async def read_until(lines: AsyncIterator[str], done: Any, seconds: float = 10) -> str:
    """Stream text up to the first blank line after which ``done(text)`` holds."""
    text = ""
    async with asyncio.timeout(seconds):
        async for line in lines:
            text += line + "\n"
            if line == "" and done(text):
                return text
    raise AssertionError(f"the stream ended early: {text!r}")


def subscribers(mcp_lab: LabServer) -> int:
    # The Events object has no public count of its listeners; its set is what leaks if a
    # closed stream forgot to unsubscribe.
    return len(mcp_lab.extension.services.reviews.events._queues)


async def wait_for_subscribers(mcp_lab: LabServer, n: int, seconds: float = 10) -> None:
    """The server notices a closed stream on its own time (its next read or write)."""
    for _ in range(int(seconds / 0.02)):
        if subscribers(mcp_lab) == n:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{subscribers(mcp_lab)} listeners, expected {n}")


async def test_live_events_then_disconnect(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with api.http.stream("GET", api.url("events"), headers=mcp_lab.auth()) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-cache"
        lines = r.aiter_lines()
        assert await anext(lines) == "retry: 3000"  # sent at once: the client knows it is connected
        assert subscribers(mcp_lab) == 1
        # Where the replay ends (nothing to replay yet): no id, so Last-Event-ID is untouched.
        # A stream without a position replays nothing and says so: fetch the lists.
        stream = await read_until(lines, lambda t: "event: resync" in t)
        # Its id is the position the client has once it has fetched: a reconnect resumes there.
        assert sse_events(stream) == [
            {"event": "stream", "data": {"after": 0, "latest": 0}},
            {"id": "0", "event": "resync", "data": {"reason": "new"}},
        ]
        async with agent() as tools:
            [sid] = await suggest_replace(tools, "alpha", "ALPHA")
        text = await read_until(lines, lambda t: any(e["event"] == "suggestion" for e in sse_events(t)))
        [event] = [e for e in sse_events(text) if e["event"] == "suggestion"]
        assert event["data"]["type"] == "suggestion"
        assert event["data"]["action"] == "created"
        assert event["data"]["suggestion"]["id"] == sid
        assert event["id"] == str(event["data"]["id"])

        await api.ok("POST", f"suggestions/{sid}/accept")
        text = await read_until(lines, lambda t: {e["event"] for e in sse_events(t)} >= {"suggestion", "checkpoint"})
        events = sse_events(text)
        accepted = next(e for e in events if e["event"] == "suggestion")
        assert (accepted["data"]["action"], accepted["data"]["suggestion"]["status"]) == ("accepted", "accepted")
        assert [int(e["id"]) for e in events] == sorted(int(e["id"]) for e in events)
    # The client went away: the server stops streaming and forgets the listener.
    await wait_for_subscribers(mcp_lab, 0)


async def test_replay_after_and_last_event_id(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        ids = await suggest_replace(tools, "line", "LINE")
    assert len(ids) == 3

    async def replay(**kwargs: Any) -> list[dict[str, Any]]:
        async with api.http.stream("GET", api.url("events"), **kwargs) as r:
            assert r.status_code == 200
            text = await read_until(
                r.aiter_lines(), lambda t: sum(e["event"] == "suggestion" for e in sse_events(t)) >= expected
            )
        return sse_events(text)

    expected = 3
    everything = await replay(headers=mcp_lab.auth(), params={"after": 0})
    created = [e for e in everything if e["event"] == "suggestion"]
    assert [e["data"]["suggestion"]["id"] for e in created] == ids
    first = int(created[0]["id"])

    # Where the replay ends: the newest event when the stream opened (the tool calls'
    # activity events come after the last suggestion).
    [stream] = [e for e in everything if e["event"] == "stream"]
    latest = stream["data"]["latest"]
    assert stream["data"]["after"] == 0 and latest >= int(created[-1]["id"])
    assert everything.index(stream) < everything.index(created[0])

    expected = 2  # from the second one on, by query or by the header EventSource sends
    later = await replay(headers=mcp_lab.auth(), params={"after": first})
    assert [e["data"]["suggestion"]["id"] for e in later if e["event"] == "suggestion"] == ids[1:]
    assert later[0] == {"event": "stream", "data": {"after": first, "latest": latest}}
    later = await replay(headers={**mcp_lab.auth(), "Last-Event-ID": str(first)})
    assert [e["data"]["suggestion"]["id"] for e in later if e["event"] == "suggestion"] == ids[1:]
    # Whichever is later wins.
    later = await replay(headers={**mcp_lab.auth(), "Last-Event-ID": str(first)}, params={"after": 0})
    assert [e["data"]["suggestion"]["id"] for e in later if e["event"] == "suggestion"] == ids[1:]

    await wait_for_subscribers(mcp_lab, 0)


async def opening(mcp_lab: LabServer, api: Api, **kwargs: Any) -> list[dict[str, Any]]:
    """The events a stream starts with (``stream``, then ``resync`` or the replay): those
    before a live event published once the stream has started."""
    events = mcp_lab.extension.services.reviews.events
    async with api.http.stream("GET", api.url("events"), **kwargs) as r:
        assert r.status_code == 200
        lines = r.aiter_lines()
        text = await read_until(lines, lambda t: "event: stream" in t)
        marker = events.publish("document", path="marker.md", revision="-")["id"]
        text += await read_until(lines, lambda t: f"id: {marker}\n" in t)
    return [e for e in sse_events(text) if e.get("id") != str(marker)]


async def test_a_replay_is_complete_or_a_resync(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with agent() as tools:
        ids = await suggest_replace(tools, "line", "LINE")
    events = mcp_lab.extension.services.reviews.events
    auth = mcp_lab.auth()

    async def start(**kwargs: Any) -> list[Any]:
        """What the stream starts with; ``stream`` and ``resync`` by their data."""
        opened = await opening(mcp_lab, api, **kwargs)
        return [e["data"] if e["event"] in ("stream", "resync") else e["event"] for e in opened]

    # No position: nothing replayed, a resync (the client fetches its lists).
    latest = events.last_id
    assert await start(headers=auth) == [{"after": latest, "latest": latest}, {"reason": "new"}]
    # Ids past the newest: the server restarted (ids count from 1 again); what the client
    # holds may be from before it: resync rather than a replay of unrelated events.
    latest = events.last_id
    assert await start(headers=auth, params={"after": 10**9}) == [
        {"after": latest, "latest": latest},
        {"reason": "restarted"},
    ]
    # Within the limits: the whole replay, from the header's position.
    whole = await opening(mcp_lab, api, headers={**auth, "Last-Event-ID": "0"})
    assert whole[0]["data"] == {"after": 0, "latest": events.last_id - 1}
    assert [e["data"]["suggestion"]["id"] for e in whole if e["event"] == "suggestion"] == ids
    assert not [e for e in whole if e["event"] == "resync"]
    # Past a limit (events or bytes): no replay at all, a resync.
    for limit, value in (("replay_max_events", 2), ("replay_max_bytes", 1_000)):
        with monkeypatch.context() as patch:
            patch.setattr(EventsHandler, limit, value)
            latest = events.last_id
            assert await start(headers=auth, params={"after": 0}) == [
                {"after": latest, "latest": latest},
                {"reason": "too-large"},
            ], limit
    # Up to date: an empty replay, no resync.
    latest = events.last_id
    assert await start(headers=auth, params={"after": latest}) == [{"after": latest, "latest": latest}]
    await wait_for_subscribers(mcp_lab, 0)


async def test_a_position_the_buffer_no_longer_holds_is_a_resync(mcp_lab: LabServer, api: Api, root: Path) -> None:
    events = mcp_lab.extension.services.reviews.events
    for i in range(600):  # more than the replay buffer keeps (500)
        events.publish("document", path=f"d{i}.md", revision=f"r{i}")
    assert events.evicted > 1
    opened = await opening(mcp_lab, api, headers=mcp_lab.auth(), params={"after": 1})
    assert [e["data"] for e in opened] == [{"after": 600, "latest": 600}, {"reason": "expired"}]
    assert events.evicted == 601 - 500  # the marker event pushed one more out
    # From the oldest one still held on, the replay is whole (within its limits).
    opened = await opening(mcp_lab, api, headers=mcp_lab.auth(), params={"after": 590})
    replayed = [e["data"]["path"] for e in opened if e["event"] == "document"]
    assert replayed == [f"d{i}.md" for i in range(590, 600)] + ["marker.md"]  # the first opening's marker
    await wait_for_subscribers(mcp_lab, 0)


async def test_a_stream_that_falls_behind_is_told_to_resync(mcp_lab: LabServer, api: Api, root: Path) -> None:
    events = mcp_lab.extension.services.reviews.events
    async with api.http.stream("GET", api.url("events"), headers=mcp_lab.auth(), params={"after": 0}) as r:
        lines = r.aiter_lines()
        await read_until(lines, lambda t: "event: stream" in t)
        # Published in one go, the stream cannot read in between: its queue (1,000) overflows.
        for i in range(1_500):
            events.publish("document", path=f"d{i}.md", revision=f"r{i}")
        text = await read_until(lines, lambda t: "event: resync" in t and t.count("event: document") >= 1_000)
    received = sse_events(text)
    assert {"event": "resync", "data": {"reason": "fell-behind"}} in received
    paths = [e["data"]["path"] for e in received if e["event"] == "document"]
    assert paths == [f"d{i}.md" for i in range(500, 1_500)]  # the newest thousand, in order
    await wait_for_subscribers(mcp_lab, 0)


async def test_keepalive_comments(mcp_lab: LabServer, api: Api, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EventsHandler, "keepalive", 0.1)
    async with api.http.stream("GET", api.url("events"), headers=mcp_lab.auth()) as r:
        lines = r.aiter_lines()
        seen: list[str] = []
        async with asyncio.timeout(10):
            while seen.count(": keepalive") < 2:
                seen.append(await anext(lines))
    assert seen[0] == "retry: 3000"
    await wait_for_subscribers(mcp_lab, 0)


async def test_bad_positions_and_auth(mcp_lab: LabServer, api: Api, root: Path) -> None:
    for params, headers, argument in (
        ({"after": "-1"}, {}, "after"),
        ({"after": "x"}, {}, "after"),
        ({}, {"Last-Event-ID": "abc"}, "Last-Event-ID"),
        ({}, {"Last-Event-ID": "-3"}, "Last-Event-ID"),
        ({"before": "3"}, {}, "before"),
    ):
        r = await api.http.get(api.url("events"), params=params, headers={**mcp_lab.auth(), **headers})
        assert assert_error(r, 400, "INVALID_ARGUMENT")["argument"] == argument
    async with httpx.AsyncClient(timeout=10) as anonymous:
        assert_error(await anonymous.get(api.url("events")), 401, "UNAUTHORIZED")
    assert subscribers(mcp_lab) == 0
