"""GET activity: agents' tool calls as the panel lists them, filtered, paged, and live on the stream."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from jupyter_mcp_lab.core.activity import ActivityLog

from ...conftest import LabServer
from .conftest import Api, assert_error, sse_events

KEYS = {"seq", "time", "profile", "tool", "client", "user", "session", "arguments", "status", "durationMs"}
KEYS |= {"label"}  # what the MCP client calls itself (client: its identity, an agent key's name)
KEYS |= {"actor", "fullArguments", "result"}  # agent or person, what was sent and answered (test_activity_detail)


async def make_calls(agent: Any) -> None:
    """Two agents: "reader" reads and fails once, "writer" lists suggestions."""
    async with agent(client_name="reader") as tools:
        await tools.ok("document", "read", path="notes.md")
        failed = await tools.fail("document", "read", path="missing.md")
        assert failed["error"] == "NOT_FOUND", failed
        await tools.ok("document", "read", path="notes.md", lineStart=1, lineEnd=2)
    async with agent(client_name="writer") as tools:
        await tools.ok("review", "list")


async def test_needs_auth(mcp_lab: LabServer, root: Path) -> None:
    async with httpx.AsyncClient(timeout=10) as anonymous:
        for headers in ({}, {"Authorization": "token wrong"}):
            r = await anonymous.get(mcp_lab.url("mcp-lab/api/activity"), headers=headers)
            assert_error(r, 401, "UNAUTHORIZED")
            assert r.headers["www-authenticate"].startswith("token")


async def test_entries_newest_last_with_camel_case_keys(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    assert await api.ok("GET", "activity") == {"entries": [], "count": 0, "latest": 0}
    await make_calls(agent)
    body = await api.ok("GET", "activity")
    entries = body["entries"]
    assert body["count"] == len(entries) == 4
    assert body["latest"] == entries[-1]["seq"]
    assert all(set(e) == KEYS for e in entries)
    assert [e["seq"] for e in entries] == sorted(e["seq"] for e in entries)  # newest last
    # A composite tool's call is recorded as "tool.action".
    assert [(e["client"], e["tool"], e["status"]) for e in entries] == [
        ("reader", "document.read", "ok"),
        ("reader", "document.read", "NOT_FOUND"),
        ("reader", "document.read", "ok"),
        ("writer", "review.list", "ok"),
    ]
    missing = entries[1]
    assert "path='missing.md'" in missing["arguments"], missing
    assert missing["profile"] == "lab" and missing["user"]
    assert all(e["durationMs"] > 0 for e in entries)
    assert entries[0]["session"] == entries[1]["session"] != entries[3]["session"]
    assert entries[0]["time"] <= entries[-1]["time"]


async def test_filters(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    await make_calls(agent)

    async def pick(**query: Any) -> list[tuple[str, str, str]]:
        entries = (await api.ok("GET", "activity", **query))["entries"]
        return [(e["client"], e["tool"], e["status"]) for e in entries]

    assert await pick(client="writer") == [("writer", "review.list", "ok")]
    assert await pick(client="nobody") == []
    # A composite tool's name matches each of its actions; "doc" is no tool's name.
    assert await pick(tool="document") == [("reader", "document.read", s) for s in ("ok", "NOT_FOUND", "ok")]
    assert await pick(tool="review.list") == [("writer", "review.list", "ok")]
    assert await pick(tool="doc") == []
    assert await pick(status="error") == [("reader", "document.read", "NOT_FOUND")]
    assert await pick(status="NOT_FOUND") == [("reader", "document.read", "NOT_FOUND")]
    assert await pick(status="STALE") == []
    assert len(await pick(status="ok")) == 3
    assert await pick(client="reader", status="ok", tool="document") == [("reader", "document.read", "ok")] * 2


async def test_after_and_limit(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    await make_calls(agent)
    seqs = [e["seq"] for e in (await api.ok("GET", "activity"))["entries"]]
    newest_two = await api.ok("GET", "activity", limit=2)
    assert [e["seq"] for e in newest_two["entries"]] == seqs[-2:]  # the newest, still newest last
    assert newest_two["latest"] == seqs[-1]
    after = await api.ok("GET", "activity", after=seqs[1])
    assert [e["seq"] for e in after["entries"]] == seqs[2:]
    assert (await api.ok("GET", "activity", after=seqs[-1]))["entries"] == []
    # A filter applies before the limit: the newest matching call, not the newest call.
    [only] = (await api.ok("GET", "activity", limit=1, status="error"))["entries"]
    assert only["status"] == "NOT_FOUND"


@pytest.mark.parametrize(
    ("query", "argument"),
    [
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"after": "-1"}, "after"),
        ({"after": "1.5"}, "after"),
        ({"status": "errors"}, "status"),
        ({"status": "not_found"}, "status"),
        ({"status": ""}, "status"),
        ({"client": ""}, "client"),
        ({"tool": "x" * 513}, "tool"),
        ({"clients": "reader"}, "clients"),
        ({"status": ["ok", "error"]}, "status"),
    ],
)
async def test_bad_queries_are_refused(
    mcp_lab: LabServer, api: Api, root: Path, query: dict[str, Any], argument: str
) -> None:
    body = assert_error(await api.get("activity", **query), 400, "INVALID_ARGUMENT")
    assert body["argument"] == argument


async def test_calls_reach_the_event_stream(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with api.http.stream("GET", api.url("events"), headers=mcp_lab.auth()) as r:
        assert r.status_code == 200
        lines = r.aiter_lines()
        text = ""
        async with agent(client_name="streamed") as tools:
            await tools.fail("document", "read", path="missing.md")
        async with asyncio.timeout(10):
            async for line in lines:
                text += line + "\n"
                if line == "" and any(e["event"] == "activity" for e in sse_events(text)):
                    break
    [event] = [e for e in sse_events(text) if e["event"] == "activity"]
    assert event["data"]["type"] == "activity"
    assert event["id"] == str(event["data"]["id"])
    [listed] = (await api.ok("GET", "activity"))["entries"]
    assert event["data"]["entry"] == listed
    assert (listed["client"], listed["status"]) == ("streamed", "NOT_FOUND")


def test_a_failing_listener_never_fails_the_call(caplog: pytest.LogCaptureFixture) -> None:
    log = ActivityLog(maxlen=3)
    heard: list[int] = []

    def broken(entry: Any) -> None:
        raise RuntimeError("a listener bug")

    log.listen(broken)
    stop = log.listen(lambda e: heard.append(e.seq))
    fields = {"profile": "lab", "tool": "t", "client": "c", "user": "u", "session_id": "s", "arguments": ""}
    for _ in range(4):
        log.record(**fields, status="ok", duration_ms=1.0)
    stop()
    log.record(**fields, status="STALE", duration_ms=1.0)
    assert heard == [1, 2, 3, 4]
    assert "a listener bug" in caplog.text
    assert [e.seq for e in log.select()] == [3, 4, 5]  # bounded: the oldest went
    assert log.latest == 5
    assert [e.seq for e in log.select(status="error")] == [5]
