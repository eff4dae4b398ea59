"""What an operation sees (ops/context.py): the services a server builds by default, who is
calling, and a context that reports nowhere unless a surface wires it."""

from __future__ import annotations

from pathlib import Path

from jupyter_mcp_lab.core.review import Author
from jupyter_mcp_lab.ops.context import Caller, OpContext
from tests.helpers import make_services


async def test_services_default_to_the_roots_files_and_its_own_store(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text("a\n")
    assert (await services.docs.open("a.md")).text == "a\n"
    assert services.reviews.pending() == []
    assert (tmp_path / "data").is_dir()  # the suggestion store lives under data_dir
    services.close()


async def test_every_recorded_call_reaches_the_event_stream(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    listener = services.reviews.events.subscribe()  # a UI's stream (activity is live only, not replayed)
    fields = {"profile": "lab", "tool": "document", "client": "c", "user": "u", "session_id": "s"}
    entry = services.activity.record(**fields, arguments="{}", status="ok", duration_ms=1.0)
    event = listener.get_nowait()
    assert (event["type"], event["entry"]) == ("activity", entry.to_json())
    # Nobody listening: the entry is not turned into an event, so its answer's summary is not
    # made (made = a callable answer replaced by its text); a UI that comes later hears the next.
    services.reviews.events.unsubscribe(listener)
    made: list[str] = []
    quiet = services.activity.record(
        **fields, arguments="{}", status="ok", duration_ms=1.0, result=lambda: made.append("x") or "r"
    )
    assert made == [] and callable(quiet.answer)
    late = services.reviews.events.subscribe()
    heard = services.activity.record(**fields, arguments="{}", status="ok", duration_ms=1.0, result=lambda: "r2")
    assert late.get_nowait()["entry"]["result"] == "r2" and heard.answer == "r2"
    services.close()


def test_the_caller_is_the_author_of_what_it_stages() -> None:
    caller = Caller("ada", "Ada", "claude-code", "1.0", "session-1", "lab")
    assert caller.author == Author("claude-code", "ada", "session-1")
    assert Caller("ada", "Ada", "", "", "session-2", "lab").author == Author("agent", "ada", "session-2")


async def test_a_bare_context_reports_nowhere_and_asks_nobody(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    ctx = OpContext(services, Caller("ada", "Ada", "agent", "1", "s", "lab"))
    assert ctx.settings is services.settings and ctx.ask is None and ctx.protocol_version is None
    assert await ctx.report_progress(1, 2, "half") is None
    assert await ctx.log("info", "nothing listens") is None
    services.close()
