"""``cursor.edit``, one change at a tab's cursor or selection (ops/markdown/cursor_edit.py),
called directly; and the harness other operation tests share (``Lab``: real files opened in
tabs, operations called by name or object).

Each kind of change once: the buffer byte for byte, the result's fields (the label, where
the change starts, the range a text change replaced) and where the cursor ends; then under
the ``suggest`` policy, dry runs and errors naming the change's fields. VMark's tools over
it, case by case, are in tests/surfaces/vmark/test_cursor.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.selection import Selection
from jupyter_mcp_lab.core.workspace import Tab, Window, report_person_selection
from jupyter_mcp_lab.ops import Operation, registry
from jupyter_mcp_lab.ops.context import Caller, OpContext, Services
from tests.helpers import make_services

PARA = "# Title\n\nAlpha beta gamma.\n\nEnd.\n"
TABLE = "Intro.\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\nEnd.\n"
LIST = "- one\n- two\n- three\n"
NEW_HEADER = (
    "Intro.\n\n|  |  |\n| --- | --- |\n| A | B |\n| 1 | 2 |\n| 3 | 4 |\n\nEnd.\n"  # TABLE under an empty header
)


@dataclass
class Lab:
    services: Services
    ctx: OpContext
    root: Path
    tools: dict[str, Operation] = field(default_factory=dict)  # names that call a surface's adapter

    async def open(self, text: str, select: str | int | tuple[int, int] = 0, name: str = "doc.md") -> Tab:
        (self.root / name).write_text(text)
        op = registry.get("workspace.open")
        await op(self.ctx, op.params.model_validate({"filePath": name}))
        tab = self.services.workspace.tab(None, self.ctx.caller.session_id)
        tab.set_selection(Selection(*span(text, select)))
        return tab

    async def call(self, name: str | Operation, **arguments: Any) -> dict[str, Any]:
        op = name if isinstance(name, Operation) else self.tools.get(name) or registry.get(name)
        result = await op(self.ctx, op.params.model_validate(arguments))
        assert isinstance(result, BaseModel)
        return result.model_dump(by_alias=True)

    async def fail(self, name: str | Operation, **arguments: Any) -> dict[str, Any]:
        with pytest.raises(DomainError) as info:
            await self.call(name, **arguments)
        return info.value.envelope()


def span(text: str, select: str | int | tuple[int, int]) -> tuple[int, int]:
    """A selection given as the selected text (its first occurrence), a cursor offset or a range."""
    if isinstance(select, str):
        at = text.index(select)
        return at, at + len(select)
    if isinstance(select, int):
        return select, select
    return select


def make_lab(tmp_path: Path, approval: str, tools: dict[str, Operation] | None = None) -> Lab:
    services = make_services(tmp_path, approval=approval)
    ctx = OpContext(services, Caller("ada", "Ada", "agent", "1", "session-1", "vmark"))
    return Lab(services, ctx, services.settings.root_dir, tools or {})


@pytest.fixture
def lab(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto")


@pytest.fixture
def suggest(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "suggest")


# --------------------------------------------------------------------------- cursor.edit, kind by kind

# (document, selection, the change, document after, its label, position, cursor after or None)
KINDS: list[tuple[str, str | int | tuple[int, int], dict[str, Any], str, str, int, int | None]] = [
    (PARA, 15, {"kind": "insert", "text": "New "}, PARA.replace("beta", "New beta"), "insert at cursor", 15, 19),
    (PARA, 15, {"kind": "insert", "text": "!", "at": 7}, PARA.replace("Title", "Title!"), "insert at position", 7, 8),
    (PARA, "beta", {"kind": "replace", "text": "BETA"}, PARA.replace("beta", "BETA"), "selection replace", 15, 19),
    (PARA, "beta ", {"kind": "delete"}, PARA.replace("beta ", ""), "selection delete", 15, 15),
    (PARA, "beta", {"kind": "format", "mark": "bold"}, PARA.replace("beta", "**beta**"), "toggle bold", 15, None),
    (PARA.replace("beta", "*beta*"), "*beta*", {"kind": "format", "mark": "clear"}, PARA, "clear formatting", 15, None),
    (PARA, "beta", {"kind": "link", "url": "u"}, PARA.replace("beta", "[beta](u)"), "set link", 15, None),
    (PARA.replace("beta", "[beta](u)"), 17, {"kind": "link"}, PARA, "remove link", 15, None),
    (
        PARA,
        12,
        {"kind": "block", "type": "heading", "level": 2},
        PARA.replace("Alpha", "## Alpha"),
        "set block type heading",
        9,
        None,
    ),
    (
        PARA,
        3,
        {"kind": "block", "type": "heading", "toggle": True},
        PARA.replace("# ", ""),
        "toggle block heading",
        0,
        None,
    ),
    (PARA, 12, {"kind": "list", "type": "task"}, PARA.replace("Alpha", "- [ ] Alpha"), "toggle task list", 9, None),
    (LIST, 9, {"kind": "indent"}, "- one\n  - two\n- three\n", "indent list item", 6, None),
    ("- one\n  - two\n- three\n", 11, {"kind": "outdent"}, LIST, "outdent list item", 6, None),
    (
        PARA,
        12,
        {"kind": "table", "change": "insert", "rows": 2, "cols": 1},
        PARA.replace("gamma.\n", "gamma.\n\n|     |\n| --- |\n|     |\n"),
        "insert 2x1 table",
        28,
        30,
    ),
    (TABLE, "3", {"kind": "table", "change": "delete_row"}, TABLE.replace("| 3 | 4 |\n", ""), "delete row", 42, None),
    (TABLE, "2", {"kind": "table", "change": "add_column", "side": "before"}, None, "add column before", 14, None),
    (TABLE, "1", {"kind": "table", "change": "toggle_header_row"}, NEW_HEADER, "toggle header row", 10, None),
    (TABLE, "1", {"kind": "table", "change": "delete"}, "Intro.\n\nEnd.\n", "delete table", 8, None),
    (PARA, 12, {"kind": "rule"}, PARA.replace("gamma.\n", "gamma.\n\n---\n"), "insert horizontal rule", 28, 31),
    (PARA, 15, {"kind": "math", "latex": "x"}, PARA.replace("beta", "$x$beta"), "insert inline math", 15, 18),
    (
        PARA,
        26,
        {"kind": "math", "latex": "x", "display": True},
        PARA.replace("gamma.\n", "gamma.\n\n$$\nx\n$$\n"),
        "insert math block",
        28,
        35,
    ),
    (
        PARA,
        26,
        {"kind": "mermaid", "code": "graph TD"},
        PARA.replace("gamma.\n", "gamma.\n\n```mermaid\ngraph TD\n```\n"),
        "insert mermaid diagram",
        28,
        51,
    ),
    (
        PARA,
        15,
        {"kind": "wikilink", "target": "Page", "alias": "P"},
        PARA.replace("beta", "[[Page|P]]beta"),
        "insert wiki link",
        15,
        25,
    ),
]
KINDS_IDS = [f"{c[2]['kind']}-{n}" for n, c in enumerate(KINDS)]


def test_every_kind_has_a_case() -> None:
    from jupyter_mcp_lab.ops.markdown.cursor_kinds import SCHEMA

    assert sorted({c[2]["kind"] for c in KINDS}) == sorted(SCHEMA["properties"]["kind"]["enum"])


@pytest.mark.parametrize(("text", "select", "edit", "after", "label", "position", "cursor"), KINDS, ids=KINDS_IDS)
async def test_each_kind_applies(
    lab: Lab,
    text: str,
    select: str | int | tuple[int, int],
    edit: dict[str, Any],
    after: str | None,
    label: str,
    position: int,
    cursor: int | None,
) -> None:
    tab = await lab.open(text, select)
    r = await lab.call("cursor.edit", edit=edit)
    if after is not None:
        assert tab.doc.text == after
    assert (r["operation"], r["position"], r["applied"], r["mode"], r["changed"]) == (
        label,
        position,
        True,
        "apply",
        True,
    )
    assert r["revision"] == revision_of(tab.doc.text) and r["checkpointId"] and r["filePath"] == "doc.md"
    assert r["change"]["start"] == position and r["suggestionIds"] is None
    assert (lab.root / "doc.md").read_text() == text  # the tab keeps the change until it is saved
    if cursor is not None:
        assert tab.current_selection() == Selection.cursor(cursor)
    [checkpoint] = lab.services.reviews.store.list_checkpoints("doc.md")
    assert checkpoint.label == label


@pytest.mark.parametrize(("text", "select", "edit", "after", "label", "position", "cursor"), KINDS, ids=KINDS_IDS)
async def test_each_kind_is_one_suggestion_under_the_suggest_policy(
    suggest: Lab,
    text: str,
    select: str | int | tuple[int, int],
    edit: dict[str, Any],
    after: str | None,
    label: str,
    position: int,
    cursor: int | None,
) -> None:
    tab = await suggest.open(text, select)
    r = await suggest.call("cursor.edit", edit=edit, rationale="why")
    assert (r["applied"], r["mode"], r["changed"], r["checkpointId"]) == (False, "suggest", True, None)
    assert r["revision"] == revision_of(text) and tab.doc.text == text and r["diff"]
    [s] = suggest.services.reviews.pending()
    assert ([s.id], s.operation, s.rationale) == (r["suggestionIds"], label, "why")
    assert tab.current_selection() == Selection(*span(text, select))  # a staged change moves nothing
    await suggest.services.reviews.accept_all(by="person", ids=r["suggestionIds"])
    if after is not None:
        assert tab.doc.text == after


async def test_text_changes_report_the_range_they_replaced(lab: Lab) -> None:
    tab = await lab.open(PARA, "beta gamma")
    r = await lab.call("cursor.edit", edit={"kind": "replace", "text": "beta delta"})
    assert r["range"] == {"from": 15, "to": 25, "text": "beta gamma"}
    assert r["position"] == 20  # the change itself starts where the texts differ
    assert tab.current_selection() == Selection.cursor(25)
    r = await lab.call("cursor.edit", edit={"kind": "insert", "text": "!", "at": 0}, mode="dryRun")
    assert r["range"] == {"from": 0, "to": 0, "text": ""} and (r["applied"], r["mode"]) == (False, "dryRun")
    r = await lab.call("cursor.edit", edit={"kind": "rule"}, mode="dryRun")
    assert r["range"] is None and r["position"] == 28


async def test_text_kinds_work_in_any_document_the_rest_in_markdown(lab: Lab) -> None:
    tab = await lab.open("Alpha beta.\n", "beta", name="notes.txt")
    await lab.call("cursor.edit", edit={"kind": "replace", "text": "gamma"})
    assert tab.doc.text == "Alpha gamma.\n"
    err = await lab.fail("cursor.edit", edit={"kind": "format", "mark": "bold"})
    assert err["error"] == "INVALID_ARGUMENT" and "markdown" in err["message"]


@pytest.mark.parametrize(
    ("text", "select", "edit", "code", "argument", "fragment"),
    [
        (PARA, 12, {"kind": "delete"}, "NOT_FOUND", None, "nothing is selected"),
        (PARA, 12, {"kind": "format", "mark": "bold"}, "NOT_FOUND", None, "nothing is selected"),
        (PARA, "beta", {"kind": "link", "url": " "}, "INVALID_ARGUMENT", "url", "url must be"),
        (PARA, 12, {"kind": "block", "type": "heading"}, "INVALID_ARGUMENT", "level", "level is required"),
        (PARA, 12, {"kind": "insert", "text": "x", "at": 99}, "INVALID_ARGUMENT", "at", "at (99) is beyond"),
        (PARA, 12, {"kind": "table", "change": "insert", "cols": 2}, "INVALID_ARGUMENT", "rows", "rows and cols"),
        (PARA, 12, {"kind": "table", "change": "add_row"}, "NOT_FOUND", None, "not a table"),
        (LIST, 3, {"kind": "indent"}, "INVALID_ARGUMENT", None, "no previous sibling"),
        (PARA, 15, {"kind": "wikilink", "target": "a|b"}, "INVALID_ARGUMENT", "target", "must not contain"),
        (PARA, 15, {"kind": "wikilink", "target": "a", "alias": "]]"}, "INVALID_ARGUMENT", "alias", "]]"),
        (PARA, 15, {"kind": "math", "latex": "a$b"}, "INVALID_ARGUMENT", "latex", "dollar sign"),
    ],
)
async def test_errors_name_the_changes_fields_and_change_nothing(
    lab: Lab,
    text: str,
    select: str | int | tuple[int, int],
    edit: dict[str, Any],
    code: str,
    argument: str | None,
    fragment: str,
) -> None:
    tab = await lab.open(text, select)
    err = await lab.fail("cursor.edit", edit=edit)
    assert err["error"] == code and fragment in err["message"], err
    assert err.get("argument") == argument
    assert tab.doc.text == text and not lab.services.reviews.store.list_checkpoints("doc.md")


def test_the_change_is_validated_by_its_kind() -> None:
    from pydantic import ValidationError

    params = registry.get("cursor.edit").params
    for edit, loc in [
        ({"kind": "bold"}, ("edit",)),
        ({"kind": "format", "mark": "bolder"}, ("edit", "format", "mark")),
        ({"kind": "block", "type": "bullet"}, ("edit", "block", "type")),
        ({"kind": "table", "change": "insert", "rows": 0, "cols": 1}, ("edit", "table", "rows")),
        ({"kind": "delete", "text": "x"}, ("edit", "delete", "text")),
    ]:
        with pytest.raises(ValidationError) as info:
            params.model_validate({"edit": edit})
        assert info.value.errors()[0]["loc"][: len(loc)] == loc, edit


async def test_stale_and_a_persons_selection(lab: Lab) -> None:
    tab = await lab.open(PARA, 0)
    report_person_selection(tab, *span(PARA, "gamma"))
    err = await lab.fail("cursor.edit", edit={"kind": "delete"}, expected_revision=revision_of("x"))
    assert (err["error"], err["current_revision"]) == ("STALE", revision_of(PARA))
    r = await lab.call("cursor.edit", edit={"kind": "delete"}, expected_revision=revision_of(PARA), save=True)
    assert r["range"]["text"] == "gamma" and (lab.root / "doc.md").read_text() == PARA.replace("gamma", "")


async def test_a_window_names_the_tab_it_shows(lab: Lab) -> None:
    workspace = lab.services.workspace
    window = workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    (lab.root / "other.md").write_text("Other.\n")
    other = workspace.show(await lab.services.docs.open("other.md"), window, "another-session")
    main = await lab.open(PARA, "beta")
    r = await lab.call("cursor.edit", edit={"kind": "insert", "text": "An "}, windowId="lab-1")
    assert (other.doc.text, main.doc.text, r["filePath"]) == ("An Other.\n", PARA, "other.md")
    err = await lab.fail("cursor.edit", edit={"kind": "delete"}, windowId="nowhere")
    assert (err["error"], err["argument"]) == ("INVALID_TAB", "windowId")
