"""``Lab`` against a real JupyterLab with jupyter-mcp-lab: the synchronous API, ``lab.aio``
(with and without a running loop), ``lab.start`` futures, domain errors as ``ToolError``,
progress, closing, two clients in one process, and a progress bar in a real kernel's cell.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from typing import Any

import pytest

from kernel_tools import Lab as LabClient
from kernel_tools import LabError, ToolError, ToolResult, connect
from kernel_tools.progress import ProgressBar
from tests.kernel_tools.conftest import SAMPLE_NOTE, Lab, note
from tests.kernel_tools.kernel_session import kernel

LAB_TOOLS = ["session", "workspace", "document", "editor", "notebook", "outline", "workflow", "review", "lab"]


def stage(lab_server: Lab, path: str, find: str, replace: str, agent: str = "test-agent") -> str:
    """An agent (its own SDK session) edits ``path``; under ``suggest`` that stages a suggestion: its id."""
    read = lab_server.agent_call("document", {"action": "read", "path": path}, client_name=agent)
    edit = {"op": "find_replace", "find": find, "replace": replace}
    args = {"action": "edit", "path": path, "edits": [edit], "expected_revision": read.structured_content["revision"]}
    result = lab_server.agent_call("document", args, client_name=agent)
    assert not result.is_error, result
    (sid,) = result.structured_content["suggestionIds"]
    return sid


@pytest.fixture
def fresh(lab_server: Lab, request: pytest.FixtureRequest) -> str:
    """A note of this test's own."""
    return note(lab_server, f"client/{request.node.name}.md")


# --- the synchronous API --------------------------------------------------------------


def test_sync_tools_and_call(lab: LabClient, fresh: str) -> None:
    assert [t.name for t in lab.tools()] == LAB_TOOLS
    assert "action" in lab.tool("document").input_schema["properties"]
    with pytest.raises(LabError, match=r"no tool 'nope'; tools: session, workspace, document"):
        lab.tool("nope")
    read = lab.call("document", action="read", path=fresh)
    assert isinstance(read, ToolResult) and not read.is_error
    assert read["content"] == SAMPLE_NOTE and read["revision"].startswith("rev-")
    assert read.tool == "document" and read.raw.structured_content == dict(read)
    # a dict of arguments and keywords join
    assert lab.call("document", {"action": "read"}, path=fresh)["revision"] == read["revision"]
    assert 0 < lab.ping() < 5


def test_sync_call_from_inside_a_running_loop(lab: LabClient) -> None:
    # A plain cell runs while the kernel's loop is running: the call must not need that loop.
    async def cell() -> Any:
        return lab.call("session", action="get_state")

    assert asyncio.run(cell())["caller"]["profile"] == "lab"


def test_sync_call_from_the_client_loop_is_refused(lab: LabClient, lab_server: Lab, fresh: str) -> None:
    """Listeners run on the client loop's thread: a blocking call there would wait on itself forever."""
    sid = stage(lab_server, fresh, "first", "1st")
    refused: list[BaseException] = []

    def listener(what: str, payload: Any) -> None:
        if what == "log" and payload.get("method") == "notifications/progress" and not refused:
            try:
                lab.call("session", action="get_state")
            except RuntimeError as exc:
                refused.append(exc)

    unlisten = lab.requests.listen(listener)
    try:
        lab.start("review", action="wait", suggestionIds=[sid], seconds=0.3).result(10)
    finally:
        unlisten()
    assert refused and "lab.aio" in str(refused[0]), refused
    assert lab.call("session", action="get_state")["caller"]["profile"] == "lab"  # the loop is still free


# --- lab.aio ---------------------------------------------------------------------------


def test_aio_in_a_thread_without_a_loop(lab: LabClient, fresh: str) -> None:
    def in_thread() -> ToolResult:
        assert not _has_running_loop()
        return asyncio.run(lab.aio.call("document", action="read", path=fresh))

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(in_thread).result(30)["content"] == SAMPLE_NOTE


def _has_running_loop() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False


