"""VMark's selection, cursor and insert tools (surfaces/vmark/selection.py, adapters over
``cursor.get``, ``cursor.set`` and ``cursor.edit``) through an in-process MCP client on real files.

This module builds a small surface of those adapters as flat tools named as in
spec/vmark-tools-v1.md, without the vmark profile's hidden arguments (so mode, save and
tabId can be exercised), beside the workspace and document operations a session needs.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import CallToolResult, Implementation, TextContent

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import report_person_selection
from jupyter_mcp_lab.ops.context import Services
from jupyter_mcp_lab.ops.document import text as text_ops
from jupyter_mcp_lab.ops.workspace import files
from jupyter_mcp_lab.surfaces import FlatTool, Surface, build_server
from jupyter_mcp_lab.surfaces.vmark import selection as vmark
from tests.conftest import leaf_exceptions
from tests.helpers import make_services

DOC = "# Title\n\nAlpha one.\n\nBeta two.\n\nGamma three.\n"
BETA = DOC.index("Beta two.")

SURFACE = Surface(
    name="selection-test",
    title="Selection tools (test)",
    instructions="Test surface for the selection operations.",
    tools=(
        FlatTool("workspace_open", files.open_),
        FlatTool("document_read", text_ops.read),
        FlatTool("document_write", text_ops.write),
        FlatTool("selection_get", vmark.selection_get),
        FlatTool("selection_set", vmark.selection_set),
        FlatTool("selection_replace", vmark.selection_replace),
        FlatTool("selection_delete", vmark.selection_delete),
        FlatTool("cursor_get_context", vmark.cursor_get_context),
        FlatTool("cursor_set_position", vmark.cursor_set_position),
        FlatTool("document_insert_at_cursor", vmark.insert_at_cursor),
        FlatTool("document_insert_at_position", vmark.insert_at_position),
    ),
)


class Agent:
    """One MCP session's tool calls: ``ok`` expects a result, ``fail`` an error envelope."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def _call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        result = await self.client.call_tool(tool, arguments)
        assert isinstance(result, CallToolResult)
        return result

    async def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        r = await self._call(tool, arguments)
        text = "".join(c.text for c in r.content if isinstance(c, TextContent))
        assert not r.is_error, f"{tool} {arguments}: {text}"
        assert r.structured_content is not None and json.loads(text) == r.structured_content
        return r.structured_content

    async def fail(self, tool: str, **arguments: Any) -> dict[str, Any]:
        r = await self._call(tool, arguments)
        assert r.is_error and r.structured_content is not None, f"{tool} {arguments} did not fail"
        return r.structured_content


Lab = tuple[Services, Callable[[], AbstractAsyncContextManager[Agent]], Path]


def make_lab(tmp_path: Path, approval: str) -> Lab:
    services = make_services(tmp_path, approval=approval)
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    server = build_server(SURFACE, services)

    @asynccontextmanager
    async def agent() -> AsyncIterator[Agent]:
        try:
            async with Client(server, client_info=Implementation(name="agent", version="1")) as client:
                yield Agent(client)
        except BaseExceptionGroup as group:  # show the test's own assertion, not the SDK's task groups
            leaves = list(leaf_exceptions(group))
            if len(leaves) == 1:
                raise leaves[0] from None
            raise

    return services, agent, root


@pytest.fixture
def auto(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto")


@pytest.fixture
def suggest(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "suggest")


async def opened(a: Agent) -> str:
    return str((await a.ok("workspace_open", filePath="doc.md"))["tabId"])


async def buffer(a: Agent) -> str:
    return str((await a.ok("document_read"))["content"])


# --------------------------------------------------------------------------- get / set


async def test_a_new_tab_has_a_cursor_at_0_and_set_selects(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        first = await a.ok("selection_get")
        assert first == {
            "from": 0,
            "to": 0,
            "text": "",
            "isEmpty": True,
            "source": "agent",
            "revision": revision_of(DOC),
        }
        s = await a.ok("selection_set", **{"from": BETA}, to=BETA + 9)
        assert (s["text"], s["from"], s["to"], s["isEmpty"]) == ("Beta two.", BETA, BETA + 9, False)
        assert await a.ok("selection_get") == s
        c = await a.ok("cursor_set_position", position=3)
        assert (c["from"], c["to"], c["isEmpty"], c["text"]) == (3, 3, True, "")


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"from": 5, "to": 2}, "from"),
        ({"from": 0, "to": len(DOC) + 1}, "to"),
        ({"from": -1, "to": 2}, "from"),
        ({"from": "x", "to": 2}, "from"),
    ],
)
async def test_set_refuses_bad_ranges_naming_the_argument(auto: Lab, arguments: dict[str, Any], argument: str) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        err = await a.fail("selection_set", **arguments)
        assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", argument), err
        assert (await a.ok("selection_get"))["from"] == 0  # nothing was set


