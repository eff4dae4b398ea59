"""document.search (ops/document/search.py) through the lab profile's document tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.document.search import MAX_MATCHES

DOC = "# Alpha\n\nalpha beta ALPHA.\n\nNo match here.\n"


@pytest.fixture
def lab(ops_client: Any) -> tuple[Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    return open_tools, root


async def test_search_by_path(lab: Any) -> None:
    open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "search", path="doc.md", query="alpha")
        exact = await tools.ok("document", "search", path="doc.md", query="alpha", caseSensitive=True)
    assert [(m["start"], m["end"], m["line"], m["column"], m["text"]) for m in r["matches"]] == [
        (2, 7, 1, 3, "Alpha"),
        (9, 14, 3, 1, "alpha"),
        (20, 25, 3, 12, "ALPHA"),
    ]
    assert r["matches"][1]["context"] == "alpha beta ALPHA."
    assert (r["count"], r["truncated"], r["revision"], r["filePath"]) == (3, False, revision_of(DOC), "doc.md")
    assert [m["start"] for m in exact["matches"]] == [9]


async def test_search_with_a_regular_expression(lab: Any) -> None:
    open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "search", path="doc.md", query=r"^\w+ beta", regex=True)
        literal = await tools.ok("document", "search", path="doc.md", query=r"^\w+ beta")
        bad = await tools.fail("document", "search", path="doc.md", query="(open", regex=True)
    assert [(m["text"], m["line"]) for m in r["matches"]] == [("alpha beta", 3)]
    assert literal["count"] == 0
    assert (bad["error"], bad["argument"]) == ("INVALID_ARGUMENT", "query")


async def test_search_a_tab_and_any_kind(lab: Any) -> None:
    open_tools, root = lab
    (root / "conf.txt").write_text("key: x\n")
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "open", filePath="doc.md"))["tabId"]
        await tools.ok("document", "write", tabId=tab, content="Unsaved alpha.\n")
        in_tab = await tools.ok("document", "search", tabId=tab, query="ALPHA")
        text = await tools.ok("document", "search", path="conf.txt", query="KEY")
        empty = await tools.fail("document", "search", path="doc.md", query="")
    assert [m["start"] for m in in_tab["matches"]] == [8]
    assert text["count"] == 1
    assert (empty["error"], empty["argument"]) == ("INVALID_ARGUMENT", "query")


async def test_many_matches_are_capped(lab: Any) -> None:
    open_tools, root = lab
    (root / "many.md").write_text("ab " * (MAX_MATCHES + 50))
    async with open_tools() as tools:
        r = await tools.ok("document", "search", path="many.md", query="ab")
    assert (r["count"], len(r["matches"]), r["truncated"]) == (MAX_MATCHES + 50, MAX_MATCHES, True)
