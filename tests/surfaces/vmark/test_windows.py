"""Windows, tabs and window-scoped tools (VMark's workspace, tab, suggestion and protocol
adapters over ``ops.workspace`` and ``ops.review``) through the vmark profile in-process,
with a second window (a JupyterLab client as the lab bridge would add it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.workspace import Window


@pytest.fixture
def vm(ops_client: Any) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    for name in ("a", "b", "c"):
        (root / f"{name}.md").write_text(f"# {name.upper()}\n\n{name} text.\n")
    services.workspace.windows["lab-1"] = Window("lab-1", client="client-1")
    return services, open_tools, root


async def test_a_window_shows_the_sessions_tab_or_else_its_last(vm: Any) -> None:
    services, open_tools, _ = vm
    async with open_tools("vmark") as tools:
        a = (await tools.ok("workspace_open_document", path="a.md"))["tabId"]
        await tools.ok("workspace_focus_window", windowId="lab-1")
        b = (await tools.ok("workspace_open_document", path="b.md"))["tabId"]
        c = (await tools.ok("workspace_open_document", path="c.md"))["tabId"]
        await tools.ok("tabs_switch", tabId=b)
        windows = {w["label"]: w for w in (await tools.ok("workspace_list_windows"))["windows"]}
        assert (windows["main"]["isFocused"], windows["main"]["activeTabId"], windows["main"]["filePath"]) == (
            False,
            a,
            "a.md",
        )
        assert (windows["lab-1"]["isFocused"], windows["lab-1"]["activeTabId"], windows["lab-1"]["isLabClient"]) == (
            True,
            b,
            True,
        )
        # windowId picks the window's document; without it, the focused window's.
        assert (await tools.ok("workspace_get_document_info"))["filePath"] == "b.md"
        assert (await tools.ok("workspace_get_document_info", windowId="main"))["filePath"] == "a.md"
        assert (await tools.ok("get_document_revision", windowId=c))["filePath"] == "c.md"  # a tab id
        assert [t["isActive"] for t in (await tools.ok("tabs_list", windowId="lab-1"))["tabs"]] == [True, False]
        # Naming a window does not move the focus.
        assert (await tools.ok("workspace_get_focused"))["label"] == "lab-1"
        wrong = await tools.fail("tabs_get_info", tabId=a, windowId="lab-1")
        assert "INVALID_TAB" in wrong["error"]
        assert (await tools.ok("tabs_switch", tabId=a, windowId="main"))["windowId"] == "main"
        assert (await tools.ok("workspace_get_focused")) == {"label": "main", "activeTabId": a}
        # In the focused window with no focused tab, nothing is active for this session.
        await tools.ok("tabs_close", tabId=a)
        assert (await tools.ok("workspace_get_focused"))["activeTabId"] is None
        assert "INVALID_TAB" in (await tools.fail("workspace_get_document_info"))["error"]
        assert (await tools.ok("workspace_get_document_info", windowId="lab-1"))["filePath"] == "c.md"
    assert [t.doc.path for t in services.workspace.windows["lab-1"].tabs] == ["b.md", "c.md"]


async def test_closed_tabs_are_remembered_per_window(vm: Any) -> None:
    services, open_tools, _ = vm
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="a.md")
        await tools.ok("workspace_focus_window", windowId="lab-1")
        await tools.ok("workspace_open_document", path="b.md")
        closed = await tools.ok("workspace_close_window", windowId="lab-1")
        assert closed["closed"] is True and len(closed["closedTabs"]) == 1
        assert (await tools.ok("tabs_reopen_closed", windowId="main"))["reopened"] is False
        back = await tools.ok("tabs_reopen_closed", windowId="lab-1")
        assert (back["filePath"], back["reopened"]) == ("b.md", True)
        assert [t.window for t in services.workspace.tabs() if t.id == back["tabId"]] == ["lab-1"]
        created = await tools.ok("tabs_create", windowId="main")
        assert created["windowId"] == "main"
        assert (await tools.ok("workspace_get_focused"))["activeTabId"] == created["tabId"]


async def test_suggestion_tools_work_on_the_windows_document(vm: Any) -> None:
    services, open_tools, root = vm
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="a.md")
        [on_a] = (await tools.ok("apply_diff", original="a text", replacement="A text"))["suggestionIds"]
        await tools.ok("workspace_focus_window", windowId="lab-1")
        await tools.ok("workspace_open_document", path="b.md")
        [on_b] = (await tools.ok("apply_diff", original="b text", replacement="B text"))["suggestionIds"]
        assert [s["id"] for s in (await tools.ok("suggestion_list"))["suggestions"]] == [on_b]
        assert [s["id"] for s in (await tools.ok("suggestion_list", windowId="main"))["suggestions"]] == [on_a]
        wrong = await tools.fail("suggestion_accept", suggestionId=on_a, windowId="lab-1")
        assert "NOT_FOUND" in wrong["error"]
        done = await tools.ok("suggestion_accept_all", windowId="main")  # approval is auto here
        assert (done["count"], done["suggestionIds"]) == (1, [on_a])
        assert services.reviews.get(on_b).status == "pending"
    assert (root / "a.md").read_text() == "# A\n\nA text.\n"  # a clean buffer is saved on accept


async def test_revision_timestamp_is_when_the_revision_was_first_seen(vm: Any) -> None:
    _, open_tools, _ = vm
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="a.md")
        first = await tools.ok("get_document_revision")
        again = await tools.ok("get_document_revision")
        assert again == first
        await tools.ok("apply_diff", original="a text", replacement="x", mode="apply")
        second = await tools.ok("get_document_revision")
        assert second["revision"] != first["revision"] and second["timestamp"] >= first["timestamp"]
        await tools.ok("apply_diff", original="x", replacement="a text", mode="apply")
        back = await tools.ok("get_document_revision")
        assert back["revision"] == first["revision"] and back["timestamp"] >= second["timestamp"]


async def test_capabilities_list_the_calling_profiles_tools(vm: Any) -> None:
    services, open_tools, _ = vm
    async with open_tools("vmark") as tools:
        caps = await tools.ok("get_capabilities")
        listed = [t.name for t in (await tools.client.list_tools()).tools]
    assert caps["tools"] == listed and len(listed) == 76
    assert caps["features"]["approval"] == services.settings.approval
