"""The lab profile's ``outline`` tool through the official MCP SDK client: reads by row and
row edits as suggestions on their rows (applied at once under the auto policy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.content import content_of
from tests.surfaces.outliner.opml import OMNI, WITH_IDS, write


async def test_read_views(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client()
    write(tmp_path / "root", "plan.opml", OMNI)
    async with open_tools("lab") as lab:
        tree = await lab.ok("outline", "read", path="plan.opml", maxDepth=0)
        assert [r["topic"] for r in tree["rows"]] == ["Launch", "Research", "Ideas & notes"]
        assert tree["rowCount"] == 11 and tree["revision"].startswith("rev-")
        sub = await lab.ok("outline", "read", path="plan.opml", row="row-3")
        assert [r["id"] for r in sub["rows"]] == ["row-3", "row-4", "row-5", "row-6", "row-7"]
        hit = await lab.ok("outline", "read", path="plan.opml", view="search", query="東京")
        assert hit["matches"][0]["row"]["id"] == "row-5" and hit["totalMatches"] == 1
        md = await lab.ok("outline", "read", path="plan.opml", view="section", row="row-3", format="markdown")
        assert md["text"].startswith("# Research\n\n- [x] Interview users")
        missing = await lab.fail("outline", "read", path="plan.opml", view="row", row="nope")
        assert missing["error"] == "NOT_FOUND" and missing["row"] == "nope"


async def test_edits_are_suggestions_on_rows_under_suggest(ops_client: Any, tmp_path: Path) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = tmp_path / "root"
    write(root, "inbox.opml", WITH_IDS)
    async with open_tools("lab") as lab:
        added = await lab.ok("outline", "edit", path="inbox.opml", op="add", topic="Gamma", parent="a")
        assert added["mode"] == "suggest" and added["applied"] is False and len(added["suggestionIds"]) == 1
        new_id = added["rowId"]
        assert added["rows"][0] == {
            "id": new_id,
            "topic": "Gamma",
            "note": None,
            "level": 1,
            "state": "none",
            "hasChildren": False,
            "parentId": "a",
            "childIds": [],
        }
        checked = await lab.ok("outline", "edit", path="inbox.opml", op="check", row="b")
        moved = await lab.ok("outline", "edit", path="inbox.opml", op="move", row="b", sibling="a", relative="before")
        preview = await lab.ok("outline", "edit", path="inbox.opml", op="delete", row="a", mode="dryRun")
        assert preview["mode"] == "dryRun" and [r["id"] for r in preview["rows"]] == ["a", "a1"]
        assert preview["message"] == "Deleted 'Alpha' and 1 child rows" and '-<outline id="a"' in preview["diff"]
        assert (root / "inbox.opml").read_text(encoding="utf-8") == WITH_IDS
        listed = await lab.ok("review", "list", path="inbox.opml")
        assert {s["part"] for s in listed["suggestions"]} == {new_id, "b"}
        ids = added["suggestionIds"] + checked["suggestionIds"] + moved["suggestionIds"]
    result = await services.reviews.accept_all(by="person", ids=ids)
    assert len(result.accepted) == 3 and not result.conflicts
    rows = content_of("outline", (root / "inbox.opml").read_text(encoding="utf-8")).rows
    assert [(r.id, r.text, r.parent, r.status) for r in rows] == [
        ("b", "Beta", None, "checked"),
        ("a", "Alpha", None, "none"),
        ("a1", "Alpha one", "a", "none"),
        (new_id, "Gamma", "a", "none"),
    ]


async def test_edits_apply_at_once_under_auto(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = tmp_path / "root"
    write(root, "inbox.opml", WITH_IDS)
    async with open_tools("lab") as lab:
        r = await lab.ok("outline", "edit", path="inbox.opml", op="insert", content="- one\n  - two", parent="b")
        assert r["applied"] is True and r["checkpointId"] and [x["level"] for x in r["rows"]] == [1, 2]
        r = await lab.ok("outline", "edit", path="inbox.opml", op="update", row="a1", note="n", state="unchecked")
        assert r["rows"][0]["note"] == "n" and r["message"] == "Updated row 'Alpha one': changed note and state"
        bad = await lab.fail("outline", "edit", path="inbox.opml", op="move", row="a", parent="a1")
        assert bad["error"] == "INVALID_ARGUMENT"
        assert (await lab.fail("outline", "edit", path="inbox.opml", op="update", row="a"))["argument"] == "topic"
    text = (root / "inbox.opml").read_text(encoding="utf-8")
    assert '<outline id="a1" text="Alpha one" x-custom="1" _note="n" _status="unchecked"/>' in text


NOTE = "# Plan\n\nIntro text.\n\n- [ ] Draft\n- [x] Review\n\n# Later\n\n- Ship\n"


async def test_a_markdown_outline_is_edited_by_row_as_markdown(ops_client: Any, tmp_path: Path) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = tmp_path / "root"
    write(root, "plan.md", NOTE)
    async with open_tools("lab") as lab:
        rows = (await lab.ok("outline", "read", path="plan.md"))["rows"]
        by_topic = {r["topic"]: r["id"] for r in rows}
        added = await lab.ok("outline", "edit", path="plan.md", op="add", topic="Test", parent=by_topic["Plan"])
        assert added["mode"] == "suggest" and added["rows"][0]["topic"] == "Test"
        assert added["rows"][0]["parentId"] == by_topic["Plan"]
        [s] = services.reviews.pending("plan.md")
        assert s.part is None and "Test" in s.new  # a markdown splice: an ordinary text suggestion
        checked = await lab.ok("outline", "edit", path="plan.md", op="check", row=by_topic["Draft"], mode="dryRun")
        assert "- [x] Draft" in checked["diff"]
    assert (root / "plan.md").read_text(encoding="utf-8") == NOTE
    await services.reviews.accept(s.id, by="person")
    text = (root / "plan.md").read_text(encoding="utf-8")
    assert text.replace("- [ ] Test\n", "") == NOTE  # in its siblings' form
