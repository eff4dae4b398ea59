"""The lab bridge on a real Jupyter server: a real websocket client plays a JupyterLab
(hello, presence, answers to requests) while agents call the ``lab`` tool and the window,
tab and selection tools through the official MCP SDK client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from ..conftest import LabServer, Tools

pytestmark = pytest.mark.timeout(60)

# Code points, not UTF-16 units: "😀" is one code point and two UTF-16 units.
DOC = "# Title 😀\n\nalpha beta gamma\n\nsecond paragraph\n"


def bridge_url(server: LabServer, token: str | None = None) -> str:
    url = server.url("mcp-lab/api/bridge").replace("http://", "ws://")
    return url + (f"?token={quote(token)}" if token else "")


class FakeLab:
    """A JupyterLab as the server sees it over the bridge: a websocket that says hello,
    reports presence and answers requests (with ``answer``, or not at all)."""

    def __init__(self, ws: WebSocketClientConnection, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.welcome = welcome
        self.window: str = welcome["window"]
        self.requests: list[dict[str, Any]] = []
        self.cancels: list[str] = []
        self.errors: list[str] = []
        self.answer: Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]] | None = None
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                return
            msg = json.loads(raw)
            if msg["type"] == "request":
                self.requests.append(msg)
                if self.answer is not None:
                    reply = await self.answer(msg)
                    if reply is not None:
                        await self.send({"type": "response", "id": msg["id"], **reply})
            elif msg["type"] == "cancel":
                self.cancels.append(msg["id"])
            elif msg["type"] == "error":
                self.errors.append(msg["message"])

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.write_message(json.dumps(message))

    async def presence(self, documents: list[str], active: str | None = None, **extra: Any) -> None:
        docs = [{"path": p, "kind": "markdown", "dirty": False} for p in documents]
        await self.send({"type": "presence", "documents": docs, "active": active, "focused": True, **extra})

    async def close(self) -> None:
        self.ws.close()
        await asyncio.wait_for(self._reader, 5)


@asynccontextmanager
async def fake_lab(server: LabServer, client_id: str = "tab-1") -> AsyncIterator[FakeLab]:
    ws = await websocket_connect(bridge_url(server, server.token))
    await ws.write_message(json.dumps({"type": "hello", "clientId": client_id, "userAgent": "pytest"}))
    raw = await asyncio.wait_for(ws.read_message(), 5)
    assert raw is not None
    welcome = json.loads(raw)
    assert welcome["type"] == "welcome", welcome
    lab = FakeLab(ws, welcome)
    try:
        yield lab
    finally:
        lab.ws.close()
        lab._reader.cancel()


async def eventually(check: Callable[[], Awaitable[Any]], seconds: float = 5) -> Any:
    """``check()``'s value once it stops failing its assertions (the bridge is asynchronous)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return await check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