async def test_positions_beyond_the_end_are_refused(auto: Lab, suggest: Lab) -> None:
    for _, agent, root in (auto, suggest):
        async with agent() as a:
            await opened(a)
            err = await a.fail("cursor_set_position", position=len(DOC) + 1)
            assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "position")
            err = await a.fail("document_insert_at_position", text="x", position=len(DOC) + 1)
            assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "position")
            assert (await a.ok("cursor_set_position", position=len(DOC)))["from"] == len(DOC)  # the end is fine
        assert (root / "doc.md").read_text() == DOC


async def test_without_a_tab_the_answer_is_invalid_tab(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        assert (await a.fail("selection_get"))["error"] == "INVALID_TAB"
        assert (await a.fail("selection_replace", text="x", tabId="tab-99"))["error"] == "INVALID_TAB"


# --------------------------------------------------------------------------- edits, policy auto


async def test_replace_applies_and_moves_the_cursor_after_the_text(auto: Lab) -> None:
    services, agent, root = auto
    async with agent() as a:
        await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 9)
        r = await a.ok("selection_replace", text="Beta 2!")
        assert (r["applied"], r["mode"], r["suggestionId"]) == (True, "apply", None)
        assert (r["range"], r["originalContent"]) == ({"from": BETA, "to": BETA + 9}, "Beta two.")
        assert r["checkpointId"] and r["message"].startswith("Applied: replace")
        new = DOC.replace("Beta two.", "Beta 2!")
        assert r["revision"] == revision_of(new)
        assert await buffer(a) == new
        assert (root / "doc.md").read_text() == DOC  # a tab keeps the change until it is saved
        s = await a.ok("selection_get")
        assert (s["from"], s["to"], s["source"]) == (BETA + 7, BETA + 7, "agent")
        again = await a.ok("selection_replace", text=" Done.", save=True)  # empty selection: insert at the cursor
        assert again["range"] == {"from": BETA + 7, "to": BETA + 7} and again["originalContent"] == ""
    assert (root / "doc.md").read_text() == DOC.replace("Beta two.", "Beta 2! Done.")
    [_, cp1] = services.reviews.store.list_checkpoints("doc.md")
    assert (cp1.id, cp1.old, cp1.new) == (r["checkpointId"], "two.", "2!")


async def test_delete_applies_and_leaves_the_cursor_where_the_text_was(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        assert (await a.fail("selection_delete"))["error"] == "NOT_FOUND"  # nothing selected
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 11)
        r = await a.ok("selection_delete")
        assert (r["applied"], r["content"], r["range"]) == (True, "Beta two.\n\n", {"from": BETA, "to": BETA + 11})
        assert await buffer(a) == DOC.replace("Beta two.\n\n", "")
        s = await a.ok("selection_get")
        assert (s["from"], s["to"]) == (BETA, BETA)


async def test_insert_at_cursor_and_at_position_apply(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        await a.ok("cursor_set_position", position=BETA)
        r = await a.ok("document_insert_at_cursor", text="New. ")
        assert (r["applied"], r["position"], r["suggestionId"]) == (True, BETA, None)
        r2 = await a.ok("document_insert_at_cursor", text="More. ")  # the cursor moved after "New. "
        assert r2["position"] == BETA + 5
        assert await buffer(a) == DOC.replace("Beta", "New. More. Beta")
        p = await a.ok("document_insert_at_position", text="!", position=7)
        assert (p["applied"], p["position"]) == (True, 7)
        assert await buffer(a) == DOC.replace("Beta", "New. More. Beta").replace("# Title", "# Title!")
        s = await a.ok("selection_get")
        assert (s["from"], s["to"]) == (8, 8)


async def test_insert_at_cursor_goes_to_the_head_and_keeps_the_selected_text(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        tab = await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 4, tabId=tab)
        r = await a.ok("document_insert_at_cursor", text="X", tabId=tab)
        assert r["position"] == BETA + 4
        assert await buffer(a) == DOC.replace("Beta", "BetaX")


async def test_dry_run_changes_nothing(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 4)
        r = await a.ok("selection_replace", text="Zeta", mode="dryRun")
        assert (r["applied"], r["mode"], r["suggestionId"]) == (False, "dryRun", None)
        assert "-Beta two." in r["diff"] and "+Zeta two." in r["diff"]
        assert await buffer(a) == DOC
        assert (await a.ok("selection_get"))["text"] == "Beta"


async def test_a_wrong_expected_revision_is_stale(auto: Lab) -> None:
    _, agent, root = auto
    async with agent() as a:
        await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 4)
        wrong = revision_of("something else")
        calls: list[tuple[str, dict[str, Any]]] = [
            ("selection_replace", {"text": "x"}),
            ("selection_delete", {}),
            ("document_insert_at_cursor", {"text": "x"}),
            ("document_insert_at_position", {"text": "x", "position": 0}),
            ("selection_set", {"from": 0, "to": 1}),
            ("cursor_set_position", {"position": 1}),
        ]
        for tool, args in calls:
            err = await a.fail(tool, expected_revision=wrong, **args)
            assert (err["error"], err["current_revision"]) == ("STALE", revision_of(DOC)), tool
        assert await buffer(a) == DOC
        assert (await a.ok("selection_get"))["text"] == "Beta"
        ok = await a.ok("selection_replace", text="B", expected_revision=revision_of(DOC))
        assert ok["applied"]
    assert (root / "doc.md").read_text() == DOC


