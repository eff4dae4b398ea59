"""The vmark profile's structure, advanced mutation, section and batch tools
(spec/vmark-tools-v1.md) through a real Jupyter server and the Python SDK client.

Reads are checked against the document's text (offsets slice out what they claim); edits
by what the file holds after workspace_save_document. The mutation tools default ``mode``
to ``suggest`` (staged even under the ``auto`` policy); under the ``suggest`` policy an
``apply`` is staged too. baseRevision guards every edit (STALE).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from tests.conftest import LabServer, Tools

from .test_workspace import VMarkSession, envelope, plain_error

SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])

DOC = """\
# Guide

Intro text here.

## Setup

Install the tool.

```python
print("hi")
```

## Usage

| Name | Value |
|------|-------|
| a    | 1     |

- one
- two

### Details

Fine print.
"""


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["vmark"]


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "guide.md").write_text(DOC)
    (root / "data.txt").write_text("plain text\n")
    return root


@pytest.fixture
def vmark(mcp_client: Any, root: Path):
    def open_vmark(**kwargs: Any) -> VMarkSession:
        return VMarkSession(mcp_client("vmark", **kwargs))

    return open_vmark


async def opened(tools: Tools, path: str = "guide.md") -> dict[str, Any]:
    return await tools.ok("workspace_open_document", path=path)


async def saved(tools: Tools, root: Path, path: str = "guide.md") -> str:
    await tools.ok("workspace_save_document")
    return (root / path).read_text()


# --------------------------------------------------------------------------- reading


async def test_digest(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await opened(tools)
        d = await tools.ok("get_document_digest")
    assert d["title"] == "Guide"
    assert (d["headingCount"], d["paragraphCount"]) == (4, 3)
    assert d["wordCount"] == 21
    assert (d["characterCount"], d["revision"], d["filePath"]) == (len(DOC), revision_of(DOC), "guide.md")
    assert d["blockCounts"] == {"heading": 4, "paragraph": 3, "codeBlock": 1, "table": 1, "bulletList": 1}
    assert [(s["nodeId"], s["level"], s["title"]) for s in d["sections"]] == [
        ("h-0", 1, "Guide"),
        ("h-1", 2, "Setup"),
        ("h-2", 2, "Usage"),
        ("h-3", 3, "Details"),
    ]
    usage = d["sections"][2]
    assert DOC[usage["from"] : usage["to"]].startswith("## Usage") and DOC[usage["from"] : usage["to"]].endswith(
        "Fine print.\n"
    )
    assert usage["wordCount"] == 10  # Usage Name Value a 1 one two Details Fine print


async def test_list_blocks_with_ids_types_and_positions(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await opened(tools)
        listed = await tools.ok("list_blocks")
        code = await tools.ok("list_blocks", type="codeBlock")
        also_code = await tools.ok("list_blocks", type="code")
        lists = await tools.ok("list_blocks", type="list")
        none = await tools.ok("list_blocks", type="blockquote")
    assert listed["revision"] == revision_of(DOC) and listed["truncated"] is False
    assert [(b["nodeId"], b["type"]) for b in listed["blocks"]] == [
        ("h-0", "heading"),
        ("p-0", "paragraph"),
        ("h-1", "heading"),
        ("p-1", "paragraph"),
        ("code-0", "codeBlock"),
        ("h-2", "heading"),
        ("table-0", "table"),
        ("list-0", "bulletList"),
        ("h-3", "heading"),
        ("p-2", "paragraph"),
    ]
    for b in listed["blocks"]:
        assert DOC[b["from"] : b["to"]] == b["content"] and b["position"] == b["from"]
    assert listed["blocks"][2]["level"] == 2 and listed["blocks"][0]["level"] == 1
    [block] = code["blocks"]
    assert (block["nodeId"], block["language"], block["content"]) == ("code-0", "python", '```python\nprint("hi")\n```')
    assert also_code["blocks"] == code["blocks"]
    assert [b["nodeId"] for b in lists["blocks"]] == ["list-0"]
    assert (none["blocks"], none["count"]) == ([], 0)


async def test_resolve_targets(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok("resolve_targets", targets=["table-0", "Usage", "## Setup", "Install", "nope", "p-9"])
        assert (await plain_error(tools, "resolve_targets", targets=[])).startswith("targets")
    table, usage, setup, install, nope, p9 = r["results"]
    assert (table["found"], table["type"], table["resolvedAs"]) == (True, "table", "nodeId")
    assert DOC[table["from"] : table["to"]].startswith("| Name")
    assert (usage["type"], usage["nodeId"], usage["resolvedAs"]) == ("section", "h-2", "section")
    assert DOC[usage["from"] : usage["to"]].startswith("## Usage")
    assert setup["nodeId"] == "h-1"
    assert (install["resolvedAs"], install["nodeId"], install["type"], install["matchCount"]) == (
        "text",
        "p-1",
        "paragraph",
        1,
    )
    assert DOC[install["from"] : install["to"]] == "Install"
    assert nope == {
        "target": "nope",
        "found": False,
        "from": None,
        "to": None,
        "type": None,
        "nodeId": None,
        "resolvedAs": None,
        "matchCount": None,
    }
    assert p9["found"] is False
    assert r["revision"] == revision_of(DOC)


async def test_get_section(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await opened(tools)
        usage = await tools.ok("get_section", nodeId="h-2")
        by_title = await tools.ok("get_section", nodeId="Usage")
        details = await tools.ok("get_section", nodeId="h-3", windowId="main")
        missing = await envelope(tools, "get_section", nodeId="h-9")
        paragraph = await envelope(tools, "get_section", nodeId="p-0")
    start = DOC.index("## Usage")
    assert usage == {
        "nodeId": "h-2",
        "level": 2,
        "title": "Usage",
        "content": DOC[start:],
        "from": start,
        "to": len(DOC),
        "lineStart": DOC[:start].count("\n") + 1,
        "lineEnd": DOC.count("\n"),
        "revision": revision_of(DOC),
    }
    assert by_title == usage
    assert details["content"] == "### Details\n\nFine print.\n"
    assert missing["error"] == "NOT_FOUND" and paragraph["error"] == "NOT_FOUND"


async def test_document_ast(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await opened(tools)
        tree = await tools.ok("get_document_ast")
        blocks = (await tools.ok("list_blocks"))["blocks"]
    assert (tree["type"], tree["truncated"], tree["revision"]) == ("doc", False, revision_of(DOC))
    top = tree["children"]
    assert [n["nodeId"] for n in top] == [b["nodeId"] for b in blocks]
    assert [(n["from"], n["to"]) for n in top] == [(b["from"], b["to"]) for b in blocks]
    heading, intro = top[0], top[1]
    assert (heading["type"], heading["content"], heading["attrs"]) == ("heading", "Guide", {"level": 1})
    assert (intro["type"], intro["content"]) == ("paragraph", "Intro text here.")
    code = top[4]
    assert (code["type"], code["content"], code["attrs"]) == ("codeBlock", 'print("hi")\n', {"language": "python"})
    table = top[6]
    assert table["type"] == "table"
    header, row = table["children"]
    assert [c["type"] for c in header["children"]] == ["tableHeader", "tableHeader"]
    assert [(c["content"], DOC[c["from"] : c["to"]]) for c in row["children"]] == [("a", "a"), ("1", "1")]
    items = top[7]["children"]
    assert [i["type"] for i in items] == ["listItem", "listItem"]
    assert [DOC[i["children"][0]["from"] : i["children"][0]["to"]] for i in items] == ["one", "two"]


async def test_a_task_list_and_front_matter_in_the_ast(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    text = "---\ntitle: x\n---\n\n- [ ] todo\n- [x] done\n"
    (root / "tasks.md").write_text(text)
    async with vmark() as tools:
        await opened(tools, "tasks.md")
        fm, tasks = (await tools.ok("get_document_ast"))["children"]
        kinds = [b["type"] for b in (await tools.ok("list_blocks"))["blocks"]]
    assert (fm["type"], fm["nodeId"], fm["content"]) == ("frontmatter", "fm-0", "title: x")
    assert (tasks["type"], tasks["nodeId"]) == ("taskList", "list-0")
    assert [(i["type"], i["attrs"]["checked"]) for i in tasks["children"]] == [("taskItem", False), ("taskItem", True)]
    assert kinds == ["frontmatter", "taskList"]


async def test_structure_tools_need_a_markdown_document(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        assert (await envelope(tools, "list_blocks"))["error"] == "INVALID_TAB"  # nothing open
        await opened(tools, "data.txt")
        for tool in ("get_document_ast", "get_document_digest", "list_blocks", "get_section", "batch_edit"):
            args: dict[str, Any] = {"nodeId": "h-0"} if tool == "get_section" else {}
            if tool == "batch_edit":
                args = {"operations": [{"type": "delete", "nodeId": "p-0"}]}
            assert "needs markdown" in await plain_error(tools, tool, **args), tool


# --------------------------------------------------------------------------- batch_edit


async def test_batch_edit_applies_operations_atomically(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        rev = (await opened(tools))["revision"]
        r = await tools.ok(
            "batch_edit",
            baseRevision=rev,
            mode="apply",
            operations=[
                {"type": "update", "nodeId": "h-1", "text": "Installation"},
                {"type": "update", "nodeId": "p-1", "content": "Install it with pip."},
                {"type": "insert", "after": "p-0", "text": "A new paragraph."},
                {"type": "delete", "nodeId": "list-0"},
                {"type": "format", "nodeId": "p-2", "mark": "bold", "text": "Fine"},
            ],
        )
        assert (r["success"], r["applied"], r["mode"], r["suggestionIds"]) == (True, True, "apply", [])
        assert r["changedNodeIds"] == ["h-1", "p-1", "list-0", "p-2", "p-1"]  # the insert is p-1 now
        assert r["checkpointId"] and r["message"] == "Applied"
        assert r["revision"] == (await tools.ok("get_document_revision"))["revision"]
        text = await saved(tools, root)
    expected = (
        DOC.replace("## Setup", "## Installation")
        .replace("Install the tool.", "Install it with pip.")
        .replace("Intro text here.\n", "Intro text here.\n\nA new paragraph.\n")
        .replace("- one\n- two\n\n", "")
        .replace("Fine print.", "**Fine** print.")
    )
    assert text == expected


async def test_batch_edit_moves_and_formats_whole_nodes(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok(
            "batch_edit",
            mode="apply",
            operations=[{"type": "move", "nodeId": "p-2", "after": "h-0"}, {"type": "format", "nodeId": "h-2"}],
        )
        assert r["changedNodeIds"] == ["p-2", "h-2"]
        text = await saved(tools, root)
    assert text.startswith("# Guide\n\nFine print.\n\nIntro text here.\n")
    assert "## **Usage**\n" in text
    assert text.endswith("### Details\n")
    assert sorted(text.split()) == sorted(DOC.replace("Usage", "**Usage**").split())


async def test_batch_edit_defaults_to_suggest_even_when_edits_are_auto_approved(
    mcp_lab: LabServer, vmark: Any, root: Path
) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok(
            "batch_edit",
            operations=[
                {"type": "update", "nodeId": "p-0", "text": "Changed."},
                {"type": "update", "nodeId": "p-2", "text": "Also changed."},
            ],
        )
        assert (r["applied"], r["mode"], len(r["suggestionIds"]), r["message"]) == (
            False,
            "suggest",
            2,
            "Staged as 2 suggestion(s) for a person's review",
        )
        assert "+Changed." in r["diff"]
        listed = await tools.ok("suggestion_list")
        assert {s["id"] for s in listed["suggestions"]} == set(r["suggestionIds"])
        dry = await tools.ok("batch_edit", mode="dryRun", operations=[{"type": "delete", "nodeId": "code-0"}])
        assert (dry["applied"], dry["mode"], dry["suggestionIds"]) == (False, "dryRun", [])
        assert dry["revision"] != revision_of(DOC) and '-print("hi")' in dry["diff"]
        assert (await tools.ok("get_document_revision"))["revision"] == revision_of(DOC)
    assert (root / "guide.md").read_text() == DOC


@SUGGEST
async def test_the_servers_policy_wins_over_apply(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        for tool, args in (
            ("batch_edit", {"operations": [{"type": "delete", "nodeId": "p-0"}]}),
            ("apply_diff", {"original": "Intro", "replacement": "Preface"}),
            ("replace_text_anchored", {"anchor": {"text": "tool"}, "replacement": "app"}),
            ("update_section", {"nodeId": "h-3", "content": "Small print."}),
            ("insert_section", {"after": "h-3", "level": 2, "title": "FAQ"}),
            ("move_section", {"nodeId": "h-1", "after": "h-2"}),
            ("table_modify", {"nodeId": "table-0", "operations": [{"action": "addRow", "cells": ["b", "2"]}]}),
            ("list_modify", {"nodeId": "list-0", "operations": [{"action": "addItem", "text": "three"}]}),
        ):
            args = {**args, "mode": "apply"} if tool not in ("table_modify", "list_modify") else args
            r = await tools.ok(tool, **args)
            assert (r["applied"], r["mode"]) == (False, "suggest"), tool
            assert r["suggestionIds"], tool
        assert (await tools.ok("suggestion_list"))["count"] >= 8
        assert (await tools.ok("workspace_get_document_info"))["isDirty"] is False
    assert (root / "guide.md").read_text() == DOC


async def test_batch_edit_errors(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        rev = (await opened(tools))["revision"]
        missing = await envelope(
            tools, "batch_edit", mode="apply", operations=[{"type": "update", "nodeId": "p-9", "text": "x"}]
        )
        assert (missing["error"], missing["argument"]) == ("NOT_FOUND", "operations[0].nodeId")
        no_text = await plain_error(tools, "batch_edit", operations=[{"type": "insert", "after": "p-0"}])
        assert no_text.startswith("insert needs text")
        bad_type = await plain_error(tools, "batch_edit", operations=[{"type": "explode", "nodeId": "p-0"}])
        assert "operations.0.type" in bad_type
        assert "operations" in await plain_error(tools, "batch_edit")
        assert "operations" in await plain_error(tools, "batch_edit", operations=[])
        overlap = await plain_error(
            tools,
            "batch_edit",
            mode="apply",
            operations=[{"type": "update", "nodeId": "p-0", "text": "a"}, {"type": "delete", "nodeId": "p-0"}],
        )
        assert "overlap" in overlap
        assert (
            await envelope(
                tools, "batch_edit", baseRevision="rev-000000000000", operations=[{"type": "delete", "nodeId": "p-0"}]
            )
        )["error"] == "STALE"
        assert "unknown argument" in await plain_error(tools, "batch_edit", expected_revision=rev, operations=[])
        assert (await tools.ok("get_document_revision"))["revision"] == rev
    assert (root / "guide.md").read_text() == DOC


# --------------------------------------------------------------------------- apply_diff, anchored


@pytest.mark.parametrize(
    ("policy", "nth", "replaced"),
    [("first", None, [True, False, False]), ("all", None, [True, True, True]), ("nth", 1, [False, True, False])],
)
async def test_apply_diff_match_policies(
    mcp_lab: LabServer, vmark: Any, root: Path, policy: str, nth: int | None, replaced: list[bool]
) -> None:
    text = "cat one\ncat two\ncat three\n"
    (root / "cats.md").write_text(text)
    async with vmark() as tools:
        await opened(tools, "cats.md")
        args: dict[str, Any] = {"original": "cat", "replacement": "dog", "matchPolicy": policy, "mode": "apply"}
        if nth is not None:
            args["nth"] = nth
        r = await tools.ok("apply_diff", **args)
        assert (r["matchCount"], r["appliedCount"], r["applied"]) == (3, sum(replaced), True)
        assert [(m["from"], m["to"], m["line"], m["replaced"]) for m in r["matches"]] == [
            (0, 3, 1, replaced[0]),
            (8, 11, 2, replaced[1]),
            (16, 19, 3, replaced[2]),
        ]
        result = await saved(tools, root, "cats.md")
    lines = text.splitlines(keepends=True)
    assert result == "".join(line.replace("cat", "dog") if r else line for line, r in zip(lines, replaced, strict=True))


async def test_apply_diff_refusals(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    text = "cat one\ncat two\ncat three\n"
    (root / "cats.md").write_text(text)
    async with vmark() as tools:
        await opened(tools, "cats.md")
        several = await envelope(tools, "apply_diff", original="cat", replacement="x", matchPolicy="error_if_multiple")
        assert several == {
            "error": "CONFLICT",
            "message": "'cat' occurs 3 times (lines 1, 2, 3); add context or choose a match policy",
            "match_count": 3,
        }
        once = await tools.ok("apply_diff", original="two", replacement="2", matchPolicy="error_if_multiple")
        assert (once["matchCount"], once["appliedCount"], len(once["suggestionIds"])) == (1, 1, 1)
        nth = await plain_error(tools, "apply_diff", original="cat", replacement="x", matchPolicy="nth", nth=5)
        assert nth == "nth must be 0..2 (3 matches)"
        assert (await plain_error(tools, "apply_diff", original="cat", replacement="x", matchPolicy="nth")).startswith(
            "nth must be"
        )
        none = await tools.ok("apply_diff", original="absent", replacement="x", mode="apply")
        assert (none["matchCount"], none["appliedCount"], none["matches"], none["changed"]) == (0, 0, [], False)
        assert none["message"] == "Nothing to change"
        assert (await plain_error(tools, "apply_diff", original="", replacement="x")).startswith("original")
        assert "matchPolicy" in await plain_error(
            tools, "apply_diff", original="a", replacement="b", matchPolicy="some"
        )
        dry = await tools.ok("apply_diff", original="cat", replacement="dog", matchPolicy="all", mode="dryRun")
        assert (dry["matchCount"], dry["appliedCount"], dry["applied"]) == (3, 0, False)
    assert (root / "cats.md").read_text() == text


async def test_replace_text_anchored(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    text = "The cat sat.\nThe cat ran.\n"
    (root / "anchor.md").write_text(text)
    async with vmark() as tools:
        await opened(tools, "anchor.md")
        ambiguous = await envelope(tools, "replace_text_anchored", anchor={"text": "cat"}, replacement="dog")
        assert (ambiguous["error"], ambiguous["match_count"]) == ("CONFLICT", 2)
        r = await tools.ok(
            "replace_text_anchored",
            anchor={"text": "cat", "beforeContext": "The ", "afterContext": " ran"},
            replacement="dog",
            mode="apply",
        )
        assert (r["from"], r["to"], r["line"], r["applied"]) == (17, 20, 2, True)
        missing = await envelope(tools, "replace_text_anchored", anchor={"text": "cow"}, replacement="x")
        assert missing["error"] == "NOT_FOUND"
        assert "anchor.text" in await plain_error(
            tools, "replace_text_anchored", anchor={"beforeContext": "x"}, replacement="y"
        )
        assert await saved(tools, root, "anchor.md") == "The cat sat.\nThe dog ran.\n"


# --------------------------------------------------------------------------- sections


async def test_update_insert_and_move_sections(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        body = await tools.ok("update_section", nodeId="h-3", content="Smaller print.", mode="apply")
        assert (body["success"], body["applied"]) == (True, True)
        whole = await tools.ok("update_section", nodeId="Setup", content="## Install\n\nRun pip.", mode="apply")
        assert whole["applied"] is True
        added = await tools.ok("insert_section", after="h-0", level=2, title="About", content="Why.", mode="apply")
        assert added["applied"] is True
        text = await saved(tools, root)
        assert "### Details\n\nSmaller print.\n" in text
        assert "## Install\n\nRun pip.\n\n## Usage" in text
        # After the whole h-0 section (the document's end), subsections included.
        assert text.endswith("Smaller print.\n\n## About\n\nWhy.\n")
        blocks = {b["content"]: b["nodeId"] for b in (await tools.ok("list_blocks", type="heading"))["blocks"]}
        moved = await tools.ok(
            "move_section", nodeId=blocks["## About"], after=blocks["# Guide"].replace("h-0", "p-0"), mode="apply"
        )
        assert (moved["applied"], len(moved["suggestionIds"])) == (True, 0)
        text = await saved(tools, root)
    assert text.startswith("# Guide\n\nIntro text here.\n\n## About\n\nWhy.\n\n## Install\n")
    assert text.endswith("### Details\n\nSmaller print.\n")


async def test_section_errors(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        assert (await envelope(tools, "update_section", nodeId="h-9", content="x"))["argument"] == "nodeId"
        assert (await envelope(tools, "insert_section", after="h-9", level=2, title="X"))["argument"] == "after"
        assert (await plain_error(tools, "insert_section", after="h-0", level=7, title="X")).startswith("level")
        assert "title" in await plain_error(tools, "insert_section", after="h-0", level=2)
        assert (await envelope(tools, "move_section", nodeId="h-1", after="h-9"))["argument"] == "after"
        inside = await plain_error(tools, "move_section", nodeId="h-2", after="p-2")
        assert "into itself" in inside
    assert (root / "guide.md").read_text() == DOC


@SUGGEST
async def test_a_staged_move_is_one_suggestion_accepted_whole(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok("move_section", nodeId="h-1", after="h-2")
        assert len(r["suggestionIds"]) == 1
        assert (root / "guide.md").read_text() == DOC
        mcp_lab.extension.services.reviews.grant("guide.md", "pytest-mcp-lab", "client", minutes=5, by="person")
        assert (await tools.ok("suggestion_accept", suggestionId=r["suggestionIds"][0]))["status"] == "accepted"
    text = (root / "guide.md").read_text()
    assert text.index("## Usage") < text.index("## Setup") and text.endswith("```\n")


# --------------------------------------------------------------------------- tables and lists


async def test_table_modify(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok(
            "table_modify",
            nodeId="table-0",
            operations=[
                {"action": "setCellContent", "row": 1, "col": 1, "content": "10"},
                {"action": "addRow", "cells": ["b", "2"]},
                {"action": "addColumn", "header": "Note", "cells": ["x", "y"]},
                {"action": "deleteColumn", "col": 0},
            ],
        )
        assert (r["success"], r["applied"], r["mode"]) == (True, True, "apply")  # no mode: the policy decides
        text = await saved(tools, root)
        table = "\n".join(line for line in text.splitlines() if line.startswith("|"))
        assert [c.strip() for c in table.splitlines()[0].strip("|").split("|")] == ["Value", "Note"]
        assert [[c.strip() for c in row.strip("|").split("|")] for row in table.splitlines()[2:]] == [
            ["10", "x"],
            ["2", "y"],
        ]
        header = await tools.ok(
            "table_modify", nodeId="table-0", operations=[{"action": "setHeaderRow", "enabled": False}]
        )
        assert header["applied"] is True
        not_table = await plain_error(tools, "table_modify", nodeId="p-0", operations=[{"action": "addRow"}])
        assert not_table == "p-0 is a paragraph, not a table"
        assert (await envelope(tools, "table_modify", nodeId="table-9", operations=[{"action": "addRow"}]))[
            "argument"
        ] == "nodeId"
        bad = await plain_error(tools, "table_modify", nodeId="table-0", operations=[{"action": "explode"}])
        assert bad.startswith("operations[0].action must be one of setCellContent")
        far = await envelope(
            tools,
            "table_modify",
            nodeId="table-0",
            operations=[{"action": "setCellContent", "row": 9, "col": 0, "content": "x"}],
        )
        assert far["error"] == "NOT_FOUND"


async def test_list_modify(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await opened(tools)
        r = await tools.ok(
            "list_modify",
            nodeId="list-0",
            operations=[
                {"action": "setItemContent", "index": 0, "text": "uno"},
                {"action": "addItem", "text": "three"},
                {"action": "indent", "index": 1},
                {"action": "deleteItem", "index": 2},
            ],
        )
        assert r["applied"] is True
        text = await saved(tools, root)
        assert "- uno\n  - two\n\n### Details" in text
        tasks = "- [ ] a\n- [ ] b\n"
        (root / "tasks.md").write_text(tasks)
        await opened(tools, "tasks.md")
        await tools.ok(
            "list_modify", nodeId="list-0", operations=[{"action": "setChecked", "index": 1, "checked": True}]
        )
        assert await saved(tools, root, "tasks.md") == "- [ ] a\n- [x] b\n"
        outdent = await plain_error(
            tools, "list_modify", nodeId="list-0", operations=[{"action": "outdent", "index": 0}]
        )
        assert "not nested" in outdent
        assert (await envelope(tools, "list_modify", nodeId="list-7", operations=[{"action": "indent", "index": 0}]))[
            "argument"
        ] == "nodeId"
