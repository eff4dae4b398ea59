"""The ``lab`` tool without Jupyter (standalone: no JupyterLab to reach) and the workspace
side of presence: a JupyterLab window's tabs follow what the person has open, and nothing
an agent holds is lost when the JupyterLab goes."""

from __future__ import annotations

from typing import Any

from jupyter_mcp_lab.core.workspace import MAIN_WINDOW


async def test_standalone_has_no_lab_client(ops_client: Any) -> None:
    _, open_tools = ops_client()
    async with open_tools("lab") as tools:
        listing = await tools.ok("lab", "clients")
        assert listing == {"clients": [], "count": 0, "message": listing["message"]}
        error = await tools.fail("lab", "open", path="a.md")
        assert error["error"] == "NO_LAB_CLIENT" and "standalone" in error["message"]
        # Argument errors are still argument errors.
        wrong = await tools.fail("lab", "open", path="a.md", line=0)
        assert wrong["error"] == "INVALID_ARGUMENT" and wrong["argument"] == "line"
        assert (await tools.fail("lab", "open", query="x"))["argument"] == "query"


async def test_a_lab_window_follows_the_person_and_keeps_agents_tabs(ops_client: Any) -> None:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    for name in ("a", "b", "c", "d"):
        (root / f"{name}.md").write_text(f"# {name}\n")
    workspace, docs = services.workspace, services.docs
    window = workspace.add_window("lab-1", "client-1")
    a, b, c, d = [await docs.open(f"{n}.md") for n in "abcd"]

    async with open_tools("lab", name="agent") as tools:
        assert workspace.sync_window(window, [a, b, c], active=a) == []
        assert [t.doc for t in window.tabs] == [b, c, a]  # the person's active document last
        # An agent opens d in the person's window and focuses it.
        await tools.ok("workspace", "focus_window", windowLabel="lab-1")
        opened = await tools.ok("workspace", "open", filePath="d.md")
        # The person closes b and c and switches to a: d (the agent's) stays.
        assert workspace.sync_window(window, [a], active=a) == [b, c]
        assert [t.doc for t in window.tabs] == [d, a]
        state = await tools.ok("session", "get_state")
        lab = next(w for w in state["windows"] if w["label"] == "lab-1")
        assert [t["filePath"] for t in lab["tabs"]] == ["d.md", "a.md"] and lab["labClient"] is True

        # The agent leaves unsaved work in a; then the JupyterLab goes.
        tab_a = workspace.tab_in(window, a)
        assert tab_a is not None
        await tools.ok("document", "write", tabId=tab_a.id, content="# changed\n")
        assert a.dirty
        assert workspace.remove_window("lab-1") == []
        assert "lab-1" not in workspace.windows
        main = workspace.windows[MAIN_WINDOW]
        assert [t.doc for t in main.tabs] == [d, a]  # the agent's tab and the unsaved work moved to main
        assert all(t.window == MAIN_WINDOW and not t.in_lab for t in main.tabs)
        # The agent's focus followed its tab.
        assert (await tools.ok("session", "get_state"))["windows"][0]["focused"] is True
        assert (await tools.ok("document", "read"))["content"] == "# d\n"
        assert workspace.remove_window(MAIN_WINDOW) == []  # main stays, always
        assert opened["tabId"] == main.tabs[0].id


async def test_a_session_focused_on_a_closed_lab_tab_gets_no_other_document(ops_client: Any) -> None:
    services, open_tools = ops_client()
    (services.settings.root_dir / "a.md").write_text("# a\n")
    workspace = services.workspace
    window = workspace.add_window("lab-1", "client-1")
    a = await services.docs.open("a.md")
    workspace.sync_window(window, [a], active=a)
    async with open_tools("lab", name="agent") as tools:
        await tools.ok("workspace", "focus_window", windowLabel="lab-1")
        assert (await tools.ok("document", "read"))["content"] == "# a\n"
        assert workspace.remove_window("lab-1") == [a]
        error = await tools.fail("document", "read")
        assert error["error"] == "INVALID_TAB" and "no tab is focused" in error["message"]
