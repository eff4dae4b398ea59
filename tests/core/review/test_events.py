"""The events hub: review events are replayed and wake waiters; activity events are live only."""

from __future__ import annotations

import asyncio

from jupyter_mcp_lab.core.review.events import Events


async def test_activity_is_live_only_and_wakes_no_waiter() -> None:
    events = Events()
    listener = events.subscribe()
    waiting = asyncio.create_task(events.next_change(5))
    await asyncio.sleep(0)
    events.publish("activity", entry={"tool": "document.read"})
    await asyncio.sleep(0.05)
    assert not waiting.done()  # a tool call is not a decision: review.wait sleeps on
    assert events.since(0) == []  # not replayed: it would crowd out the review events
    assert events.last_id == 1  # but counted: a reconnect after it is not "a restart"
    assert (await listener.get())["type"] == "activity"  # live listeners get it

    events.publish("suggestion", action="created")
    assert await waiting is True
    assert [e["id"] for e in events.since(0)] == [2]
    assert events.last_id == 2
