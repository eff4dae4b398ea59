"""Ordered lists and topic text in a markdown outline, through a real Jupyter server's
endpoint and the official MCP SDK client: rows moved, added and deleted leave their lists
numbered in sequence (outliner tools and the lab ``outline`` tool), and a topic reads back as
the plain text it was written as, escaped or not in the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LabServer, Tools

STEPS_MD = """# Steps

1. Install
2. Configure
3. Run

# Later

1) Write docs
2) Release
"""


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "outliner"]


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    return {"approval": "auto"}  # applied at once: the file shows each edit


async def test_row_edits_keep_ordered_lists_numbered(mcp_lab: LabServer, mcp_client: Any) -> None:
    path = Path(mcp_lab.serverapp.root_dir) / "steps.md"
    path.write_text(STEPS_MD, encoding="utf-8")
    async with mcp_client("outliner", mode="auto", client_name="lister") as client:
        tools = Tools(client)
        async with mcp_client("lab", mode="auto", client_name="lister") as lab_client:
            lab = Tools(lab_client)
            await lab.ok("workspace", "open", filePath="steps.md")

            async def ids() -> dict[str, str]:
                return {r["topic"]: r["id"] for r in (await tools.ok("get_outline_structure"))["rows"]}

            by = await ids()
            moved = await tools.ok("move_row", rowId=by["Install"], newParentId=by["Later"], position="first")
            assert moved["success"] is True and moved["applied"] is True
            text = path.read_text(encoding="utf-8")
            assert text == (  # the list it left and the list it joined, each with its delimiter
                "# Steps\n\n1. Configure\n2. Run\n\n# Later\n\n1) Install\n2) Write docs\n3) Release\n"
            )
            by = await ids()
            r = await lab.ok(
                "outline", "edit", path="steps.md", op="move", row=by["Run"], sibling=by["Configure"], relative="before"
            )
            assert r["applied"] is True
            assert path.read_text(encoding="utf-8").startswith("# Steps\n\n1. Run\n2. Configure\n\n# Later")
            by = await ids()
            await tools.ok("add_row", topic="Check", parentId=by["Steps"], position="first")
            await tools.ok("delete_row", rowId=by["Write docs"], confirmed=True)
            await tools.ok("insert_content", parentId=by["Later"], content=[{"topic": "Announce"}])
            assert path.read_text(encoding="utf-8") == (
                "# Steps\n\n1. Check\n2. Run\n3. Configure\n\n# Later\n\n1) Install\n2) Release\n3) Announce\n"
            )
            rows = (await tools.ok("get_outline_structure"))["rows"]
            topics = ["Steps", "Check", "Run", "Configure", "Later", "Install", "Release", "Announce"]
            assert [r["topic"] for r in rows] == topics


MARKUP_MD = """# The **plan** for `v2` &amp; more

- [ ] Read [the spec](https://x.org/spec)
- a\\*b and \\[x] stay text
"""


async def test_topics_read_as_plain_text(mcp_lab: LabServer, mcp_client: Any) -> None:
    path = Path(mcp_lab.serverapp.root_dir) / "marked.md"
    path.write_text(MARKUP_MD, encoding="utf-8")
    async with mcp_client("outliner", mode="auto", client_name="reader") as client:
        tools = Tools(client)
        async with mcp_client("lab", mode="auto", client_name="reader") as lab_client:
            lab = Tools(lab_client)
            await lab.ok("workspace", "open", filePath="marked.md")
            rows = (await tools.ok("get_outline_structure"))["rows"]
            assert [r["topic"] for r in rows] == ["The plan for v2 & more", "Read the spec", "a*b and [x] stay text"]
            for r in rows:  # get_row, search and the lab tool read the same text; writing it back changes nothing
                assert (await tools.ok("get_row", rowId=r["id"]))["row"]["topic"] == r["topic"]
                found = await tools.ok("search_outline", query=r["topic"], searchIn="topics")
                assert [m["row"]["id"] for m in found["results"]] == [r["id"]]
                tree = await lab.ok("outline", "read", path="marked.md", row=r["id"])
                assert tree["rows"][0]["topic"] == r["topic"]
                await tools.ok("update_row", rowId=r["id"], topic=r["topic"])
            assert path.read_text(encoding="utf-8") == MARKUP_MD
            md = await tools.ok("get_section_content", rowId=rows[0]["id"], format="markdown")
            assert md["markdown"] == (  # the plain topics as markdown that renders as them
                "# The plan for v2 & more\n\n- [ ] Read the spec\n- a*b and [x] stay text\n"
            )
            for topic in ("a*b", "[x]", "snake_case_name", "**not bold**", "# h", "back\\slash", "<b>", "`tick`"):
                added = await tools.ok("add_row", topic=topic, parentId=rows[0]["id"])
                assert added["newRow"]["topic"] == topic
                row = (await tools.ok("get_row", rowId=added["newRow"]["id"]))["row"]
                assert row["topic"] == topic
                await tools.ok("update_row", rowId=row["id"], topic=row["topic"])
            text = path.read_text(encoding="utf-8")
            assert text.endswith(
                "- a\\*b and \\[x] stay text\n- a*b\n- \\[x]\n- snake_case_name\n"
                "- \\*\\*not bold\\*\\*\n- \\# h\n- back\\slash\n- \\<b\\>\n- \\`tick\\`\n"
            )
