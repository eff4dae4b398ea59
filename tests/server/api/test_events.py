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
        stream = await read_until(lines, lambda t: "event: stream" in t)
        assert sse_events(stream) == [{"event": "stream", "data": {"after": 0, "latest": 0}}]
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
    everything = await replay(headers=mcp_lab.auth())
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

    # Ids past the newest: the server restarted (ids count from 1 again); replay what there is.
    expected = 3
    after_restart = await replay(headers=mcp_lab.auth(), params={"after": 10**9})
    assert [e["data"]["suggestion"]["id"] for e in after_restart if e["event"] == "suggestion"] == ids
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
