"""The notebook as an MCP inspector for a server that is not jupyter-mcp-lab: the demo server
(``servers/demo_server.py``, written with the official SDK) over stdio, and over
streamable HTTP behind a header. Everything the MCP Inspector covers: tools, resources,
templates, prompts with arguments, ping, log messages and notifications, progress, and the
server's own requests (elicitation, sampling, roots) answered by handlers or by the person.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kernel_tools import Lab, LabError, NotALabServer, PendingRequest, ProtocolError, ToolError, connect
from kernel_tools.progress import ProgressBar
from tests.labext.conftest import free_port

DEMO = Path(__file__).resolve().parent / "servers" / "demo_server.py"
STDIO = f"stdio:{sys.executable} {DEMO}"
KEY = {"X-Demo-Key": "let-me-in"}


def wait_for(predicate: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def demo() -> Iterator[Lab]:
    """The demo server over stdio, with no handlers: its requests wait for the person."""
    lab = connect(STDIO, quiet=True)
    try:
        yield lab
    finally:
        lab.close()


@pytest.fixture
def later(demo: Lab) -> Iterator[Lab]:
    """``demo``, checked to have nothing pending before and after the test."""
    assert demo.pending == []
    yield demo
    for request in demo.pending:
        request.cancel()


# --- tools, resources, prompts, ping -------------------------------------------------------


def test_tools(demo: Lab) -> None:
    names = [t.name for t in demo.tools()]
    assert names == ["echo", "add", "count", "chatty", "ask_name", "ask_model", "roots", "fail", "picture"]
    add = demo.tool("add")
    assert add.description == "Add two integers."
    assert add.input_schema["required"] == ["a", "b"]
    assert add.input_schema["properties"]["a"]["type"] == "integer"
    assert demo.call("echo", text="hello").text == "echo: hello"
    assert demo.call("add", a=2, b=3) == {"sum": 5}
    picture = demo.call("picture")
    assert picture["text"] == "a red pixel" and picture.images[0].mime_type == "image/png"
    with pytest.raises(ToolError) as err:
        demo.call("fail")
    assert (err.value.code, err.value.message) == ("TOOL_ERROR", "it went wrong")
    with pytest.raises(ToolError, match="valid integer"):  # the server's argument check, passed on
        demo.call("add", a="two", b=3)
    assert 0 < demo.ping() < 5


def test_resources_and_templates(demo: Lab) -> None:
    (readme,) = demo.resources()
    assert (str(readme.uri), readme.name, readme.mime_type) == ("demo://readme", "Read me", "text/markdown")
    (template,) = demo.resource_templates()
    assert template.uri_template == "demo://notes/{name}"
    assert demo.read_resource("demo://readme").contents[0].text == "# Demo\n\nA demo server."  # type: ignore[union-attr]
    note = demo.read_resource("demo://notes/groceries").contents[0]
    assert '"the note called groceries"' in note.text  # type: ignore[union-attr]
    with pytest.raises(ProtocolError, match="Unknown resource: demo://nope") as raised:
        demo.read_resource("demo://nope")
    assert isinstance(raised.value.code, int)  # the JSON-RPC error code, not the SDK's exception


def test_prompts_with_arguments(demo: Lab) -> None:
    (prompt,) = demo.prompts()
    assert prompt.name == "summarize"
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("topic", True), ("style", False)]
    got = demo.get_prompt("summarize", topic="tides", style="long")
    assert got.messages[0].content.text == "Summarize tides, long style."  # type: ignore[union-attr]
    assert demo.get_prompt("summarize", topic="tides").messages[0].content.text.endswith("short style.")  # type: ignore[union-attr]
    with pytest.raises(ProtocolError, match="Missing required arguments"):
        demo.get_prompt("summarize")


# --- what the server says: log messages, notifications, progress, stderr ----------------------


def test_log_messages_and_notifications(demo: Lab) -> None:
    heard: list[tuple[str, Any]] = []
    unlisten = demo.requests.listen(lambda what, payload: heard.append((what, payload)))
    before = len(demo.log)
    try:
        assert demo.call("chatty").text == "chatted"
        wait_for(lambda: any(e.get("method") == "notifications/resources/list_changed" for e in demo.log[before:]))
    finally:
        unlisten()
    new = demo.log[before:]
    logs = [(e["level"], e["data"]) for e in new if e["kind"] == "log"]
    assert logs == [("info", "starting to chat"), ("warning", "this is a warning"), ("error", "this is an error")]
    assert all(isinstance(e["time"], float) for e in new)
    assert [p for what, p in heard if what == "log"] == new  # the inspector's pane hears each one


def test_progress(demo: Lab, capsys: pytest.CaptureFixture[str]) -> None:
    bar = ProgressBar("count")
    assert asyncio.run(demo.aio.call("count", steps=4, progress=bar)).text == "counted to 4"
    assert bar.updates == [(i, 4.0, f"step {i} of 4") for i in (1, 2, 3, 4)]
    capsys.readouterr()
    demo.call("count", steps=2)
    assert "count: step 2 of 2 [2/2]" in capsys.readouterr().err


def test_stderr_is_captured(demo: Lab) -> None:
    demo.call("chatty")
    err = demo.stderr()
    assert err.startswith("demo server starting (tag -, in ")
    assert "chatty wrote this to stderr" in err


def test_env_and_cwd_reach_the_command(tmp_path: Path) -> None:
    with connect(STDIO, env={"DEMO_TAG": "tagged"}, cwd=tmp_path, quiet=True) as lab:
        assert lab.call("echo", text="x").text == "echo: x"  # PATH and the rest are still there
        assert lab.stderr().startswith(f"demo server starting (tag tagged, in {tmp_path})")


def test_a_command_that_fails_says_why() -> None:
    crash = f"stdio:{sys.executable} -c 'import sys; print(\"no config file\", file=sys.stderr); sys.exit(3)'"
    with pytest.raises(LabError, match=r"ended before the MCP handshake .*its stderr:\nno config file"):
        connect(crash, quiet=True)
    with pytest.raises(ValueError, match="stdio: needs a command"):
        connect("stdio:", quiet=True)
    with pytest.raises(FileNotFoundError):
        connect("stdio:/no/such/command", quiet=True)


# --- elicitation -----------------------------------------------------------------------------


def test_elicitation_answered_by_a_handler() -> None:
    seen: list[PendingRequest] = []

    def on_elicit(request: PendingRequest) -> dict[str, Any]:
        seen.append(request)
        return {"name": "Ada", "age": 36}

    async def on_elicit_async(request: PendingRequest) -> None:
        request.decline()  # a handler may answer the request itself

    with connect(STDIO, on_elicit=on_elicit, quiet=True) as lab:
        assert lab.call("ask_name").text == 'action=accept, content={"name":"Ada","age":36}'
        assert seen[0].kind == "elicitation" and seen[0].message == "Who are you?"
        assert lab.pending == []
    with connect(STDIO, on_elicit=on_elicit_async, quiet=True) as lab:
        assert lab.call("ask_name").text == "action=decline, content={}"


def test_elicitation_answered_later_by_the_person(later: Lab) -> None:
    heard: list[tuple[str, Any]] = []
    unlisten = later.requests.listen(lambda what, payload: heard.append((what, payload)))
    try:
        future = later.start("ask_name")
        wait_for(lambda: later.pending)
        (request,) = later.pending
        assert not future.done()  # the server waits for the person
        assert (request.kind, request.message, request.done) == ("elicitation", "Who are you?", False)
        schema = request.schema
        assert schema["required"] == ["name"] and schema["properties"]["age"]["default"] == 30
        shown = request.to_json()
        assert shown["kind"] == "elicitation" and shown["schema"] == schema and shown["id"] == request.id
        request.respond({"name": "Grace", "age": 85})
        assert future.result(10).text == 'action=accept, content={"name":"Grace","age":85}'
        assert request.done and later.pending == []
    finally:
        unlisten()
    assert [what for what, _ in heard if what != "log"] == ["request", "answered"]
    assert heard[0][1] is request


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_elicitation_declined_or_cancelled(later: Lab, action: str) -> None:
    future = later.start("ask_name")
    wait_for(lambda: later.pending)
    getattr(later.pending[0], action)()
    assert future.result(10).text == f"action={action}, content={{}}"
    with pytest.raises(ValueError, match="accept, decline or cancel"):
        PendingRequest("elicitation", None).respond(action="ignore")


# --- sampling ----------------------------------------------------------------------------------


def test_sampling_answered_by_a_handler() -> None:
    prompts: list[str] = []

    def on_sample(request: PendingRequest) -> str:
        prompts.append(request.message)
        return "forty-two"

    with connect(STDIO, on_sample=on_sample, quiet=True) as lab:
        assert lab.call("ask_model", prompt="the answer?").text == "model person-in-notebook says: forty-two"
    assert prompts == ["the answer?"]


def test_sampling_answered_later_or_declined(later: Lab) -> None:
    future = later.start("ask_model", prompt="What is 6 x 7?")
    wait_for(lambda: later.pending)
    request = later.pending[0]
    shown = request.to_json()
    assert shown["kind"] == "sampling" and shown["message"] == "What is 6 x 7?"
    assert shown["messages"] == [{"role": "user", "text": "What is 6 x 7?"}]
    assert (shown["systemPrompt"], shown["maxTokens"]) == ("Answer briefly.", 50)
    assert request.schema["required"] == ["text"]
    request.respond({"text": "42"})
    assert future.result(10).text == "model person-in-notebook says: 42"

    future = later.start("ask_model", prompt="And now?")
    wait_for(lambda: later.pending)
    later.pending[0].decline()
    assert future.result(10).text == "no answer: The person declined the sampling request."


# --- roots ---------------------------------------------------------------------------------------


def test_roots_are_the_working_directory_or_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with connect(STDIO, quiet=True) as lab:
        assert lab.call("roots")["result"] == [tmp_path.resolve().as_uri()]
    other = tmp_path / "other"
    other.mkdir()
    with connect(STDIO, roots=[tmp_path, "other"], quiet=True) as lab:
        assert lab.call("roots")["result"] == [tmp_path.resolve().as_uri(), other.resolve().as_uri()]


# --- the same server over HTTP: any MCP URL, with headers -----------------------------------------


@pytest.fixture(scope="module")
def demo_http() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(DEMO), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "DEMO_TAG": "http"},
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, "the demo server exited"
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the demo server did not start"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_any_mcp_url_with_headers(demo_http: str) -> None:
    answered = threading.Event()

    def on_elicit(request: PendingRequest) -> dict[str, Any]:
        answered.set()
        return {"name": "Hedy"}

    with connect(demo_http, headers=KEY, on_elicit=on_elicit, quiet=True) as lab:
        assert lab.target.server is None and lab.target.headers == KEY
        assert lab.call("echo", text="over http").text == "echo: over http"
        assert lab.call("ask_name").text == 'action=accept, content={"name":"Hedy","age":30}'
        assert answered.is_set()
        assert lab.stderr() == ""  # nothing to capture for a URL
        with pytest.raises(NotALabServer, match="is not a jupyter-mcp-lab server"):
            _ = lab.review
        with pytest.raises(NotALabServer):
            _ = lab.events
        assert "(connected)" in repr(lab)


def test_a_url_without_its_header_is_refused_clearly(demo_http: str) -> None:
    with pytest.raises(LabError, match=r"refused the credentials \(HTTP 401\)"):
        connect(demo_http, headers={}, quiet=True)
