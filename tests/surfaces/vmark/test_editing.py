"""The editing half of the vmark profile (spec/vmark-tools-v1.md) through the MCP SDK client.

Every one of its 38 tools with its documented arguments: the returned fields one by one and
the document afterwards (the tab's buffer, and the file, which only a save writes); under
the ``suggest`` policy every mutating tool stages a suggestion and leaves buffer and file as
they were, and accepting it gives what ``auto`` gives; bad input answers clear errors.

When the ``vmark`` profile is registered (``surfaces.PROFILES``) this runs against a real
Jupyter server's vmark endpoint; until then against an in-process server built from
``EDITING_TOOLS`` plus the few workspace tools a session needs (named as in the spec).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import Implementation

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import Window
from jupyter_mcp_lab.ops.context import Services
from jupyter_mcp_lab.ops.workspace import files
from jupyter_mcp_lab.surfaces import PROFILES, FlatTool, Surface, build_server
from jupyter_mcp_lab.surfaces import vmark2 as _vmark2
from jupyter_mcp_lab.surfaces.vmark import EDITING_TOOLS
from tests.conftest import CLIENT_NAME, CLIENT_VERSION, Tools, leaf_exceptions
from tests.helpers import make_services

REAL = "vmark" in PROFILES
SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])

PARA = "# Title\n\nAlpha beta gamma.\n\nEnd.\n"
TABLE = "Intro.\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\nEnd.\n"
LIST = "- one\n- two\n- three\n"
CJK = "中文,English很好.\n"

# VMark's documented arguments per tool: (required, optional). Every tool also takes windowId.
SPEC: dict[str, tuple[set[str], set[str]]] = {
    "document_get_content": (set(), set()),
    "document_set_content": ({"content"}, set()),
    "document_insert_at_cursor": ({"text"}, set()),
    "document_insert_at_position": ({"text", "position"}, set()),
    "document_search": ({"query"}, {"caseSensitive"}),
    "document_replace": ({"search", "replace"}, {"all"}),
    "selection_get": (set(), set()),
    "selection_set": ({"from", "to"}, set()),
    "selection_replace": ({"text"}, set()),
    "selection_delete": (set(), set()),
    "cursor_get_context": (set(), {"linesBefore", "linesAfter"}),
    "cursor_set_position": ({"position"}, set()),
    "format_toggle": ({"mark"}, set()),
    "format_set_link": ({"href"}, {"title"}),
    "format_remove_link": (set(), set()),
    "format_clear": (set(), set()),
    "block_set_type": ({"type"}, {"level", "language"}),
    "block_toggle": ({"type"}, {"level"}),
    "block_insert_horizontal_rule": (set(), set()),
    "list_toggle": ({"type"}, set()),
    "list_indent": (set(), set()),
    "list_outdent": (set(), set()),
    "table_insert": ({"rows", "cols"}, {"withHeaderRow"}),
    "table_delete": (set(), set()),
    "table_add_row": ({"position"}, set()),
    "table_delete_row": (set(), set()),
    "table_add_column": ({"position"}, set()),
    "table_delete_column": (set(), set()),
    "table_toggle_header_row": (set(), set()),
    "editor_undo": (set(), set()),
    "editor_redo": (set(), set()),
    "editor_focus": (set(), set()),
    "insert_math_inline": ({"latex"}, set()),
    "insert_math_block": ({"latex"}, set()),
    "insert_mermaid": ({"code"}, set()),
    "insert_wiki_link": ({"target"}, {"displayText"}),
    "cjk_punctuation_convert": ({"direction"}, set()),
    "cjk_spacing_fix": ({"action"}, set()),
}
READ_ONLY = {
    "document_get_content",
    "document_search",
    "selection_get",
    "selection_set",
    "cursor_get_context",
    "cursor_set_position",
    "editor_focus",
}

# --------------------------------------------------------------------------- the server


@dataclass
class Env:
    services: Services
    root: Path
    session: Callable[[], AbstractAsyncContextManager[Tools]]

    @property
    def approval(self) -> str:
        return self.services.settings.approval


# Stand-ins for the other half of the profile (workspace tools), named and shaped as in the spec.
HELPERS = (
    FlatTool("workspace_open_document", files.open_, rename={"filePath": "path"}, hidden=frozenset({"windowLabel"})),
    FlatTool("workspace_save_document", files.save, hidden=frozenset({"tabId"})),
)

if REAL:

    @pytest.fixture
    def mcp_profiles() -> list[str]:
        return ["vmark"]

    @pytest.fixture
    def env(mcp_lab: Any, mcp_client: Any) -> Env:
        @asynccontextmanager
        async def session() -> AsyncIterator[Tools]:
            async with mcp_client("vmark") as client:
                yield Tools(client)

        return Env(mcp_lab.extension.services, Path(mcp_lab.serverapp.root_dir), session)

else:

    @pytest.fixture
    def env(tmp_path: Path, mcp_app_config: dict[str, Any]) -> Env:
        services = make_services(tmp_path, approval=mcp_app_config.get("approval", "auto"))
        surface = Surface(
            "vmark-editing",
            "VMark editing tools (test)",
            "Test surface: the editing half of the vmark profile.",
            tools=EDITING_TOOLS + HELPERS,
            render_error=_vmark2.render_error,
        )
        server = build_server(surface, services)

        @asynccontextmanager
        async def session() -> AsyncIterator[Tools]:
            info = Implementation(name=CLIENT_NAME, version=CLIENT_VERSION)
            try:
                async with Client(server, client_info=info) as client:
                    yield Tools(client)
            except BaseExceptionGroup as group:  # the test's own assertion, not the SDK's task groups
                leaves = list(leaf_exceptions(group))
                if len(leaves) == 1:
                    raise leaves[0] from None
                raise

        return Env(services, services.settings.root_dir, session)


async def opened(env: Env, tools: Tools, text: str, select: tuple[int, int] | None = None) -> None:
    (env.root / "doc.md").write_text(text)
    await tools.ok("workspace_open_document", path="doc.md")
    if select is not None:
        await tools.ok("selection_set", **{"from": select[0], "to": select[1]})


async def content(tools: Tools) -> str:
    return str((await tools.ok("document_get_content"))["content"])


def error_of(payload: dict[str, Any]) -> dict[str, Any]:
    """The error envelope {error, message, ...} in whichever shape the profile renders it:
    as is, or VMark's {success: false, error: <JSON envelope or a plain message>}."""
    if payload.get("success") is False:
        try:
            decoded = json.loads(payload["error"])
        except ValueError:
            return {"error": "INVALID_ARGUMENT", "message": payload["error"]}
        assert isinstance(decoded, dict)
        return decoded
    assert isinstance(payload.get("error"), str) and payload.get("message"), payload
    return payload


