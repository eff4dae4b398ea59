"""VMark's tools at the cursor (surfaces/vmark/cursor.py: formatting, blocks, lists, tables,
inserts, focus), adapters over ``cursor.edit`` and ``cursor.set``, called directly.

Each case opens a real file in a tab, places the selection, runs the tool's adapter and checks
the buffer byte for byte, VMark's result fields and where the cursor ends; then the same
changes under the ``suggest`` policy (staged, nothing changed, accepting gives the same
text), dry runs, STALE, the errors an agent can act on (naming VMark's arguments), and
addressing by window. The tests keep the names the tools' operations had before they were
adapters (``format.toggle`` is ``format_toggle``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.selection import Selection
from jupyter_mcp_lab.core.workspace import Tab, Window, report_person_selection
from jupyter_mcp_lab.ops import Operation, registry
from jupyter_mcp_lab.surfaces.vmark import cursor_edits as e
from jupyter_mcp_lab.surfaces.vmark import cursor_inserts as i
from jupyter_mcp_lab.surfaces.vmark import selection as s
from tests.ops.markdown.test_cursor_edit import LIST, NEW_HEADER, PARA, TABLE, Lab, make_lab, span

TOOLS: dict[str, Operation] = {
    "format.toggle": e.format_toggle,
    "format.set_link": e.format_set_link,
    "format.remove_link": e.format_remove_link,
    "format.clear": e.format_clear,
    "block.set_type": e.block_set_type,
    "block.toggle": e.block_toggle,
    "block.insert_horizontal_rule": e.block_insert_horizontal_rule,
    "list.toggle": e.list_toggle,
    "list.indent": e.list_indent,
    "list.outdent": e.list_outdent,
    "table.insert": i.table_insert,
    "table.delete": i.table_delete,
    "table.add_row": i.table_add_row,
    "table.delete_row": i.table_delete_row,
    "table.add_column": i.table_add_column,
    "table.delete_column": i.table_delete_column,
    "table.toggle_header_row": i.table_toggle_header_row,
    "insert.math_inline": i.insert_math_inline,
    "insert.math_block": i.insert_math_block,
    "insert.mermaid": i.insert_mermaid,
    "insert.wiki_link": i.insert_wiki_link,
    "editor.focus": s.editor_focus,
    "selection.get": s.selection_get,
    "selection.replace": s.selection_replace,
    "document.insert_at_position": s.insert_at_position,
}


@pytest.fixture
def lab(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto", TOOLS)


@pytest.fixture
def suggest(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "suggest", TOOLS)


# (document, selection, operation, arguments, document after, change position, cursor after or None)
CASES: list[tuple[str, str | int | tuple[int, int], str, dict[str, Any], str, int, int | None]] = [
    (PARA, "beta", "format.toggle", {"mark": "bold"}, PARA.replace("beta", "**beta**"), 15, None),
    (PARA, "beta", "format.toggle", {"mark": "italic"}, PARA.replace("beta", "*beta*"), 15, None),
    (PARA, "beta", "format.toggle", {"mark": "code"}, PARA.replace("beta", "`beta`"), 15, None),
    (PARA, "beta", "format.toggle", {"mark": "strike"}, PARA.replace("beta", "~~beta~~"), 15, None),
    (PARA, "beta", "format.toggle", {"mark": "underline"}, PARA.replace("beta", "<u>beta</u>"), 15, None),
    (PARA, "beta", "format.toggle", {"mark": "highlight"}, PARA.replace("beta", "==beta=="), 15, None),
    (PARA.replace("beta", "**beta**"), "beta", "format.toggle", {"mark": "bold"}, PARA, 15, None),
    (PARA.replace("beta", "**beta**"), 18, "format.toggle", {"mark": "bold"}, PARA, 15, None),  # cursor inside
    (
        PARA,
        "beta",
        "format.set_link",
        {"href": "https://x.org", "title": "X"},
        PARA.replace("beta", '[beta](https://x.org "X")'),
        15,
        None,
    ),
    (
        PARA.replace("beta", "[beta](https://x.org)"),
        17,
        "format.set_link",
        {"href": "https://y.org"},
        PARA.replace("beta", "[beta](https://y.org)"),
        30,  # only the x of x.org changed
        None,
    ),
    (PARA.replace("beta", "[beta](https://x.org)"), 17, "format.remove_link", {}, PARA, 15, None),
    (PARA.replace("beta", "[beta](https://x.org)"), "Alpha [beta", "format.remove_link", {}, PARA, 15, None),
    (PARA.replace("beta gamma", "**beta** *gamma*"), "beta** *gamma", "format.clear", {}, PARA, 15, None),
    (PARA, 12, "block.set_type", {"type": "heading", "level": 2}, PARA.replace("Alpha", "## Alpha"), 9, None),
    (
        PARA,
        12,
        "block.set_type",
        {"type": "codeBlock", "language": "python"},
        PARA.replace("Alpha beta gamma.", "```python\nAlpha beta gamma.\n```"),
        9,
        None,
    ),
    (PARA, 12, "block.set_type", {"type": "blockquote"}, PARA.replace("Alpha", "> Alpha"), 9, None),
    (PARA, 3, "block.set_type", {"type": "paragraph"}, PARA.replace("# Title", "Title"), 0, None),
    (PARA, 3, "block.toggle", {"type": "heading", "level": 1}, PARA.replace("# Title", "Title"), 0, None),
    (PARA, 3, "block.toggle", {"type": "heading", "level": 3}, PARA.replace("# Title", "### Title"), 1, None),
    (PARA, 12, "block.toggle", {"type": "blockquote"}, PARA.replace("Alpha", "> Alpha"), 9, None),
    (PARA.replace("Alpha", "> Alpha"), 12, "block.toggle", {"type": "blockquote"}, PARA, 9, None),
    (PARA, 12, "block.insert_horizontal_rule", {}, PARA.replace("gamma.\n", "gamma.\n\n---\n"), 28, 31),
    (PARA, 0, "block.insert_horizontal_rule", {}, "***\n\n" + PARA, 0, 3),
    (PARA, 12, "list.toggle", {"type": "bullet"}, PARA.replace("Alpha", "- Alpha"), 9, None),
    (PARA, 12, "list.toggle", {"type": "ordered"}, PARA.replace("Alpha", "1. Alpha"), 9, None),
    (PARA, (12, 30), "list.toggle", {"type": "task"}, "# Title\n\n- [ ] Alpha beta gamma.\n\n- [ ] End.\n", 9, None),
    (PARA.replace("Alpha", "- Alpha"), 12, "list.toggle", {"type": "bullet"}, PARA, 9, None),
    (LIST, 9, "list.indent", {}, "- one\n  - two\n- three\n", 6, None),
    (LIST, (9, 16), "list.indent", {}, "- one\n  - two\n  - three\n", 6, None),
    ("- one\n  - two\n- three\n", 11, "list.outdent", {}, LIST, 6, None),
    (
        PARA,
        12,
        "table.insert",
        {"rows": 3, "cols": 2},
        PARA.replace("gamma.\n", "gamma.\n\n|     |     |\n| --- | --- |\n|     |     |\n|     |     |\n"),
        28,
        30,
    ),
    (
        PARA,
        12,
        "table.insert",
        {"rows": 1, "cols": 2, "withHeaderRow": False},
        PARA.replace("gamma.\n", "gamma.\n\n|     |     |\n| --- | --- |\n|     |     |\n"),
        28,
        30,
    ),
    (TABLE, "1", "table.delete", {}, "Intro.\n\nEnd.\n", 8, None),
    (TABLE, "2", "table.add_row", {"position": "after"}, TABLE.replace("| 2 |\n", "| 2 |\n|  |  |\n"), 44, None),
    (TABLE, "2", "table.add_row", {"position": "before"}, TABLE.replace("| 1 |", "|  |  |\n| 1 |"), 34, None),
    (TABLE, "A", "table.add_row", {"position": "after"}, TABLE.replace("--- |\n", "--- |\n|  |  |\n"), 34, None),
    (TABLE, "A", "table.add_row", {"position": "before"}, NEW_HEADER, 10, None),
    (TABLE, "3", "table.delete_row", {}, TABLE.replace("| 3 | 4 |\n", ""), 42, None),
    (TABLE, "A", "table.delete_row", {}, "Intro.\n\n| 1 | 2 |\n| --- | --- |\n| 3 | 4 |\n\nEnd.\n", 10, None),
    (
        TABLE,
        "2",
        "table.add_column",
        {"position": "after"},
        "Intro.\n\n| A | B |  |\n| --- | --- | --- |\n| 1 | 2 |  |\n| 3 | 4 |  |\n\nEnd.\n",
        17,
        None,
    ),
    (
        TABLE,
        "2",
        "table.add_column",
        {"position": "before"},
        "Intro.\n\n| A |  | B |\n| --- | --- | --- |\n| 1 |  | 2 |\n| 3 |  | 4 |\n\nEnd.\n",
        14,
        None,
    ),
    (TABLE, "1", "table.delete_column", {}, "Intro.\n\n| B |\n| --- |\n| 2 |\n| 4 |\n\nEnd.\n", 10, None),
    (TABLE, "4", "table.delete_column", {}, "Intro.\n\n| A |\n| --- |\n| 1 |\n| 3 |\n\nEnd.\n", 13, None),
    (TABLE, "1", "table.toggle_header_row", {}, NEW_HEADER, 10, None),
    (NEW_HEADER, "3", "table.toggle_header_row", {}, TABLE, 10, None),
    (PARA, 15, "insert.math_inline", {"latex": "E = mc^2"}, PARA.replace("beta", "$E = mc^2$beta"), 15, 25),
    (PARA, 26, "insert.math_block", {"latex": "x^2"}, PARA.replace("gamma.\n", "gamma.\n\n$$\nx^2\n$$\n"), 28, 37),
    (
        PARA,
        26,
        "insert.mermaid",
        {"code": "graph TD\n    A --> B"},
        PARA.replace("gamma.\n", "gamma.\n\n```mermaid\ngraph TD\n    A --> B\n```\n"),
        28,
        63,  # after the closing fence
    ),
    (PARA, 15, "insert.wiki_link", {"target": "Page"}, PARA.replace("beta", "[[Page]]beta"), 15, 23),
    (
        PARA,
        15,
        "insert.wiki_link",
        {"target": "Page", "displayText": "Shown"},
        PARA.replace("beta", "[[Page|Shown]]beta"),
        15,
        29,
    ),
]
IDS = [f"{c[2]}-{n}" for n, c in enumerate(CASES)]
AT_CURSOR_OPS = sorted(n for n in TOOLS if n.split(".")[0] in ("format", "block", "list", "table", "insert"))


def test_every_at_cursor_operation_has_a_case() -> None:
    assert len(AT_CURSOR_OPS) == 21
    assert sorted({c[2] for c in CASES}) == AT_CURSOR_OPS


@pytest.mark.parametrize(("text", "select", "name", "arguments", "after", "position", "cursor"), CASES, ids=IDS)
async def test_applies_at_the_cursor(
    lab: Lab,
    text: str,
    select: str | int | tuple[int, int],
    name: str,
    arguments: dict[str, Any],
    after: str,
    position: int,
    cursor: int | None,
) -> None:
    tab = await lab.open(text, select)
    r = await lab.call(name, **arguments)
    assert tab.doc.text == after
    assert r["position"] == position
    assert (r["applied"], r["mode"], r["suggestionId"], r["diff"]) == (True, "apply", None, None)
    assert r["revision"] == revision_of(after)
    assert r["checkpointId"] and r["message"].startswith("Applied: ")
    assert (lab.root / "doc.md").read_text() == text  # the tab keeps the change until it is saved
    if cursor is not None:
        assert tab.current_selection() == Selection.cursor(cursor)


@pytest.mark.parametrize(("text", "select", "name", "arguments", "after", "position", "cursor"), CASES, ids=IDS)
async def test_staged_under_the_suggest_policy_and_accepting_gives_the_same_text(
    suggest: Lab,
    text: str,
    select: str | int | tuple[int, int],
    name: str,
    arguments: dict[str, Any],
    after: str,
    position: int,
    cursor: int | None,
) -> None:
    tab = await suggest.open(text, select)
    r = await suggest.call(name, **arguments)
    assert (r["applied"], r["mode"], r["checkpointId"]) == (False, "suggest", None)
    assert r["message"].startswith("Staged for a person's review: ")
    assert r["revision"] == revision_of(text) and tab.doc.text == text
    assert r["diff"]
    pending = suggest.services.reviews.pending()
    assert [s.id for s in pending] == [r["suggestionId"]]  # one change, one suggestion
    assert tab.current_selection() == Selection(*span(text, select))  # a staged change moves nothing
    await suggest.services.reviews.accept_all(by="person", ids=[r["suggestionId"]])
    assert tab.doc.text == after


async def test_the_selection_follows_a_format_change(lab: Lab) -> None:
    tab = await lab.open(PARA, "beta")
    await lab.call("format.toggle", mark="bold")
    assert tab.doc.text[tab.current_selection().from_ : tab.current_selection().to] == "beta"
    await lab.call("format.toggle", mark="italic")
    assert tab.doc.text == PARA.replace("beta", "***beta***")
    await lab.call("format.toggle", mark="bold")
    assert tab.doc.text == PARA.replace("beta", "*beta*")


async def test_a_persons_selection_in_jupyterlab_is_the_one_used(lab: Lab) -> None:
    tab = await lab.open(PARA, 0)
    report_person_selection(tab, *span(PARA, "gamma"))
    await lab.call("format.toggle", mark="bold")
    assert tab.doc.text == PARA.replace("gamma", "**gamma**")


async def test_dry_run_shows_the_change_and_changes_nothing(lab: Lab) -> None:
    tab = await lab.open(TABLE, "1")
    r = await lab.call("table.delete_column", mode="dryRun")
    assert (r["applied"], r["mode"], r["suggestionId"], r["checkpointId"]) == (False, "dryRun", None, None)
    assert r["message"].startswith("Dry run") and "-| A | B |" in r["diff"] and "+| B |" in r["diff"]
    assert r["revision"] == revision_of("Intro.\n\n| B |\n| --- |\n| 2 |\n| 4 |\n\nEnd.\n")  # what it would be
    assert tab.doc.text == TABLE and not lab.services.reviews.pending()


async def test_suggest_mode_is_honoured_under_the_auto_policy(lab: Lab) -> None:
    tab = await lab.open(PARA, "beta")
    r = await lab.call("format.toggle", mark="bold", mode="suggest", rationale="emphasis")
    assert (r["applied"], r["mode"]) == (False, "suggest") and tab.doc.text == PARA
    [s] = lab.services.reviews.pending()
    assert (s.id, s.rationale, s.operation) == (r["suggestionId"], "emphasis", "toggle bold")


async def test_expected_revision_guards_every_change(lab: Lab) -> None:
    tab = await lab.open(PARA, "beta")
    err = await lab.fail("format.toggle", mark="bold", expected_revision=revision_of("other"))
    assert (err["error"], err["current_revision"]) == ("STALE", revision_of(PARA))
    r = await lab.call("format.toggle", mark="bold", expected_revision=revision_of(PARA))
    assert r["applied"] and tab.doc.text == PARA.replace("beta", "**beta**")


async def test_save_writes_the_file(lab: Lab) -> None:
    await lab.open(PARA, 15)
    await lab.call("insert.wiki_link", target="Page", save=True)
    assert (lab.root / "doc.md").read_text() == PARA.replace("beta", "[[Page]]beta")


async def test_nothing_to_change_is_not_an_error(lab: Lab) -> None:
    tab = await lab.open(PARA, "Alpha beta")
    r = await lab.call("format.clear")
    assert (r["applied"], r["checkpointId"], r["position"]) == (False, None, span(PARA, "Alpha beta")[1])
    assert r["message"].startswith("Nothing to change") and tab.doc.text == PARA


ERRORS: list[tuple[str, str | int | tuple[int, int], str, dict[str, Any], str, str | None, str]] = [
    (PARA, 12, "format.toggle", {"mark": "bold"}, "NOT_FOUND", None, "nothing is selected"),
    (PARA, 12, "format.set_link", {"href": "https://x.org"}, "NOT_FOUND", None, "nothing is selected"),
    (PARA, "beta", "format.set_link", {"href": " "}, "INVALID_ARGUMENT", "href", "href must be"),
    (PARA, 12, "format.remove_link", {}, "NOT_FOUND", None, "no link at 12"),
    (PARA, 12, "format.clear", {}, "NOT_FOUND", None, "nothing is selected"),
    (PARA, 12, "block.set_type", {"type": "heading"}, "INVALID_ARGUMENT", "level", "level is required"),
    (PARA, 8, "block.set_type", {"type": "paragraph"}, "NOT_FOUND", None, "between blocks"),
    (PARA, 8, "block.toggle", {"type": "blockquote"}, "NOT_FOUND", None, "between blocks"),
    (PARA, 12, "list.indent", {}, "NOT_FOUND", None, "a paragraph, not a list"),
    (LIST, 3, "list.indent", {}, "INVALID_ARGUMENT", None, "no previous sibling"),
    (LIST, 3, "list.outdent", {}, "INVALID_ARGUMENT", None, "is not nested"),
    (PARA, 12, "table.delete", {}, "NOT_FOUND", None, "not a table"),
    (PARA, 12, "table.add_row", {"position": "after"}, "NOT_FOUND", None, "not a table"),
    ("| A |\n| --- |\n| 1 |\n", "1", "table.delete_column", {}, "INVALID_ARGUMENT", None, "delete the table"),
    ("| A |\n| --- |\n", "A", "table.delete_row", {}, "INVALID_ARGUMENT", None, "delete the table"),
    (PARA, 15, "insert.math_inline", {"latex": "a$b"}, "INVALID_ARGUMENT", "latex", "dollar sign"),
    ("Use `code` here.\n", 6, "insert.math_inline", {"latex": "x"}, "INVALID_ARGUMENT", None, "code span"),
    (PARA, 15, "insert.mermaid", {"code": "  "}, "INVALID_ARGUMENT", "code", "non-empty"),
    (PARA, 15, "insert.wiki_link", {"target": "Pa|ge"}, "INVALID_ARGUMENT", "target", "must not contain"),
    (PARA, 15, "insert.wiki_link", {"target": "P", "displayText": "a]]b"}, "INVALID_ARGUMENT", "displayText", "]]"),
]


@pytest.mark.parametrize(
    ("text", "select", "name", "arguments", "code", "argument", "fragment"), ERRORS, ids=[e[2] for e in ERRORS]
)
async def test_errors_say_what_to_do_and_change_nothing(
    lab: Lab,
    text: str,
    select: str | int | tuple[int, int],
    name: str,
    arguments: dict[str, Any],
    code: str,
    argument: str | None,
    fragment: str,
) -> None:
    tab = await lab.open(text, select)
    err = await lab.fail(name, **arguments)
    assert err["error"] == code and fragment in err["message"], err
    assert err.get("argument") == argument  # the agent's argument, never a core editor's internal name
    assert tab.doc.text == text and not lab.services.reviews.store.list_checkpoints("doc.md")


@pytest.mark.parametrize(
    ("name", "arguments", "argument"),
    [
        ("format.toggle", {"mark": "bolder"}, "mark"),
        ("block.set_type", {"type": "table"}, "type"),
        ("block.set_type", {"type": "heading", "level": 7}, "level"),
        ("list.toggle", {"type": "numbered"}, "type"),
        ("table.insert", {"rows": 0, "cols": 2}, "rows"),
        ("table.insert", {"rows": 2, "cols": 101}, "cols"),
        ("table.add_row", {"position": "above"}, "position"),
        ("format.toggle", {"mark": "bold", "windowID": "main"}, "windowID"),
    ],
)
def test_arguments_are_validated_by_the_params_model(name: str, arguments: dict[str, Any], argument: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as info:
        TOOLS[name].params.model_validate(arguments)
    assert info.value.errors()[0]["loc"][0] == argument


async def test_only_markdown_documents(lab: Lab) -> None:
    await lab.open("Alpha beta.\n", "beta", name="notes.txt")
    err = await lab.fail("format.toggle", mark="bold")
    assert err["error"] == "INVALID_ARGUMENT" and "markdown" in err["message"]


async def test_without_a_tab_the_answer_is_invalid_tab(lab: Lab) -> None:
    assert (await lab.fail("format.toggle", mark="bold"))["error"] == "INVALID_TAB"
    assert (await lab.fail("editor.focus"))["error"] == "INVALID_TAB"


# --------------------------------------------------------------------------- windows, focus


async def two_windows(lab: Lab) -> tuple[Tab, Tab]:
    """doc.md in window main, other.md in window lab-1; the session focused on doc.md."""
    lab.services.workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    (lab.root / "other.md").write_text("Other text.\n")
    main = await lab.open(PARA, "beta")
    op = registry.get("workspace.open")
    await op(lab.ctx, op.params.model_validate({"filePath": "other.md", "windowLabel": "lab-1"}))
    other = lab.services.workspace.tab(None, lab.ctx.caller.session_id)
    other.set_selection(Selection(0, 5))
    await lab.call("workspace.switch_tab", tabId=main.id)
    return main, other


async def test_window_id_picks_the_document_that_window_shows(lab: Lab) -> None:
    main, other = await two_windows(lab)
    await lab.call("format.toggle", mark="bold", windowId="lab-1")
    assert other.doc.text == "**Other** text.\n" and main.doc.text == PARA
    await lab.call("format.toggle", mark="italic")  # the focus did not move: doc.md
    assert main.doc.text == PARA.replace("beta", "*beta*")
    await lab.call("format.toggle", mark="strike", tabId=other.id)
    assert other.doc.text == "**~~Other~~** text.\n"  # the selection followed the first change
    err = await lab.fail("format.toggle", mark="bold", tabId=other.id, windowId="main")
    assert err["error"] == "INVALID_TAB" and "lab-1" in err["message"]
    err = await lab.fail("format.toggle", mark="bold", windowId="nowhere")
    assert (err["error"], err["argument"]) == ("INVALID_TAB", "windowId")


async def test_editor_focus_moves_this_sessions_focus_only(lab: Lab) -> None:
    main, other = await two_windows(lab)
    r = await lab.call("editor.focus", windowId="lab-1")
    assert r == {
        "message": "Focused other.md in window lab-1",
        "windowId": "lab-1",
        "tabId": other.id,
        "filePath": "other.md",
    }
    focus = lab.services.workspace.focus(lab.ctx.caller.session_id)
    assert (focus.window, focus.tab) == ("lab-1", other.id)
    await lab.call("format.toggle", mark="bold")  # now on other.md
    assert other.doc.text == "**Other** text.\n"
    assert lab.services.workspace.focus("another-session").tab is None
    back = await lab.call("editor.focus", tabId=main.id)
    assert (back["windowId"], back["tabId"]) == ("main", main.id)
    lab.services.workspace.windows["empty"] = Window("empty")
    err = await lab.fail("editor.focus", windowId="empty")
    assert err["error"] == "INVALID_TAB" and "no document" in err["message"]


async def test_document_and_selection_operations_take_a_window_too(lab: Lab) -> None:
    """The operations under document_get_content, selection_*, cursor_*, insert_* and
    editor_undo/redo: windowId picks the tab the window shows, as for the edits above."""
    main, other = await two_windows(lab)
    read = await lab.call("document.read", windowId="lab-1")
    assert (read["content"], read["filePath"]) == ("Other text.\n", "other.md")
    assert (await lab.call("document.read"))["filePath"] == "doc.md"  # the focus did not move
    assert (await lab.call("selection.get", windowId="lab-1"))["text"] == "Other"
    assert (await lab.call("selection.get", windowId=other.id))["text"] == "Other"  # a tab id
    await lab.call("selection.replace", text="Some", windowId="lab-1")
    await lab.call("document.insert_at_position", text="!", position=9, windowId="lab-1")
    assert (other.doc.text, main.doc.text) == ("Some text!.\n", PARA)
    await lab.call("document.undo", windowId="lab-1")
    assert other.doc.text == "Some text.\n"
    await lab.call("document.write", content="New.\n", windowId="lab-1")  # every document operation
    assert (other.doc.text, main.doc.text) == ("New.\n", PARA)
    # A tab and a window that disagree, or a window that does not exist, are errors.
    for name, arguments in [("document.read", {}), ("selection.get", {}), ("document.undo", {})]:
        err = await lab.fail(name, **arguments, tabId=other.id, windowId="main")
        assert err["error"] == "INVALID_TAB" and "lab-1" in err["message"], name
        err = await lab.fail(name, **arguments, windowId="nowhere")
        assert (err["error"], err["argument"]) == ("INVALID_TAB", "windowId"), name
    assert (await lab.call("document.read", tabId=other.id, windowId="lab-1"))["content"] == "New.\n"
    focus = lab.services.workspace.focus(lab.ctx.caller.session_id)
    assert (focus.window, focus.tab) == ("main", main.id)
