"""GET outline: a document's headings for the panel's Outline section, over real HTTP."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from jupyter_mcp_lab.core.revision import revision_of

from ...conftest import LabServer
from ...surfaces.outliner.opml import OMNI, WITH_IDS
from .conftest import Api, assert_error, on_disk

GUIDE = (
    "Intro text before any heading.\n"  # 1: a preamble, not a heading
    "\n"
    "# Guide\n"  # 3
    "\n"
    "Welcome.\n"
    "\n"
    "## Install\n"  # 7
    "\n"
    "```sh\n"
    "# not a heading: code\n"
    "```\n"
    "\n"
    "### From source\n"  # 13
    "\n"
    "Setext heading\n"  # 15
    "--------------\n"
    "\n"
    "#\n"  # 18: an empty heading
    "\n"
    "# Último — ✓\n"  # 20
    "text\n"
)


async def test_markdown_outline(mcp_lab: LabServer, api: Api, root: Path) -> None:
    (root / "guide.md").write_text(GUIDE, encoding="utf-8")
    body = await api.ok("GET", "outline", path="guide.md")
    assert body == {
        "path": "guide.md",
        "revision": revision_of(GUIDE),
        "kind": "markdown",
        "headings": [
            {"id": "h-0", "level": 1, "title": "Guide", "line": 3, "lineEnd": 17},
            {"id": "h-1", "level": 2, "title": "Install", "line": 7, "lineEnd": 14},
            {"id": "h-2", "level": 3, "title": "From source", "line": 13, "lineEnd": 14},
            {"id": "h-3", "level": 2, "title": "Setext heading", "line": 15, "lineEnd": 17},
            {"id": "h-4", "level": 1, "title": "", "line": 18, "lineEnd": 19},
            {"id": "h-5", "level": 1, "title": "Último — ✓", "line": 20, "lineEnd": 21},
        ],
        "rows": body["rows"],  # its outline view (test_markdown_rows_are_the_outline_tools_rows)
    }
    assert [(r["topic"], r["level"], r["note"]) for r in body["rows"]] == [
        ("Guide", 0, "Welcome."),
        ("Install", 1, "```sh\n# not a heading: code\n```"),
        ("From source", 2, None),
        ("Setext heading", 1, None),
        ("", 0, None),
        ("Último — ✓", 0, "text"),
    ]
    # A leading "/" is root-relative, as in Jupyter's contents API; folders work too.
    (root / "docs").mkdir()
    (root / "docs" / "a b.md").write_text("# A\n", encoding="utf-8")
    assert (await api.ok("GET", "outline", path="/guide.md")) == body
    nested = await api.ok("GET", "outline", path="docs/a b.md")
    assert (nested["path"], nested["headings"]) == (
        "docs/a b.md",
        [{"id": "h-0", "level": 1, "title": "A", "line": 1, "lineEnd": 1}],
    )


async def test_same_outline_and_revision_as_the_document_tool(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    (root / "guide.md").write_text(GUIDE, encoding="utf-8")
    async with agent() as tools:
        structure = await tools.ok("document", "structure", path="guide.md")
        read = await tools.ok("document", "read", path="guide.md")
    body = await api.ok("GET", "outline", path="guide.md")
    assert body["revision"] == structure["revision"] == read["revision"]
    assert [(h["id"], h["level"], h["title"], h["line"], h["lineEnd"]) for h in body["headings"]] == [
        (s["nodeId"], s["level"], s["title"], s["lineStart"], s["lineEnd"])
        for s in structure["sections"]
        if s["nodeId"] != "preamble"
    ]


TASKS = """# Plan — 東京

- [x] Write **notes**
- [ ] Tag `v1.0`
  - [x] sub one
  - [ ] sub \\*two\\*

  more about the tag
