"""The vmark profile's workspace, tab, suggestion and protocol tools (spec/vmark-tools-v1.md)
through a real Jupyter server and the Python SDK client.

Each tool with its documented arguments: the returned fields one by one and the files
afterwards. Suggestions under the ``suggest`` policy: the list shows staged edits at their
current positions, an agent cannot accept without a person's grant (APPROVAL_REQUIRED) but
may withdraw its own. Errors in VMark's shape: domain errors as ``{success: false, error:
"<JSON envelope>"}``, argument errors as ``{success: false, error: "<plain string>"}``.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from tests.conftest import CLIENT_NAME, LabServer, Tools

SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])
NOTES = "# Notes\n\nSome text here.\n\n## Part\n\nMore text.\n"

# This half's tools and VMark's documented arguments: (required, optional). Extras we add on
# purpose: baseRevision (our expected_revision) on every edit, rationale (shown to the reviewer).
EDIT_EXTRAS = {"baseRevision", "rationale"}
SPEC: dict[str, tuple[set[str], set[str]]] = {
    "workspace_list_windows": (set(), set()),
    "workspace_get_focused": (set(), set()),
    "workspace_focus_window": ({"windowId"}, set()),
    "workspace_new_document": (set(), {"title"}),
    "workspace_open_document": ({"path"}, set()),
    "workspace_save_document": (set(), {"windowId"}),
    "workspace_save_document_as": ({"path"}, {"windowId"}),
    "workspace_get_document_info": (set(), {"windowId"}),
    "workspace_close_window": (set(), {"windowId"}),
    "workspace_list_recent_files": (set(), set()),
    "workspace_get_info": (set(), {"windowId"}),
    "tabs_list": (set(), {"windowId"}),
    "tabs_get_active": (set(), {"windowId"}),
    "tabs_switch": ({"tabId"}, {"windowId"}),
    "tabs_close": (set(), {"tabId", "windowId"}),
    "tabs_create": (set(), {"windowId"}),
    "tabs_get_info": (set(), {"tabId", "windowId"}),
    "tabs_reopen_closed": (set(), {"windowId"}),
    "suggestion_list": (set(), {"windowId"}),
    "suggestion_accept": ({"suggestionId"}, {"windowId"}),
    "suggestion_reject": ({"suggestionId"}, {"windowId"}),
    "suggestion_accept_all": (set(), {"windowId"}),
    "suggestion_reject_all": (set(), {"windowId"}),
    "get_capabilities": (set(), set()),
    "get_document_revision": (set(), {"windowId"}),
    "get_document_ast": (set(), {"windowId"}),
    "get_document_digest": (set(), {"windowId"}),
    "list_blocks": (set(), {"type", "windowId"}),
    "resolve_targets": ({"targets"}, {"windowId"}),
    "get_section": ({"nodeId"}, {"windowId"}),
    "batch_edit": ({"operations"}, {"baseRevision", "mode", "windowId", "rationale"}),
    "apply_diff": ({"original", "replacement"}, {"matchPolicy", "nth", "mode", "windowId"} | EDIT_EXTRAS),
    "replace_text_anchored": ({"anchor", "replacement"}, {"mode", "windowId"} | EDIT_EXTRAS),
    "update_section": ({"nodeId", "content"}, {"mode", "windowId"} | EDIT_EXTRAS),
    "insert_section": ({"after", "level", "title"}, {"content", "mode", "windowId"} | EDIT_EXTRAS),
    "move_section": ({"nodeId", "after"}, {"mode", "windowId"} | EDIT_EXTRAS),
    "table_modify": ({"nodeId", "operations"}, {"windowId"} | EDIT_EXTRAS),
    "list_modify": ({"nodeId", "operations"}, {"windowId"} | EDIT_EXTRAS),
}
assert len(SPEC) == 38


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "vmark"]


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(NOTES)
    (root / "other.md").write_text("# Other\n")
    return root


class VMarkSession:
    """``async with vmark() as tools``: an SDK session on the vmark endpoint."""

    def __init__(self, cm: Any) -> None:
        self.cm = cm

    async def __aenter__(self) -> Tools:
        return Tools(await self.cm.__aenter__())

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.cm.__aexit__(*exc)


@pytest.fixture
def vmark(mcp_client: Any, root: Path):
    def open_vmark(**kwargs: Any) -> VMarkSession:
        return VMarkSession(mcp_client("vmark", **kwargs))

    return open_vmark


async def envelope(tools: Tools, tool: str, **arguments: Any) -> dict[str, Any]:
    """A domain error in VMark's shape; returns the decoded envelope."""
    payload = await tools.fail(tool, **arguments)
    assert set(payload) == {"success", "error"}, payload
    assert payload["success"] is False
    decoded = json.loads(payload["error"])
    assert isinstance(decoded, dict) and decoded["message"], decoded
    return decoded


