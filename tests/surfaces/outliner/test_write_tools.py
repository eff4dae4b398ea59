"""The outliner profile's write tools (spec/omnioutliner-mcp-tools.md) through the official MCP
SDK client on real OPML files: arguments, return fields, error codes, ids that last, bytes
that stay, and every change a suggestion on its rows under the default policy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.content import content_of

from .opml import OMNI, WITH_IDS, write
from .test_read_tools import focus

ALL_TOOLS = [
    "get_current_document",
    "get_outline_structure",
    "get_row",
    "search_outline",
    "get_row_children",
    "add_row",
    "update_row",
    "move_row",
    "delete_row",
    "get_section_content",
    "insert_content",
    "check_connection",
]


def files(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    write(root, "plan.opml", OMNI)
    write(root, "inbox.opml", WITH_IDS)
    return root


def no_ids(text: str) -> str:
    return re.sub(r' id="row-\d+"', "", text)


async def test_the_spec_s_twelve_tools_and_the_write_tools_arguments(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client()
    async with open_tools("outliner") as tools:
        listing = {t.name: t for t in (await tools.client.list_tools()).tools}
    assert list(listing) == ALL_TOOLS
    props = {n: set(t.input_schema.get("properties", {})) for n, t in listing.items()}
    assert props["add_row"] == {"topic", "note", "parentId", "position", "siblingId", "relativePosition"}
    assert props["update_row"] == {"rowId", "topic", "note", "state"}
    assert props["move_row"] == {"rowId", "newParentId", "position", "siblingId", "relativePosition"}
    assert props["delete_row"] == {"rowId", "confirmed"}
    assert props["insert_content"] == {"content", "parentId", "position"}
    assert listing["delete_row"].input_schema["required"] == ["rowId", "confirmed"]
    assert listing["add_row"].input_schema["required"] == ["topic"]
    assert listing["insert_content"].input_schema["required"] == ["content"]
    state = listing["update_row"].input_schema["properties"]["state"]
    assert "checked" in str(state) and "mixed" not in str(state)
    annotations = listing["delete_row"].annotations
    assert annotations is not None and annotations.destructive_hint and not annotations.read_only_hint


async def test_under_the_default_policy_each_change_is_a_suggestion_on_its_row(ops_client: Any, tmp_path: Path) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = files(tmp_path)
    await focus(open_tools, "inbox.opml")
    async with open_tools("outliner") as tools:
        added = await tools.ok("add_row", topic="Gamma — 東京", note="from the agent", siblingId="a")
        assert added["success"] is True and added["applied"] is False and added["undoAvailable"] is False
        assert "Suggested" in added["message"] and "JupyterLab" in added["message"]
        new = added["newRow"]
        assert new["topic"] == "Gamma — 東京" and new["note"] == "from the agent" and new["parentId"] is None
        assert (root / "inbox.opml").read_text(encoding="utf-8") == WITH_IDS  # nothing changed yet
        deleted = await tools.ok("delete_row", rowId="b", confirmed=True)
        assert deleted["success"] is True and deleted["applied"] is False and deleted["deletedCount"] == 1
        updated = await tools.ok("update_row", rowId="a1", topic="Alpha uno")
        assert updated["updatedRow"]["topic"] == "Alpha uno" and updated["applied"] is False
    pending = {s.operation: s for s in services.reviews.pending("inbox.opml")}
    add, delete = pending["outline.add"], pending["outline.delete"]
    assert add.part == new["id"] and add.kind == "insert" and add.new == "Gamma — 東京"
    summary = add.to_json()["change"]
    assert summary["op"] == "insert" and summary["after"] == "a" and summary["fields"]["parent"] is None
    assert summary["fields"]["topic"] == "Gamma — 東京"
    assert delete.part == "b" and delete.to_json()["change"]["fields"] == {"topic": "Beta"}
    update = pending["outline.update"]
    assert update.part == "a1" and (update.original, update.new) == ("Alpha one", "Alpha uno")
    assert update.to_json()["change"]["fields"] == {"topic": "Alpha uno"}
    # Meanwhile a person changes a1 (so that suggestion conflicts) and adds a row at the top.
    person = WITH_IDS.replace('text="Alpha one"', 'text="Alpha one!"').replace("<body>", '<body><outline text="P"/>')
    (root / "inbox.opml").write_text(person, encoding="utf-8")
    result = await services.reviews.accept_all(by="person", path="inbox.opml")
    assert {s.operation for s in result.accepted} == {"outline.add", "outline.delete"}
    assert [s.operation for s in result.conflicts] == ["outline.update"]
    [checkpoint] = services.reviews.store.list_checkpoints(path="inbox.opml")  # accept-all is one change
    assert checkpoint.source == "accepted"
    tree = content_of("outline", (root / "inbox.opml").read_text(encoding="utf-8"))
    assert [(r.id, r.text) for r in tree.rows] == [
        ("row-0", "P"),
        ("a", "Alpha"),
        ("a1", "Alpha one!"),
        (new["id"], "Gamma — 東京"),
    ]


async def test_applied_changes_keep_ids_and_bytes(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = files(tmp_path)
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        first = await tools.ok("add_row", topic="Kickoff", position="first", parentId="row-0")
        assert first["applied"] is True and first["undoAvailable"] is True
        assert first["message"] == "Added row 'Kickoff' under 'Launch'"
        kid = first["newRow"]
        assert kid["parentId"] == "row-0" and kid["level"] == 1 and kid["state"] == "none"
        before = await tools.ok("add_row", topic="Before Tag", siblingId="row-2", relativePosition="before")
        launch = (await tools.ok("get_row", rowId="row-0"))["row"]
        assert launch["childIds"] == [kid["id"], "row-1", before["newRow"]["id"], "row-2"]
        text = (root / "plan.opml").read_text(encoding="utf-8")
        # ids stored; the rest of the file is the same bytes (the new rows aside)
        rest = re.sub(r'\n *<outline id="r-[0-9a-f]+" text="(Kickoff|Before Tag)"/>', "", text)
        assert no_ids(rest) == OMNI
        ids = [r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]]
        # moves and deletes elsewhere keep every other id
        moved = await tools.ok("move_row", rowId="row-5", newParentId="row-8", position="first")
        assert moved["movedRow"]["parentId"] == "row-8" and moved["movedRow"]["childIds"] == ["row-6", "row-7"]
        assert moved["message"] == "Moved 'Résumé des entretiens — 東京' under 'Ideas & notes'"
        refused = await tools.fail("move_row", rowId="row-8", newParentId="row-6")
        assert refused["error"] == "invalid_argument" and "descendant" in refused["message"]
        preview = await tools.ok("delete_row", rowId="row-3", confirmed=False)
        assert preview["success"] is False and preview["requiresConfirmation"] is True
        assert [r["topic"] for r in preview["affectedRows"]] == ["Research", "Interview users"]
        assert preview["message"] == "This will delete 'Research' and 1 child rows. Set confirmed=true to proceed."
        assert (await tools.ok("get_row", rowId="row-3"))["row"]["topic"] == "Research"  # a preview changes nothing
        gone = await tools.ok("delete_row", rowId="row-3", confirmed=True)
        assert gone["success"] is True and gone["deletedCount"] == 2 and gone["message"].startswith("Deleted")
        after = [r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]]
        assert sorted(after) == sorted(set(ids) - {"row-3", "row-4"})
        updated = await tools.ok("update_row", rowId="row-9", topic="Dark mode ✓", note="", state="checked")
        assert updated["updatedRow"]["topic"] == "Dark mode ✓" and updated["updatedRow"]["state"] == "checked"
        cleared = await tools.ok("update_row", rowId="row-0", note="")
        assert cleared["updatedRow"]["note"] is None
        # a checkbox set on a row is set on the rows below it that have one
        box = await tools.ok("update_row", rowId="row-5", state="unchecked")
        assert box["updatedRow"]["state"] == "unchecked"
        assert (await tools.ok("get_row", rowId="row-6"))["row"]["state"] == "unchecked"
    reloaded = content_of("outline", (root / "plan.opml").read_text(encoding="utf-8"))
    assert sorted(r.id for r in reloaded.rows) == sorted(after)  # ids survive a reload
    assert 'Priority="High" Due="2026-03-01"' in reloaded.serialize()  # unknown attributes kept


async def test_insert_content_as_text_or_nested_rows(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = files(tmp_path)
    await focus(open_tools, "inbox.opml")
    async with open_tools("outliner") as tools:
        one = await tools.ok("insert_content", content="Just one line", parentId="b")
        assert [r["topic"] for r in one["insertedRows"]] == ["Just one line"]
        assert one["message"] == "Added row 'Just one line' under 'Beta'"
        md = "# Plan\n- [ ] Draft\n  > by Friday\n  - [x] Outline\n- Review\n# Later\n1. Ship"
        r = await tools.ok("insert_content", content=md, position="first")
        assert r["message"] == "Added 6 rows under the top level"
        shown = [(x["topic"], x["level"], x["state"], x["note"]) for x in r["insertedRows"]]
        assert shown == [
            ("Plan", 0, "none", None),
            ("Draft", 1, "checked", "by Friday"),  # its one child is checked
            ("Outline", 2, "checked", None),
            ("Review", 1, "none", None),
            ("Later", 0, "none", None),
            ("Ship", 1, "none", None),
        ]
        nested = [{"topic": "A", "note": "n", "children": [{"topic": "A.1", "children": [{"topic": "A.1.a"}]}]}]
        r = await tools.ok("insert_content", content=nested, parentId="a")
        assert [(x["topic"], x["level"]) for x in r["insertedRows"]] == [("A", 1), ("A.1", 2), ("A.1.a", 3)]
        top = (await tools.ok("get_row_children"))["children"]
        assert [t["topic"] for t in top] == ["Plan", "Later", "Alpha", "Beta"]
        assert (await tools.fail("insert_content", content=""))["error"] == "invalid_argument"
        assert (await tools.fail("insert_content", content=[{"note": "no topic"}]))["error"] == "invalid_argument"
    assert '<outline id="a" text=\'Alpha\' color="red">' in (root / "inbox.opml").read_text(encoding="utf-8")


async def test_errors_in_the_spec_s_shapes_change_nothing(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = files(tmp_path)
    async with open_tools("outliner") as tools:
        assert (await tools.fail("add_row", topic="x"))["error"] == "no_document"
    await focus(open_tools, "inbox.opml")
    async with open_tools("outliner") as tools:
        for tool, args, bad in [
            ("add_row", {"topic": "x", "parentId": "nope"}, "nope"),
            ("add_row", {"topic": "x", "siblingId": "zz", "relativePosition": "before"}, "zz"),
            ("update_row", {"rowId": "nope", "topic": "x"}, "nope"),
            ("move_row", {"rowId": "nope"}, "nope"),
            ("move_row", {"rowId": "a", "newParentId": "nope"}, "nope"),
            ("delete_row", {"rowId": "nope", "confirmed": True}, "nope"),
            ("insert_content", {"content": "x", "parentId": "nope"}, "nope"),
        ]:
            error = await tools.fail(tool, **args)
            assert error["error"] == "row_not_found" and error["row"] == bad, (tool, error)
        for tool, args in [
            ("delete_row", {"rowId": "a"}),  # confirmed is required
            ("update_row", {"rowId": "a"}),  # nothing to change
            ("update_row", {"rowId": "a", "state": "mixed"}),
            ("add_row", {"topic": "bell \x07"}),  # XML cannot hold it
            ("add_row", {"topic": "x", "position": "middle"}),
            ("move_row", {"rowId": "a", "newParentId": "a"}),
            ("move_row", {"rowId": "a", "newParentId": "a1"}),
        ]:
            assert (await tools.fail(tool, **args))["error"] == "invalid_argument", (tool, args)
    assert (root / "inbox.opml").read_text(encoding="utf-8") == WITH_IDS


async def test_changes_that_change_nothing_leave_the_file_byte_identical(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = files(tmp_path)
    await focus(open_tools, "inbox.opml")
    async with open_tools("outliner") as tools:
        same = await tools.ok("move_row", rowId="b", position="last")
        assert same["movedRow"]["id"] == "b"
        await tools.ok("update_row", rowId="a1", topic="Alpha one")
        await tools.ok("move_row", rowId="a1", newParentId="a")
    assert (root / "inbox.opml").read_text(encoding="utf-8") == WITH_IDS


async def test_a_change_that_changes_no_row_writes_nothing_and_suggests_nothing(
    ops_client: Any, tmp_path: Path
) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = files(tmp_path)  # plan.opml stores no ids: a change would store them
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        same = await tools.ok("update_row", rowId="row-1", topic="Write release notes")
        assert same["suggestionIds"] == [] and same["applied"] is False and same["message"].startswith("Nothing")
        stay = await tools.ok("move_row", rowId="row-2", newParentId="row-0")
        assert stay["suggestionIds"] == [] and stay["movedRow"]["parentId"] == "row-0"
    assert services.reviews.pending("plan.opml") == []
    assert (root / "plan.opml").read_text(encoding="utf-8") == OMNI


async def test_write_tools_on_a_markdown_outline(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    note = "# Plan\n\n- [ ] Draft\n- [x] Review\n\n# Later\n\n- Ship\n"
    write(tmp_path / "root", "plan.md", note)
    await focus(open_tools, "plan.md")
    async with open_tools("outliner") as tools:
        top = (await tools.ok("get_row_children"))["children"]
        plan, later = top[0]["id"], top[1]["id"]
        added = await tools.ok("add_row", topic="Test", parentId=plan)
        assert added["applied"] is True and added["newRow"]["topic"] == "Test"
        assert added["message"] == "Added row 'Test' under 'Plan'"
        draft = (await tools.ok("get_row_children", rowId=plan))["children"][0]["id"]
        checked = await tools.ok("update_row", rowId=draft, state="checked")
        assert checked["updatedRow"]["state"] == "checked"
        moved = await tools.ok("move_row", rowId=added["newRow"]["id"], newParentId=later, position="first")
        assert moved["movedRow"]["parentId"] == later
        preview = await tools.ok("delete_row", rowId=later, confirmed=False)
        assert [r["topic"] for r in preview["affectedRows"]] == ["Later", "Test", "Ship"]
    text = (tmp_path / "root" / "plan.md").read_text(encoding="utf-8")
    assert text == "# Plan\n\n- [x] Draft\n- [x] Review\n\n# Later\n\n- [ ] Test\n- Ship\n"  # its box moves with it
