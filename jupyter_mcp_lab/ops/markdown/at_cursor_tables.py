"""Tables at the cursor (VMark's table tools), on the GFM table editor of ``core/markdown/tables``.

The cursor's row is the line it is on (the header row, also on the delimiter line, or a
body row) and its column the cell it is in (on a pipe: the cell before it). Only the lines
of the table that change are rewritten, padded the way the table pads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from ...core.markdown import tables
from ...core.markdown.structure import structure_of
from ...core.selection import Selection
from ...core.text import TextEdit
from ..base import operation
from ..context import OpContext
from .at_cursor import CursorEditResult, Edits, edit_at_cursor
from .at_cursor_blocks import block_at_cursor
from .editor import EditorEditParams

Side = Literal["before", "after"]
MAX_ROWS, MAX_COLS = 1000, 100


def cell_at_cursor(text: str, sel: Selection) -> tuple[tables.Table, int, int]:
    """The table at the cursor, the cursor's row (0: the header) and column (from 0)."""
    block = block_at_cursor(text, sel, "table")
    table = tables.parse_table(text, block)
    line = structure_of(text).lines.line_of(sel.head) - block.line_start  # 0 header, 1 delimiter, 2… body
    spans = table.spans[line]
    col = next((c for c, (_, end) in enumerate(spans) if sel.head <= end), len(spans) - 1)
    return table, max(line - 1, 0), min(col, len(table.header) - 1)


def _first_cell(edit: TextEdit) -> int:
    """The cursor after inserting a table: in its first cell."""
    return len(edit.text) - len(edit.text.lstrip("\r\n")) + 2


class InsertParams(EditorEditParams):
    rows: int = Field(ge=1, le=MAX_ROWS, description="Number of rows (at least 1; with a header row, it counts).")
    cols: int = Field(ge=1, le=MAX_COLS, description="Number of columns (at least 1).")
    withHeaderRow: bool = Field(True, description="Whether the first row is a header row (default true).")


@operation("table.insert", title="Insert table")
async def insert(ctx: OpContext, params: InsertParams) -> CursorEditResult:
    """Insert an empty rows x cols table as its own block at the cursor; the cursor goes to its
    first cell. Without a header row, the markdown table gets an empty header line above the rows."""
    rows = params.rows if params.withHeaderRow else params.rows + 1

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return tables.insert_table(text, sel.head, rows, params.cols)

    return await edit_at_cursor(ctx, params, f"insert {params.rows}x{params.cols} table", edits, cursor=_first_cell)


Operations = Callable[[tables.Table, int, int], list[dict[str, Any]]]


def _at_cell(operations: Operations) -> Edits:
    """Edits applying ``operations(table, row, col)`` (table_modify operations) to the table at the cursor."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        table, row, col = cell_at_cursor(text, sel)
        return tables.batch(text, table.block.id, operations(table, row, col))

    return edits


@operation("table.delete", title="Delete table", destructive=True)
async def delete(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the table at the cursor."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return tables.delete_table(text, block_at_cursor(text, sel, "table").id)

    return await edit_at_cursor(ctx, params, "delete table", edits)


class SideParams(EditorEditParams):
    position: Side = Field(description="before or after the cursor's row (column).")


def _add_row(table: tables.Table, side: Side, row: int) -> list[dict[str, Any]]:
    if side == "after" or row > 0:
        return [{"op": "add_row", "index": row if side == "before" else row + 1}]
    if any(table.header):  # above the header: the new, empty row heads the table
        return [{"op": "set_header_row", "enabled": False}]
    return [{"op": "add_row", "index": 1}]  # the header is empty already: an empty row below it looks the same


@operation("table.add_row", title="Add table row")
async def add_row(ctx: OpContext, params: SideParams) -> CursorEditResult:
    """Add an empty row before or after the cursor's row (before the header row: a new empty
    header row, the old header becomes the first body row)."""
    edits = _at_cell(lambda t, row, c: _add_row(t, params.position, row))
    return await edit_at_cursor(ctx, params, f"add row {params.position}", edits)


@operation("table.delete_row", title="Delete table row", destructive=True)
async def delete_row(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the cursor's row (deleting the header row makes the first body row the header)."""
    edits = _at_cell(lambda t, row, c: [{"op": "delete_row", "row": row}])
    return await edit_at_cursor(ctx, params, "delete row", edits)


@operation("table.add_column", title="Add table column")
async def add_column(ctx: OpContext, params: SideParams) -> CursorEditResult:
    """Add an empty column before or after the cursor's column."""
    side = 0 if params.position == "before" else 1
    edits = _at_cell(lambda t, r, col: [{"op": "add_column", "index": col + side}])
    return await edit_at_cursor(ctx, params, f"add column {params.position}", edits)


@operation("table.delete_column", title="Delete table column", destructive=True)
async def delete_column(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the cursor's column."""
    edits = _at_cell(lambda t, r, col: [{"op": "delete_column", "col": col}])
    return await edit_at_cursor(ctx, params, "delete column", edits)


@operation("table.toggle_header_row", title="Toggle table header row")
async def toggle_header_row(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Toggle the header row of the table at the cursor: an empty header row goes (the first body
    row becomes the header); otherwise an empty one is added above, and the old header becomes a body row."""
    edits = _at_cell(lambda t, r, c: [{"op": "toggle_header_row"}])
    return await edit_at_cursor(ctx, params, "toggle header row", edits)
