"""VMark's table and insert tools: adapters over ``cursor.edit``.

Tables: the cursor's row is the line it is on (the header row also on the delimiter line)
and its column the cell it is in. Inserts: inline ones exactly at the cursor, block ones on
lines of their own; once applied, the cursor is after the inserted content.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...ops.context import OpContext
from ...ops.markdown import cursor_edit
from ...ops.markdown import cursor_kinds as k
from ...ops.markdown.cursor_kinds import MAX_COLS, MAX_ROWS
from ..adapter import adapter
from .cursor_edits import CursorEditResult, at_cursor
from .shapes import EditorEditParams

Side = Literal["before", "after"]


class InsertParams(EditorEditParams):
    rows: int = Field(ge=1, le=MAX_ROWS, description="Number of rows (at least 1; with a header row, it counts).")
    cols: int = Field(ge=1, le=MAX_COLS, description="Number of columns (at least 1).")
    withHeaderRow: bool = Field(True, description="Whether the first row is a header row (default true).")


@adapter(cursor_edit.edit, title="Insert table", destructive=False)
async def table_insert(ctx: OpContext, params: InsertParams) -> CursorEditResult:
    """Insert an empty rows x cols table as its own block at the cursor; the cursor goes to its
    first cell. Without a header row, the markdown table gets an empty header line above the rows."""
    edit = k.Table(kind="table", change="insert", rows=params.rows, cols=params.cols, header=params.withHeaderRow)
    return await at_cursor(ctx, params, edit)


@adapter(cursor_edit.edit, title="Delete table")
async def table_delete(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the table at the cursor."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="delete"))


class SideParams(EditorEditParams):
    position: Side = Field(description="before or after the cursor's row (column).")


@adapter(cursor_edit.edit, title="Add table row", destructive=False)
async def table_add_row(ctx: OpContext, params: SideParams) -> CursorEditResult:
    """Add an empty row before or after the cursor's row (before the header row: a new empty
    header row, the old header becomes the first body row)."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="add_row", side=params.position))


@adapter(cursor_edit.edit, title="Delete table row")
async def table_delete_row(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the cursor's row (deleting the header row makes the first body row the header)."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="delete_row"))


@adapter(cursor_edit.edit, title="Add table column", destructive=False)
async def table_add_column(ctx: OpContext, params: SideParams) -> CursorEditResult:
    """Add an empty column before or after the cursor's column."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="add_column", side=params.position))


@adapter(cursor_edit.edit, title="Delete table column")
async def table_delete_column(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Delete the cursor's column."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="delete_column"))


@adapter(cursor_edit.edit, title="Toggle table header row", destructive=False)
async def table_toggle_header_row(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Toggle the header row of the table at the cursor: an empty header row goes (the first body
    row becomes the header); otherwise an empty one is added above, and the old header becomes a body row."""
    return await at_cursor(ctx, params, k.Table(kind="table", change="toggle_header_row"))


# --------------------------------------------------------------------------- inserts


class LatexParams(EditorEditParams):
    latex: str = Field(description="LaTeX expression (e.g. E = mc^2), without dollar signs.")


@adapter(cursor_edit.edit, title="Insert inline math", destructive=False)
async def insert_math_inline(ctx: OpContext, params: LatexParams) -> CursorEditResult:
    """Insert inline LaTeX math ($latex$) at the cursor."""
    return await at_cursor(ctx, params, k.Math(kind="math", latex=params.latex))


@adapter(cursor_edit.edit, title="Insert math block", destructive=False)
async def insert_math_block(ctx: OpContext, params: LatexParams) -> CursorEditResult:
    """Insert a block-level math equation ($$ … $$ on lines of its own) at the cursor."""
    return await at_cursor(ctx, params, k.Math(kind="math", latex=params.latex, display=True))


class MermaidParams(EditorEditParams):
    code: str = Field(description="Mermaid diagram code (e.g. graph TD; A --> B).")


@adapter(cursor_edit.edit, title="Insert Mermaid diagram", destructive=False)
async def insert_mermaid(ctx: OpContext, params: MermaidParams) -> CursorEditResult:
    """Insert a Mermaid diagram (a ```mermaid fenced block) at the cursor."""
    return await at_cursor(ctx, params, k.Mermaid(kind="mermaid", code=params.code))


class WikiLinkParams(EditorEditParams):
    target: str = Field(description="Link target (page name).")
    displayText: str | None = Field(None, description="Display text (if different from the target).")


@adapter(cursor_edit.edit, title="Insert wiki link", destructive=False)
async def insert_wiki_link(ctx: OpContext, params: WikiLinkParams) -> CursorEditResult:
    """Insert a wiki link at the cursor: [[target]] or [[target|displayText]]."""
    edit = k.WikiLink(kind="wikilink", target=params.target, alias=params.displayText)
    return await at_cursor(ctx, params, edit, names={"alias": "displayText"})
