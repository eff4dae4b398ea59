"""The outliner profile's read tools on a markdown document (its headings and list items as
rows), through a real Jupyter server's endpoint and the official MCP SDK client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LabServer, Tools

PLAN_MD = """---
title: Project plan
---
# Launch

Ship the first version
to the pilot users.

- [x] Write release notes
- [x] Tag v1.0

# Research

- [x] Interview users

  five so far
- [ ] Résumé des entretiens — 東京
  - [x] Draft
  - [ ] Review

# Ideas & notes

- Dark mode
- Offline sync

  needs a design
"""


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "outliner"]


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    return {"approval": "suggest"}  # the default policy: every change a suggestion


async def test_a_markdown_document_reads_as_an_outline(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "plan.md").write_text(PLAN_MD, encoding="utf-8")
    async with mcp_client("outliner", mode="auto", client_name="md-agent") as client:
        tools = Tools(client)
        async with mcp_client("lab", mode="auto", client_name="md-agent") as lab:
            await Tools(lab).ok("workspace", "open", filePath="plan.md")
        doc = (await tools.ok("get_current_document"))["document"]
        assert doc == {
            "name": "plan.md",
            "path": "plan.md",
            "isFrontmost": True,
            "canUndo": False,
            "canRedo": False,
            "rowCount": 11,
        }
        status = await tools.ok("check_connection")
        assert status["documentOpen"] is True and status["documentName"] == "plan.md"

        structure = await tools.ok("get_outline_structure")
        assert structure["document"] == {"name": "plan.md", "rowCount": 11}
        rows = structure["rows"]
        by = {r["topic"]: r for r in rows}
        assert [r["topic"] for r in rows] == [
            "Launch",
            "Write release notes",
            "Tag v1.0",
            "Research",
            "Interview users",
            "Résumé des entretiens — 東京",
            "Draft",
            "Review",
            "Ideas & notes",
            "Dark mode",
            "Offline sync",
        ]
        launch = by["Launch"]
        assert launch == {
            "id": launch["id"],
            "topic": "Launch",
            "note": "Ship the first version\nto the pilot users.",
            "level": 0,
            "state": "none",
            "hasChildren": True,
            "parentId": None,
            "childIds": [by["Write release notes"]["id"], by["Tag v1.0"]["id"]],
        }
        assert launch["id"].startswith("md-")
        tokyo = by["Résumé des entretiens — 東京"]
        assert tokyo["state"] == "mixed" and tokyo["level"] == 1 and tokyo["parentId"] == by["Research"]["id"]
        assert by["Draft"]["level"] == 2 and by["Draft"]["state"] == "checked"
        assert by["Interview users"]["note"] == "five so far" and by["Dark mode"]["note"] is None
        top = await tools.ok("get_outline_structure", maxDepth=0, includeNotes=False)
        assert [r["topic"] for r in top["rows"]] == ["Launch", "Research", "Ideas & notes"]
        assert all(r.get("note") is None for r in top["rows"])

        row = await tools.ok("get_row", rowId=tokyo["id"], includeChildren=True)
        assert row["row"] == tokyo and [c["topic"] for c in row["children"]] == ["Draft", "Review"]
        kids = await tools.ok("get_row_children", rowId=by["Ideas & notes"]["id"])
        assert [c["topic"] for c in kids["children"]] == ["Dark mode", "Offline sync"]
        assert [c["topic"] for c in (await tools.ok("get_row_children"))["children"]] == [
            "Launch",
            "Research",
            "Ideas & notes",
        ]

        hit = await tools.ok("search_outline", query="東京")
        assert hit["totalMatches"] == 1 and hit["results"][0]["matchField"] == "topic"
        note_hit = await tools.ok("search_outline", query="DESIGN", searchIn="notes")
        assert note_hit["results"][0]["row"]["topic"] == "Offline sync"
        assert (await tools.ok("search_outline", query="DESIGN", caseSensitive=True))["totalMatches"] == 0

        md = await tools.ok("get_section_content", rowId=by["Research"]["id"], format="markdown")
        assert md["markdown"] == (
            "# Research\n\n- [x] Interview users\n  > five so far\n"
            "- [-] Résumé des entretiens — 東京\n  - [x] Draft\n  - [ ] Review\n"
        )
        plain = await tools.ok("get_section_content", rowId=by["Ideas & notes"]["id"], format="plain")
        assert plain["text"] == "Ideas & notes\n  Dark mode\n  Offline sync\n    needs a design"
        missing = await tools.fail("get_row", rowId="md-00000000")
        assert missing["error"] == "row_not_found" and missing["row"] == "md-00000000"

        # an edit elsewhere (text above, a row added in another section): the ids stay
        edited = PLAN_MD.replace("# Launch\n", "Intro, added later.\n\n# Launch\n").replace(
            "- Offline sync", "- Sync engine\n- Offline sync"
        )
        (root / "plan.md").write_text(edited, encoding="utf-8")
        again = {r["topic"]: r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]}
        assert again.pop("Sync engine") and again == {r["topic"]: r["id"] for r in rows}
    assert (root / "plan.md").read_text(encoding="utf-8") == edited  # reads change nothing


async def test_a_markdown_tab_in_front_is_the_current_document(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client()
    root = tmp_path / "root"
    root.mkdir(parents=True, exist_ok=True)
    (root / "todo.md").write_text("Nothing but text.\n", encoding="utf-8")
    async with open_tools("lab") as lab:
        await lab.ok("workspace", "open", filePath="todo.md")
    async with open_tools("outliner") as tools:
        doc = (await tools.ok("get_current_document"))["document"]
        assert doc["name"] == "todo.md" and doc["rowCount"] == 0  # a document with no rows is still one
        assert (await tools.ok("get_outline_structure"))["rows"] == []
        assert (await tools.ok("search_outline", query="text"))["totalMatches"] == 0


async def test_write_tools_on_markdown_stage_text_suggestions(mcp_lab: LabServer, mcp_client: Any) -> None:
    # Under the default policy an outline change on a markdown file is an ordinary markdown
    # suggestion: a text splice, shown as a text diff, accepted like any other.
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "plan.md").write_text(PLAN_MD, encoding="utf-8")
    reviews = mcp_lab.extension.services.reviews
    async with mcp_client("outliner", mode="auto", client_name="md-writer") as client:
        tools = Tools(client)
        async with mcp_client("lab", mode="auto", client_name="md-writer") as lab:
            await Tools(lab).ok("workspace", "open", filePath="plan.md")
        by = {r["topic"]: r for r in (await tools.ok("get_outline_structure"))["rows"]}
        added = await tools.ok("add_row", topic="Write the FAQ — 東京", parentId=by["Launch"]["id"])
        assert added["success"] is True and added["applied"] is False
        assert added["newRow"]["topic"] == "Write the FAQ — 東京" and added["newRow"]["state"] == "unchecked"
        assert added["newRow"]["parentId"] == by["Launch"]["id"]
        assert (root / "plan.md").read_text(encoding="utf-8") == PLAN_MD  # nothing changed yet
        [s] = reviews.pending("plan.md")
        assert s.part is None and s.kind == "insert" and s.new == "- [ ] Write the FAQ — 東京\n"
        accepted = await reviews.accept(s.id, by="person")
        assert accepted.status == "accepted"
        text = (root / "plan.md").read_text(encoding="utf-8")
        assert text == PLAN_MD.replace("- [x] Tag v1.0\n", "- [x] Tag v1.0\n- [ ] Write the FAQ — 東京\n")
        after = {r["topic"]: r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]}
        assert after.pop("Write the FAQ — 東京") == added["newRow"]["id"]
        assert after == {topic: r["id"] for topic, r in by.items()}  # every other id as it was
        gone = await tools.ok("delete_row", rowId=by["Ideas & notes"]["id"], confirmed=True)
        assert gone["applied"] is False and gone["deletedCount"] == 3
        [s] = reviews.pending("plan.md")
        assert s.kind == "delete" and s.original.startswith("\n# Ideas & notes\n\n- Dark mode")
        assert (root / "plan.md").read_text(encoding="utf-8") == text


async def test_write_tools_on_markdown_applied(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = tmp_path / "root"
    root.mkdir(parents=True, exist_ok=True)
    (root / "plan.md").write_text(PLAN_MD, encoding="utf-8")
    async with open_tools("lab") as lab:
        await lab.ok("workspace", "open", filePath="plan.md")
    async with open_tools("outliner") as tools:
        by = {r["topic"]: r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]}
        checked = await tools.ok("update_row", rowId=by["Review"], state="checked", note="done on Monday")
        assert checked["applied"] is True and checked["updatedRow"]["state"] == "checked"
        tokyo = (await tools.ok("get_row", rowId=by["Résumé des entretiens — 東京"]))["row"]
        assert tokyo["state"] == "checked"  # its items are all checked now
        moved = await tools.ok("move_row", rowId=by["Dark mode"], newParentId=by["Launch"], position="first")
        assert moved["movedRow"]["parentId"] == by["Launch"] and moved["movedRow"]["id"] != by["Dark mode"]
        renamed = await tools.ok("update_row", rowId=by["Research"], topic="Recherche")
        assert renamed["updatedRow"]["topic"] == "Recherche"
        inserted = await tools.ok(
            "insert_content",
            parentId=by["Launch"],
            content=[{"topic": "Rollout", "note": "in two waves", "children": [{"topic": "Wave 1"}]}],
        )
        assert [r["topic"] for r in inserted["insertedRows"]] == ["Rollout", "Wave 1"]
        preview = await tools.ok("delete_row", rowId=by["Offline sync"], confirmed=False)
        assert preview["requiresConfirmation"] is True
        await tools.ok("delete_row", rowId=by["Offline sync"], confirmed=True)
        bad = await tools.fail("update_row", rowId=by["Launch"], state="checked")
        assert bad["error"] == "invalid_argument" and "heading" in bad["message"]
    assert (root / "plan.md").read_text(encoding="utf-8") == (
        "---\ntitle: Project plan\n---\n# Launch\n\nShip the first version\nto the pilot users.\n\n"
        "- Dark mode\n- [x] Write release notes\n- [x] Tag v1.0\n- [ ] Rollout\n\n  in two waves\n  - Wave 1\n\n"
        "# Recherche\n\n- [x] Interview users\n\n  five so far\n- [ ] Résumé des entretiens — 東京\n"
        "  - [x] Draft\n  - [x] Review\n\n    done on Monday\n\n# Ideas & notes\n"
    )
