"""Documents through a real Jupyter server (lab profile), the official Python SDK client, and
the ways people change files next to the agents: the disk, JupyterLab's contents API, and a
second agent. Saves go through Jupyter's contents manager."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx2
import pytest

from jupyter_mcp_lab.core.revision import revision_of

from ..conftest import LabServer, Tools

DOC = """\
---
title: Live
---

# Live document

Alpha beta gamma. Alpha again.

## One

one text
- [ ] task a
- [x] task b

## Two

two text

| a | b |
|---|---|
| 1 | 2 |

## Three

three text
"""


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "doc.md").write_text(DOC)
    return root


@pytest.fixture
def lab(mcp_client: Any, root: Path):
    """``async with lab() as tools``: an SDK session on the lab endpoint ({base_url}mcp)."""

    class Session:
        def __init__(self, **kwargs: Any) -> None:
            self.cm = mcp_client("lab", **kwargs)

        async def __aenter__(self) -> Tools:
            return Tools(await self.cm.__aenter__())

        async def __aexit__(self, *exc: Any) -> Any:
            return await self.cm.__aexit__(*exc)

    return Session


def on_disk(root: Path, name: str = "doc.md") -> str:
    with open(root / name, encoding="utf-8", newline="") as f:
        return f.read()


async def put_contents(server: LabServer, path: str, text: str) -> dict[str, Any]:
    """Save a file the way JupyterLab's editor does: PUT /api/contents/<path> with the token."""
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.put(
            server.url(f"api/contents/{path}"),
            headers=server.auth(),
            json={"type": "file", "format": "text", "content": text},
        )
    assert r.status_code in (200, 201), r.text
    return r.json()


async def get_contents(server: LabServer, path: str) -> str:
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.get(server.url(f"api/contents/{path}"), headers=server.auth(), params={"content": "1"})
    assert r.status_code == 200, r.text
    return r.json()["content"]


# --------------------------------------------------------------------------- read