def at(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


# --------------------------------------------------------------------------- the listing


async def test_the_38_tools_with_vmarks_names_and_arguments(env: Env) -> None:
    async with env.session() as tools:
        listing = {t.name: t for t in (await tools.client.list_tools()).tools}
    assert len(SPEC) == 38 and set(SPEC) <= set(listing)
    for name, (required, optional) in SPEC.items():
        tool = listing[name]
        props = set(tool.input_schema["properties"])
        documented = required | optional | {"windowId"}
        assert documented <= props, f"{name} lacks {documented - props}"
        assert set(tool.input_schema.get("required", [])) == required, name
        # Beyond VMark's own, only our conveniences: a revision guard, a note for the reviewer, paging.
        assert props - documented <= {"baseRevision", "rationale", "lineStart", "lineEnd"}, name
        assert tool.description and len(tool.description) < 400, name
        assert tool.output_schema is not None, name
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (name in READ_ONLY), name
    enum = listing["format_toggle"].input_schema["properties"]["mark"]["enum"]
    assert enum == ["bold", "italic", "code", "strike", "underline", "highlight"]
    assert listing["block_set_type"].input_schema["properties"]["type"]["enum"] == [
        "paragraph",
        "heading",
        "codeBlock",
        "blockquote",
    ]
    assert listing["table_add_row"].input_schema["properties"]["position"]["enum"] == ["before", "after"]
    assert listing["cjk_punctuation_convert"].input_schema["properties"]["direction"]["enum"] == [
        "to-fullwidth",
        "to-halfwidth",
    ]


async def test_every_tool_takes_window_id(env: Env) -> None:
    async with env.session() as tools:
        listing = {t.name: t for t in (await tools.client.list_tools()).tools}
    assert [n for n in SPEC if "windowId" not in listing[n].input_schema["properties"]] == []


# --------------------------------------------------------------------------- reading tools


async def test_reading_tools(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA)
        got = await tools.ok("document_get_content")
        assert (got["content"], got["revision"], got["filePath"]) == (PARA, revision_of(PARA), "doc.md")
        found = await tools.ok("document_search", query="BETA")
        assert found["count"] == 1
        [m] = found["matches"]
        assert (m["from"], m["to"], m["line"], m["text"]) == (15, 19, 3, "beta")
        assert (await tools.ok("document_search", query="BETA", caseSensitive=True))["count"] == 0
        s = await tools.ok("selection_set", **{"from": 15, "to": 19})
        assert (s["text"], s["from"], s["to"], s["isEmpty"]) == ("beta", 15, 19, False)
        s = await tools.ok("selection_get")
        assert (s["text"], s["from"], s["to"], s["isEmpty"]) == ("beta", 15, 19, False)
        c = await tools.ok("cursor_get_context", linesBefore=1, linesAfter=1)
        assert (c["before"], c["currentLine"], c["after"]) == ("\n", "Alpha beta gamma.", "\n")
        assert c["currentParagraph"] == "Alpha beta gamma."
        assert (c["block"]["type"], c["block"]["inList"], c["block"]["position"]) == ("paragraph", None, 9)
        p = await tools.ok("cursor_set_position", position=3)
        assert (p["from"], p["to"], p["isEmpty"]) == (3, 3, True)
        heading = (await tools.ok("cursor_get_context"))["block"]
        assert (heading["type"], heading["level"], heading["position"]) == ("heading", 1, 0)
        f = await tools.ok("editor_focus")
        assert (f["windowId"], f["filePath"]) == ("main", "doc.md")
        assert (await tools.ok("editor_focus", windowId="main"))["tabId"] == f["tabId"]


# --------------------------------------------------------------------------- every mutating tool


@dataclass
class Case:
    tool: str
    arguments: dict[str, Any]
    text: str
    after: str
    select: tuple[int, int] | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # result fields under the auto policy


def _cases() -> list[Case]:
    beta = at(PARA, "beta")
    bold = PARA.replace("beta", "**beta**")
    cell1, cell2, cell_a = at(TABLE, "1"), at(TABLE, "2"), at(TABLE, "A")
    after_gamma = "gamma.\n\n"
    return [
        Case("document_set_content", {"content": "# New\n"}, "", "# New\n", fields={"count": 1}),
        Case(
            "document_insert_at_cursor",
            {"text": "New. "},
            PARA,
            PARA.replace("Alpha", "New. Alpha"),
            (9, 9),
            {"position": 9},
        ),
        Case(
            "document_insert_at_position",
            {"text": "!", "position": 7},
            PARA,
            PARA.replace("Title", "Title!"),
            fields={"position": 7},
        ),
        Case(
            "document_replace",
            {"search": "a", "replace": "A", "all": True},
            PARA,
            PARA.replace("a", "A"),
            fields={"count": 4, "message": "Applied: replaced 4 occurrences of 'a'"},
        ),
        Case(
            "selection_replace",
            {"text": "BETA"},
            PARA,
            PARA.replace("beta", "BETA"),
            beta,
            {"range": {"from": 15, "to": 19}, "originalContent": "beta"},
        ),
        Case(
            "selection_delete",
            {},
            PARA,
            PARA.replace("beta ", ""),
            (15, 20),
            {"range": {"from": 15, "to": 20}, "content": "beta "},
        ),
        Case("format_toggle", {"mark": "bold"}, PARA, PARA.replace("beta", "**beta**"), beta, {"position": 15}),
        Case(
            "format_set_link",
            {"href": "https://x.org", "title": "X"},
            PARA,
            PARA.replace("beta", '[beta](https://x.org "X")'),
            beta,
            {"position": 15},
        ),
        Case("format_remove_link", {}, PARA.replace("beta", "[beta](u)"), PARA, (17, 17), {"position": 15}),
        Case("format_clear", {}, bold, PARA, at(bold, "beta"), {"position": 15}),
        Case(
            "block_set_type",
            {"type": "heading", "level": 2},
            PARA,
            PARA.replace("Alpha", "## Alpha"),
            (12, 12),
            {"position": 9},
        ),
        Case("block_toggle", {"type": "blockquote"}, PARA, PARA.replace("Alpha", "> Alpha"), (12, 12), {"position": 9}),
        Case(
            "block_insert_horizontal_rule",
            {},
            PARA,
            PARA.replace(after_gamma, after_gamma + "---\n\n"),
            (12, 12),
            {"position": 28},
        ),
        Case("list_toggle", {"type": "task"}, PARA, PARA.replace("Alpha", "- [ ] Alpha"), (12, 12), {"position": 9}),
        Case("list_indent", {}, LIST, "- one\n  - two\n- three\n", (9, 9), {"position": 6}),
        Case("list_outdent", {}, "- one\n  - two\n- three\n", LIST, (11, 11), {"position": 6}),
        Case(
            "table_insert",
            {"rows": 2, "cols": 2, "withHeaderRow": True},
            PARA,
            PARA.replace(after_gamma, after_gamma + "|     |     |\n| --- | --- |\n|     |     |\n\n"),
            (12, 12),
            {"position": 28},
        ),
        Case("table_delete", {}, TABLE, "Intro.\n\nEnd.\n", cell1, {"position": 8}),
        Case(
            "table_add_row",
            {"position": "after"},
            TABLE,
            TABLE.replace("| 2 |\n", "| 2 |\n|  |  |\n"),
            cell2,
            {"position": 44},
        ),
        Case("table_delete_row", {}, TABLE, TABLE.replace("| 1 | 2 |\n", ""), cell1, {"position": 34}),
        Case(
            "table_add_column",
            {"position": "before"},
            TABLE,
            "Intro.\n\n|  | A | B |\n| --- | --- | --- |\n|  | 1 | 2 |\n|  | 3 | 4 |\n\nEnd.\n",
            cell_a,
            {"position": 10},
        ),
        Case(
            "table_delete_column",
            {},
            TABLE,
            "Intro.\n\n| A |\n| --- |\n| 1 |\n| 3 |\n\nEnd.\n",
            cell2,
            {"position": 13},
        ),
        Case(
            "table_toggle_header_row",
            {},
            TABLE,
            "Intro.\n\n|  |  |\n| --- | --- |\n| A | B |\n| 1 | 2 |\n| 3 | 4 |\n\nEnd.\n",
            cell1,
            {"position": 10},
        ),
        Case(
            "insert_math_inline",
            {"latex": "E = mc^2"},
            PARA,
            PARA.replace("beta", "$E = mc^2$beta"),
            (15, 15),
            {"position": 15},
        ),
        Case(
            "insert_math_block",
            {"latex": "x^2"},
            PARA,
            PARA.replace(after_gamma, after_gamma + "$$\nx^2\n$$\n\n"),
            (12, 12),
            {"position": 28},
        ),
        Case(
            "insert_mermaid",
            {"code": "graph TD\n    A --> B"},
            PARA,
            PARA.replace(after_gamma, after_gamma + "```mermaid\ngraph TD\n    A --> B\n```\n\n"),
            (12, 12),
            {"position": 28},
        ),
        Case(
            "insert_wiki_link",
            {"target": "Page", "displayText": "Shown"},
            PARA,
            PARA.replace("beta", "[[Page|Shown]]beta"),
            (15, 15),
            {"position": 15},
        ),
        Case(
            "cjk_punctuation_convert",
            {"direction": "to-fullwidth"},
            CJK,
            "中文，English很好。\n",  # noqa: RUF001
            fields={"count": 2},
        ),
        Case("cjk_spacing_fix", {"action": "add"}, CJK, "中文,English 很好.\n", fields={"count": 1}),
    ]


CASES = _cases()
MUTATING = sorted(set(SPEC) - READ_ONLY - {"editor_undo", "editor_redo"})


def test_every_mutating_tool_has_a_case() -> None:
    assert sorted(c.tool for c in CASES) == MUTATING


@pytest.mark.parametrize("case", CASES, ids=[c.tool for c in CASES])
async def test_each_tool_applies_under_auto(env: Env, case: Case) -> None:
    async with env.session() as tools:
        await opened(env, tools, case.text, case.select)
        r = await tools.ok(case.tool, **case.arguments)
        assert await content(tools) == case.after
        assert (env.root / "doc.md").read_text() == case.text  # edits stay in the editor until saved
        for name, value in case.fields.items():
            assert r[name] == value, (name, r)
        assert r["applied"] is True
        assert r["message"].startswith("Applied")
        assert r.get("suggestionId") is None and r.get("suggestionIds") is None
        await tools.ok("workspace_save_document")
    assert (env.root / "doc.md").read_text() == case.after


@SUGGEST
@pytest.mark.parametrize("case", CASES, ids=[c.tool for c in CASES])
async def test_each_tool_is_staged_under_suggest(env: Env, case: Case) -> None:
    assert env.approval == "suggest"
    async with env.session() as tools:
        await opened(env, tools, case.text, case.select)
        r = await tools.ok(case.tool, **case.arguments)
        assert r["applied"] is False
        assert r["message"].startswith("Staged for a person's review")
        ids = r["suggestionIds"] if case.tool == "document_replace" else [r["suggestionId"]]
        assert ids and all(isinstance(i, str) and i for i in ids)
        assert await content(tools) == case.text
        assert (env.root / "doc.md").read_text() == case.text
        pending = env.services.reviews.pending()
        assert sorted(s.id for s in pending) == sorted(ids)
        await env.services.reviews.accept_all(by="person", ids=ids)  # the person accepts in JupyterLab
        assert await content(tools) == case.after


async def test_undo_and_redo(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, at(PARA, "beta"))
        await tools.ok("format_toggle", mark="bold")
        u = await tools.ok("editor_undo")
        assert (u["applied"], u["canUndo"], u["canRedo"]) == (True, False, True)
        assert u["revision"] == revision_of(PARA) and await content(tools) == PARA
        r = await tools.ok("editor_redo")
        assert (r["applied"], r["canRedo"]) == (True, False)
        assert await content(tools) == PARA.replace("beta", "**beta**")
        e = error_of(await tools.fail("editor_redo"))  # nothing left to redo
        assert e["error"] == "NOT_FOUND" and "redo" in e["message"]


@SUGGEST
async def test_undo_is_staged_under_suggest(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, at(PARA, "beta"))
        r = await tools.ok("format_toggle", mark="bold")
        await env.services.reviews.accept_all(by="person", ids=[r["suggestionId"]])
        bold = PARA.replace("beta", "**beta**")
        assert await content(tools) == bold
        u = await tools.ok("editor_undo")
        assert u["applied"] is False and u["suggestionIds"]
        assert await content(tools) == bold
        await env.services.reviews.accept_all(by="person", ids=u["suggestionIds"])
        assert await content(tools) == PARA


# --------------------------------------------------------------------------- errors


async def test_bad_input_gets_clear_errors(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, (12, 12))

        async def error(tool: str, **arguments: Any) -> dict[str, Any]:
            return error_of(await tools.fail(tool, **arguments))

        e = await error("format_toggle", mark="bolder")
        assert e["error"] == "INVALID_ARGUMENT" and "mark" in e["message"]
        e = await error("format_toggle", mark="bold")
        assert e["error"] == "NOT_FOUND" and "nothing is selected" in e["message"]
        e = await error("block_set_type", type="heading")
        assert e["error"] == "INVALID_ARGUMENT" and "level" in e["message"]
        e = await error("table_add_row", position="above")
        assert e["error"] == "INVALID_ARGUMENT" and "position" in e["message"]
        e = await error("table_delete_row")
        assert e["error"] == "NOT_FOUND" and "not a table" in e["message"]
        e = await error("table_insert", rows=0, cols=2)
        assert e["error"] == "INVALID_ARGUMENT" and "rows" in e["message"]
        e = await error("document_set_content", content="# Replace everything\n")  # VMark's plain message
        assert e["message"].startswith("Failed to set document content:") and "only allowed on empty" in e["message"]
        e = await error("selection_set", **{"from": 9, "to": 3})
        assert e["error"] == "INVALID_ARGUMENT" and "from" in e["message"]
        e = await error("insert_wiki_link", target="a|b")
        assert e["error"] == "INVALID_ARGUMENT" and "target" in e["message"]
        e = await error("format_toggle", mark="bold", windowId="nowhere")
        assert e["error"] == "INVALID_TAB" and "nowhere" in e["message"]
        e = await error("format_toggle", mark="bold", windowID="main")  # a misspelled argument is not ignored
        assert e["error"] == "INVALID_ARGUMENT" and "windowID" in e["message"]
        e = await error("format_toggle", mark="bold", baseRevision=revision_of("old"))
        assert e["error"] == "STALE" and e["current_revision"] == revision_of(PARA)
        assert await content(tools) == PARA


async def test_without_a_document_the_answer_is_invalid_tab(env: Env) -> None:
    async with env.session() as tools:
        for tool, arguments in [("document_search", {"query": "x"}), ("format_clear", {}), ("editor_focus", {})]:
            assert error_of(await tools.fail(tool, **arguments))["error"] == "INVALID_TAB"


async def test_window_id_and_base_revision_are_honoured(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, at(PARA, "beta"))
        r = await tools.ok("format_toggle", mark="bold", windowId="main", baseRevision=revision_of(PARA))
        assert r["applied"] and await content(tools) == PARA.replace("beta", "**beta**")
        found = await tools.ok("document_search", query="beta", windowId="main")
        assert found["count"] == 1


OTHER = "# Other\n\nOne two three.\n"


async def second_window(env: Env) -> dict[str, str]:
    """Window lab-1 (a JupyterLab client) with stale.md, then other.md: for this session, which
    never focused lab-1, its active tab is the last one, other.md. Returns the tab ids by path."""
    (env.root / "stale.md").write_text("Stale.\n")
    (env.root / "other.md").write_text(OTHER)
    workspace = env.services.workspace
    window = workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    ids = {}
    for name in ("stale.md", "other.md"):
        tab = workspace.show(await env.services.docs.open(name), window, "another-session")
        ids[name] = tab.id
    return ids


async def test_window_id_selects_that_windows_active_tab(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, at(PARA, "beta"))  # focused: doc.md in main, "beta" selected
        tabs = await second_window(env)
        lab1 = {"windowId": "lab-1"}

        async def other() -> str:
            got = await tools.ok("document_get_content", **lab1)
            assert got["filePath"] == "other.md"
            return str(got["content"])

        assert await other() == OTHER
        two = at(OTHER, "two")
        s = await tools.ok("selection_set", **{"from": two[0], "to": two[1]}, **lab1)
        assert (s["text"], s["from"], s["to"]) == ("two", *two)
        assert (await tools.ok("selection_get", **lab1))["text"] == "two"
        assert (await tools.ok("selection_get"))["text"] == "beta"  # the focused tab's selection is its own
        c = await tools.ok("cursor_get_context", linesBefore=0, linesAfter=0, **lab1)
        assert (c["currentLine"], c["block"]["position"]) == ("One two three.", OTHER.index("One"))
        r = await tools.ok("selection_replace", text="2", **lab1)
        assert (r["applied"], r["originalContent"], r["range"]) == (True, "two", {"from": two[0], "to": two[1]})
        assert await other() == OTHER.replace("two", "2")
        assert (await tools.ok("cursor_set_position", position=0, **lab1))["isEmpty"] is True
        r = await tools.ok("document_insert_at_cursor", text="> ", **lab1)
        assert (r["applied"], r["position"]) == (True, 0)
        edited = "> " + OTHER.replace("two", "2")
        r = await tools.ok("document_insert_at_position", text="Tail.\n", position=len(edited), **lab1)
        assert (r["applied"], r["position"]) == (True, len(edited))
        tail = at(edited + "Tail.\n", "Tail.\n")
        await tools.ok("selection_set", **{"from": tail[0], "to": tail[1]}, **lab1)
        assert (await tools.ok("selection_delete", **lab1))["content"] == "Tail.\n"
        assert await other() == edited
        await tools.ok("editor_undo", **lab1)
        assert await other() == edited + "Tail.\n"
        await tools.ok("editor_redo", **lab1)
        assert await other() == edited
        # A tab id names its window's tab; an unknown window is an error naming it.
        assert (await tools.ok("document_get_content", windowId=tabs["stale.md"]))["content"] == "Stale.\n"
        e = error_of(await tools.fail("selection_get", windowId="nowhere"))
        assert e["error"] == "INVALID_TAB" and "nowhere" in e["message"]
        # Nothing else moved: the focused document, the other tab of lab-1, the files (tabs keep
        # their changes until saved), the session's focus.
        assert await content(tools) == PARA
        assert (await tools.ok("selection_get"))["text"] == "beta"
    stale = next(t for t in env.services.workspace.tabs() if t.id == tabs["stale.md"])
    assert stale.doc.text == "Stale.\n"
    assert [(env.root / n).read_text() for n in ("doc.md", "other.md")] == [PARA, OTHER]


@SUGGEST
async def test_window_id_edits_are_staged_on_that_windows_document(env: Env) -> None:
    async with env.session() as tools:
        await opened(env, tools, PARA, at(PARA, "beta"))
        await second_window(env)
        two = at(OTHER, "two")
        await tools.ok("selection_set", **{"from": two[0], "to": two[1]}, windowId="lab-1")
        r = await tools.ok("selection_replace", text="2", windowId="lab-1")
        assert (r["applied"], r["mode"]) == (False, "suggest")
        staged = env.services.reviews.get(r["suggestionId"])
        assert (staged.path, staged.original, staged.new) == ("other.md", "two", "2")
        assert (await tools.ok("document_get_content", windowId="lab-1"))["content"] == OTHER
        assert await content(tools) == PARA
