"""The reference's write tools (spec/omnioutliner-mcp-tools.md) over ``outline.edit``.

Under the server's default policy every change is a suggestion a person accepts in
JupyterLab (a confirmed delete too: ``confirmed`` is the agent's word, not the person's);
with a grant or the ``auto`` policy it is applied at once. ``applied`` and
``suggestionIds`` say which, and ``message`` says it in words. ``undoAvailable`` is true
once the change is in the document (the person can undo it).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...ops.context import OpContext
from ...ops.outline import edit as outline
from ...ops.outline.edit import EditParams, OutlineEditResult
from ...ops.outline.read import RowView
from ...ops.outline.rows_in import NewRow
from ..adapter import adapter
from .query import Rows, on_focused

Position = Literal["first", "last"]
Relative = Literal["before", "after"]
PARENT = Field(None, description="ID of the parent row. Omit for top-level placement.")
SIBLING = Field(None, description="Reference sibling for relative positioning.")
RELATIVE = Field(None, description="Insert before or after the sibling.")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Written(BaseModel):
    success: bool
    message: str
    undoAvailable: bool
    applied: bool = Field(description="The outline changed now (false: a suggestion a person accepts).")
    suggestionIds: list[str] | None = Field(None, description="The suggestions staged for a person's approval.")


async def _edit(ctx: OpContext, **arguments: Any) -> OutlineEditResult:
    # Saved at once: the reference's tools have no save, and its outliner saves by itself.
    given = {k: v for k, v in arguments.items() if v is not None}
    result = await on_focused(ctx, outline.edit, EditParams, {"save": True, **given})
    assert isinstance(result, OutlineEditResult)
    return result


def _said(r: OutlineEditResult) -> dict[str, Any]:
    """What every write tool answers besides its row(s)."""
    message = r.message if r.applied else f"Suggested: {r.message}. A person accepts or rejects it in JupyterLab."
    if not r.changed:
        message = "Nothing to change: the outline already reads so."
    return dict(
        success=True, message=message, undoAvailable=r.applied, applied=r.applied, suggestionIds=r.suggestionIds
    )


def _placing(parent: str | None, position: str, sibling: str | None, relative: str | None) -> dict[str, Any]:
    return dict(parent=parent, position=position, sibling=sibling, relative=relative or "after")


# --------------------------------------------------------------------------- add_row


class AddParams(_Strict):
    topic: str = Field(description="The text content for the new row.")
    note: str | None = Field(None, description="Optional note content to attach to the row.")
    parentId: str | None = PARENT
    position: Position = Field("last", description="Where to place among siblings.")
    siblingId: str | None = SIBLING
    relativePosition: Relative | None = RELATIVE


class AddResult(_Written):
    newRow: RowView


@adapter(outline.edit, title="Add row", destructive=False)
async def add_row(ctx: OpContext, params: AddParams) -> AddResult:
    """Add a new row with specified text at a given location. This tool creates new content only."""
    place = _placing(params.parentId, params.position, params.siblingId, params.relativePosition)
    r = await _edit(ctx, op="add", topic=params.topic, note=params.note, **place)
    return AddResult(newRow=r.rows[0], **_said(r))


# --------------------------------------------------------------------------- update_row


class UpdateParams(_Strict):
    rowId: str = Field(description="The ID of the row to update.")
    topic: str | None = Field(None, description="New topic text. Omit to keep current value.")
    note: str | None = Field(None, description="New note text. Omit to keep current, use empty string to clear.")
    state: Literal["checked", "unchecked", "none"] | None = Field(None, description="New checkbox state.")


class UpdateResult(_Written):
    updatedRow: RowView


@adapter(outline.edit, title="Update row", destructive=False)
async def update_row(ctx: OpContext, params: UpdateParams) -> UpdateResult:
    """Update the topic text, note, or checkbox state of an existing row."""
    r = await _edit(ctx, op="update", row=params.rowId, topic=params.topic, note=params.note, state=params.state)
    return UpdateResult(updatedRow=r.rows[0], **_said(r))


# --------------------------------------------------------------------------- move_row


class MoveParams(_Strict):
    rowId: str = Field(description="The ID of the row to move.")
    newParentId: str | None = Field(None, description="New parent row ID. Omit for top-level placement.")
    position: Position = "last"
    siblingId: str | None = SIBLING
    relativePosition: Relative | None = None


class MoveResult(_Written):
    movedRow: RowView


@adapter(outline.edit, title="Move row", destructive=False)
async def move_row(ctx: OpContext, params: MoveParams) -> MoveResult:
    """Move an existing row to a different position in the outline. The row and all its children
    are moved together (never into its own descendants)."""
    place = _placing(params.newParentId, params.position, params.siblingId, params.relativePosition)
    r = await _edit(ctx, op="move", row=params.rowId, **place)
    return MoveResult(movedRow=r.rows[0], **_said(r))


# --------------------------------------------------------------------------- delete_row


class DeleteParams(_Strict):
    rowId: str = Field(description="The ID of the row to delete.")
    confirmed: bool = Field(description="Set to true to confirm this destructive operation.")


class DeleteResult(BaseModel):
    success: bool
    message: str
    requiresConfirmation: bool | None = None
    affectedRows: Rows | None = None
    deletedCount: int | None = None
    undoAvailable: bool | None = None
    applied: bool | None = None
    suggestionIds: list[str] | None = None


@adapter(outline.edit, title="Delete row")
async def delete_row(ctx: OpContext, params: DeleteParams) -> DeleteResult:
    """Delete a row and all its children. This is a destructive operation that requires
    confirmation before proceeding (and, under the default policy, a person's approval)."""
    if not params.confirmed:
        r = await _edit(ctx, op="delete", row=params.rowId, mode="dryRun")
        return DeleteResult(
            success=False,
            requiresConfirmation=True,
            message=f"This will {r.message.replace('Deleted', 'delete', 1)}. Set confirmed=true to proceed.",
            affectedRows=r.rows,
        )
    r = await _edit(ctx, op="delete", row=params.rowId)
    return DeleteResult(deletedCount=len(r.rows), **_said(r))


# --------------------------------------------------------------------------- insert_content


class InsertParams(_Strict):
    content: str | list[NewRow] = Field(
        description="Content to insert - either a string (one row, or indented lines / a markdown list) "
        "or an array of row objects {topic, note?, children?}."
    )
    parentId: str | None = Field(None, description="Parent row ID. Omit for top-level placement.")
    position: Position = "last"


class InsertResult(_Written):
    insertedRows: Rows


@adapter(outline.edit, title="Insert content", destructive=False)
async def insert_content(ctx: OpContext, params: InsertParams) -> InsertResult:
    """Insert synthesized or generated content at a specified location. Supports both single rows
    and hierarchical content."""
    r = await _edit(ctx, op="insert", content=params.content, parent=params.parentId, position=params.position)
    return InsertResult(insertedRows=r.rows, **_said(r))