async def test_read_whole_section_lines(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        whole = await tools.ok("document", "read", path="doc.md")
        section = await tools.ok("document", "read", path="doc.md", section="One")
        by_id = await tools.ok("document", "read", path="doc.md", section="h-3")
        lines = await tools.ok("document", "read", path="doc.md", lineStart=5, lineEnd=7)
    assert (whole["content"], whole["revision"], whole["totalLines"]) == (DOC, revision_of(DOC), 25)
    assert section["content"] == "## One\n\none text\n- [ ] task a\n- [x] task b\n\n"
    assert (section["lineStart"], section["lineEnd"]) == (9, 14)
    assert by_id["content"] == "## Three\n\nthree text\n"
    assert lines["content"] == "# Live document\n\nAlpha beta gamma. Alpha again.\n"


@pytest.mark.parametrize("max_bytes", [256, 700, 4096])
async def test_paging_with_max_bytes_reconstructs_the_file(mcp_lab: LabServer, lab: Any, root: Path, max_bytes: int):
    text = "".join(f"{i:03d} {'ü' * (i % 11)} {'字' * (i % 7)} {'x' * (i % 97)}\r\n" for i in range(1, 300))
    text += "z" * 1500 + "\r\nlast line without a break"
    (root / "big.md").write_bytes(text.encode())
    out, line, pages = "", 1, 0
    async with lab() as tools:
        while True:
            r = await tools.ok("document", "read", path="big.md", lineStart=line, maxBytes=max_bytes)
            pages += 1
            assert r["revision"] == revision_of(text)
            out += r["content"]
            if not r["truncated"]:
                break
            assert r["nextLine"] == r["lineEnd"] + 1
            line = r["nextLine"]
    assert out == text
    assert pages > 1


async def test_structure_views(mcp_lab: LabServer, lab: Any) -> None:
    async with lab() as tools:
        outline = await tools.ok("document", "structure", path="doc.md")
        blocks = await tools.ok("document", "structure", path="doc.md", view="blocks")
        tables = await tools.ok("document", "structure", path="doc.md", view="blocks", type="table")
        digest = await tools.ok("document", "structure", path="doc.md", view="digest")
    assert [s["nodeId"] for s in outline["sections"]] == ["preamble", "h-0", "h-1", "h-2", "h-3"]
    assert [b["nodeId"] for b in blocks["blocks"]] == [
        "fm-0",
        "h-0",
        "p-0",
        "h-1",
        "p-1",
        "list-0",
        "h-2",
        "p-2",
        "table-0",
        "h-3",
        "p-3",
    ]
    assert [(b["nodeId"], b["lineStart"], b["lineEnd"]) for b in tables["blocks"]] == [("table-0", 19, 21)]
    assert digest["digest"]["title"] == "Live document"
    assert digest["digest"]["frontMatter"] is True
    assert outline["revision"] == blocks["revision"] == revision_of(DOC)


# --------------------------------------------------------------------------- edit: every kind


async def test_every_edit_kind_through_the_endpoint(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async def edit(*ops: dict[str, Any], **args: Any) -> dict[str, Any]:
        return await tools.ok("document", "edit", path="doc.md", edits=list(ops), **args)

    async with lab() as tools:
        i = DOC.index("Alpha beta")
        await edit({"op": "insert", "at": i, "text": "> "})
        assert on_disk(root) == DOC[:i] + "> " + DOC[i:]
        await edit({"op": "delete", "start": i, "end": i + 2})
        await edit({"op": "replace", "start": i, "end": i + 5, "text": "ALPHA"})
        assert on_disk(root) == DOC.replace("Alpha beta", "ALPHA beta")
        await edit({"op": "find_replace", "find": "ALPHA", "replace": "Alpha"})
        assert on_disk(root) == DOC

        conflict = await tools.fail(
            "document", "edit", path="doc.md", edits=[{"op": "find_replace", "find": "Alpha", "replace": "x"}]
        )
        assert (conflict["error"], conflict["match_count"]) == ("CONFLICT", 2)
        await edit({"op": "find_replace", "find": "Alpha", "replace": "First", "match": "first"})
        await edit({"op": "find_replace", "find": "text", "replace": "TEXT", "match": "nth", "nth": 2})
        await edit({"op": "find_replace", "find": "task", "replace": "todo", "match": "all"})
        expected = DOC.replace("Alpha beta", "First beta").replace("three text", "three TEXT").replace("task", "todo")
        assert on_disk(root) == expected

        ambiguous = await tools.fail(
            "document", "edit", path="doc.md", edits=[{"op": "anchored", "text": "text", "replacement": "x"}]
        )
        assert (ambiguous["error"], ambiguous["match_count"]) == ("CONFLICT", 2)
        # Context wrapped differently than in the file (spaces for the line break) still anchors.
        await edit({"op": "anchored", "text": "todo a", "replacement": "first todo", "before": "one text   - [ ]  "})
        expected = expected.replace("todo a", "first todo")
        assert on_disk(root) == expected

        await edit({"op": "update_block", "nodeId": "p-2", "content": "two, updated"})
        await edit({"op": "insert_block", "after": "table-0", "content": "After the table."})
        await edit({"op": "delete_block", "nodeId": "p-0"})
        expected = (
            expected.replace("two text", "two, updated")
            .replace("| 1 | 2 |\n", "| 1 | 2 |\n\nAfter the table.\n")
            .replace("First beta gamma. Alpha again.\n\n", "")
        )
        assert on_disk(root) == expected

        await edit({"op": "update_section", "nodeId": "Three", "content": "three, rewritten", "keepHeading": True})
        await edit({"op": "insert_section", "after": "h-1", "level": 2, "title": "Between", "content": "b"})
        await edit({"op": "move_section", "nodeId": "One"})
        final = on_disk(root)
        s = await tools.ok("document", "structure", path="doc.md")
    assert [x["title"] for x in s["sections"]] == ["", "Live document", "Between", "Two", "Three", "One"]
    assert final.endswith("## Three\n\nthree, rewritten\n\n## One\n\none text\n- [ ] first todo\n- [x] todo b\n")
    assert "## Between\n\nb\n\n## Two" in final
    assert s["revision"] == revision_of(final)


async def test_dry_run_overlap_stale_leave_the_file_untouched(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        read = await tools.ok("document", "read", path="doc.md")
        dry = await tools.ok(
            "document",
            "edit",
            path="doc.md",
            mode="dryRun",
            edits=[{"op": "update_block", "nodeId": "p-1", "content": "dry"}],
        )
        assert (dry["applied"], dry["changed"]) == (False, True)
        assert "-one text\n+dry\n" in dry["diff"]
        overlap = await tools.fail(
            "document",
            "edit",
            path="doc.md",
            edits=[
                {"op": "update_section", "nodeId": "h-2", "content": "x"},
                {"op": "update_block", "nodeId": "table-0", "content": "y"},
            ],
        )
        assert (overlap["error"], overlap["argument"]) == ("INVALID_ARGUMENT", "edits")
        await tools.ok("document", "write", path="doc.md", content=DOC + "\nappended\n")
        stale = await tools.fail(
            "document",
            "edit",
            path="doc.md",
            expected_revision=read["revision"],
            edits=[{"op": "insert", "at": 0, "text": "x"}],
        )
        assert (stale["error"], stale["current_revision"]) == ("STALE", revision_of(DOC + "\nappended\n"))
    assert on_disk(root) == DOC + "\nappended\n"


async def test_undo_redo_and_save_semantics(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        # Addressed by path: saved to disk at once (an ordinary Jupyter save).
        await tools.ok(
            "document", "edit", path="doc.md", edits=[{"op": "find_replace", "find": "two text", "replace": "2"}]
        )
        assert on_disk(root) == DOC.replace("two text", "2")
        assert await get_contents(mcp_lab, "doc.md") == DOC.replace("two text", "2")
        undo = await tools.ok("document", "undo", path="doc.md")
        assert undo["revision"] == revision_of(DOC) and undo["canRedo"] is True
        assert on_disk(root) == DOC
        await tools.ok("document", "redo", path="doc.md")
        assert on_disk(root) == DOC.replace("two text", "2")

        # Addressed by tab: the tab is dirty until workspace save.
        tab = (await tools.ok("workspace", "open", filePath="doc.md"))["tabId"]
        await tools.ok("document", "edit", tabId=tab, edits=[{"op": "update_block", "nodeId": "p-3", "content": "3"}])
        assert on_disk(root) == DOC.replace("two text", "2")
        state = await tools.ok("session", "get_state")
        assert state["windows"][0]["tabs"][0]["dirty"] is True
        saved = await tools.ok("workspace", "save", tabId=tab)
        assert on_disk(root) == DOC.replace("two text", "2").replace("three text", "3")
        assert saved["revision"] == revision_of(on_disk(root))
        state = await tools.ok("session", "get_state")
        assert state["windows"][0]["tabs"][0]["dirty"] is False


# --------------------------------------------------------------------------- changes made outside the agent


async def test_file_changed_on_disk_between_read_and_write(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        read = await tools.ok("document", "read", path="doc.md")
        (root / "doc.md").write_text("changed on disk\n")
        stale = await tools.fail(
            "document", "write", path="doc.md", content="agent\n", expected_revision=read["revision"]
        )
        assert stale == {
            "error": "STALE",
            "message": stale["message"],
            "current_revision": revision_of("changed on disk\n"),
        }
        again = await tools.ok("document", "read", path="doc.md")
        assert (again["content"], again["revision"]) == ("changed on disk\n", stale["current_revision"])
        await tools.ok("document", "write", path="doc.md", content="agent\n", expected_revision=again["revision"])
    assert on_disk(root) == "agent\n"


async def test_file_saved_through_the_contents_api_between_read_and_write(
    mcp_lab: LabServer, lab: Any, root: Path
) -> None:
    async with lab() as tools:
        read = await tools.ok("document", "read", path="doc.md")
        edit = [{"op": "update_block", "nodeId": "p-0", "content": "agent"}]
        await put_contents(mcp_lab, "doc.md", DOC.replace("one text", "typed in JupyterLab"))
        stale = await tools.fail("document", "edit", path="doc.md", edits=edit, expected_revision=read["revision"])
        assert stale["error"] == "STALE"
        again = await tools.ok("document", "read", path="doc.md")
        assert again["content"] == DOC.replace("one text", "typed in JupyterLab")
        assert again["revision"] == stale["current_revision"]
        # Tab-addressed reads follow the editor's save too, while the tab is clean.
        await tools.ok("workspace", "open", filePath="doc.md")
        await put_contents(mcp_lab, "doc.md", "saved again\n")
        assert (await tools.ok("document", "read"))["content"] == "saved again\n"
        done = await tools.ok("document", "edit", path="doc.md", edits=[{"op": "insert", "at": 0, "text": "> "}])
    assert on_disk(root) == "> saved again\n"
    assert done["revision"] == revision_of("> saved again\n")
    assert await get_contents(mcp_lab, "doc.md") == "> saved again\n"


async def test_dirty_tab_and_a_change_on_disk_save_is_a_conflict(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        await tools.ok("workspace", "open", filePath="doc.md")
        await tools.ok("document", "write", content="agent's unsaved work\n")
        await put_contents(mcp_lab, "doc.md", "a person's save\n")
        conflict = await tools.fail("workspace", "save")
        assert conflict["error"] == "CONFLICT"
        assert conflict["disk_revision"] == revision_of("a person's save\n")
        assert on_disk(root) == "a person's save\n"
        (root / "doc.md").write_text("and then the disk\n")
        assert (await tools.fail("workspace", "save"))["error"] == "CONFLICT"
        read = await tools.ok("document", "read")
        assert (read["content"], read["dirty"]) == ("agent's unsaved work\n", True)
    assert on_disk(root) == "and then the disk\n"


async def test_non_utf8_hidden_and_missing_files(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    (root / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    (root / ".hidden.md").write_text("hidden\n")
    async with lab() as tools:
        assert (await tools.fail("document", "read", path="latin1.md"))["error"] == "INVALID_PATH"
        # Jupyter does not serve hidden files (ContentsManager.allow_hidden): nor do we.
        assert (await tools.fail("document", "read", path=".hidden.md"))["error"] in ("NOT_FOUND", "INVALID_PATH")
        assert (await tools.fail("document", "read", path="nope.md"))["error"] == "NOT_FOUND"
        assert (await tools.fail("document", "write", path="nope.md", content="x"))["error"] == "NOT_FOUND"
    assert not (root / "nope.md").exists()


async def test_save_as_into_a_new_folder(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab() as tools:
        await tools.ok("workspace", "new")
        await tools.ok("document", "write", content="# New\n")
        saved = await tools.ok("workspace", "save_as", filePath="drafts/2026/new.md")
        assert saved["filePath"] == "drafts/2026/new.md"
    assert on_disk(root, "drafts/2026/new.md") == "# New\n"
    assert await get_contents(mcp_lab, "drafts/2026/new.md") == "# New\n"


async def test_crlf_and_non_ascii_survive_jupyter_saves(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    original = "# Überschrift\r\n\r\nZeile 🙂\r\nzweite\r\n"
    (root / "crlf.md").write_bytes(original.encode())
    async with lab() as tools:
        await tools.ok(
            "document", "edit", path="crlf.md", edits=[{"op": "insert_block", "after": "p-0", "content": "neu"}]
        )
    # The new block uses the document's line breaks; every other byte is as it was.
    assert (root / "crlf.md").read_bytes() == (original + "\r\nneu\r\n").encode()


# --------------------------------------------------------------------------- two agents


async def test_two_agents_same_revision_exactly_one_wins(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    async with lab(client_name="agent-a") as a, lab(client_name="agent-b") as b:
        for round_ in range(20):
            ra, rb = await asyncio.gather(
                a.ok("document", "read", path="doc.md"), b.ok("document", "read", path="doc.md")
            )
            assert ra["revision"] == rb["revision"]
            contents = {"a": f"round {round_} by a\n", "b": f"round {round_} by b\n"}
            results = await asyncio.gather(
                a.call("document", "write", path="doc.md", content=contents["a"], expected_revision=ra["revision"]),
                b.call("document", "write", path="doc.md", content=contents["b"], expected_revision=rb["revision"]),
            )
            winners = [who for who, r in zip("ab", results, strict=True) if not r.is_error]
            assert len(winners) == 1, [r.structured_content for r in results]
            [winner] = winners
            loser = results["ab".index(winner) ^ 1].structured_content
            assert loser["error"] == "STALE"
            assert loser["current_revision"] == revision_of(contents[winner])
            assert on_disk(root) == contents[winner]
            # Interleave: the loser re-reads and edits on top of the winner's text.
            loser_tools = b if winner == "a" else a
            fresh = await loser_tools.ok("document", "read", path="doc.md")
            assert fresh["content"] == contents[winner]
            await loser_tools.ok(
                "document",
                "edit",
                path="doc.md",
                expected_revision=fresh["revision"],
                edits=[{"op": "insert", "at": len(fresh["content"]), "text": "and the other\n"}],
            )
            assert on_disk(root) == contents[winner] + "and the other\n"


async def test_two_agents_read_modify_write_lose_no_update(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    (root / "log.md").write_text("# Log\n")
    rng = random.Random(7)

    async def agent(tools: Tools, name: str, n: int) -> int:
        retries = 0
        for i in range(n):
            while True:
                r = await tools.ok("document", "read", path="log.md")
                await asyncio.sleep(rng.random() * 0.002)
                result = await tools.call(
                    "document",
                    "write",
                    path="log.md",
                    content=r["content"] + f"{name} {i}\n",
                    expected_revision=r["revision"],
                )
                if not result.is_error:
                    break
                assert result.structured_content["error"] == "STALE", result.structured_content
                retries += 1
        return retries

    async with lab(client_name="agent-a") as a, lab(client_name="agent-b") as b:
        retries = await asyncio.gather(agent(a, "a", 20), agent(b, "b", 20))
    lines = on_disk(root, "log.md").splitlines()
    assert lines[0] == "# Log"
    assert sorted(lines[1:]) == sorted([f"a {i}" for i in range(20)] + [f"b {i}" for i in range(20)])
    # Each agent's own lines are in its order.
    for name in "ab":
        assert [x for x in lines if x.startswith(name + " ")] == [f"{name} {i}" for i in range(20)]
    assert sum(retries) > 0  # the agents did collide (and recovered by re-reading)


async def test_two_agents_concurrent_edits_without_revision_all_apply(mcp_lab: LabServer, lab: Any, root: Path) -> None:
    """Edits computed under the document's lock (anchored to text, not offsets) never clobber each other."""
    (root / "list.md").write_text("# List\n\n- end\n")

    async def agent(tools: Tools, name: str) -> None:
        for i in range(10):
            await tools.ok(
                "document",
                "edit",
                path="list.md",
                edits=[{"op": "anchored", "text": "- end", "replacement": f"- {name}{i}\n- end"}],
            )

    async with lab(client_name="agent-a") as a, lab(client_name="agent-b") as b:
        await asyncio.gather(agent(a, "a"), agent(b, "b"))
    items = on_disk(root, "list.md").splitlines()[2:]
    assert items[-1] == "- end"
    assert sorted(items[:-1]) == sorted([f"- a{i}" for i in range(10)] + [f"- b{i}" for i in range(10)])


async def test_results_are_json_text_and_structured(mcp_lab: LabServer, lab: Any) -> None:
    async with lab() as tools:
        result = await tools.call("document", "read", path="doc.md")
    assert json.loads(result.content[0].text) == result.structured_content


WORKFLOW = """\
# CI for the docs
name: docs
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest  # the usual runner
    steps:
      - uses: actions/checkout@v4
"""


async def test_workflows_in_github_folder_are_reachable_while_dotfiles_stay_hidden(
    mcp_lab: LabServer, lab: Any, root: Path
) -> None:
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").write_text(WORKFLOW)
    (root / ".secret").mkdir()
    (root / ".secret" / "notes.md").write_text("hidden\n")
    async with lab() as tools:
        opened = await tools.ok("workspace", "open", filePath=".github/workflows/ci.yml")
        assert opened["kind"] == "yaml-workflow"
        await tools.ok(
            "workflow",
            "apply_patch",
            path=".github/workflows/ci.yml",
            expected_revision=opened["revision"],
            patches=[{"kind": "trigger.setFilters", "event": "push", "filter": "branches", "value": ["main", "dev"]}],
        )
        # Other dot-folders stay hidden, as Jupyter's contents manager has them.
        assert (await tools.fail("document", "read", path=".secret/notes.md"))["error"] in ("NOT_FOUND", "INVALID_PATH")
    text = on_disk(root, ".github/workflows/ci.yml")
    assert "# CI for the docs" in text and "# the usual runner" in text
    assert "main" in text and "dev" in text
    assert text.replace("[main, dev]", "[main]") == WORKFLOW
