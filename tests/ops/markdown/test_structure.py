"""document.structure: outline, blocks with node ids, digest — through an in-process MCP client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of

DOC = """\
---
tags: [a]
---

# Guide

Intro with 中文字.

## Install

```bash
# not a heading
pip install x
```

- [ ] step one
- [x] step two

## Use

1. first
2. second

> quoted

$$
e = mc^2
$$

| k | v |
|---|---|
| a | 1 |

---

<div>html</div>

### Deep

Deep text.
"""


@pytest.fixture
def lab(ops_client: Any) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    (root / "guide.md").write_text(DOC)
    (root / "data.csv").write_text("a,b\n1,2\n")
    return services, open_tools, root


async def test_outline(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md")
    assert r["revision"] == revision_of(DOC)
    assert r["filePath"] == "guide.md"
    assert r["blocks"] is None and r["digest"] is None
    outline = [(s["nodeId"], s["level"], s["title"], s["lineStart"], s["lineEnd"]) for s in r["sections"]]
    assert outline == [
        ("preamble", 0, "", 1, 4),
        ("h-0", 1, "Guide", 5, 40),
        ("h-1", 2, "Install", 9, 18),  # up to the next heading: the blank line is the section's
        ("h-2", 2, "Use", 19, 40),
        ("h-3", 3, "Deep", 38, 40),
    ]
    for s in r["sections"]:
        assert DOC[s["start"] : s["end"]].splitlines()[0] == DOC.splitlines()[s["lineStart"] - 1]


async def test_blocks_with_node_ids(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md", view="blocks")
    blocks = {b["nodeId"]: b for b in r["blocks"]}
    assert list(blocks) == [
        "fm-0",
        "h-0",
        "p-0",
        "h-1",
        "code-0",
        "list-0",
        "h-2",
        "list-1",
        "bq-0",
        "math-0",
        "table-0",
        "hr-0",
        "html-0",
        "h-3",
        "p-1",
    ]
    assert blocks["code-0"]["language"] == "bash"
    assert (blocks["code-0"]["lineStart"], blocks["code-0"]["lineEnd"]) == (11, 14)
    assert (blocks["list-0"]["task"], blocks["list-0"]["ordered"]) == (True, False)
    assert (blocks["list-1"]["task"], blocks["list-1"]["ordered"]) == (False, True)
    assert (blocks["h-3"]["level"], blocks["h-3"]["title"]) == (3, "Deep")
    for b in r["blocks"]:
        assert b["preview"] == DOC[b["start"] : min(b["end"], b["start"] + 80)]
    assert blocks["table-0"]["preview"].startswith("| k | v |")


async def test_blocks_of_one_type(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md", view="blocks", type="list")
        none = await tools.ok("document", "structure", path="guide.md", view="blocks", type="footnote")
    assert [b["nodeId"] for b in r["blocks"]] == ["list-0", "list-1"]
    assert none["blocks"] == []


async def test_digest_and_all(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        d = (await tools.ok("document", "structure", path="guide.md", view="digest"))["digest"]
        everything = await tools.ok("document", "structure", path="guide.md", view="all")
    assert d["title"] == "Guide"
    assert d["lines"] == 40
    assert d["characters"] == len(DOC)
    assert d["headingCount"] == 4
    assert d["paragraphCount"] == 2
    assert d["frontMatter"] is True
    assert d["blockCounts"] == {
        "front_matter": 1,
        "heading": 4,
        "paragraph": 2,
        "code": 1,
        "list": 2,
        "blockquote": 1,
        "math": 1,
        "table": 1,
        "hr": 1,
        "html": 1,
    }
    assert d["wordCount"] > 20
    assert everything["sections"] and everything["blocks"] and everything["digest"] == d


async def test_cjk_characters_count_as_words(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "zh.md").write_text("中文字\n")
    (root / "en.md").write_text("three plain words\n")
    async with open_tools() as tools:
        zh = (await tools.ok("document", "structure", path="zh.md", view="digest"))["digest"]
        en = (await tools.ok("document", "structure", path="en.md", view="digest"))["digest"]
    assert en["wordCount"] == 3
    assert zh["wordCount"] >= 3
    assert zh["title"] is None and zh["frontMatter"] is False


async def test_structure_of_a_tab_shows_unsaved_edits(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        await tools.ok("workspace", "open", filePath="guide.md")
        await tools.ok("document", "write", content="# Only\n\nnew\n")
        r = await tools.ok("document", "structure", view="blocks")
    assert [b["nodeId"] for b in r["blocks"]] == ["h-0", "p-0"]
    assert r["revision"] == revision_of("# Only\n\nnew\n")
    assert (root / "guide.md").read_text() == DOC


async def test_structure_follows_a_change_on_disk(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        before = await tools.ok("document", "structure", path="guide.md")
        (root / "guide.md").write_text("# Changed\n")
        after = await tools.ok("document", "structure", path="guide.md")
    assert before["revision"] != after["revision"] == revision_of("# Changed\n")
    assert [s["title"] for s in after["sections"]] == ["Changed"]


async def test_structure_errors(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        error = await tools.fail("document", "structure", path="data.csv")
        assert (error["error"], error["kind"]) == ("INVALID_ARGUMENT", "text")
        assert (await tools.fail("document", "structure"))["error"] == "INVALID_TAB"
        assert (await tools.fail("document", "structure", path="nope.md"))["error"] == "NOT_FOUND"
        result = await tools.call("document", "structure", path="guide.md", view="tree")
        assert result.is_error


async def test_empty_and_heading_free_documents(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "empty.md").write_text("")
    (root / "plain.md").write_text("just text\n")
    async with open_tools() as tools:
        empty = await tools.ok("document", "structure", path="empty.md", view="all")
        plain = await tools.ok("document", "structure", path="plain.md", view="all")
    assert (empty["sections"], empty["blocks"]) == ([], [])
    assert empty["digest"]["wordCount"] == 0
    assert [s["nodeId"] for s in plain["sections"]] == ["preamble"]
    assert [b["nodeId"] for b in plain["blocks"]] == ["p-0"]


async def test_footnote_definitions_are_blocks_where_they_stand(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "notes.md").write_text("# Notes\n\nText[^1] more.\n\n[^1]: The note\n    continues here.\n\nAfter.\n")
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="notes.md", view="blocks")
    found = [(b["nodeId"], b["type"], b["lineStart"], b["lineEnd"], b["title"]) for b in r["blocks"]]
    assert found == [
        ("h-0", "heading", 1, 1, "Notes"),
        ("p-0", "paragraph", 3, 3, None),
        ("fn-0", "footnote", 5, 6, "1"),
        ("p-1", "paragraph", 8, 8, None),
    ]


async def test_digest_counts_lists_by_kind_and_words_per_section(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md", view="digest", words=True)
        plain = await tools.ok("document", "structure", path="guide.md", view="digest")
    assert r["digest"]["listCounts"] == {"task": 1, "ordered": 1}
    assert all("wordCount" not in s for s in plain["sections"])  # counted only when asked: it reads every section
    words = {s["nodeId"]: s["wordCount"] for s in r["sections"]}
    assert words["h-3"] == 3 and words["h-0"] > words["h-2"] > words["h-3"]  # Deep Deep text.


async def test_blocks_filter_by_either_type_name_and_longer_previews(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        code = await tools.ok("document", "structure", path="guide.md", view="blocks", type="codeBlock")
        long = await tools.ok("document", "structure", path="guide.md", view="blocks", type="code", preview=500)
        bad = await tools.fail("document", "structure", path="guide.md", view="blocks", preview=5000)
    assert [b["nodeId"] for b in code["blocks"]] == ["code-0"]
    assert long["blocks"][0]["preview"] == "```bash\n# not a heading\npip install x\n```"
    assert code["blocks"][0]["preview"] == long["blocks"][0]["preview"][:80]
    assert (bad["error"], bad["argument"]) == ("INVALID_ARGUMENT", "preview")


async def test_ast_view(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md", view="ast")
    assert r["truncated"] is False and r["sections"] is None and r["blocks"] is None
    top = r["ast"]
    assert [(n["type"], n["nodeId"]) for n in top[:3]] == [
        ("frontmatter", "fm-0"),
        ("heading", "h-0"),
        ("paragraph", "p-0"),
    ]
    assert top[1]["attrs"] == {"level": 1} and top[1]["content"] == "Guide"
    tasks = next(n for n in top if n["nodeId"] == "list-0")
    assert [(i["type"], i["attrs"]["checked"]) for i in tasks["children"]] == [("taskItem", False), ("taskItem", True)]


async def test_section_view(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "structure", path="guide.md", view="section", section="Use")
        missing = await tools.fail("document", "structure", path="guide.md", view="section", section="h-9")
        none = await tools.fail("document", "structure", path="guide.md", view="section")
    sec = r["section"]
    assert (sec["nodeId"], sec["level"], sec["title"]) == ("h-2", 2, "Use")
    assert sec["content"] == DOC[sec["start"] : sec["end"]] and sec["content"].startswith("## Use\n")
    assert sec["content"].endswith("Deep text.\n")  # subsections included
    assert (missing["error"], missing["section"]) == ("NOT_FOUND", "h-9")
    assert (none["error"], none["argument"]) == ("INVALID_ARGUMENT", "section")


async def test_targets_view(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok(
            "document", "structure", path="guide.md", view="targets", targets=["table-0", "Install", "pip", "zzz"]
        )
        none = await tools.fail("document", "structure", path="guide.md", view="targets")
    table, install, pip, zzz = r["targets"]
    assert (table["found"], table["type"], table["resolvedAs"]) == (True, "table", "nodeId")
    assert DOC[table["start"] : table["end"]].startswith("| k | v |")
    assert (install["type"], install["nodeId"], install["resolvedAs"]) == ("section", "h-1", "section")
    assert (pip["type"], pip["nodeId"], pip["resolvedAs"], pip["matchCount"]) == ("code", "code-0", "text", 1)
    assert DOC[pip["start"] : pip["end"]] == "pip"
    assert zzz["found"] is False and zzz["start"] is None
    assert (none["error"], none["argument"]) == ("INVALID_ARGUMENT", "targets")