def ok(result: Any = None) -> Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]:
    async def answer(msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "result": result}

    return answer


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "a.md").write_text(DOC, encoding="utf-8")
    (root / "b.md").write_text("# B\n\nbee\n", encoding="utf-8")
    (root / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    return root


@asynccontextmanager
async def agent(mcp_client: Any, profile: str = "lab", name: str = "bridge-agent") -> AsyncIterator[Tools]:
    async with mcp_client(profile, client_name=name) as client:
        yield Tools(client)


# --------------------------------------------------------------------------- auth


async def test_the_bridge_needs_jupyter_auth_and_a_matching_origin(mcp_lab: LabServer) -> None:
    for url in (bridge_url(mcp_lab), bridge_url(mcp_lab, "wrong-token")):
        with pytest.raises(HTTPClientError) as refused:
            await websocket_connect(url)
        assert refused.value.code == 403
    # The token in the Authorization header works as for every Jupyter websocket.
    ws = await websocket_connect(HTTPRequest(bridge_url(mcp_lab), headers=mcp_lab.auth()))
    ws.close()
    async with httpx.AsyncClient() as http:
        # The browser's way: the login cookie Jupyter sets once a token was seen.
        r = await http.get(mcp_lab.url("api/status"), headers=mcp_lab.auth())
        [cookie] = [c.split(";")[0] for c in r.headers.get_list("set-cookie") if c.startswith("username-")]
        # A plain HTTP GET is not a websocket.
        r = await http.get(mcp_lab.url("mcp-lab/api/bridge"), headers=mcp_lab.auth())
        assert r.status_code == 400
    ws = await websocket_connect(HTTPRequest(bridge_url(mcp_lab), headers={"Cookie": cookie, "Origin": mcp_lab.origin}))
    ws.close()
    # A page on another site the browser sends the cookie from is refused (Jupyter's origin check).
    with pytest.raises(HTTPClientError) as refused:
        await websocket_connect(
            HTTPRequest(bridge_url(mcp_lab), headers={"Cookie": cookie, "Origin": "http://evil.example"})
        )
    assert refused.value.code == 403


async def test_protocol_errors_are_answered_and_the_socket_stays(mcp_lab: LabServer, root: Path) -> None:
    ws = await websocket_connect(bridge_url(mcp_lab, mcp_lab.token))
    try:
        for bad, expected in [
            ("not json", "JSON"),
            (json.dumps({"type": "presence", "documents": []}), "hello first"),
            (json.dumps({"type": "hello"}), "clientId"),
        ]:
            await ws.write_message(bad)
            reply = json.loads(await asyncio.wait_for(ws.read_message(), 5) or "{}")
            assert reply["type"] == "error" and expected in reply["message"], reply
        await ws.write_message(json.dumps({"type": "hello", "clientId": "c-1"}))
        welcome = json.loads(await asyncio.wait_for(ws.read_message(), 5) or "{}")
        assert welcome["type"] == "welcome" and welcome["window"].startswith("lab-")
        await ws.write_message(json.dumps({"type": "presence", "documents": [{"path": 3}]}))
        reply = json.loads(await asyncio.wait_for(ws.read_message(), 5) or "{}")
        assert reply["type"] == "error" and "documents.0.path" in reply["message"], reply
    finally:
        ws.close()


# --------------------------------------------------------------------------- presence


@pytest.mark.parametrize("mcp_profiles", [["lab", "vmark"]])
async def test_presence_makes_a_window_with_tabs_and_the_persons_selection(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    async with fake_lab(mcp_lab) as lab, agent(mcp_client) as tools, agent(mcp_client, "vmark") as vmark:
        assert lab.window == "lab-1"
        start = DOC.index("alpha")
        await lab.presence(
            ["a.md", "b.md", "pic.png", "../outside.md"],
            active="a.md",
            selection={"path": "a.md", "anchor": start, "head": start + len("alpha beta")},
        )

        async def windows() -> dict[str, Any]:
            state = await tools.ok("session", "get_state")
            found = {w["label"]: w for w in state["windows"]}
            assert [t["filePath"] for t in found.get("lab-1", {}).get("tabs", [])] == ["b.md", "a.md"]
            return found

        found = await eventually(windows)  # the person's active document last (what a window shows)
        assert found["lab-1"]["labClient"] is True
        assert found["main"]["labClient"] is False  # main stays for the agents' own tabs
        state = await tools.ok("session", "get_state")
        assert state["capabilities"]["labClients"] == 1

        listing = await tools.ok("lab", "clients")
        [client] = listing["clients"]
        assert client["window"] == "lab-1" and client["clientId"] == "tab-1" and client["active"] == "a.md"
        assert client["userAgent"] == "pytest" and client["focused"] is True
        docs = {d["path"]: d for d in client["documents"]}
        assert docs["pic.png"]["tabId"] is None  # not a text document: in the presence, without a tab
        assert docs["a.md"]["tabId"] == found["lab-1"]["tabs"][1]["id"]

        # The window shows the person's active document; its selection is the person's, in code points.
        info = await vmark.ok("workspace_get_document_info", windowId="lab-1")
        assert info["filePath"] == "a.md"
        sel = await vmark.ok("selection_get", windowId="lab-1")
        assert (sel["text"], sel["from"], sel["source"]) == ("alpha beta", start, "person")

        # An agent's selection stands until the person's changes again.
        await vmark.ok("selection_set", windowId="lab-1", **{"from": 0, "to": 1})
        await lab.presence(
            ["b.md", "a.md"], active="a.md", selection={"path": "a.md", "anchor": start, "head": start + 10}
        )
        await eventually(windows)
        await asyncio.sleep(0.2)
        sel = await vmark.ok("selection_get", windowId="lab-1")
        assert (sel["text"], sel["source"]) == ("#", "agent")
        # A cursor placed backwards (head before anchor) keeps its direction.
        end = DOC.index("gamma") + len("gamma")
        await lab.presence(["b.md", "a.md"], active="a.md", selection={"path": "a.md", "anchor": end, "head": start})

        async def person_selection() -> dict[str, Any]:
            sel = await vmark.ok("selection_get", windowId="lab-1")
            assert sel["source"] == "person" and sel["text"] == "alpha beta gamma", sel
            return sel

        await eventually(person_selection)
        context = await vmark.ok("cursor_get_context", windowId="lab-1", linesBefore=0, linesAfter=0)
        assert context["position"] == start

        # The person closes a.md: its tab closes; b.md stays.
        await lab.presence(["b.md"], active="b.md")

        async def only_b() -> None:
            state = await tools.ok("session", "get_state")
            tabs = next(w for w in state["windows"] if w["label"] == "lab-1")["tabs"]
            assert [t["filePath"] for t in tabs] == ["b.md"]

        await eventually(only_b)


@pytest.mark.parametrize("mcp_app_config", [{"lab_reconnect_grace": 1.5}])
async def test_a_window_waits_for_its_client_to_come_back_then_goes(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    async with agent(mcp_client) as tools:

        async def tab_ids() -> list[str]:
            state = await tools.ok("session", "get_state")
            window = next(w for w in state["windows"] if w["label"] == "lab-1")
            assert window["tabs"]
            return [t["id"] for t in window["tabs"]]

        async def none_connected() -> None:
            assert (await tools.ok("lab", "clients"))["count"] == 0

        async with fake_lab(mcp_lab, "tab-7") as lab:
            await lab.presence(["a.md"], active="a.md")
            before = await eventually(tab_ids)
            # A duplicated browser tab copies the client id: it gets an id and window of its own.
            async with fake_lab(mcp_lab, "tab-7") as twin:
                assert twin.welcome["clientId"] != "tab-7" and twin.window == "lab-2"
        await eventually(none_connected)
        # A reload: the same client id comes back within the grace and finds its window and tabs.
        assert await tab_ids() == before
        async with fake_lab(mcp_lab, "tab-7") as again:
            assert again.window == "lab-1"
            await again.presence(["a.md"], active="a.md")
            await asyncio.sleep(1.6)
            assert await tab_ids() == before
            await again.close()
        await eventually(lambda: _labels(tools, {"main"}))


async def _labels(tools: Tools, expected: set[str]) -> None:
    state = await tools.ok("session", "get_state")
    assert {w["label"] for w in state["windows"]} == expected


# --------------------------------------------------------------------------- requests


async def test_no_lab_client_is_a_clear_error(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    async with agent(mcp_client) as tools:
        listing = await tools.ok("lab", "clients")
        assert listing["count"] == 0 and "open JupyterLab" in listing["message"]
        for action, args in [
            ("open", {"path": "a.md"}),
            ("commands", {}),
            ("run_command", {"command": "help:about"}),
            ("terminal", {"command": "ls"}),
        ]:
            error = await tools.fail("lab", action, **args)
            assert error["error"] == "NO_LAB_CLIENT", error
            assert "open JupyterLab" in error["message"] and error["labUrl"].endswith("/lab")


async def test_requests_round_trip(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    async with fake_lab(mcp_lab) as lab, agent(mcp_client) as tools:
        commands = [{"id": f"cmd:{i:03}", "label": f"Command {i}", "caption": ""} for i in range(300)]

        async def answer(msg: dict[str, Any]) -> dict[str, Any]:
            method, params = msg["method"], msg["params"]
            if method in ("openFile", "activate"):
                # As JupyterLab does: the presence with the document goes out before the answer.
                await lab.presence(["b.md", params["path"]], active=params["path"])
                return {"ok": True, "result": {"path": params["path"]}}
            if method == "listCommands":
                return {"ok": True, "result": {"commands": [c for c in commands if params["query"] in c["id"]]}}
            if method == "runCommand":
                return {"ok": True, "result": {"label": "About", "result": None}}
            if method == "toggleBreakpoint":
                if params["line"] == 99:
                    return {"ok": False, "error": {"code": "UNAVAILABLE", "message": "the debugger is off"}}
                return {"ok": True, "result": {"set": True, "lines": [params["line"]]}}
            if method == "openTerminal":
                return {"ok": True, "result": {"terminal": "1"}}
            return {"ok": False, "error": {"code": "UNKNOWN_METHOD", "message": method}}

        lab.answer = answer
        opened = await tools.ok("lab", "open", path="a.md", line=3)
        assert opened["window"] == "lab-1" and opened["path"] == "a.md" and opened["tabId"]
        assert lab.requests[-1]["method"] == "openFile"
        assert lab.requests[-1]["params"] == {"path": "a.md", "line": 3}
        # The tab is a tab like any other: read the document through it.
        read = await tools.ok("document", "read", tabId=opened["tabId"])
        assert read["content"] == DOC

        shown = await tools.ok("lab", "activate", path="b.md")
        assert lab.requests[-1]["params"] == {"path": "b.md"} and shown["tabId"]

        listed = await tools.ok("lab", "commands", query="cmd:1", limit=20)
        assert (listed["count"], listed["total"], listed["truncated"]) == (20, 100, True)
        assert listed["commands"][0] == {"id": "cmd:100", "label": "Command 100", "caption": ""}

        # approval "auto" (this server): the command runs without asking anyone.
        ran = await tools.ok("lab", "run_command", command="help:about", args={"x": 1})
        assert ran == {
            "window": "lab-1",
            "command": "help:about",
            "label": "About",
            "result": None,
            "approvedBy": "auto",
        }
        assert lab.requests[-1]["params"] == {"command": "help:about", "args": {"x": 1}}

        term = await tools.ok("lab", "terminal", command="echo hi")
        root_dir = str(mcp_lab.extension.services.settings.root_dir)
        assert term["terminal"] == "1" and lab.requests[-1]["params"] == {"command": "echo hi", "cwd": root_dir}
        bad = await tools.fail("lab", "terminal", command="echo hi\nrm -rf ~")
        assert bad["error"] == "INVALID_ARGUMENT" and bad["argument"] == "command"

        bp = await tools.ok("lab", "toggle_breakpoint", path="a.md", line=4)
        assert (bp["set"], bp["lines"]) == (True, [4])
        off = await tools.fail("lab", "toggle_breakpoint", path="a.md", line=99)
        assert off["error"] == "NOT_IMPLEMENTED" and off["labError"] == "UNAVAILABLE"
        assert "the debugger is off" in off["message"]

        # Paths stay in the workspace and must exist before JupyterLab is asked.
        count = len(lab.requests)
        assert (await tools.fail("lab", "open", path="../etc/passwd"))["error"] == "INVALID_PATH"
        assert (await tools.fail("lab", "open", path="missing.md"))["error"] == "NOT_FOUND"
        assert (await tools.fail("lab", "open", path="a.md", window="lab-9"))["error"] == "NO_LAB_CLIENT"
        assert (await tools.fail("lab", "run_command"))["argument"] == "command"
        assert len(lab.requests) == count


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest", "lab_confirm_timeout": 1.0}])
async def test_powerful_actions_ask_the_person_under_suggest(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    async with fake_lab(mcp_lab) as lab, agent(mcp_client, name="careful-agent") as tools:
        decision: dict[str, Any] = {"allowed": False}

        async def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
            if msg["method"] == "confirm":
                if decision.get("silent"):
                    return None  # the person is away
                return {"ok": True, "result": {"allowed": decision["allowed"]}}
            return {"ok": True, "result": {"terminal": "2", "label": "About"}}

        lab.answer = answer
        denied = await tools.fail("lab", "run_command", command="help:about")
        assert denied["error"] == "APPROVAL_REQUIRED" and denied["decision"] == "denied"
        confirm = lab.requests[-1]
        assert confirm["method"] == "confirm"
        assert confirm["params"]["agent"] == "careful-agent"
        assert confirm["params"]["command"] == "help:about" and confirm["params"]["action"] == "runCommand"
        assert [r["method"] for r in lab.requests] == ["confirm"]  # nothing ran

        decision["allowed"] = True
        ran = await tools.ok("lab", "terminal", command="echo approved")
        assert ran["approvedBy"] == "person"
        assert [r["method"] for r in lab.requests[-2:]] == ["confirm", "openTerminal"]
        assert lab.requests[-2]["params"]["command"] == "echo approved"

        decision["silent"] = True
        timed_out = await tools.fail("lab", "terminal", command="echo late")
        assert timed_out["error"] == "APPROVAL_REQUIRED" and timed_out["decision"] == "timeout"
        await eventually(_cancelled(lab, lab.requests[-1]["id"]))

        # A grant on a folder is not enough; a grant on the whole workspace is.
        async with httpx.AsyncClient() as http:
            for scope in ("notes/", ""):
                r = await http.post(
                    mcp_lab.url("mcp-lab/api/grants"),
                    headers=mcp_lab.auth(),
                    json={"scope": scope, "agent": "careful-agent", "agentKind": "client", "minutes": 5},
                )
                assert r.status_code == 201, r.text
                if scope:
                    refused = await tools.fail("lab", "run_command", command="help:about")
                    assert refused["decision"] == "timeout"
        count = len(lab.requests)
        granted = await tools.ok("lab", "run_command", command="help:about")
        assert granted["approvedBy"] == "grant"
        assert [r["method"] for r in lab.requests[count:]] == ["runCommand"]

        # Opening a terminal without a command types nothing: nobody is asked.
        async with agent(mcp_client, name="other-agent") as other:
            assert (await other.ok("lab", "terminal"))["approvedBy"] is None
        assert lab.requests[-1]["method"] == "openTerminal" and "command" not in lab.requests[-1]["params"]


def _cancelled(lab: FakeLab, rid: str) -> Callable[[], Awaitable[None]]:
    async def check() -> None:
        assert rid in lab.cancels

    return check


@pytest.mark.parametrize("mcp_app_config", [{"lab_request_timeout": 0.5}])
async def test_an_unanswered_request_times_out(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    async with fake_lab(mcp_lab) as lab, agent(mcp_client) as tools:
        started = time.monotonic()
        error = await tools.fail("lab", "open", path="a.md")
        assert time.monotonic() - started < 5
        assert error["error"] == "NO_LAB_CLIENT" and error["reason"] == "timeout", error
        assert "did not answer openFile within 0.5 s" in error["message"]
        await eventually(_cancelled(lab, lab.requests[-1]["id"]))
        # A late answer is ignored; the next request works.
        await lab.send({"type": "response", "id": lab.requests[-1]["id"], "ok": True, "result": {}})
        lab.answer = ok({"commands": []})
        assert (await tools.ok("lab", "commands"))["count"] == 0


async def test_a_client_that_disconnects_fails_its_pending_requests(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    async with fake_lab(mcp_lab) as lab, agent(mcp_client) as tools:

        async def leave(msg: dict[str, Any]) -> None:
            lab.ws.close()
            return None

        lab.answer = leave
        started = time.monotonic()
        error = await tools.fail("lab", "commands")
        assert time.monotonic() - started < 5  # at once, not after the timeout
        assert error["error"] == "NO_LAB_CLIENT" and error["reason"] == "disconnected", error
        # Gone: the next call says none is connected.
        again = await tools.fail("lab", "commands")
        assert again["error"] == "NO_LAB_CLIENT"


async def test_requests_go_to_the_lab_the_person_used_last(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    async with fake_lab(mcp_lab, "x") as first, fake_lab(mcp_lab, "y") as second, agent(mcp_client) as tools:
        first.answer = second.answer = ok({"commands": []})
        await first.presence(["a.md"], active="a.md")
        await second.send({"type": "presence", "documents": [], "focused": False, "visible": False})
        await eventually(lambda: _labels(tools, {"main", "lab-1", "lab-2"}))
        await tools.ok("lab", "commands")
        assert (len(first.requests), len(second.requests)) == (1, 0)
        assert (await tools.ok("lab", "clients"))["clients"][0]["window"] == "lab-1"
        await tools.ok("lab", "commands", window="lab-2")
        await tools.ok("lab", "commands", window="y")  # a client id works too
        assert (len(first.requests), len(second.requests)) == (1, 2)
