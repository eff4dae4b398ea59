"""document read / write / undo / redo (ops/document/text.py) through an in-process MCP client on real files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.context import Caller, OpContext
from jupyter_mcp_lab.ops.document.text import ReadParams, read
from tests.helpers import make_services

DOC = """\
---
title: Doc
---

# Title

Intro paragraph.

## Part one

Text of part one.

### Detail

Detail text.

## Part two

Text of part two.
"""


@pytest.fixture
def lab(ops_client: Any) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    return services, open_tools, root


def lines_of(text: str, first: int, last: int) -> str:
    return "".join(text.splitlines(keepends=True)[first - 1 : last])


# --------------------------------------------------------------------------- read


async def test_read_whole_document(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="doc.md")
    assert r == {
        "content": DOC,
        "revision": revision_of(DOC),
        "filePath": "doc.md",
        "kind": "markdown",
        "dirty": False,
        "lineStart": 1,
        "lineEnd": 19,
        "totalLines": 19,
        "truncated": False,
        "nextLine": None,
    }


@pytest.mark.parametrize(
    ("section", "first", "last"),
    [
        ("h-1", 9, 16),
        ("Part one", 9, 16),
        ("## part ONE", 9, 16),
        ("h-2", 13, 16),
        ("Part two", 17, 19),
        ("h-0", 5, 19),
    ],
)
async def test_read_one_section_by_id_or_title(lab: Any, section: str, first: int, last: int) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="doc.md", section=section)
    assert (r["lineStart"], r["lineEnd"]) == (first, last)
    assert r["content"] == lines_of(DOC, first, last)
    assert r["revision"] == revision_of(DOC)  # the whole document's revision, for the next write


async def test_read_line_ranges(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="doc.md", lineStart=5, lineEnd=7)
        assert (r["content"], r["lineStart"], r["lineEnd"]) == ("# Title\n\nIntro paragraph.\n", 5, 7)
        r = await tools.ok("document", "read", path="doc.md", lineStart=18)
        assert (r["content"], r["lineEnd"]) == ("\nText of part two.\n", 19)
        r = await tools.ok("document", "read", path="doc.md", lineEnd=1)
        assert r["content"] == "---\n"
        r = await tools.ok("document", "read", path="doc.md", lineStart=3, lineEnd=999)
        assert r["content"] == lines_of(DOC, 3, 19)
        # A line range inside a section narrows it.
        r = await tools.ok("document", "read", path="doc.md", section="h-1", lineStart=15)
        assert (r["content"], r["lineStart"], r["lineEnd"]) == ("Detail text.\n\n", 15, 16)
        error = await tools.fail("document", "read", path="doc.md", lineStart=30)
        assert (error["error"], error["argument"]) == ("INVALID_ARGUMENT", "lineStart")
        error = await tools.fail("document", "read", path="doc.md", lineStart=0)
        assert error["error"] == "INVALID_ARGUMENT"


async def test_read_errors(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "notes.txt").write_text("plain\n")
    async with open_tools() as tools:
        error = await tools.fail("document", "read", path="doc.md", section="No such heading")
        assert (error["error"], error["section"]) == ("NOT_FOUND", "No such heading")
        error = await tools.fail("document", "read", path="notes.txt", section="h-0")
        assert (error["error"], error["argument"]) == ("INVALID_ARGUMENT", "section")
        error = await tools.fail("document", "read", path="missing.md")
        assert error["error"] == "NOT_FOUND"
        error = await tools.fail("document", "read", path="../doc.md")
        assert error["error"] == "INVALID_PATH"
        error = await tools.fail("document", "read", path="doc.md", maxBytes=10)
        assert (error["error"], error["argument"]) == ("INVALID_ARGUMENT", "maxBytes")


async def page_through(tools: Any, path: str, max_bytes: int) -> tuple[str, int]:
    out, line, pages = "", 1, 0
    while True:
        r = await tools.ok("document", "read", path=path, lineStart=line, maxBytes=max_bytes)
        pages += 1
        assert len(r["content"].encode()) <= max_bytes or r["lineStart"] == r["lineEnd"], r
        out += r["content"]
        if not r["truncated"]:
            assert r["nextLine"] is None
            return out, pages
        assert r["nextLine"] == r["lineEnd"] + 1
        line = r["nextLine"]


@pytest.mark.parametrize("max_bytes", [256, 300, 1000, 1024, 1500, 5000])
async def test_paging_with_max_bytes_reconstructs_the_file(lab: Any, max_bytes: int) -> None:
    _, open_tools, root = lab
    text = "".join(f"{i:04d} {'é' * (i % 37)} {'🙂' * (i % 5)}\r\n" for i in range(1, 400))
    (root / "big.md").write_bytes(text.encode())
    async with open_tools() as tools:
        out, pages = await page_through(tools, "big.md", max_bytes)
    assert out == text
    assert pages >= len(text.encode()) // max_bytes


async def test_paging_never_skips_a_line_longer_than_the_budget(lab: Any) -> None:
    _, open_tools, root = lab
    text = "short\n" + "x" * 3000 + "\n" + "y" * 700 + "\nend"
    (root / "long.md").write_text(text)
    async with open_tools() as tools:
        out, _ = await page_through(tools, "long.md", 512)
        first = await tools.ok("document", "read", path="long.md", maxBytes=512)
    assert out == text
    assert (first["content"], first["nextLine"], first["truncated"]) == ("short\n", 2, True)


async def test_a_whole_read_fits_the_response_limit_as_json(ops_client: Any) -> None:
    # Newlines, quotes and backslashes take two bytes each in the JSON reply: a page cut to
    # the limit by raw bytes alone answered RESPONSE_TOO_LARGE (10K lines at the 75 KB default).
    services, open_tools = ops_client(max_response_bytes=3000)
    text = "".join(f'{i} "q" \\ \t\n' for i in range(2000))
    services.settings.root_dir.joinpath("escaped.md").write_text(text)
    async with open_tools() as tools:
        first = await tools.ok("document", "read", path="escaped.md")
        assert first["truncated"] is True and first["lineStart"] == 1
        assert len(json.dumps(first, ensure_ascii=False).encode()) <= 3000
        out, line = first["content"], first["nextLine"]
        while line is not None:
            r = await tools.ok("document", "read", path="escaped.md", lineStart=line)
            out, line = out + r["content"], r["nextLine"]
    assert out == text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=300), min_size=1, max_size=40
    ),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    final=st.booleans(),
    max_bytes=st.integers(256, 4000),
)
async def test_paging_property(tmp_path: Path, lines: list[str], newline: str, final: bool, max_bytes: int) -> None:
    services = make_services(tmp_path)
    text = newline.join(lines) + (newline if final else "")
    services.settings.root_dir.joinpath("p.md").write_bytes(text.encode())
    ctx = OpContext(services, Caller("u", "u", "c", "1", "s", "lab"))
    out, line = "", 1
    for _ in range(len(text) + 2):
        r = await read(ctx, ReadParams(path="p.md", lineStart=line, maxBytes=max_bytes))
        out += r.content
        if not r.truncated:
            break
        assert r.nextLine == r.lineEnd + 1
        line = r.nextLine
    assert out == text


# --------------------------------------------------------------------------- write


async def test_write_by_path_saves_at_once_and_checks_the_revision(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="doc.md")
        w = await tools.ok("document", "write", path="doc.md", content="# New\n", expected_revision=r["revision"])
        assert w["revision"] == revision_of("# New\n")
        assert (w["applied"], w["changed"], w["mode"], w["filePath"]) == (True, True, "apply", "doc.md")
        # The changed region, with the common prefix and suffix (here the last "\n") left out.
        assert w["change"] == {
            "start": 0,
            "end": len(DOC) - 1,
            "lineStart": 1,
            "lineEnd": 19,
            "removed": DOC[:-1],
            "inserted": "# New",
        }
        assert w["diff"] is None
        assert (root / "doc.md").read_text() == "# New\n"
        stale = await tools.fail("document", "write", path="doc.md", content="lost\n", expected_revision=r["revision"])
        assert stale["error"] == "STALE"
        assert stale["current_revision"] == w["revision"]
        assert stale["message"]
        assert (root / "doc.md").read_text() == "# New\n"
        same = await tools.ok("document", "write", path="doc.md", content="# New\n")
        assert (same["changed"], same["applied"], same["change"]) == (False, False, None)


async def test_write_by_path_without_saving_leaves_the_file(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        await tools.ok("document", "write", path="doc.md", content="buffer only\n", save=False)
        r = await tools.ok("document", "read", path="doc.md")
        assert (r["content"], r["dirty"]) == ("buffer only\n", True)
    assert (root / "doc.md").read_text() == DOC


async def test_dry_run_returns_the_diff_and_changes_nothing(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        new = DOC.replace("Intro paragraph.", "Better intro.")
        d = await tools.ok("document", "write", path="doc.md", content=new, mode="dryRun")
        assert (d["applied"], d["changed"], d["mode"]) == (False, True, "dryRun")
        assert d["revision"] == revision_of(new)
        assert "-Intro paragraph.\n+Better intro.\n" in d["diff"]
        assert d["diff"].startswith("--- a/doc.md\n+++ b/doc.md\n")
        r = await tools.ok("document", "read", path="doc.md")
        assert (r["content"], r["dirty"], r["revision"]) == (DOC, False, revision_of(DOC))
        staged = await tools.ok("document", "write", path="doc.md", content="x", mode="suggest")
        assert (staged["applied"], staged["mode"], staged["revision"]) == (False, "suggest", revision_of(DOC))
        assert len(staged["suggestionIds"]) == 1
    assert (root / "doc.md").read_text() == DOC


async def test_write_without_content_names_the_argument(lab: Any) -> None:
    _, open_tools, _ = lab
    async with open_tools() as tools:
        error = await tools.fail("document", "write", path="doc.md")
    assert (error["error"], error["argument"]) == ("INVALID_ARGUMENT", "content")


async def test_a_file_changed_on_disk_answers_stale_then_reads_new(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="doc.md")
        (root / "doc.md").write_text("edited elsewhere\n")
        stale = await tools.fail("document", "write", path="doc.md", content="agent\n", expected_revision=r["revision"])
        assert stale["current_revision"] == revision_of("edited elsewhere\n")
        again = await tools.ok("document", "read", path="doc.md")
        assert (again["content"], again["revision"]) == ("edited elsewhere\n", stale["current_revision"])
    assert (root / "doc.md").read_text() == "edited elsewhere\n"


async def test_undo_and_redo_by_path_are_saved(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        await tools.ok("document", "write", path="doc.md", content="v2\n")
        await tools.ok("document", "write", path="doc.md", content="v3\n")
        u = await tools.ok("document", "undo", path="doc.md")
        assert {k: u[k] for k in ("revision", "canUndo", "canRedo", "applied")} == {
            "revision": revision_of("v2\n"),
            "canUndo": True,
            "canRedo": True,
            "applied": True,
        }
        assert u["checkpointId"]  # an agent's undo is a change a person can revert
        assert (root / "doc.md").read_text() == "v2\n"
        await tools.ok("document", "undo", path="doc.md")
        assert (root / "doc.md").read_text() == DOC
        assert (await tools.fail("document", "undo", path="doc.md"))["error"] == "NOT_FOUND"
        r = await tools.ok("document", "redo", path="doc.md")
        assert {k: r[k] for k in ("revision", "canUndo", "canRedo", "applied")} == {
            "revision": revision_of("v2\n"),
            "canUndo": True,
            "canRedo": True,
            "applied": True,
        }
        assert (root / "doc.md").read_text() == "v2\n"
        (root / "doc.md").write_text("changed elsewhere\n")
        assert (await tools.fail("document", "redo", path="doc.md"))["error"] == "CONFLICT"
        assert (await tools.fail("document", "undo", path="doc.md"))["error"] == "CONFLICT"
    assert (root / "doc.md").read_text() == "changed elsewhere\n"


async def test_undo_on_a_tab_stays_in_the_tab(lab: Any) -> None:
    _, open_tools, root = lab
    async with open_tools() as tools:
        await tools.ok("workspace", "open", filePath="doc.md")
        await tools.ok("document", "write", content="tab v2\n")
        u = await tools.ok("document", "undo")
        assert u["revision"] == revision_of(DOC)
        assert (await tools.ok("document", "read"))["dirty"] is False
        await tools.ok("document", "redo")
        assert (await tools.ok("document", "read"))["dirty"] is True
    assert (root / "doc.md").read_text() == DOC


async def test_a_write_result_too_large_for_the_response_limit(ops_client: Any) -> None:
    services, open_tools = ops_client(max_response_bytes=3000)
    root = services.settings.root_dir
    (root / "doc.md").write_text("a" * 2000 + "\n")
    async with open_tools() as tools:
        result = await tools.call("document", "write", path="doc.md", content="b" * 2000 + "\n")
        if result.is_error:
            # The answer is too big to send; the change itself was made.
            assert result.structured_content["error"] == "RESPONSE_TOO_LARGE"
        r = await tools.ok("document", "read", path="doc.md")
    assert r["content"] == "b" * 2000 + "\n"