# --------------------------------------------------------------------------- edits, policy suggest


async def test_under_the_suggest_policy_edits_are_staged_and_the_selection_stays(suggest: Lab) -> None:
    services, agent, root = suggest
    async with agent() as a:
        await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 9)
        before = await a.ok("selection_get")
        ids: list[str] = []
        calls: list[tuple[str, dict[str, Any]]] = [
            ("selection_replace", {"text": "Beta 2.", "rationale": "digits"}),
            ("selection_delete", {}),
            ("document_insert_at_cursor", {"text": "X"}),
            ("document_insert_at_position", {"text": "Y", "position": 0}),
        ]
        for tool, args in calls:
            r = await a.ok(tool, mode="apply", **args)
            ids.append(r["suggestionId"])
            assert (r["applied"], r["mode"], r["revision"]) == (False, "suggest", revision_of(DOC)), tool
            assert isinstance(r["suggestionId"], str) and r["message"].startswith("Staged"), tool
            assert services.reviews.get(r["suggestionId"]).status == "pending"
            assert await a.ok("selection_get") == before, tool
            assert await buffer(a) == DOC
        assert (root / "doc.md").read_text() == DOC
        assert sorted(s.id for s in services.reviews.pending("doc.md")) == sorted(ids)
        [replace, delete, at_cursor, at_0] = [services.reviews.get(i) for i in ids]
        assert (replace.original, replace.new, replace.rationale) == ("two", "2", "digits")
        assert (delete.kind, delete.original) == ("delete", "Beta two.")
        assert (at_cursor.kind, at_cursor.start, at_cursor.new) == ("insert", BETA + 9, "X")
        assert (at_0.start, at_0.new) == (0, "Y")
        # Once a person accepts the replacement, the selection follows it onto the new text.
        await services.reviews.accept(replace.id, by="person")
        s = await a.ok("selection_get")
        assert (s["text"], s["from"]) == ("Beta 2.", BETA)


# --------------------------------------------------------------------------- following edits, the person


async def test_the_selection_follows_edits_made_by_others(auto: Lab) -> None:
    _, agent, root = auto
    async with agent() as a:
        await opened(a)
        await a.ok("selection_set", **{"from": BETA}, to=BETA + 9)
        # Another tool on the same tab (saved, so the buffer is clean and follows the disk).
        await a.ok("document_write", content="Preface.\n\n" + DOC, save=True)
        s = await a.ok("selection_get")
        assert (s["text"], s["from"]) == ("Beta two.", BETA + 10)
        (root / "doc.md").write_text("X" + (root / "doc.md").read_text().replace("Gamma", "Delta"))  # someone else
        s = await a.ok("selection_get")
        assert (s["text"], s["from"], s["to"]) == ("Beta two.", BETA + 11, BETA + 20)


async def test_the_persons_selection_wins_until_the_agent_sets_one(auto: Lab) -> None:
    services, agent, _ = auto
    async with agent() as a:
        tab_id = await opened(a)
        await a.ok("selection_set", **{"from": 0}, to=7)
        tab = services.workspace.tab(tab_id, "")
        report_person_selection(tab, BETA, BETA + 4)
        s = await a.ok("selection_get")
        assert (s["text"], s["source"]) == ("Beta", "person")
        r = await a.ok("selection_replace", text="Zeta")  # replaces what the person selected
        assert r["originalContent"] == "Beta"
        assert (await a.ok("selection_get"))["source"] == "agent"
        report_person_selection(tab, 2, 10**6)  # the browser may be ahead: clamped, never refused
        s = await a.ok("selection_get")
        assert (s["from"], s["to"], s["source"]) == (2, len(DOC), "person")


async def test_cursor_context_through_the_tool(auto: Lab) -> None:
    _, agent, _ = auto
    async with agent() as a:
        await opened(a)
        await a.ok("cursor_set_position", position=BETA + 2)
        c = await a.ok("cursor_get_context")
        assert c["currentLine"] == c["currentParagraph"] == "Beta two."
        assert (c["before"], c["after"]) == ("\nAlpha one.\n\n", "\nGamma three.\n")  # 3 lines each way
        assert c["block"] == {
            "type": "paragraph",
            "level": None,
            "language": None,
            "inList": None,
            "inBlockquote": False,
            "inTable": False,
            "position": BETA,
        }
        assert (c["position"], c["revision"]) == (BETA + 2, revision_of(DOC))
        one = await a.ok("cursor_get_context", linesBefore=1, linesAfter=0)
        assert (one["before"], one["after"]) == ("\n", "")
        err = await a.fail("cursor_get_context", linesBefore=-1)
        assert err["argument"] == "linesBefore"
