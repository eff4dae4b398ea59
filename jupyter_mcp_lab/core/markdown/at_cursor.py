"""Editor commands at a selection: what formatting, block, list, table and insert commands
change in markdown, given the text and the selection they act on (pure: edits out).

The block is the top-level block holding the cursor (the selection's head; a list counts as
one block: converting it converts the whole list); list commands work on the items the
selection touches; a table's row is the line the cursor is on (the header row also on the
delimiter line) and its column the cell it is in (on a pipe: the cell before it). Inline
inserts go exactly at the cursor; block inserts land on lines of their own after the block
the cursor is in (before it when the cursor is at its first character).
"""

from __future__ import annotations

from typing import Any, Literal

from ..errors import ArgumentError, DomainError
from ..selection import Selection
from ..text import TextEdit
from . import blocks_edit, lists, marks, tables
from .structure import Block, structure_of

Mark = Literal["bold", "italic", "code", "strike", "underline", "highlight"]
BlockKind = Literal["paragraph", "heading", "codeBlock", "blockquote"]
ListKind = Literal["bullet", "ordered", "task"]
Side = Literal["before", "after"]
TableChange = Literal["delete", "add_row", "delete_row", "add_column", "delete_column", "toggle_header_row"]


def selected(sel: Selection) -> tuple[int, int]:
    """The selected range; nothing selected is an error an agent can act on."""
    if sel.empty:
        raise DomainError("NOT_FOUND", "nothing is selected: select the text first")
    return sel.from_, sel.to


def block_at_cursor(text: str, sel: Selection, *types: str) -> Block:
    """The top-level block holding the cursor (the selection's head), of one of ``types`` if given."""
    block = structure_of(text).block_at(sel.head)
    if block is None:
        raise DomainError("NOT_FOUND", f"the cursor ({sel.head}) is between blocks: place it inside one first")
    if types and block.type not in types:
        raise DomainError(
            "NOT_FOUND", f"the cursor ({sel.head}) is in {block.id}, a {block.type}, not a {' or '.join(types)}"
        )
    return block


def after_insert(edit: TextEdit) -> int:
    """A cursor placement: after the inserted text, its trailing line breaks aside."""
    return len(edit.text.rstrip("\r\n"))


def first_cell(edit: TextEdit) -> int:
    """The cursor after inserting a table: in its first cell."""
    return len(edit.text) - len(edit.text.lstrip("\r\n")) + 2


# --------------------------------------------------------------------------- formatting


def toggle_mark(text: str, sel: Selection, mark: Mark | Literal["clear"]) -> list[TextEdit]:
    """Toggle ``mark`` on the selection (with nothing selected, inside a marked run: the run
    loses it); ``clear`` removes every mark and link from the selection."""
    if mark == "clear":
        return marks.clear_marks(text, *selected(sel))
    try:
        return marks.toggle_mark(text, sel.from_, sel.to, mark)
    except ArgumentError as exc:
        if sel.empty and exc.argument == "range":
            selected(sel)
        raise


def link(text: str, sel: Selection, url: str | None, title: str | None) -> list[TextEdit]:
    """Make the selection a link to ``url`` (a link already there, or with nothing selected
    the link around the cursor, gets the new URL); no ``url``: remove the links there."""
    if url is None:
        return marks.remove_link(text, sel.head if sel.empty else (sel.from_, sel.to))
    try:
        return marks.set_link(text, sel.from_, sel.to, url, title)
    except ArgumentError as exc:
        if sel.empty and exc.argument == "range":
            selected(sel)
        raise


# --------------------------------------------------------------------------- blocks and lists


def block_type(
    text: str, sel: Selection, kind: BlockKind, level: int | None, language: str | None, *, toggle: bool
) -> list[TextEdit]:
    """Give the block at the cursor a type (its text kept); ``toggle``: back to a paragraph
    when it already has that type (a heading of another level gets the new level)."""
    if not toggle and kind == "heading" and level is None:
        raise ArgumentError("level is required for a heading (1-6)", "level")
    block = block_at_cursor(text, sel)
    if toggle:
        return blocks_edit.toggle_block(text, block.id, kind, level)
    return blocks_edit.set_block_type(text, block.id, kind, level, language)


def toggle_list(text: str, sel: Selection, kind: ListKind) -> list[TextEdit]:
    """Make the paragraphs and items in the selection a list of ``kind``, or lift them out of it."""
    block_at_cursor(text, sel, "paragraph", "list")
    return lists.toggle_list(text, sel.from_, sel.to, kind)


def indent(text: str, sel: Selection, *, outdent: bool) -> list[TextEdit]:
    """Nest the list items in the selection under their previous sibling (``outdent``: one level up)."""
    block_at_cursor(text, sel, "list")
    change = lists.outdent_items if outdent else lists.indent_items
    return change(text, sel.from_, sel.to)


# --------------------------------------------------------------------------- tables


def cell_at_cursor(text: str, sel: Selection) -> tuple[tables.Table, int, int]:
    """The table at the cursor, the cursor's row (0: the header) and column (from 0)."""
    block = block_at_cursor(text, sel, "table")
    table = tables.parse_table(text, block)
    line = structure_of(text).lines.line_of(sel.head) - block.line_start  # 0 header, 1 delimiter, 2… body
    spans = table.spans[line]
    col = next((c for c, (_, end) in enumerate(spans) if sel.head <= end), len(spans) - 1)
    return table, max(line - 1, 0), min(col, len(table.header) - 1)


def insert_table(text: str, sel: Selection, rows: int, cols: int, *, header: bool) -> list[TextEdit]:
    """An empty rows x cols table at the cursor; without a header row, the markdown table gets
    an empty header line above the rows."""
    return tables.insert_table(text, sel.head, rows if header else rows + 1, cols)


def _add_row(table: tables.Table, side: Side, row: int) -> list[dict[str, Any]]:
    if side == "after" or row > 0:
        return [{"op": "add_row", "index": row if side == "before" else row + 1}]
    if any(table.header):  # above the header: the new, empty row heads the table
        return [{"op": "set_header_row", "enabled": False}]
    return [{"op": "add_row", "index": 1}]  # the header is empty already: an empty row below it looks the same


def change_table(text: str, sel: Selection, change: TableChange, side: Side) -> list[TextEdit]:
    """``change`` the table at the cursor: delete it, add a row (column) on ``side`` of the
    cursor's, delete the cursor's row (column), toggle the header row. Adding a row before
    the header makes a new empty header; deleting the header makes the first body row it."""
    if change == "delete":
        return tables.delete_table(text, block_at_cursor(text, sel, "table").id)
    table, row, col = cell_at_cursor(text, sel)
    operations: list[dict[str, Any]]
    if change == "add_row":
        operations = _add_row(table, side, row)
    elif change == "delete_row":
        operations = [{"op": "delete_row", "row": row}]
    elif change == "add_column":
        operations = [{"op": "add_column", "index": col + (side == "after")}]
    elif change == "delete_column":
        operations = [{"op": "delete_column", "col": col}]
    else:
        operations = [{"op": "toggle_header_row"}]
    return tables.batch(text, table.block.id, operations)