def test_aio_leaves_the_callers_loop_free(lab: LabClient, lab_server: Lab, fresh: str) -> None:
    """``await lab.aio.call(...)`` in a cell: the kernel's loop keeps running while the call waits."""
    sid = stage(lab_server, fresh, "first", "1st")

    async def cell() -> tuple[list[Any], int, float]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        many = await asyncio.gather(
            *(lab.aio.call("session", action="get_state") for _ in range(4)),
            lab.aio.tools(refresh=True),
            lab.aio.ping(),
        )
        start, before = time.monotonic(), ticks
        waited = await lab.aio.call("review", action="wait", suggestionIds=[sid], seconds=0.6)
        elapsed = time.monotonic() - start
        task.cancel()
        assert waited["decided"] is False
        return many, ticks - before, elapsed

    many, ticks, elapsed = asyncio.run(cell())
    assert all(r["caller"]["profile"] == "lab" for r in many[:4])
    assert [t.name for t in many[4]] == LAB_TOOLS and many[5] > 0
    assert elapsed >= 0.55 and ticks >= 20, (elapsed, ticks)  # the loop ticked while the call waited


# --- lab.start -----------------------------------------------------------------------------


def test_start_returns_a_future_at_once(lab: LabClient, lab_server: Lab, fresh: str) -> None:
    sid = stage(lab_server, fresh, "second", "2nd")
    began = time.monotonic()
    future = lab.start("review", action="wait", suggestionIds=[sid], seconds=1.0)
    assert isinstance(future, concurrent.futures.Future)
    assert time.monotonic() - began < 0.3 and not future.done()
    result = future.result(15)
    assert time.monotonic() - began >= 0.9
    assert result["decided"] is False and result["suggestions"][0]["id"] == sid
    # A widget shows errors: start() returns them as results unless asked to raise.
    bad = lab.start("document", action="read", path="../outside.md").result(15)
    assert bad.is_error and bad["error"] == "INVALID_PATH"
    with pytest.raises(ToolError) as err:
        lab.start("document", action="read", path="../outside.md", raise_on_error=True).result(15)
    assert err.value.code == "INVALID_PATH"


# --- domain errors -------------------------------------------------------------------------


def test_stale_write_raises_with_the_current_revision(lab: LabClient, lab_server: Lab, fresh: str) -> None:
    old = lab.call("document", action="read", path=fresh)["revision"]
    (lab_server.root / fresh).write_text("# Changed on disk\n")  # someone else saved the file
    current = lab.call("document", action="read", path=fresh)["revision"]
    assert current != old
    with pytest.raises(ToolError) as err:
        lab.call("document", action="write", path=fresh, content="mine\n", expected_revision=old)
    e = err.value
    assert (e.tool, e.code) == ("document", "STALE")
    assert e.current_revision == current == e.details["current_revision"]
    assert e.envelope["error"] == "STALE" and "re-read" in e.message
    assert str(e).startswith("document: STALE: ")
    with pytest.raises(AttributeError):
        _ = e.no_such_field
    # The same answer as a result when the caller handles errors itself.
    result = lab.call("document", action="write", path=fresh, content="x", expected_revision=old, raise_on_error=False)
    assert result.is_error and result["error"] == "STALE" and result["current_revision"] == current
    assert (lab_server.root / fresh).read_text() == "# Changed on disk\n"


def test_other_domain_errors(lab: LabClient) -> None:
    with pytest.raises(ToolError) as err:
        lab.call("document", action="read", path="../../etc/passwd")
    assert err.value.code == "INVALID_PATH" and err.value.path == "../../etc/passwd"
    with pytest.raises(ToolError) as err:
        lab.call("document", action="frobnicate", path="x.md")
    assert err.value.code == "INVALID_ARGUMENT" and err.value.argument == "action"
    with pytest.raises(ToolError) as err:
        lab.call("no_such_tool")
    assert err.value.code == "TOOL_ERROR" and "no_such_tool" in err.value.message  # the server sent only text


# --- progress ---------------------------------------------------------------------------------


