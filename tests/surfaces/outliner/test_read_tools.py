"""The outliner profile's read tools (spec/omnioutliner-mcp-tools.md) through the official MCP
SDK client, in process, on real OPML files: names, arguments, return fields, error codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .opml import OMNI, WITH_IDS, big, write

READ_TOOLS = [
    "get_current_document",
    "get_outline_structure",
    "get_row",
    "search_outline",
    "get_row_children",
    "get_section_content",
    "check_connection",
]


@pytest.fixture
def outliner(ops_client: Any, tmp_path: Path) -> tuple[Any, Path]:
    _, open_tools = ops_client()
    root = tmp_path / "root"
    write(root, "plan.opml", OMNI)
    write(root, "inbox.opml", WITH_IDS)
    write(root, "notes.txt", "Notes\n")
    return open_tools, root


async def focus(open_tools: Any, path: str) -> None:
    """Open ``path`` in a tab as this client (the session the outliner tools then act on)."""
    async with open_tools("lab") as lab:
        await lab.ok("workspace", "open", filePath=path)


async def test_the_listed_tools_and_their_arguments(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    async with open_tools("outliner") as tools:
        assert tools.client.server_info.name == "omnioutliner-mcp"
        listing = {t.name: t for t in (await tools.client.list_tools()).tools if t.name in READ_TOOLS}
    assert list(listing) == READ_TOOLS  # in the spec's order (the write tools: test_write_tools)
    props = {n: set(t.input_schema.get("properties", {})) for n, t in listing.items()}
    assert props["get_outline_structure"] == {"maxDepth", "includeNotes"}
    assert props["get_row"] == {"rowId", "includeChildren"}
    assert listing["get_row"].input_schema["required"] == ["rowId"]
    assert props["search_outline"] == {"query", "searchIn", "caseSensitive", "maxResults"}
    assert props["get_row_children"] == {"rowId"}
    assert props["get_section_content"] == {"rowId", "format", "start"}
    assert props["get_current_document"] == props["check_connection"] == set()
    assert all(t.annotations and t.annotations.read_only_hint for t in listing.values())


async def test_no_document_until_an_outline_is_focused(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    async with open_tools("outliner") as tools:
        status = await tools.ok("check_connection")
        assert status["connected"] and status["appRunning"] and not status["documentOpen"]
        assert status["documentName"] is None and status["message"]
        for tool, args in [("get_current_document", {}), ("get_outline_structure", {}), ("get_row", {"rowId": "a"})]:
            error = await tools.fail(tool, **args)
            assert error["error"] == "no_document" and "open" in error["message"]
    await focus(open_tools, "notes.txt")  # a text file is no outline (a markdown one is: test_markdown)
    async with open_tools("outliner") as tools:
        assert (await tools.fail("get_current_document"))["error"] == "no_document"
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        doc = (await tools.ok("get_current_document"))["document"]
        assert doc == {
            "name": "plan.opml",
            "path": "plan.opml",
            "isFrontmost": True,
            "canUndo": False,
            "canRedo": False,
            "rowCount": 11,
        }
        status = await tools.ok("check_connection")
        assert status["documentOpen"] and status["documentName"] == "plan.opml"
    async with open_tools("outliner", name="another-agent") as other:  # focus is per session
        assert (await other.fail("get_outline_structure"))["error"] == "no_document"


async def test_structure_rows_states_and_depth(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        r = await tools.ok("get_outline_structure")
        assert r["document"] == {"name": "plan.opml", "rowCount": 11}
        rows = {row["topic"]: row for row in r["rows"]}
        assert [row["topic"] for row in r["rows"]][:3] == ["Launch", "Write release notes", "Tag v1.0"]
        launch = rows["Launch"]
        assert launch == {
            "id": "row-0",
            "topic": "Launch",
            "note": "Ship the first version\nto the pilot users.",
            "level": 0,
            "state": "checked",
            "hasChildren": True,
            "parentId": None,
            "childIds": ["row-1", "row-2"],
        }
        # mixed is derived from the children; a row without a checkbox is none
        assert rows["Research"]["state"] == "mixed"
        assert rows["Résumé des entretiens — 東京"]["state"] == "mixed"  # its own box says unchecked
        assert rows["Résumé des entretiens — 東京"]["level"] == 1
        assert rows["Draft"]["level"] == 2 and rows["Draft"]["parentId"] == rows["Résumé des entretiens — 東京"]["id"]
        assert rows["Ideas & notes"]["state"] == "none" and rows["Dark mode"]["note"] is None
        top = await tools.ok("get_outline_structure", maxDepth=0, includeNotes=False)
        assert [row["topic"] for row in top["rows"]] == ["Launch", "Research", "Ideas & notes"]
        assert all(row.get("note") is None for row in top["rows"]) and top["document"]["rowCount"] == 11
        two = await tools.ok("get_outline_structure", maxDepth=1)
        assert "Draft" not in [row["topic"] for row in two["rows"]] and len(two["rows"]) == 9
        bad = await tools.fail("get_outline_structure", maxDepth=-1)
        assert bad["error"] == "invalid_argument"


async def test_get_row_and_children(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    await focus(open_tools, "inbox.opml")
    async with open_tools("outliner") as tools:
        r = await tools.ok("get_row", rowId="a")
        assert r["row"]["topic"] == "Alpha" and r["row"]["childIds"] == ["a1"] and r.get("children") is None
        r = await tools.ok("get_row", rowId="a", includeChildren=True)
        assert [c["id"] for c in r["children"]] == ["a1"] and r["children"][0]["parentId"] == "a"
        missing = await tools.fail("get_row", rowId="nope")
        assert missing["error"] == "row_not_found" and missing["row"] == "nope"
        top = await tools.ok("get_row_children")
        assert top["parentId"] is None and [c["id"] for c in top["children"]] == ["a", "b"]
        below = await tools.ok("get_row_children", rowId="a")
        assert below["parentId"] == "a" and [c["topic"] for c in below["children"]] == ["Alpha one"]
        assert (await tools.ok("get_row_children", rowId="b"))["children"] == []
        assert (await tools.fail("get_row_children", rowId="zz"))["error"] == "row_not_found"
        assert (await tools.fail("get_row", rowId="a", extra=1))["error"] == "invalid_argument"


async def test_search(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        r = await tools.ok("search_outline", query="pilot")
        assert r["totalMatches"] == 1 and r["truncated"] is False
        [hit] = r["results"]
        assert hit["matchField"] == "note" and hit["row"]["topic"] == "Launch"
        assert "pilot users" in hit["matchContext"] and "\n" not in hit["matchContext"]
        assert (await tools.ok("search_outline", query="pilot", searchIn="topics"))["totalMatches"] == 0
        assert (await tools.ok("search_outline", query="東京"))["results"][0]["matchField"] == "topic"
        assert (await tools.ok("search_outline", query="DRAFT"))["totalMatches"] == 1
        assert (await tools.ok("search_outline", query="DRAFT", caseSensitive=True))["totalMatches"] == 0
        many = await tools.ok("search_outline", query="e", maxResults=2)
        assert len(many["results"]) == 2 and many["truncated"] is True and many["totalMatches"] > 2
        for bad in ({"query": ""}, {"query": "x", "maxResults": 101}, {"query": "x", "searchIn": "both"}):
            assert (await tools.fail("search_outline", **bad))["error"] == "invalid_argument"


async def test_section_content_in_three_formats(outliner: tuple[Any, Path]) -> None:
    open_tools, _ = outliner
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        research = (await tools.ok("search_outline", query="Research", searchIn="topics"))["results"][0]["row"]["id"]
        plain = await tools.ok("get_section_content", rowId=research, format="plain")
        assert plain["section"] == {"title": "Research", "id": research}
        assert plain["text"] == (
            "Research\n  Interview users\n    five so far\n  Résumé des entretiens — 東京\n    Draft\n    Review"
        )
        md = await tools.ok("get_section_content", rowId=research, format="markdown")
        assert md["markdown"] == (
            "# Research\n\n- [x] Interview users\n  > five so far\n"
            "- [-] Résumé des entretiens — 東京\n  - [x] Draft\n  - [ ] Review\n"
        )
        s = await tools.ok("get_section_content", rowId=research)
        assert s["content"]["totalRows"] == 5 and s.get("nextStart") is None
        [root] = s["content"]["rows"]
        assert root["topic"] == "Research" and root["children"][0]["topic"] == "Interview users"
        assert root["children"][1]["children"][0]["topic"] == "Draft"
        whole = await tools.ok("get_section_content", format="markdown")
        assert whole["section"] == {"title": "plan.opml", "id": None}
        assert whole["markdown"].startswith("# plan.opml\n\n- [x] Launch\n  > Ship the first version\n  > to the pilot")
        assert (await tools.fail("get_section_content", rowId="nope"))["error"] == "row_not_found"


async def test_a_big_section_comes_in_pages(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(max_response_bytes=20_000)
    write(tmp_path / "root", "big.opml", big(2_000))
    await focus(open_tools, "big.opml")
    async with open_tools("outliner") as tools:
        seen: list[str] = []
        start: int | None = 0
        pages = 0
        while start is not None:
            page = await tools.ok("get_section_content", format="plain", start=start)
            seen += page["text"].split("\n")
            start = page.get("nextStart")
            pages += 1
        assert pages > 3
        topics = [line for line in seen if not line.startswith("    ")]
        assert len(topics) == 2_000 and topics[0] == "Section 0" and topics[-1].strip() == "Item 1999"
        # The structure is not paged (the reference's shape): past the budget it says so.
        too_big = await tools.fail("get_outline_structure", maxDepth=0)
        assert too_big["error"] == "response_too_large" and too_big["limit"] == 20_000
        assert len((await tools.ok("get_row_children", rowId="row-10"))["children"]) == 9


async def test_a_repeated_structure_follows_every_change_of_the_file(outliner: tuple[Any, Path]) -> None:
    # The structure's result and its JSON are reused while the file's revision stays: a change
    # of the same size (a topic's digit, a checkbox) must still show on the next call.
    open_tools, root = outliner
    await focus(open_tools, "plan.opml")
    async with open_tools("outliner") as tools:
        first = await tools.ok("get_outline_structure")
        assert await tools.ok("get_outline_structure") == first
        write(root, "plan.opml", OMNI.replace('"Tag v1.0" _status="checked"', '"Tag v1.1" _status="unchecked"'))
        changed = await tools.ok("get_outline_structure")
        rows = {row["topic"]: row for row in changed["rows"]}
        assert "Tag v1.0" not in rows and rows["Tag v1.1"]["state"] == "unchecked"
        assert rows["Launch"]["state"] == "mixed" and changed["document"]["rowCount"] == 11
        top = await tools.ok("get_outline_structure", maxDepth=0)
        assert [row["topic"] for row in top["rows"]] == ["Launch", "Research", "Ideas & notes"]
        assert (await tools.ok("get_outline_structure"))["rows"] == changed["rows"]
        write(root, "plan.opml", OMNI)
        assert await tools.ok("get_outline_structure") == first
