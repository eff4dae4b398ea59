"""session.get_state through an in-process SDK client: every documented field."""

from __future__ import annotations

from mcp.client import Client
from mcp_types import Implementation

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import Tab, Window
from jupyter_mcp_lab.surfaces import PROFILES, build_server
from tests.helpers import make_services


async def test_get_state_reports_windows_capabilities_and_caller(tmp_path):
    services = make_services(tmp_path, approval="auto", read_only=False, max_response_bytes=5000)
    (services.settings.root_dir / "notes.md").write_text("# Notes\n")
    doc = await services.docs.open("notes.md")
    services.workspace.windows["main"].tabs.append(Tab(id="tab-1", doc=doc, window="main"))
    server = build_server(PROFILES["lab"], services)
    async with Client(server, client_info=Implementation(name="agent-x", version="9.1")) as client:
        result = await client.call_tool("session", {"action": "get_state"})
    assert not result.is_error
    state = result.structured_content
    assert state["windows"] == [
        {
            "label": "main",
            "focused": True,
            "labClient": False,
            "tabs": [
                {
                    "id": "tab-1",
                    "filePath": "notes.md",
                    "title": "notes",
                    "dirty": False,
                    "revision": revision_of("# Notes\n"),
                    "kind": "markdown",
                }
            ],
        }
    ]
    caps = state["capabilities"]
    assert caps["approval"] == "auto"
    assert caps["maxResponseBytes"] == 5000
    assert caps["readOnly"] is False
    assert caps["supportedKinds"] == ["markdown", "outline", "notebook", "yaml-workflow", "text"]
    assert caps["profiles"] == [{"profile": "lab", "path": "/mcp", "url": "http://127.0.0.1:1/mcp"}]
    assert caps["labClients"] == 0
    assert caps["mcpProtocol"]
    assert state["caller"]["clientName"] == "agent-x"
    assert state["caller"]["clientVersion"] == "9.1"
    assert state["caller"]["profile"] == "lab"


async def test_lab_client_window_counts_and_focus_is_per_session(tmp_path):
    services = make_services(tmp_path)
    services.workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    server = build_server(PROFILES["lab"], services)
    # In-process clients speak the sessionless protocol: agents are told apart by client name.
    async with (
        Client(server, client_info=Implementation(name="one", version="1")) as one,
        Client(server, client_info=Implementation(name="two", version="1")) as two,
    ):
        first = (await one.call_tool("session", {"action": "get_state"})).structured_content
        services.workspace.focus(first["caller"]["sessionId"]).window = "lab-1"
        again = (await one.call_tool("session", {"action": "get_state"})).structured_content
        other = (await two.call_tool("session", {"action": "get_state"})).structured_content
    assert first["capabilities"]["labClients"] == 1
    focused = {w["label"]: w["focused"] for w in again["windows"]}
    assert focused == {"main": False, "lab-1": True}
    # The other agent's focus did not move.
    assert {w["label"]: w["focused"] for w in other["windows"]} == {"main": True, "lab-1": False}
    assert first["caller"]["sessionId"] != other["caller"]["sessionId"]


async def test_calls_are_recorded_in_the_activity_log(tmp_path):
    services = make_services(tmp_path)
    server = build_server(PROFILES["lab"], services)
    async with Client(server, client_info=Implementation(name="logger", version="1")) as client:
        await client.call_tool("session", {"action": "get_state"})
    [entry] = services.activity.since(0)
    assert (entry.tool, entry.status, entry.client, entry.profile) == ("session.get_state", "ok", "logger", "lab")
    assert entry.duration_ms >= 0


async def test_get_state_says_what_each_window_shows_and_where_the_workspace_is(tmp_path):
    services = make_services(tmp_path)
    root = services.settings.root_dir
    (root / "a.md").write_text("# A\n")
    (root / "b.md").write_text("# B\n")
    services.workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    server = build_server(PROFILES["lab"], services)
    async with Client(server, client_info=Implementation(name="agent", version="1")) as client:
        a = (await client.call_tool("workspace", {"action": "open", "filePath": "a.md"})).structured_content
        b = (await client.call_tool("workspace", {"action": "open", "filePath": "b.md"})).structured_content
        await client.call_tool("workspace", {"action": "focus_window", "windowLabel": "lab-1"})
        state = (await client.call_tool("session", {"action": "get_state"})).structured_content
    # main shows its last tab to a session focused elsewhere; lab-1 shows nothing yet.
    assert state["activeTabs"] == {"main": b["tabId"], "lab-1": None}
    assert a["tabId"] != b["tabId"]
    assert (state["capabilities"]["rootPath"], state["capabilities"]["workspaceName"]) == (str(root), root.name)
