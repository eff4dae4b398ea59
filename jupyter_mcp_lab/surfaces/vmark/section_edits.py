"""VMark's section, table and list mutations (update_section, insert_section, move_section,
table_modify, list_modify): adapters over ``document.edit``, with VMark's camelCase
actions and its argument names in errors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, WithJsonSchema

from ...core.errors import ArgumentError, DomainError
from ...core.markdown.headings import is_heading_line
from ...ops.context import OpContext
from ...ops.markdown.edit import edit
from ...ops.markdown.edit_ops import InsertSection, ListEdit, MoveSection, Table, UpdateSection, _Op
from ..adapter import adapter
from .edits import NodeEditParams, NodeEditResult, fields, run
from .shapes import renamed

# --------------------------------------------------------------------------- sections


class UpdateSectionParams(NodeEditParams):
    nodeId: str = Field(description="The section's heading node id (h-0) or title.")
    content: str = Field(
        description="The new markdown. Starting with a heading line, it replaces the whole section; "
        "otherwise the body under the kept heading."
    )


async def _section_edit(ctx: OpContext, params: NodeEditParams, change: _Op, argument: str | None) -> NodeEditResult:
    def errors(exc: DomainError) -> DomainError:
        if argument is None or isinstance(exc, ArgumentError) or exc.details.get("argument") == "after":
            return renamed(exc)
        return renamed(exc, argument)

    return NodeEditResult(**fields(await run(ctx, params, [change], errors)))


@adapter(edit, title="Update section")
async def update_section(ctx: OpContext, params: UpdateSectionParams) -> NodeEditResult:
    """Replace a section's content (heading and everything up to the next heading of the same
    or a higher level): the body only, or all of it when the content starts with a heading."""
    whole = is_heading_line(params.content.lstrip("\r\n"), column0=True)
    change = UpdateSection(op="update_section", nodeId=params.nodeId, content=params.content, keepHeading=not whole)
    return NodeEditResult(**fields(await run(ctx, params, [change], lambda exc: renamed(exc, "nodeId"))))


class InsertSectionParams(NodeEditParams):
    after: str = Field(description="The section (heading node id or title) or block to insert after.")
    level: int = Field(ge=1, le=6, description="Heading level (1-6).")
    title: str = Field(min_length=1, description="The heading's text (one line).")
    content: str = Field("", description="The section's body (markdown).")


@adapter(edit, title="Insert section", destructive=False)
async def insert_section(ctx: OpContext, params: InsertSectionParams) -> NodeEditResult:
    """Insert a new section (a heading and its body) after a section (after its last line,
    subsections included) or after a block."""
    change = InsertSection(
        op="insert_section", after=params.after, level=params.level, title=params.title, content=params.content
    )
    return await _section_edit(ctx, params, change, None)


class MoveSectionParams(NodeEditParams):
    nodeId: str = Field(description="The section to move (heading node id or title).")
    after: str = Field(description="The section (heading node id or title) or block to move it after.")


@adapter(edit, title="Move section")
async def move_section(ctx: OpContext, params: MoveSectionParams) -> NodeEditResult:
    """Move a section (with its subsections) after another section or block; staged whole."""
    change = MoveSection(op="move_section", nodeId=params.nodeId, after=params.after)
    return await _section_edit(ctx, params, change, "nodeId")


# --------------------------------------------------------------------------- tables and lists

TABLE_ACTIONS = ["setCellContent", "addRow", "deleteRow", "addColumn", "deleteColumn", "setHeaderRow"]
LIST_ACTIONS = ["setItemContent", "addItem", "deleteItem", "indent", "outdent", "setChecked"]
_AT = {"addRow": "index", "addColumn": "index", "deleteRow": "row", "deleteColumn": "col"}

TABLE_OPS_SCHEMA = {
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": TABLE_ACTIONS},
            "row": {"type": "integer", "description": "Row (0 is the header row): setCellContent, deleteRow."},
            "col": {"type": "integer", "description": "Column (0-based): setCellContent, deleteColumn."},
            "index": {
                "type": "integer",
                "description": "addRow: the new row's index (1..rows, default last); "
                "addColumn: the new column's index (default last).",
            },
            "content": {"type": "string", "description": "setCellContent: the cell's new markdown."},
            "cells": {"type": "array", "items": {"type": "string"}, "description": "addRow/addColumn: cell values."},
            "header": {"type": "string", "description": "addColumn: the header cell."},
            "enabled": {"type": "boolean", "description": "setHeaderRow: on or off (default: toggle)."},
        },
        "required": ["action"],
    },
}
LIST_OPS_SCHEMA = {
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": LIST_ACTIONS},
            "index": {
                "type": "integer",
                "description": "The item (0-based, nested items counted in order); addItem: "
                "where the new item goes (default last).",
            },
            "text": {"type": "string", "description": "setItemContent/addItem: the item's markdown."},
            "checked": {"type": "boolean", "description": "setChecked: checked or not."},
        },
        "required": ["action"],
    },
}


def _batch_ops(operations: list[dict[str, Any]], known: list[str]) -> list[dict[str, Any]]:
    """The agent's operations for the table and list edits: ``action`` checked, ``at`` as the index."""
    out = []
    for n, op in enumerate(operations):
        action = op.get("action", op.get("type", op.get("op")))
        if not isinstance(action, str) or action not in known:
            raise ArgumentError(f"operations[{n}].action must be one of {', '.join(known)}", f"operations[{n}].action")
        op = {k: v for k, v in op.items() if k not in ("type", "op")} | {"action": action}
        if "at" in op:
            op[_AT.get(action, "index")] = op.pop("at")
        out.append(op)
    return out


class TableModifyParams(NodeEditParams):
    nodeId: str = Field(description="The table's node id (table-0, …).")
    operations: Annotated[list[dict[str, Any]], WithJsonSchema(TABLE_OPS_SCHEMA)] = Field(
        min_length=1, description="Applied in order, then written as one change."
    )


def _container_error(argument: str) -> Any:
    def errors(exc: DomainError) -> DomainError:
        return renamed(exc, "nodeId") if exc.details.get("argument") == argument else renamed(exc)

    return errors


@adapter(edit, title="Modify table")
async def table_modify(ctx: OpContext, params: TableModifyParams) -> NodeEditResult:
    """Change a table in one step: setCellContent {row, col, content}, addRow {index?, cells?},
    deleteRow {row}, addColumn {index?, header?, cells?}, deleteColumn {col}, setHeaderRow
    {enabled?}. Row 0 is the header row. Only the changed lines are rewritten; staged whole."""
    change = Table(op="table", nodeId=params.nodeId, operations=_batch_ops(params.operations, TABLE_ACTIONS))
    return NodeEditResult(**fields(await run(ctx, params, [change], _container_error("table_id"))))


class ListModifyParams(NodeEditParams):
    nodeId: str = Field(description="The list's node id (list-0, …).")
    operations: Annotated[list[dict[str, Any]], WithJsonSchema(LIST_OPS_SCHEMA)] = Field(
        min_length=1, description="Applied in order, then written as one change."
    )


@adapter(edit, title="Modify list")
async def list_modify(ctx: OpContext, params: ListModifyParams) -> NodeEditResult:
    """Change a list in one step: setItemContent {index, text}, addItem {index?, text},
    deleteItem {index}, indent {index}, outdent {index}, setChecked {index, checked}. Items
    are counted in document order, nested ones included; staged whole."""
    change = ListEdit(op="list", nodeId=params.nodeId, operations=_batch_ops(params.operations, LIST_ACTIONS))
    return NodeEditResult(**fields(await run(ctx, params, [change], _container_error("list_id"))))