1. [Read](https://x.org) the spec

## Later &amp; after
"""


async def test_markdown_rows_are_the_outline_tools_rows(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    """A markdown document's rows are its outline view, as the ``outline`` tool (and the
    outliner profile) reads it: headings and list items, ids, plain topics, notes, task
    states (mixed derived), the tree."""
    (root / "tasks.md").write_text(TASKS, encoding="utf-8")
    body = await api.ok("GET", "outline", path="tasks.md")
    async with agent() as tools:
        tree = await tools.ok("outline", "read", path="tasks.md")
    assert [
        {"id": r["id"], "topic": r["topic"], "note": r["note"], "state": r["state"], "level": r["level"]}
        | {"parent": r["parentId"], "children": r["childIds"]}
        for r in tree["rows"]
    ] == body["rows"]
    assert [(r["topic"], r["state"], r["level"]) for r in body["rows"]] == [
        ("Plan — 東京", "none", 0),  # a heading has no checkbox
        ("Write notes", "checked", 1),
        ("Tag v1.0", "mixed", 1),
        ("sub one", "checked", 2),
        ("sub *two*", "unchecked", 2),
        ("Read the spec", "none", 1),
        ("Later & after", "none", 1),
    ]
    assert body["rows"][2]["note"] is None and body["rows"][4]["note"] is None
    assert [h["title"] for h in body["headings"]] == ["Plan — 東京", "Later &amp; after"]  # the panel's, as before


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_follows_an_agents_change_and_its_event(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    (root / "notes.md").write_text("# Notes\n\nalpha\n", encoding="utf-8")
    before = await api.ok("GET", "outline", path="notes.md")
    async with agent() as tools:
        result = await tools.ok(
            "document",
            "edit",
            path="notes.md",
            edits=[{"op": "insert", "at": len("# Notes\n\nalpha\n"), "text": "\n## Added\n"}],
        )
    assert result["applied"] is True
    after = await api.ok("GET", "outline", path="notes.md")
    assert after["revision"] == result["revision"] == revision_of(on_disk(root)) != before["revision"]
    assert [h["title"] for h in after["headings"]] == ["Notes", "Added"]
    # The revision the server's "document" event names for that change.
    [cp] = (await api.ok("GET", "checkpoints", path="notes.md"))["checkpoints"]
    assert cp["afterRevision"] == after["revision"]


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_reads_the_text_agents_see(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    (root / "notes.md").write_text("# Notes\n", encoding="utf-8")
    # Reading an outline opens no server buffer for the file.
    await api.ok("GET", "outline", path="notes.md")
    assert mcp_lab.extension.services.docs.find("notes.md") is None
    # An agent's unsaved edit in a tab: the outline (and revision) is the agent's buffer.
    async with agent() as tools:
        tab = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        edited = await tools.ok(
            "document", "edit", tabId=tab, edits=[{"op": "insert", "at": 8, "text": "\n## Draft\n"}]
        )
        assert edited["applied"] is True
        body = await api.ok("GET", "outline", path="notes.md")
        assert on_disk(root) == "# Notes\n"
        assert body["revision"] == edited["revision"]
        assert [h["title"] for h in body["headings"]] == ["Notes", "Draft"]


async def test_other_kinds_answer_their_kind_without_headings(mcp_lab: LabServer, api: Api, root: Path) -> None:
    cell = {"cell_type": "markdown", "metadata": {}, "source": "# In a notebook"}
    notebook = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}) + "\n"
    files = {
        "analysis.ipynb": ("notebook", notebook),
        "notes.txt": ("text", "# looks like a heading\n"),
        "outline.opml": ("outline", '<?xml version="1.0"?><opml version="2.0"><body/></opml>\n'),
        ".github/workflows/ci.yml": ("yaml-workflow", "on: push\njobs:\n  a:\n    runs-on: x\n"),
    }
    for name, (_, text) in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for name, (kind, text) in files.items():
        body = await api.ok("GET", "outline", path=name)
        assert body == {"path": name, "revision": revision_of(text), "kind": kind, "headings": [], "rows": []}, name
    # Markdown without headings is markdown with an empty list.
    (root / "plain.md").write_text("just text\n", encoding="utf-8")
    assert (await api.ok("GET", "outline", path="plain.md"))["kind"] == "markdown"


async def test_opml_rows(mcp_lab: LabServer, api: Api, root: Path) -> None:
    """An OPML outline's rows, as the outline tools read them: ids (stored or by document
    order), topics, notes with their line breaks, derived checkbox states, the tree."""
    (root / "plan.opml").write_text(OMNI, encoding="utf-8")
    body = await api.ok("GET", "outline", path="plan.opml")
    assert (body["kind"], body["revision"], body["headings"]) == ("outline", revision_of(OMNI), [])
    rows = {r["id"]: r for r in body["rows"]}
    assert [r["id"] for r in body["rows"]] == [f"row-{n}" for n in range(11)]  # document order
    assert rows["row-0"] == {
        "id": "row-0",
        "topic": "Launch",
        "note": "Ship the first version\nto the pilot users.",
        "state": "checked",
        "level": 0,
        "parent": None,
        "children": ["row-1", "row-2"],
    }
    # Research is unchecked itself, its children differ: mixed; a row without a box: none.
    assert (rows["row-3"]["state"], rows["row-5"]["state"], rows["row-8"]["state"]) == ("mixed", "mixed", "none")
    assert rows["row-5"]["topic"] == "Résumé des entretiens — 東京"
    assert (rows["row-6"]["parent"], rows["row-6"]["level"]) == ("row-5", 2)
    assert rows["row-8"]["topic"] == "Ideas & notes"
    assert rows["row-10"]["note"] == "needs a design"
    assert [r["id"] for r in body["rows"] if r["parent"] is None] == ["row-0", "row-3", "row-8"]

    # Stored ids are the rows' ids; reading changes nothing on disk.
    (root / "inbox.opml").write_text(WITH_IDS, encoding="utf-8")
    body = await api.ok("GET", "outline", path="inbox.opml")
    assert [(r["id"], r["topic"], r["parent"]) for r in body["rows"]] == [
        ("a", "Alpha", None),
        ("a1", "Alpha one", "a"),
        ("b", "Beta", None),
    ]
    assert (root / "inbox.opml").read_text(encoding="utf-8") == WITH_IDS


async def test_unsafe_or_broken_opml(mcp_lab: LabServer, api: Api, root: Path) -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
        '<opml version="2.0"><body><outline text="&b;"/></body></opml>\n'
    )
    for name, text in {"bomb.opml": bomb, "broken.opml": '<opml><body><outline text="x"></body>'}.items():
        (root / name).write_text(text, encoding="utf-8")
        body = assert_error(await api.get("outline", path=name), 400, "INVALID_PATH")
        assert "XML" in body["message"], name
        assert (root / name).read_text(encoding="utf-8") == text


async def test_missing_file(mcp_lab: LabServer, api: Api, root: Path) -> None:
    body = assert_error(await api.get("outline", path="nowhere.md"), 404, "NOT_FOUND")
    assert body["path"] == "nowhere.md"
    assert_error(await api.get("outline", path="no/such/folder/x.md"), 404, "NOT_FOUND")
    assert_error(await api.get("outline", path="x" * 300 + ".md"), 404, "NOT_FOUND")  # too long a name


async def test_paths_outside_the_workspace_and_not_documents(
    mcp_lab: LabServer, api: Api, root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n", encoding="utf-8")
    os.symlink(outside, root / "link")
    (root / "folder").mkdir()
    (root / "binary.md").write_bytes(b"\xff\xfe\x00# not utf-8\n")
    rel = "../" * len(root.parts[1:]) + str(outside / "secret.md").lstrip("/")  # root-relative, climbing out
    for path in ("../secret.md", "a/../../secret.md", rel, "link/secret.md", "folder", "/", "binary.md"):
        r = await api.get("outline", path=path)
        body = assert_error(r, 400, "INVALID_PATH")
        assert "Secret" not in r.text, path
        assert body["message"], path


async def test_bad_query(mcp_lab: LabServer, api: Api, root: Path) -> None:
    body = assert_error(await api.get("outline"), 400, "INVALID_ARGUMENT")
    assert body["argument"] == "path"
    body = assert_error(await api.get("outline", path=""), 400, "INVALID_ARGUMENT")
    assert body["argument"] == "path"
    body = assert_error(await api.get("outline", path="notes.md", view="all"), 400, "INVALID_ARGUMENT")
    assert body["argument"] == "view"
    r = await api.http.get(api.url("outline"), params=[("path", "notes.md"), ("path", "b.md")], headers=mcp_lab.auth())
    assert_error(r, 400, "INVALID_ARGUMENT")
    r = await api.post("outline", {})
    assert_error(r, 405, "METHOD_NOT_ALLOWED")
    assert "GET" in r.headers["Allow"] and "POST" not in r.headers["Allow"]


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "token wrong"}, {"Authorization": "Bearer wrong"}],
    ids=["none", "wrong-token", "wrong-bearer"],
)
async def test_needs_auth(mcp_lab: LabServer, root: Path, headers: dict[str, str]) -> None:
    async with httpx.AsyncClient(timeout=10) as anonymous:
        r = await anonymous.get(mcp_lab.url("mcp-lab/api/outline"), params={"path": "notes.md"}, headers=headers)
    body = assert_error(r, 401, "UNAUTHORIZED")
    assert r.headers["WWW-Authenticate"]
    assert "Notes" not in r.text and "alpha" not in body["message"]
