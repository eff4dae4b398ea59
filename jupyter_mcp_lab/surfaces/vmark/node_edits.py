"""VMark's edits by node id, by text and by anchor (batch_edit, apply_diff,
replace_text_anchored): adapters over ``document.edit``.

Every edit is computed against one revision (``baseRevision``: STALE on mismatch) and
changes only the bytes it targets; the server's approval policy decides whether ``apply``
is honoured or staged as suggestions for a person. Changes stay in the tab (unsaved)
like an editor's; workspace_save_document writes the file.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import edits as md
from ...ops.context import OpContext
from ...ops.markdown.edit import edit
from ...ops.markdown.edit_ops import (
    Anchored,
    DeleteBlock,
    FindReplace,
    Format,
    InsertBlock,
    MoveBlock,
    UpdateBlock,
    _Op,
)
from ..adapter import adapter
from .edits import NodeEditParams, NodeEditResult, fields, run
from .shapes import renamed

# --------------------------------------------------------------------------- batch_edit


class BatchOperation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["update", "insert", "delete", "format", "move"]
    nodeId: str | None = Field(None, description="The node (update, delete, format, move).")
    after: str | None = Field(None, description="insert/move: the node to put it after (none: at the top).")
    text: str | None = Field(
        None, description="update/insert: the new markdown; format: the part of the node to format (default: all)."
    )
    content: str | None = Field(None, description="Same as text for update/insert.")
    mark: Literal["bold", "italic", "code", "strike", "underline", "highlight", "clear"] | None = Field(
        None, description="format: the mark to toggle (default bold); clear removes marks and links."
    )


class BatchEditParams(NodeEditParams):
    operations: list[BatchOperation] = Field(
        min_length=1, max_length=100, description="Operations on node ids of one revision, applied together."
    )


class BatchEditResult(NodeEditResult):
    changedNodeIds: list[str] = Field(
        description="The nodes changed (ids of the base revision) and, for inserts, the new nodes' ids after it."
    )


def _need(op: BatchOperation, n: int) -> str:
    if op.nodeId is None:
        raise ArgumentError(f"{op.type} needs nodeId", f"operations[{n}].nodeId")
    return op.nodeId


def _value(op: BatchOperation, n: int) -> str:
    value = op.text if op.text is not None else op.content
    if value is None:
        raise ArgumentError(f"{op.type} needs text (or content)", f"operations[{n}].text")
    return value


def _edit(op: BatchOperation, n: int) -> _Op:
    """One of VMark's batch operations as an edit."""
    if op.type == "insert":
        return InsertBlock(op="insert_block", after=op.after, content=_value(op, n))
    node = _need(op, n)
    if op.type == "update":
        return UpdateBlock(op="update_block", nodeId=node, content=_value(op, n), keepHeading=True)
    if op.type == "delete":
        return DeleteBlock(op="delete_block", nodeId=node)
    if op.type == "format":
        return Format(op="format", nodeId=node, text=op.text or None, mark=op.mark or "bold")
    return MoveBlock(op="move_block", nodeId=node, after=op.after)


def _batch_error(operations: list[BatchOperation], exc: DomainError) -> DomainError:
    """The failing operation's argument: operations[n].nodeId, .after or .text."""
    n = exc.details["edit"]
    op = operations[n]
    node = exc.details.get("node_id")
    if node is not None:
        field = "after" if op.type == "insert" or (op.type == "move" and node != op.nodeId) else "nodeId"
    else:
        field = exc.details.get("argument", "nodeId")
    return renamed(exc, f"operations[{n}].{field}")