def test_progress_notifications_reach_the_bar(
    lab: LabClient, lab_server: Lab, fresh: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [stage(lab_server, fresh, "first", "1st"), stage(lab_server, fresh, "second", "2nd")]

    def person() -> None:  # decides one, then the other, in JupyterLab's place
        time.sleep(0.4)
        lab.review.accept(ids[0])
        time.sleep(0.4)
        lab.review.reject(ids[1])

    threading.Thread(target=person).start()
    result = lab.call("review", action="wait", suggestionIds=ids, seconds=30)
    assert result["decided"] is True
    err = capsys.readouterr().err  # outside a kernel the bar is a line of text on stderr
    assert "review: 2 of 2 suggestions still pending [0/2]" in err, err
    assert "review: 1 of 2 suggestions still pending [1/2]" in err, err
    progress = [e for e in lab.log if e.get("method") == "notifications/progress"]
    assert len(progress) >= 2 and progress[-1]["data"]["total"] == 2

    # The awaitable form takes a bar of one's own; progress=False shows none.
    sid = stage(lab_server, fresh, "# Notes", "# Notebook")
    bar = ProgressBar("waiting")
    asyncio.run(lab.aio.call("review", action="wait", suggestionIds=[sid], seconds=0.3, progress=bar))
    assert bar.updates == [(0.0, 1.0, "1 of 1 suggestions still pending")]
    capsys.readouterr()
    lab.call("review", action="wait", suggestionIds=[sid], seconds=0.3, progress=False)
    assert "still pending" not in capsys.readouterr().err


def test_progress_bar_in_a_real_kernel_shows_in_the_calling_cell(lab_server: Lab) -> None:
    path = note(lab_server, "client/kernel-progress.md")
    sid = stage(lab_server, path, "first", "1st")
    with kernel(lab_server) as k:
        assert k.execute("from kernel_tools import connect\nlab = connect()").status == "ok"
        wait = f"r = lab.call('review', action='wait', suggestionIds=['{sid}'], seconds=0.5)"
        cell = k.execute(wait + "\nprint('DECIDED', r['decided'])")
    assert "DECIDED False" in cell.out, cell.out
    # An ipywidgets bar (FloatProgress in an HBox) displayed in this cell, not in the one that connected.
    views = [
        m for m in cell.of_type("display_data") if "application/vnd.jupyter.widget-view+json" in m["content"]["data"]
    ]
    assert len(views) == 1, [m["msg_type"] for m in cell.iopub]
    models = {m["content"]["data"]["state"].get("_model_name") for m in cell.of_type("comm_open")}
    assert {"FloatProgressModel", "HBoxModel", "LabelModel"} <= models, models
    texts = [m["content"]["data"]["state"].get("value") for m in cell.of_type("comm_msg")]
    assert any("1 of 1 suggestions still pending" in str(t) for t in texts), texts


# --- closing, and two clients ------------------------------------------------------------------


def test_a_closed_client_says_so(lab_server: Lab) -> None:
    lab = connect(url=lab_server.base + "/", token=lab_server.token, quiet=True)
    assert lab.connected and "(connected" in repr(lab)
    assert lab.tools()
    lab.close()
    assert not lab.connected and "(closed" in repr(lab)
    with pytest.raises(LabError, match="closed"):
        lab.tools()  # cached before the close, but the session is gone
    with pytest.raises(LabError, match=r"the MCP session is closed \(connect\(\) again\)"):
        lab.call("session", action="get_state")
    with pytest.raises(LabError, match="closed"):
        asyncio.run(lab.aio.tools(refresh=True))
    with pytest.raises(LabError, match="closed"):
        lab.start("session", action="get_state").result(10)
    lab.close()  # twice is harmless


def test_two_labs_in_one_process(lab_server: Lab) -> None:
    first = connect(url=lab_server.base + "/", token=lab_server.token, client_name="first-notebook", quiet=True)
    second = connect(url=lab_server.base + "/mcp", token=lab_server.token, client_name="second-notebook", quiet=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            a, b = pool.map(lambda c: c.call("session", action="get_state")["caller"], (first, second))
        assert (a["clientName"], b["clientName"]) == ("first-notebook", "second-notebook")
        assert a["sessionId"] != b["sessionId"]
        first.close()
        assert second.call("session", action="get_state")["caller"]["sessionId"] == b["sessionId"]
    finally:
        first.close()
        second.close()


def test_wrong_credentials_or_profile_say_so(lab_server: Lab) -> None:
    # The SDK alone says only "Server returned an error response".
    with pytest.raises(LabError, match=r"/mcp refused the credentials \(HTTP 40[13]\): check token="):
        connect(url=lab_server.base, token="not-the-token", quiet=True)
    with pytest.raises(LabError, match=r"no MCP endpoint at .*/mcp-lab/nope/mcp \(HTTP 404\)"):
        connect(url=lab_server.base, token=lab_server.token, profile="nope", quiet=True)