async def plain_error(tools: Tools, tool: str, **arguments: Any) -> str:
    """An argument error in VMark's shape: a plain string, not JSON."""
    payload = await tools.fail(tool, **arguments)
    assert payload["success"] is False
    assert isinstance(payload["error"], str)
    with pytest.raises(ValueError):
        json.loads(payload["error"])
    return payload["error"]


def services_of(mcp_lab: LabServer) -> Any:
    return mcp_lab.extension.services


# --------------------------------------------------------------------------- the surface


async def test_this_halfs_tools_take_vmarks_documented_arguments(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        listing = {t.name: t for t in (await tools.client.list_tools()).tools}
    for name, (required, optional) in SPEC.items():
        schema = listing[name].input_schema
        assert set(schema.get("required", [])) == required, name
        assert set(schema["properties"]) == required | optional, name
        assert listing[name].description, name
        assert listing[name].output_schema is not None, name
    modes = {n: listing[n].input_schema["properties"]["mode"].get("default") for n in SPEC if "mode" in SPEC[n][1]}
    assert set(modes.values()) == {"suggest"}, modes  # VMark's advanced mutation tools default to suggest
    hints = {n: listing[n].annotations.read_only_hint for n in SPEC}
    assert hints["list_blocks"] and hints["suggestion_list"] and hints["get_capabilities"]
    assert not hints["batch_edit"] and not hints["suggestion_accept"]


async def test_windows_and_focus(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        empty = await tools.ok("workspace_list_windows")
        assert empty["count"] == 1
        [main] = empty["windows"]
        assert main == {
            "label": "main",
            "title": "",
            "filePath": None,
            "isFocused": True,
            "isAiExposed": True,
            "isLabClient": False,
            "tabCount": 0,
            "activeTabId": None,
        }
        assert await tools.ok("workspace_get_focused") == {"label": "main", "activeTabId": None}
        opened = await tools.ok("workspace_open_document", path="notes.md")
        [main] = (await tools.ok("workspace_list_windows"))["windows"]
        assert (main["title"], main["filePath"], main["tabCount"], main["activeTabId"]) == (
            "notes",
            "notes.md",
            1,
            opened["tabId"],
        )
        focused = await tools.ok("workspace_focus_window", windowId="main")
        assert focused == {"windowLabel": "main", "tabId": opened["tabId"]}
        assert (await tools.ok("workspace_get_focused"))["label"] == "main"
        missing = await envelope(tools, "workspace_focus_window", windowId="nope")
        assert missing["error"] == "INVALID_TAB" and "main" in missing["message"]
        assert "windowId" in await plain_error(tools, "workspace_focus_window")
        # Another session has its own focus: nothing is active for it yet.
        async with vmark(client_name="other-agent") as other:
            assert (await other.ok("workspace_get_focused"))["activeTabId"] is None
            no_tab = await envelope(other, "workspace_get_document_info")
            assert no_tab["error"] == "INVALID_TAB"


async def test_open_info_save_and_save_as(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        opened = await tools.ok("workspace_open_document", path="notes.md")
        assert opened["filePath"] == "notes.md" and opened["kind"] == "markdown"
        assert opened["revision"] == revision_of(NOTES)
        info = await tools.ok("workspace_get_document_info")
        assert info == {
            "filePath": "notes.md",
            "isDirty": False,
            "title": "notes",
            "wordCount": 7,
            "charCount": len(NOTES),
            "revision": revision_of(NOTES),
            "kind": "markdown",
            "tabId": opened["tabId"],
            "windowId": "main",
        }
        assert await tools.ok("workspace_get_document_info", windowId="main") == info
        assert await tools.ok("workspace_get_document_info", windowId=opened["tabId"]) == info  # a tab id works too
        await tools.ok("apply_diff", original="Some", replacement="Any", mode="apply")
        dirty = await tools.ok("workspace_get_document_info")
        assert dirty["isDirty"] is True and dirty["charCount"] == len(NOTES) - 1
        assert (root / "notes.md").read_text() == NOTES  # edits stay in the tab until saved
        saved = await tools.ok("workspace_save_document")
        expected = NOTES.replace("Some", "Any")
        assert saved == {"filePath": "notes.md", "revision": revision_of(expected)}
        assert (root / "notes.md").read_text() == expected
        assert (await tools.ok("workspace_get_document_info"))["isDirty"] is False

        copy = await tools.ok("workspace_save_document_as", path="sub/copy.md")
        assert (copy["filePath"], copy["revision"], copy["tabId"]) == (
            "sub/copy.md",
            revision_of(expected),
            opened["tabId"],
        )
        assert (root / "sub" / "copy.md").read_text() == expected
        assert (await tools.ok("workspace_get_document_info"))["filePath"] == "sub/copy.md"
        exists = await envelope(tools, "workspace_save_document_as", path="other.md")
        assert exists["error"] == "CONFLICT"
        assert (root / "other.md").read_text() == "# Other\n"
        escape = await envelope(tools, "workspace_save_document_as", path="../outside.md")
        assert escape["error"] == "INVALID_PATH"
        assert (await envelope(tools, "workspace_open_document", path="missing.md"))["error"] == "INVALID_PATH"


async def test_new_document_with_a_title(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        new = await tools.ok("workspace_new_document", title="Draft ideas")
        assert (new["windowId"], new["title"], new["kind"]) == ("main", "Draft ideas", "markdown")
        assert new["revision"] == revision_of("")
        info = await tools.ok("workspace_get_document_info")
        assert (info["filePath"], info["title"], info["isDirty"], info["tabId"]) == (
            None,
            "Draft ideas",
            False,
            new["tabId"],
        )
        [tab] = (await tools.ok("tabs_list"))["tabs"]
        assert (tab["id"], tab["title"], tab["isActive"]) == (new["tabId"], "Draft ideas", True)
        untitled = await envelope(tools, "workspace_save_document")
        assert untitled["error"] == "INVALID_PATH" and "save_as" in untitled["message"]
        await tools.ok("workspace_save_document_as", path="draft.md")
        assert (root / "draft.md").read_text() == ""
        assert (await tools.ok("tabs_get_active"))["title"] == "draft"  # a file's name from now on
        plain = await tools.ok("workspace_new_document")
        assert plain["title"].startswith("untitled")


async def test_close_window_keeps_tabs_with_unsaved_changes(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        notes = await tools.ok("workspace_open_document", path="notes.md")
        await tools.ok("apply_diff", original="Some", replacement="Any", mode="apply")
        other = await tools.ok("workspace_open_document", path="other.md")
        closed = await tools.ok("workspace_close_window")
        assert closed == {
            "label": "main",
            "closed": False,
            "closedTabs": [other["tabId"]],
            "dirtyTabs": [notes["tabId"]],
            "message": "closed 1 tab(s); 1 with unsaved changes kept open",
        }
        assert [t["id"] for t in (await tools.ok("tabs_list"))["tabs"]] == [notes["tabId"]]
        await tools.ok("workspace_save_document", windowId=notes["tabId"])
        again = await tools.ok("workspace_close_window", windowId="main")
        assert (again["closed"], again["closedTabs"], again["dirtyTabs"]) == (True, [notes["tabId"]], [])
        assert (await tools.ok("tabs_list"))["tabs"] == []
        assert (await envelope(tools, "workspace_close_window", windowId="nope"))["error"] == "INVALID_TAB"
    assert (root / "notes.md").read_text() == NOTES.replace("Some", "Any")


async def test_recent_files_most_recent_first_with_timestamps(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    for n in range(12):
        (root / f"f{n}.md").write_text(f"# {n}\n")
    async with vmark() as tools:
        assert await tools.ok("workspace_list_recent_files") == {"files": [], "count": 0}
        before = time.time() * 1000
        for n in range(12):
            await tools.ok("workspace_open_document", path=f"f{n}.md")
        await tools.ok("workspace_open_document", path="f3.md")  # opened again: first
        after = time.time() * 1000
        recent = await tools.ok("workspace_list_recent_files")
    assert recent["count"] == 10
    assert [f["path"] for f in recent["files"]] == [
        "f3.md",
        "f11.md",
        "f10.md",
        "f9.md",
        "f8.md",
        "f7.md",
        "f6.md",
        "f5.md",
        "f4.md",
        "f2.md",
    ]
    assert recent["files"][0]["name"] == "f3.md"
    stamps = [f["timestamp"] for f in recent["files"]]
    assert all(before - 1 <= s <= after + 1 for s in stamps), (before, stamps, after)
    assert stamps == sorted(stamps, reverse=True)


async def test_workspace_info_is_the_jupyter_root(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        info = await tools.ok("workspace_get_info")
        assert info == {"isWorkspaceMode": True, "rootPath": str(root), "workspaceName": root.name}
        assert await tools.ok("workspace_get_info", windowId="main") == info
        assert (await envelope(tools, "workspace_get_info", windowId="w9"))["error"] == "INVALID_TAB"


# --------------------------------------------------------------------------- tabs


async def test_tabs_list_switch_info_create_and_close(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        assert await tools.ok("tabs_list") == {"tabs": [], "count": 0, "windowId": "main"}
        assert (await envelope(tools, "tabs_get_active"))["error"] == "INVALID_TAB"
        a = (await tools.ok("workspace_open_document", path="notes.md"))["tabId"]
        b = (await tools.ok("workspace_open_document", path="other.md"))["tabId"]
        listed = await tools.ok("tabs_list", windowId="main")
        assert listed["count"] == 2
        assert [(t["id"], t["title"], t["filePath"], t["isDirty"], t["isActive"]) for t in listed["tabs"]] == [
            (a, "notes", "notes.md", False, False),
            (b, "other", "other.md", False, True),
        ]
        active = await tools.ok("tabs_get_active")
        assert (active["id"], active["filePath"], active["isActive"], active["windowId"]) == (
            b,
            "other.md",
            True,
            "main",
        )
        switched = await tools.ok("tabs_switch", tabId=a)
        assert (switched["id"], switched["isActive"]) == (a, True)
        assert (await tools.ok("tabs_get_active"))["id"] == a
        assert (await tools.ok("workspace_get_document_info"))["filePath"] == "notes.md"
        info_b = await tools.ok("tabs_get_info", tabId=b)
        assert (info_b["id"], info_b["filePath"], info_b["isActive"], info_b["isDirty"]) == (
            b,
            "other.md",
            False,
            False,
        )
        assert (await tools.ok("tabs_get_info"))["id"] == a  # default: the active tab
        created = await tools.ok("tabs_create")
        assert set(created) == {"tabId", "windowId", "title"} and created["windowId"] == "main"
        assert (await tools.ok("tabs_get_active"))["id"] == created["tabId"]
        closed = await tools.ok("tabs_close", tabId=b)
        assert closed == {"tabId": b, "closed": True, "reason": None, "message": f"closed {b}"}
        assert [t["id"] for t in (await tools.ok("tabs_list"))["tabs"]] == [a, created["tabId"]]
        closed_active = await tools.ok("tabs_close")  # default: the active (new, empty) tab
        assert closed_active["tabId"] == created["tabId"] and closed_active["closed"] is True
        assert (await envelope(tools, "tabs_switch", tabId="tab-999"))["error"] == "INVALID_TAB"
        assert (await envelope(tools, "tabs_get_info", tabId=b))["error"] == "INVALID_TAB"  # closed
        wrong_window = await envelope(tools, "tabs_switch", tabId=a, windowId="w2")
        assert wrong_window["error"] == "INVALID_TAB"
        assert "tabId" in await plain_error(tools, "tabs_switch")


async def test_a_dirty_tab_is_not_closed(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        tab = (await tools.ok("workspace_open_document", path="notes.md"))["tabId"]
        await tools.ok("apply_diff", original="Some", replacement="Any", mode="apply")
        kept = await tools.ok("tabs_close", tabId=tab)
        assert (kept["closed"], kept["reason"]) == (False, "DIRTY")
        assert "save" in kept["message"]
        assert [t["isDirty"] for t in (await tools.ok("tabs_list"))["tabs"]] == [True]
    assert (root / "notes.md").read_text() == NOTES


async def test_reopen_closed_tabs_last_ten_per_window(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    for n in range(12):
        (root / f"f{n}.md").write_text(f"# {n}\n")
    async with vmark() as tools:
        assert await tools.ok("tabs_reopen_closed") == {
            "reopened": False,
            "tabId": None,
            "filePath": None,
            "title": None,
            "message": "No closed tabs to reopen",
        }
        for n in range(12):
            await tools.ok("workspace_open_document", path=f"f{n}.md")
        (root / "f5.md").unlink()  # gone since: skipped
        for _ in range(12):
            assert (await tools.ok("tabs_close"))["closed"] is True
        reopened = []
        while (r := await tools.ok("tabs_reopen_closed", windowId="main"))["reopened"]:
            assert r["title"] == Path(r["filePath"]).stem and r["tabId"].startswith("tab-")
            assert (await tools.ok("tabs_get_active"))["id"] == r["tabId"]
            reopened.append(r["filePath"])
        assert r["message"] == "No closed tabs to reopen"
    # The active tab was the newest each time, so f11 was closed first and f0 last; the last
    # 10 closed are kept (f11 and f10 fell off), newest first; the deleted f5 is skipped.
    assert reopened == ["f0.md", "f1.md", "f2.md", "f3.md", "f4.md", "f6.md", "f7.md", "f8.md", "f9.md"]


# --------------------------------------------------------------------------- suggestions


@SUGGEST
async def test_suggestions_are_listed_where_they_are_now(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await tools.ok("workspace_open_document", path="notes.md")
        staged = await tools.ok("apply_diff", original="More", replacement="Less", mode="apply")  # policy wins
        assert (staged["applied"], staged["mode"], len(staged["suggestionIds"])) == (False, "suggest", 1)
        [sid] = staged["suggestionIds"]
        listed = await tools.ok("suggestion_list")
        assert listed["count"] == 1 and listed["focusedId"] == sid
        [s] = listed["suggestions"]
        at = NOTES.index("More")
        assert (s["id"], s["type"], s["from"], s["to"]) == (sid, "replace", at, at + 4)
        assert (s["newContent"], s["originalContent"], s["mapped"], s["author"]) == ("Less", "More", True, CLIENT_NAME)
        assert (root / "notes.md").read_text() == NOTES  # nothing applied
        # Someone edits the file before the suggestion: it is listed where its text is now.
        (root / "notes.md").write_text("Preface.\n\n" + NOTES)
        [moved] = (await tools.ok("suggestion_list"))["suggestions"]
        assert (moved["from"], moved["to"], moved["mapped"]) == (at + 10, at + 14, True)
        assert ("Preface.\n\n" + NOTES)[moved["from"] : moved["to"]] == "More"
        # Its text changes: no longer mapped.
        (root / "notes.md").write_text(NOTES.replace("More", "Most"))
        [lost] = (await tools.ok("suggestion_list"))["suggestions"]
        assert lost["mapped"] is False
        await tools.ok("suggestion_reject", suggestionId=sid)
        empty = await tools.ok("suggestion_list")
        assert (empty["suggestions"], empty["count"], empty["focusedId"]) == ([], 0, None)


@SUGGEST
async def test_an_agent_cannot_accept_but_may_withdraw_its_own(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    services = services_of(mcp_lab)
    async with vmark() as tools, vmark(client_name="other-agent") as other:
        await tools.ok("workspace_open_document", path="notes.md")
        [mine] = (await tools.ok("apply_diff", original="Some", replacement="Any"))["suggestionIds"]
        refused = await envelope(tools, "suggestion_accept", suggestionId=mine)
        assert (refused["error"], refused["suggestionId"]) == ("APPROVAL_REQUIRED", mine)
        assert (await envelope(tools, "suggestion_accept_all"))["error"] == "APPROVAL_REQUIRED"
        assert services.reviews.get(mine).status == "pending"

        await other.ok("workspace_open_document", path="notes.md")
        [theirs] = (await other.ok("apply_diff", original="More", replacement="Less"))["suggestionIds"]
        assert (await envelope(tools, "suggestion_reject", suggestionId=theirs))["error"] == "APPROVAL_REQUIRED"
        assert (await envelope(tools, "suggestion_reject_all"))["error"] == "APPROVAL_REQUIRED"
        assert (await tools.ok("suggestion_list"))["count"] == 2

        withdrawn = await tools.ok("suggestion_reject", suggestionId=mine, windowId="main")
        assert withdrawn == {
            "success": True,
            "message": f"Suggestion {mine} rejected",
            "suggestionId": mine,
            "status": "rejected",
            "revision": revision_of(NOTES),
        }
        assert (await envelope(tools, "suggestion_reject", suggestionId=mine))["error"] == "CONFLICT"  # decided
        assert (await envelope(tools, "suggestion_accept", suggestionId="sug-nope"))["error"] == "NOT_FOUND"
        assert (await other.ok("suggestion_reject_all"))["suggestionIds"] == [theirs]  # its own: allowed
        assert (await other.ok("suggestion_list"))["count"] == 0
    assert (root / "notes.md").read_text() == NOTES
    assert services.reviews.get(theirs).status == "rejected"


@SUGGEST
async def test_a_granted_agent_accepts_and_the_file_changes(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    services = services_of(mcp_lab)
    async with vmark() as tools:
        await tools.ok("workspace_open_document", path="notes.md")
        [one] = (await tools.ok("apply_diff", original="Some", replacement="Any"))["suggestionIds"]
        two_three = (await tools.ok("apply_diff", original="text", replacement="words", matchPolicy="all"))[
            "suggestionIds"
        ]
        assert len(two_three) == 2
        services.reviews.grant("notes.md", CLIENT_NAME, "client", minutes=5, by="person")
        accepted = await tools.ok("suggestion_accept", suggestionId=one)
        expected = NOTES.replace("Some", "Any")
        assert accepted == {
            "success": True,
            "message": f"Suggestion {one} accepted and applied",
            "suggestionId": one,
            "status": "accepted",
            "revision": revision_of(expected),
        }
        assert (root / "notes.md").read_text() == expected
        everything = await tools.ok("suggestion_accept_all")
        assert (everything["success"], everything["count"], sorted(everything["suggestionIds"])) == (
            True,
            2,
            sorted(two_three),
        )
        assert everything["conflictIds"] == [] and everything["message"] == "Accepted 2 suggestion(s)"
        nothing = await tools.ok("suggestion_accept_all")
        assert (nothing["count"], nothing["message"]) == (0, "No pending suggestions")
    assert (root / "notes.md").read_text() == expected.replace("text", "words")


async def test_under_auto_approval_an_agent_decides_staged_suggestions(
    mcp_lab: LabServer, vmark: Any, root: Path
) -> None:
    async with vmark() as tools:
        await tools.ok("workspace_open_document", path="notes.md")
        staged = await tools.ok("apply_diff", original="Some", replacement="Any")  # mode defaults to suggest
        assert staged["applied"] is False and len(staged["suggestionIds"]) == 1
        rejected = await tools.ok("apply_diff", original="More", replacement="Less")
        rejected_all = await tools.ok("suggestion_reject_all")
        assert sorted(rejected_all["suggestionIds"]) == sorted(rejected["suggestionIds"] + staged["suggestionIds"])
        assert (rejected_all["count"], rejected_all["message"]) == (2, "Rejected 2 suggestion(s)")
        assert (await tools.ok("suggestion_list"))["count"] == 0
        again = await tools.ok("apply_diff", original="Some", replacement="Any")
        other_doc = await tools.ok("workspace_open_document", path="other.md")
        wrong = await envelope(
            tools, "suggestion_accept", suggestionId=again["suggestionIds"][0], windowId=other_doc["tabId"]
        )
        assert wrong["error"] == "NOT_FOUND"
        await tools.ok("tabs_switch", tabId=(await tools.ok("tabs_list"))["tabs"][0]["id"])
        done = await tools.ok("suggestion_accept_all")
        assert done["count"] == 1
        await tools.ok("workspace_save_document")
    assert (root / "notes.md").read_text() == NOTES.replace("Some", "Any")


# --------------------------------------------------------------------------- protocol


async def test_capabilities(mcp_lab: LabServer, vmark: Any) -> None:
    # A copy of shared/spec/seed-tools.json: the repository's tests must not reach outside it.
    seed = json.loads((Path(__file__).parents[2] / "fixtures" / "seed-tools.json").read_text())["vmark"]
    async with vmark() as tools:
        caps = await tools.ok("get_capabilities")
        listed = [t.name for t in (await tools.client.list_tools()).tools]
    assert caps["tools"] == listed == seed["tools"]
    assert caps["resources"] == [
        "vmark://document/outline",
        "vmark://document/metadata",
        "vmark://windows/list",
        "vmark://windows/focused",
    ]
    assert caps["version"] == services_of(mcp_lab).version
    features = caps["features"]
    assert (features["approval"], features["autoApprove"], features["suggestions"]) == ("auto", True, True)
    assert features["modes"] == ["apply", "suggest", "dryRun"]
    assert features["matchPolicies"] == ["first", "all", "nth", "error_if_multiple"]
    assert "codeBlock" in caps["supportedNodeTypes"] and caps["limits"]["maxResponseBytes"] == 75_000


async def test_document_revision_for_optimistic_locking(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        assert (await envelope(tools, "get_document_revision"))["error"] == "INVALID_TAB"
        await tools.ok("workspace_open_document", path="notes.md")
        before = time.time() * 1000
        first = await tools.ok("get_document_revision")
        assert first["revision"] == revision_of(NOTES)
        assert first["hash"] == hashlib.sha256(NOTES.encode()).hexdigest()
        assert before - 1 <= first["timestamp"] <= time.time() * 1000 + 1
        assert (first["filePath"], first["isDirty"]) == ("notes.md", False)
        assert await tools.ok("get_document_revision", windowId="main") == first  # unchanged: same timestamp
        edited = await tools.ok(
            "batch_edit",
            operations=[{"type": "update", "nodeId": "p-0", "text": "New text."}],
            baseRevision=first["revision"],
            mode="apply",
        )
        second = await tools.ok("get_document_revision")
        assert second["revision"] == edited["revision"] != first["revision"]
        assert second["timestamp"] >= first["timestamp"] and second["isDirty"] is True
        stale = await envelope(
            tools,
            "batch_edit",
            operations=[{"type": "delete", "nodeId": "p-0"}],
            baseRevision=first["revision"],
            mode="apply",
        )
        assert (stale["error"], stale["current_revision"]) == ("STALE", second["revision"])