@adapter(edit, title="Batch edit")
async def batch_edit(ctx: OpContext, params: BatchEditParams) -> BatchEditResult:
    """Apply several operations on node ids atomically: update {nodeId, text} replaces a node's
    markdown (a heading keeps its #s unless the text has its own), insert {after?, text} adds a
    block after a node (none: at the top), delete {nodeId}, format {nodeId, mark?, text?}
    toggles a mark on the node or a part of it, move {nodeId, after?}. Node ids are those of
    baseRevision (list_blocks); operations must not touch the same node twice."""
    edits = [_edit(op, n) for n, op in enumerate(params.operations)]
    r = await run(ctx, params, edits, lambda exc: _batch_error(params.operations, exc))
    changed = [i for o in r.edits for i in o.nodeIds or []] + [i for o in r.edits for i in o.newNodeIds or []]
    return BatchEditResult(**fields(r), changedNodeIds=changed)


# --------------------------------------------------------------------------- text


class ApplyDiffParams(NodeEditParams):
    original: str = Field(min_length=1, description="The exact text to find (case-sensitive).")
    replacement: str = Field(description="What replaces it.")
    matchPolicy: md.MatchPolicy = Field(
        "first", description="first | all | nth | error_if_multiple (CONFLICT when it occurs more than once)."
    )
    nth: int | None = Field(None, ge=0, description="With matchPolicy nth: which match (0-based).")


class DiffMatch(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    from_: int = Field(alias="from")
    to: int
    line: int
    replaced: bool = Field(description="Whether the policy chose this match.")


class ApplyDiffResult(NodeEditResult):
    matchCount: int
    appliedCount: int = Field(description="Matches replaced (applied or staged); 0 for dryRun.")
    matches: list[DiffMatch] = Field(description="The matches (at most 100), in document order.")


@adapter(edit, title="Apply diff")
async def apply_diff(ctx: OpContext, params: ApplyDiffParams) -> ApplyDiffResult:
    """Find a text and replace it, with a match policy: first (default), all, nth, or
    error_if_multiple. matchCount 0 changes nothing."""
    find = FindReplace(
        op="find_replace",
        find=params.original,
        replace=params.replacement,
        match=params.matchPolicy,
        nth=params.nth,
        optional=True,
    )
    r = await run(ctx, params, [find])
    [o] = r.edits
    matches = [DiffMatch(from_=m.start, to=m.end, line=m.line, replaced=m.replaced) for m in o.matches or []]
    return ApplyDiffResult(
        **fields(r),
        matchCount=o.matchCount or 0,
        appliedCount=(o.replacedCount or 0) if r.mode != "dryRun" else 0,
        matches=matches,
    )


class Anchor(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, description="The exact text to replace.")
    beforeContext: str = Field("", description="Text right before it (disambiguates).")
    afterContext: str = Field("", description="Text right after it.")


class AnchoredParams(NodeEditParams):
    anchor: Anchor = Field(description="{text, beforeContext, afterContext}: exactly one place must match.")
    replacement: str = Field(description="What replaces anchor.text.")


class AnchoredResult(NodeEditResult):
    model_config = ConfigDict(populate_by_name=True)
    from_: int | None = Field(None, alias="from", description="Where the anchor text was (base revision).")
    to: int | None = None
    line: int | None = None


def _anchor_error(exc: DomainError) -> DomainError:
    return renamed(exc) if isinstance(exc, ArgumentError) else renamed(exc, "anchor")


@adapter(edit, title="Replace anchored text")
async def replace_text_anchored(ctx: OpContext, params: AnchoredParams) -> AnchoredResult:
    """Replace the one occurrence of anchor.text that follows anchor.beforeContext and precedes
    anchor.afterContext (whitespace runs in the context match loosely). None or several
    matches is an error that says how many."""
    a = params.anchor
    anchored = Anchored(
        op="anchored", text=a.text, replacement=params.replacement, before=a.beforeContext, after=a.afterContext
    )
    r = await run(ctx, params, [anchored], _anchor_error)
    m = r.edits[0].matches[0] if r.edits[0].matches else None
    return AnchoredResult(
        **fields(r), from_=m.start if m else None, to=m.end if m else None, line=m.line if m else None
    )
