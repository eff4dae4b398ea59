"""Workspace operations (tabs and files) through an in-process MCP client on real files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import Window
from tests.conftest import text_of


@pytest.fixture
def lab(ops_client: Any) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    (root / "a.md").write_text("# A\n\nalpha\n")
    (root / "b.md").write_text("# B\n\nbeta\n")
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs:\n  a:\n    runs-on: x\n")
    return services, open_tools, root


def tabs_of(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for w in state["windows"] for t in w["tabs"]}


async def test_open_returns_tab_path_revision_kind_and_reuses_the_tab(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        a = await tools.ok("workspace", "open", filePath="a.md")
        assert a == {
            "tabId": a["tabId"],
            "filePath": "a.md",
            "revision": revision_of("# A\n\nalpha\n"),
            "kind": "markdown",
        }
        ci = await tools.ok("workspace", "open", filePath=".github/workflows/ci.yml")
        assert ci["kind"] == "yaml-workflow"
        again = await tools.ok("workspace", "open", filePath="./a.md")
        assert again["tabId"] == a["tabId"]
        state = await tools.ok("session", "get_state")
    tabs = tabs_of(state)
    assert list(tabs) == [a["tabId"], ci["tabId"]]
    assert tabs[a["tabId"]] == {
        "id": a["tabId"],
        "filePath": "a.md",
        "title": "a",
        "dirty": False,
        "revision": a["revision"],
        "kind": "markdown",
    }


@pytest.mark.parametrize(
    "path",
    ["missing.md", "../outside.md", "sub/../../x.md", "/etc/passwd", "escape/secret.md", "folder", "a\0.md", ""],
)
async def test_open_refuses_what_is_not_a_workspace_file(lab: Any, tmp_path: Path, path: str) -> None:
    _, open_tools, root = lab
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("secret")
    (root / "escape").symlink_to(tmp_path / "outside", target_is_directory=True)
    (root / "folder").mkdir()
    async with open_tools() as tools:
        error = await tools.fail("workspace", "open", filePath=path)
        state = await tools.ok("session", "get_state")
    assert error["error"] == "INVALID_PATH", error
    assert error["message"]
    assert tabs_of(state) == {}


async def test_focus_is_per_session(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools(name="agent-1") as one, open_tools(name="agent-2") as two:
        a = await one.ok("workspace", "open", filePath="a.md")
        b = await two.ok("workspace", "open", filePath="b.md")
        assert (await one.ok("document", "read"))["filePath"] == "a.md"
        assert (await two.ok("document", "read"))["filePath"] == "b.md"
        # Both see every tab; each has its own focused one.
        assert set(tabs_of(await one.ok("session", "get_state"))) == {a["tabId"], b["tabId"]}
        await one.ok("workspace", "switch_tab", tabId=b["tabId"])
        assert (await one.ok("document", "read"))["filePath"] == "b.md"
        assert (await two.ok("document", "read"))["filePath"] == "b.md"


async def test_no_focused_tab_and_unknown_tab_are_invalid_tab(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        error = await tools.fail("document", "read")
        assert error["error"] == "INVALID_TAB"
        assert "tabId" in error["message"]
        for action, extra in [("save", {}), ("close", {}), ("switch_tab", {}), ("save_as", {"filePath": "x.md"})]:
            error = await tools.fail("workspace", action, tabId="tab-404", **extra)
            assert error == {
                "error": "INVALID_TAB",
                "message": "no tab 'tab-404' (it may have been closed)",
                "tabId": "tab-404",
            }


async def test_new_untitled_tab_then_save_as(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        new = await tools.ok("workspace", "new")
        assert new == {"tabId": new["tabId"], "filePath": None, "revision": revision_of(""), "kind": "markdown"}
        wf = await tools.ok("workspace", "new", kind="yaml-workflow")
        assert wf["kind"] == "yaml-workflow"
        # An empty untitled tab holds no work: not dirty, closes without force.
        assert tabs_of(await tools.ok("session", "get_state"))[wf["tabId"]]["dirty"] is False
        assert await tools.ok("workspace", "close", tabId=wf["tabId"]) == {
            "closed": True,
            "reason": None,
            "suggestionIds": None,
        }
        await tools.ok("workspace", "switch_tab", tabId=new["tabId"])
        await tools.ok("document", "write", content="# Draft\n")
        state = tabs_of(await tools.ok("session", "get_state"))[new["tabId"]]
        assert (state["filePath"], state["dirty"], state["title"]) == ("", True, "untitled-1")
        error = await tools.fail("workspace", "save")
        assert error["error"] == "INVALID_PATH"
        assert "save_as" in error["message"]
        saved = await tools.ok("workspace", "save_as", filePath="drafts/draft.md")
        assert saved == {
            "revision": revision_of("# Draft\n"),
            "filePath": "drafts/draft.md",
            "tabId": new["tabId"],
            "applied": True,
            "suggestionIds": None,
        }
        state = tabs_of(await tools.ok("session", "get_state"))[new["tabId"]]
        assert (state["filePath"], state["dirty"], state["title"]) == ("drafts/draft.md", False, "draft")
        error = await tools.fail("workspace", "new", windowLabel="nowhere")
        assert error["error"] == "INVALID_TAB"
    assert (root / "drafts" / "draft.md").read_text() == "# Draft\n"


async def test_tab_edits_stay_in_the_tab_until_save(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        written = await tools.ok("document", "write", content="# A\n\nchanged\n")
        assert written["applied"] is True
        assert (root / "a.md").read_text() == "# A\n\nalpha\n"
        assert tabs_of(await tools.ok("session", "get_state"))[tab]["dirty"] is True
        saved = await tools.ok("workspace", "save")
        assert saved == {"filePath": "a.md", "revision": revision_of("# A\n\nchanged\n")}
        assert (root / "a.md").read_text() == "# A\n\nchanged\n"
        assert tabs_of(await tools.ok("session", "get_state"))[tab]["dirty"] is False


async def test_save_refuses_when_the_file_changed_on_disk(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        await tools.ok("workspace", "open", filePath="a.md")
        await tools.ok("document", "write", content="ours\n")
        (root / "a.md").write_text("theirs\n")
        error = await tools.fail("workspace", "save")
        assert error["error"] == "CONFLICT"
        assert error["disk_revision"] == revision_of("theirs\n")
        assert error["path"] == "a.md"
        assert (root / "a.md").read_text() == "theirs\n"
        read = await tools.ok("document", "read")
        assert (read["content"], read["dirty"]) == ("ours\n", True)


async def test_save_as_refuses_to_overwrite_unless_asked(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        error = await tools.fail("workspace", "save_as", filePath="b.md")
        assert error["error"] == "CONFLICT"
        assert (root / "b.md").read_text() == "# B\n\nbeta\n"
        done = await tools.ok("workspace", "save_as", filePath="b.md", overwrite=True)
        assert done["tabId"] == tab
        assert (root / "b.md").read_text() == "# A\n\nalpha\n"
        error = await tools.fail("workspace", "save_as", filePath="../b.md")
        assert error["error"] == "INVALID_PATH"


async def test_save_as_of_a_dirty_tab_leaves_the_old_file_as_it_is_on_disk(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        await tools.ok("document", "write", content="# A\n\nrewritten\n")
        await tools.ok("workspace", "save_as", filePath="a2.md")
        assert (root / "a2.md").read_text() == "# A\n\nrewritten\n"
        assert (root / "a.md").read_text() == "# A\n\nalpha\n"
        old = await tools.ok("document", "read", path="a.md")
        assert (old["content"], old["dirty"]) == ("# A\n\nalpha\n", False)
        state = tabs_of(await tools.ok("session", "get_state"))[tab]
        assert (state["filePath"], state["dirty"]) == ("a2.md", False)


async def test_save_as_to_the_same_path_keeps_one_document(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        await tools.ok("document", "write", content="v2\n")
        await tools.ok("workspace", "save_as", filePath="a.md", overwrite=True)
        # Path-addressed and tab-addressed access reach the same document.
        by_path = await tools.ok("document", "write", path="a.md", content="v3\n")
        by_tab = await tools.ok("document", "read", tabId=tab)
        assert by_tab["content"] == "v3\n"
        assert by_tab["revision"] == by_path["revision"]
    assert (root / "a.md").read_text() == "v3\n"


async def test_close_refuses_dirty_unless_forced(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        a = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        b = (await tools.ok("workspace", "open", filePath="b.md"))["tabId"]
        await tools.ok("document", "write", content="unsaved\n")  # b is focused
        assert await tools.ok("workspace", "close", tabId=b) == {
            "closed": False,
            "reason": "DIRTY",
            "suggestionIds": None,
        }
        assert b in tabs_of(await tools.ok("session", "get_state"))
        assert await tools.ok("workspace", "close", tabId=b, force=True) == {
            "closed": True,
            "reason": None,
            "suggestionIds": None,
        }
        assert list(tabs_of(await tools.ok("session", "get_state"))) == [a]
        # Focus moved to the remaining tab; the discarded work is gone, the file untouched.
        assert (await tools.ok("document", "read"))["filePath"] == "a.md"
        reopened = await tools.ok("document", "read", path="b.md")
        assert (reopened["content"], reopened["dirty"]) == ("# B\n\nbeta\n", False)
        assert await tools.ok("workspace", "close", tabId=a) == {"closed": True, "reason": None, "suggestionIds": None}
        assert (await tools.fail("document", "read"))["error"] == "INVALID_TAB"
        assert (await tools.fail("workspace", "close", tabId=a))["error"] == "INVALID_TAB"
    assert (root / "b.md").read_text() == "# B\n\nbeta\n"


async def test_switch_tab_and_focus_window(lab: Any) -> None:
    services, open_tools, _ = lab
    services.workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    async with open_tools() as tools:
        a = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        b = (await tools.ok("workspace", "open", filePath="b.md", windowLabel="lab-1"))["tabId"]
        state = await tools.ok("session", "get_state")
        assert {w["label"]: [t["id"] for t in w["tabs"]] for w in state["windows"]} == {"main": [a], "lab-1": [b]}
        assert {w["label"]: w["focused"] for w in state["windows"]} == {"main": False, "lab-1": True}
        switched = await tools.ok("workspace", "switch_tab", tabId=a)
        assert switched == {
            "tabId": a,
            "filePath": "a.md",
            "revision": revision_of("# A\n\nalpha\n"),
            "kind": "markdown",
        }
        state = await tools.ok("session", "get_state")
        assert {w["label"]: w["focused"] for w in state["windows"]} == {"main": True, "lab-1": False}
        assert await tools.ok("workspace", "focus_window", windowLabel="lab-1") == {"windowLabel": "lab-1", "tabId": b}
        assert (await tools.ok("document", "read"))["filePath"] == "b.md"
        # Focusing the window already focused keeps the focused tab.
        assert await tools.ok("workspace", "focus_window", windowLabel="lab-1") == {"windowLabel": "lab-1", "tabId": b}
        error = await tools.fail("workspace", "focus_window", windowLabel="nope")
        assert error["error"] == "INVALID_TAB"
        assert error["window"] == "nope"


async def test_argument_errors_name_the_argument(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        missing = await tools.fail("workspace", "open")
        assert (missing["error"], missing["argument"]) == ("INVALID_ARGUMENT", "filePath")
        stray = await tools.fail("workspace", "open", filePath="a.md", force=True)  # close's argument
        assert (stray["error"], stray["argument"]) == ("INVALID_ARGUMENT", "force")
        # Wrong types are refused by the SDK's own argument validation, which names the argument
        # (as text: the SDK's message, not our envelope).
        for args in [{"action": "new", "kind": "spreadsheet"}, {"action": "close", "tabId": "t", "force": "maybe"}]:
            result = await tools.client.call_tool("workspace", args)
            assert result.is_error
            assert list(args)[-1] in text_of(result)
        unknown = await tools.fail("workspace", "rename", filePath="a.md")
        assert (unknown["error"], unknown["argument"]) == ("INVALID_ARGUMENT", "action")


async def test_read_only_server_opens_and_reads_but_changes_nothing(ops_client: Any) -> None:
    services, open_tools = ops_client(read_only=True)
    root = services.settings.root_dir
    (root / "a.md").write_text("# A\n")
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        await tools.ok("workspace", "switch_tab", tabId=tab)
        await tools.ok("workspace", "focus_window", windowLabel="main")
        assert (await tools.ok("document", "read"))["content"] == "# A\n"
        for tool, action, args in [
            ("document", "write", {"content": "x"}),
            ("document", "edit", {"edits": [{"op": "insert", "at": 0, "text": "x"}]}),
            ("workspace", "save", {}),
            ("workspace", "save_as", {"filePath": "copy.md"}),
            ("document", "write", {"content": "x", "path": "a.md", "mode": "dryRun"}),
        ]:
            error = await tools.fail(tool, action, **args)
            assert error["error"] == "READ_ONLY", (action, error)
        state = await tools.ok("session", "get_state")
    assert state["capabilities"]["readOnly"] is True
    assert (root / "a.md").read_text() == "# A\n"
    assert not (root / "copy.md").exists()


async def test_reopen_recent_and_info(lab: Any) -> None:
    services, open_tools, root = lab
    services.workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    async with open_tools() as tools:
        assert await tools.ok("workspace", "reopen") == {
            "reopened": False,
            "tabId": None,
            "filePath": None,
            "title": None,
        }
        a = (await tools.ok("workspace", "open", filePath="a.md"))["tabId"]
        b = (await tools.ok("workspace", "open", filePath="b.md", windowLabel="lab-1"))["tabId"]
        recent = await tools.ok("workspace", "recent")
        assert [f["path"] for f in recent["files"]] == ["b.md", "a.md"] and recent["count"] == 2
        info = await tools.ok("workspace", "info", tabId=a)
        assert {k: info[k] for k in ("filePath", "title", "kind", "dirty", "wordCount", "charCount")} == {
            "filePath": "a.md",
            "title": "a",
            "kind": "markdown",
            "dirty": False,
            "wordCount": 2,
            "charCount": len("# A\n\nalpha\n"),
        }
        assert (info["revision"], info["tabId"], info["windowId"], info["active"]) == (
            revision_of("# A\n\nalpha\n"),
            a,
            "main",
            True,  # main shows a (its last tab) to this session, focused on lab-1
        )
        assert (await tools.ok("workspace", "info"))["tabId"] == b  # default: the focused tab
        by_path = await tools.ok("workspace", "info", path="b.md")
        assert (by_path["filePath"], by_path["tabId"], by_path["active"]) == ("b.md", None, False)
        assert (await tools.ok("workspace", "close", tabId=b))["closed"] is True
        back = await tools.ok("workspace", "reopen", windowLabel="lab-1")
        assert (back["reopened"], back["filePath"], back["title"]) == (True, "b.md", "b")
        assert (await tools.ok("document", "read"))["filePath"] == "b.md"  # focused again
        missing = await tools.fail("workspace", "reopen", windowLabel="nope")
        assert (missing["error"], missing["window"]) == ("INVALID_TAB", "nope")
        titled = await tools.ok("workspace", "new", title="Ideas")
        assert (await tools.ok("workspace", "info", tabId=titled["tabId"]))["title"] == "Ideas"
        assert tabs_of(await tools.ok("session", "get_state"))[titled["tabId"]]["title"] == "Ideas"
    assert (root / "b.md").read_text() == "# B\n\nbeta\n"
