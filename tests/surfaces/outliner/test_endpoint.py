"""The outliner profile at mcp-lab/outliner/mcp of a real Jupyter server (official SDK client)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LabServer, Tools

from .opml import OMNI, write


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "outliner"]


async def test_read_tools_on_the_focused_outline(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "plan.opml", OMNI)
    # The sessionless protocol: one client program of one person is one agent, so the tab it
    # opens through the lab profile is the one its outliner tools act on.
    async with mcp_client("outliner", mode="auto", client_name="outline-agent") as client:
        tools = Tools(client)
        assert client.server_info is not None and client.server_info.name == "omnioutliner-mcp"
        assert (await tools.fail("get_current_document"))["error"] == "no_document"
        assert (await tools.ok("check_connection"))["documentOpen"] is False
        async with mcp_client("lab", mode="auto", client_name="outline-agent") as lab:
            await Tools(lab).ok("workspace", "open", filePath="plan.opml")
        doc = (await tools.ok("get_current_document"))["document"]
        assert doc["name"] == "plan.opml" and doc["rowCount"] == 11 and doc["isFrontmost"] is True
        rows = (await tools.ok("get_outline_structure", maxDepth=0))["rows"]
        assert [(r["topic"], r["state"]) for r in rows] == [
            ("Launch", "checked"),
            ("Research", "mixed"),
            ("Ideas & notes", "none"),
        ]
        hit = (await tools.ok("search_outline", query="東京"))["results"][0]["row"]
        assert hit["level"] == 1 and hit["parentId"] == rows[1]["id"]
        md = await tools.ok("get_section_content", rowId=rows[0]["id"], format="markdown")
        assert md["markdown"] == (
            "# Launch\n\n> Ship the first version\n> to the pilot users.\n\n- [x] Write release notes\n- [x] Tag v1.0\n"
        )
        missing = await tools.fail("get_row", rowId="nope")
        assert missing["error"] == "row_not_found"
    assert (root / "plan.opml").read_text(encoding="utf-8") == OMNI  # reads change nothing


async def test_the_persons_front_outline_in_jupyterlab_is_the_current_document(
    mcp_lab: LabServer, mcp_client: Any
) -> None:
    # An agent that opened nothing: the current document is the outline the person has in
    # front in JupyterLab (the reference reads the outliner's frontmost document).
    from tests.server.test_bridge import eventually, fake_lab

    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "plan.opml", OMNI)
    (root / "notes.txt").write_text("Notes\n", encoding="utf-8")
    async with mcp_client("outliner", client_name="front-agent") as client, fake_lab(mcp_lab) as lab:
        tools = Tools(client)
        assert (await tools.fail("get_current_document"))["error"] == "no_document"
        await lab.presence(["notes.txt"], active="notes.txt")  # a text file in front: no outline

        async def still_none() -> None:
            assert mcp_lab.extension.services.workspace.lab.describe()[0]["active"] == "notes.txt"

        await eventually(still_none)
        assert (await tools.fail("get_current_document"))["error"] == "no_document"
        await lab.presence(["notes.txt", "plan.opml"], active="plan.opml")

        async def front() -> Any:
            r = await client.call_tool("get_current_document", {})
            assert not r.is_error and r.structured_content, r.content
            return r.structured_content

        doc = (await eventually(front))["document"]
        assert doc["name"] == "plan.opml" and doc["rowCount"] == 11
        rows = (await tools.ok("get_outline_structure", maxDepth=0))["rows"]
        assert [r["topic"] for r in rows] == ["Launch", "Research", "Ideas & notes"]


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    return {"approval": "suggest"}  # the default policy: every change a suggestion


async def test_row_changes_are_suggestions_a_person_accepts_over_rest(mcp_lab: LabServer, mcp_client: Any) -> None:
    import httpx

    from tests.server.api.conftest import Api

    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "plan.opml", OMNI)
    async with mcp_client("lab", mode="auto", client_name="outline-writer") as lab:
        await Tools(lab).ok("workspace", "open", filePath="plan.opml")
    async with mcp_client("outliner", mode="auto", client_name="outline-writer") as client:
        tools = Tools(client)
        added = await tools.ok("add_row", topic="Retro — 東京", parentId="row-0", position="first")
        assert added["applied"] is False and added["success"] is True and added["suggestionIds"]
        gone = await tools.ok("delete_row", rowId="row-8", confirmed=True)
        assert gone["applied"] is False and gone["deletedCount"] == 3
    assert (root / "plan.opml").read_text(encoding="utf-8") == OMNI
    async with httpx.AsyncClient(timeout=httpx.Timeout(30)) as http:
        api = Api(mcp_lab, http)
        listed = (await api.ok("GET", "suggestions", path="plan.opml"))["suggestions"]
        by_part = {s["part"]: s for s in listed}
        new = by_part[added["newRow"]["id"]]
        assert new["change"]["op"] == "insert" and new["change"]["after"] is None
        assert new["change"]["fields"]["parent"] == "row-0" and new["new"] == "Retro — 東京"
        assert (
            by_part["row-8"]["change"]["op"] == "delete"
            and by_part["row-8"]["change"]["fields"]["topic"] == "Ideas & notes"
        )
        detail = await api.ok("GET", f"suggestions/{new['id']}")
        assert detail["diff"] and "+Retro — 東京" in detail["diff"]
        result = await api.ok("POST", "suggestions/accept-all", {"ids": [new["id"], by_part["row-8"]["id"]]})
        assert len(result["accepted"]) == 2
    text = (root / "plan.opml").read_text(encoding="utf-8")
    assert "Ideas &amp; notes" not in text and f'<outline id="{added["newRow"]["id"]}" text="Retro — 東京"/>' in text
    assert 'Priority="High" Due="2026-03-01"' in text and "<!-- the research column was dropped -->" in text
