"""Precise edits of the document a window shows, by node id, by text or by anchor
(VMark's advanced mutation, section and batch tools).

Every edit is computed against one revision (``expected_revision``: STALE on mismatch),
changes only the bytes it targets, and runs through ``mutate``: the server's approval
policy decides whether ``apply`` is honoured or staged as suggestions for a person.
Changes stay in the tab (unsaved) like an editor's; workspace save writes the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import blocks, lists, marks, tables
from ...core.markdown import edits as md
from ...core.markdown.headings import ATX_OPEN, is_heading_line
from ...core.markdown.structure import Block, Structure, structure_of
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import EXPECTED, MODE, RATIONALE, Mode, MutationResult, mutate_as_asked, require_kind
from ..workspace.windows import WINDOW_ID, document_of_window


class NodeEditParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID
    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    rationale: str | None = RATIONALE


class NodeEditResult(MutationResult):
    success: bool = Field(True, description="True when the edit was applied, staged or shown (dryRun).")
    message: str
    suggestionIds: list[str] = Field(
        default_factory=list, description="The staged suggestions (a person accepts or rejects them)."
    )


def _message(r: MutationResult) -> str:
    if not r.changed:
        return "Nothing to change"
    if r.mode == "dryRun":
        return "Dry run: nothing changed (see diff)"
    if r.mode == "suggest":
        return f"Staged as {len(r.suggestionIds or [])} suggestion(s) for a person's review"
    return "Applied"


def _fields(r: MutationResult) -> dict[str, Any]:
    return {**r.model_dump(exclude={"suggestionIds"}), "suggestionIds": r.suggestionIds or [], "message": _message(r)}


async def _run(
    ctx: OpContext, params: NodeEditParams, change: Callable[[str], str], *, label: str, markdown: bool, split: bool
) -> MutationResult:
    doc, _ = await document_of_window(ctx, params.windowId)
    if markdown:
        require_kind(doc, "markdown")
    return await mutate_as_asked(ctx, doc, params, change, save=False, label=label, split=split)


def _renamed(exc: DomainError, argument: str) -> DomainError:
    """``exc`` naming the agent's argument (the one that named what was not right)."""
    if isinstance(exc, ArgumentError):
        return ArgumentError(exc.message, argument)
    return DomainError(exc.code, exc.message, **{**exc.details, "argument": argument})


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


def _need(op: BatchOperation, n: int, name: str) -> str:
    value = getattr(op, name)
    if value is None:
        raise ArgumentError(f"{op.type} needs {name}", f"operations[{n}].{name}")
    return str(value)


def _value(op: BatchOperation, n: int) -> str:
    value = op.text if op.text is not None else op.content
    if value is None:
        raise ArgumentError(f"{op.type} needs text (or content)", f"operations[{n}].text")
    return value


def _block(s: Structure, node_id: str, n: int, name: str = "nodeId") -> Block:
    try:
        return blocks.resolve_block(s, node_id, None)
    except DomainError as exc:
        raise _renamed(exc, f"operations[{n}].{name}") from None


def _format_range(s: Structure, b: Block, op: BatchOperation, n: int) -> tuple[int, int]:
    if op.text:
        at = s.text.find(op.text, b.start, b.end)
        if at < 0:
            raise DomainError("NOT_FOUND", f"{op.text!r} is not in {b.id}", argument=f"operations[{n}].text")
        return at, at + len(op.text)
    if b.type == "paragraph":
        return b.start, b.end
    if b.type == "heading" and b.line_start == b.line_end:
        line = s.text[b.start : b.end]
        m = ATX_OPEN.match(line)
        body = line[m.end() if m else 0 :].rstrip()
        body = re.sub(r"[ \t]+#+$", "", body)
        start = b.start + (m.end() if m else 0)
        return start, start + len(body)
    raise ArgumentError(f"{b.id} is a {b.type}: give text (the part of it to format)", f"operations[{n}].text")


def _move(s: Structure, b: Block, after: str | None, n: int) -> list[TextEdit]:
    target = None if after is None else _block(s, after, n, "after")
    try:
        return blocks.move_block(s.text, b, target)
    except ArgumentError as exc:
        raise _renamed(exc, f"operations[{n}].after") from None


def _batch_edits(s: Structure, operations: list[BatchOperation]) -> tuple[list[TextEdit], list[str], list[int]]:
    """The edits, the node ids they change, and which edits insert new blocks."""
    out: list[TextEdit] = []
    changed: list[str] = []
    inserts: list[int] = []
    for n, op in enumerate(operations):
        if op.type == "insert":
            inserts.append(len(out))
            target = None if op.after is None else _block(s, op.after, n, "after")
            out.append(blocks.insert_after(s.text, target, _value(op, n)))
            continue
        b = _block(s, _need(op, n, "nodeId"), n)
        changed.append(b.id)
        if op.type == "update":
            out.append(blocks.update_block(s.text, b, _value(op, n), keep_heading=True))
        elif op.type == "delete":
            out.append(blocks.delete_block(s.text, b))
        elif op.type == "format":
            start, end = _format_range(s, b, op, n)
            mark = op.mark or "bold"
            if mark == "clear":
                out.extend(marks.clear_marks(s.text, start, end))
            else:
                out.extend(marks.toggle_mark(s.text, start, end, mark))
        else:
            out.extend(_move(s, b, op.after, n))
    return out, changed, inserts


def _inserted_ids(edits: list[TextEdit], inserts: list[int], after: str) -> list[str]:
    """The ids, in ``after``, of the blocks the insert edits made."""
    ordered = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].end))  # as apply_edits
    shift, where = 0, {}
    for i in ordered:
        where[i] = edits[i].start + shift
        shift += len(edits[i].text) - (edits[i].end - edits[i].start)
    s = structure_of(after)
    ids = []
    for i in inserts:
        text = edits[i].text
        block = s.block_at(where[i] + len(text) - len(text.lstrip("\r\n")))
        if block is not None:
            ids.append(block.id)
    return ids


@operation("document.batch_edit", title="Batch edit", destructive=True)
async def batch_edit(ctx: OpContext, params: BatchEditParams) -> BatchEditResult:
    """Apply several operations on node ids atomically: update {nodeId, text} replaces a node's
    markdown (a heading keeps its #s unless the text has its own), insert {after?, text} adds a
    block after a node (none: at the top), delete {nodeId}, format {nodeId, mark?, text?}
    toggles a mark on the node or a part of it, move {nodeId, after?}. Node ids are those of
    baseRevision (list_blocks); operations must not touch the same node twice."""
    changed: list[str] = []

    def change(text: str) -> str:
        s = structure_of(text)
        out, ids, inserts = _batch_edits(s, params.operations)
        after = apply_edits(text, out)
        changed[:] = ids + (_inserted_ids(out, inserts, after) if inserts else [])
        return after

    moves = any(op.type == "move" for op in params.operations)
    r = await _run(ctx, params, change, label="batch_edit", markdown=True, split=not moves)
    return BatchEditResult(**_fields(r), changedNodeIds=changed)


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


@operation("document.apply_diff", title="Apply diff", destructive=True)
async def apply_diff(ctx: OpContext, params: ApplyDiffParams) -> ApplyDiffResult:
    """Find a text and replace it, with a match policy: first (default), all, nth, or
    error_if_multiple. matchCount 0 changes nothing."""
    found: list[md.Match] = []
    picked: list[md.Match] = []

    def change(text: str) -> str:
        found[:] = md.find_matches(structure_of(text), params.original)
        picked[:] = md.pick(found, params.matchPolicy, params.nth, repr(params.original)) if found else []
        return apply_edits(text, md.replace_matches(picked, params.replacement))

    r = await _run(ctx, params, change, label="apply_diff", markdown=False, split=True)
    chosen = {(m.start, m.end) for m in picked}
    matches = [DiffMatch(from_=m.start, to=m.end, line=m.line, replaced=(m.start, m.end) in chosen) for m in found]
    return ApplyDiffResult(
        **_fields(r),
        matchCount=len(found),
        appliedCount=len(picked) if r.mode != "dryRun" else 0,
        matches=matches[:100],
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


@operation("document.replace_anchored", title="Replace anchored text", destructive=True)
async def replace_text_anchored(ctx: OpContext, params: AnchoredParams) -> AnchoredResult:
    """Replace the one occurrence of anchor.text that follows anchor.beforeContext and precedes
    anchor.afterContext (whitespace runs in the context match loosely). None or several
    matches is an error that says how many."""
    where: list[md.Match] = []
    a = params.anchor

    def change(text: str) -> str:
        try:
            m = md.anchored(structure_of(text), a.text, a.beforeContext, a.afterContext)
        except DomainError as exc:
            raise (exc if isinstance(exc, ArgumentError) else _renamed(exc, "anchor")) from None
        where[:] = [m]
        return apply_edits(text, [TextEdit(m.start, m.end, params.replacement)])

    r = await _run(ctx, params, change, label="replace_text_anchored", markdown=False, split=True)
    m = where[0] if where else None
    return AnchoredResult(
        **_fields(r), from_=m.start if m else None, to=m.end if m else None, line=m.line if m else None
    )


# --------------------------------------------------------------------------- sections


class UpdateSectionParams(NodeEditParams):
    nodeId: str = Field(description="The section's heading node id (h-0) or title.")
    content: str = Field(
        description="The new markdown. Starting with a heading line, it replaces the whole section; "
        "otherwise the body under the kept heading."
    )


async def _section_edit(
    ctx: OpContext, params: NodeEditParams, make: Callable[[Structure], list[TextEdit]], label: str, split: bool = True
) -> NodeEditResult:
    def change(text: str) -> str:
        return apply_edits(text, make(structure_of(text)))

    r = await _run(ctx, params, change, label=label, markdown=True, split=split)
    return NodeEditResult(**_fields(r))


@operation("document.update_section", title="Update section", destructive=True)
async def update_section(ctx: OpContext, params: UpdateSectionParams) -> NodeEditResult:
    """Replace a section's content (heading and everything up to the next heading of the same
    or a higher level): the body only, or all of it when the content starts with a heading."""
    whole = is_heading_line(params.content.lstrip("\r\n"), column0=True)

    def make(s: Structure) -> list[TextEdit]:
        try:
            return [md.update_section(s, params.nodeId, params.content, keep_heading=not whole)]
        except DomainError as exc:
            raise _renamed(exc, "nodeId") from None

    return await _section_edit(ctx, params, make, "update_section")


class InsertSectionParams(NodeEditParams):
    after: str = Field(description="The section (heading node id or title) or block to insert after.")
    level: int = Field(ge=1, le=6, description="Heading level (1-6).")
    title: str = Field(min_length=1, description="The heading's text (one line).")
    content: str = Field("", description="The section's body (markdown).")


@operation("document.insert_section", title="Insert section")
async def insert_section(ctx: OpContext, params: InsertSectionParams) -> NodeEditResult:
    """Insert a new section (a heading and its body) after a section (after its last line,
    subsections included) or after a block."""

    def make(s: Structure) -> list[TextEdit]:
        if s.section(params.after) is None and params.after not in s.by_id:
            raise DomainError("NOT_FOUND", f"no section or block {params.after!r}", argument="after")
        return [md.insert_section(s, params.after, params.level, params.title, params.content)]

    return await _section_edit(ctx, params, make, "insert_section")


class MoveSectionParams(NodeEditParams):
    nodeId: str = Field(description="The section to move (heading node id or title).")
    after: str = Field(description="The section (heading node id or title) or block to move it after.")


@operation("document.move_section", title="Move section", destructive=True)
async def move_section(ctx: OpContext, params: MoveSectionParams) -> NodeEditResult:
    """Move a section (with its subsections) after another section or block; staged whole."""

    def make(s: Structure) -> list[TextEdit]:
        if s.section(params.after) is None and params.after not in s.by_id:
            raise DomainError("NOT_FOUND", f"no section or block {params.after!r}", argument="after")
        try:
            return md.move_section(s, params.nodeId, params.after)
        except DomainError as exc:
            raise (exc if isinstance(exc, ArgumentError) else _renamed(exc, "nodeId")) from None

    return await _section_edit(ctx, params, make, "move_section", split=False)


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
    """The agent's operations for the core editors: ``action`` checked, ``at`` as the index."""
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


@operation("document.table_modify", title="Modify table", destructive=True)
async def table_modify(ctx: OpContext, params: TableModifyParams) -> NodeEditResult:
    """Change a table in one step: setCellContent {row, col, content}, addRow {index?, cells?},
    deleteRow {row}, addColumn {index?, header?, cells?}, deleteColumn {col}, setHeaderRow
    {enabled?}. Row 0 is the header row. Only the changed lines are rewritten; staged whole."""
    ops = _batch_ops(params.operations, TABLE_ACTIONS)

    def make(s: Structure) -> list[TextEdit]:
        try:
            return tables.batch(s.text, params.nodeId, ops)
        except DomainError as exc:
            if exc.details.get("argument") == "table_id":
                raise _renamed(exc, "nodeId") from None
            raise

    return await _section_edit(ctx, params, make, "table_modify", split=False)


class ListModifyParams(NodeEditParams):
    nodeId: str = Field(description="The list's node id (list-0, …).")
    operations: Annotated[list[dict[str, Any]], WithJsonSchema(LIST_OPS_SCHEMA)] = Field(
        min_length=1, description="Applied in order, then written as one change."
    )


@operation("document.list_modify", title="Modify list", destructive=True)
async def list_modify(ctx: OpContext, params: ListModifyParams) -> NodeEditResult:
    """Change a list in one step: setItemContent {index, text}, addItem {index?, text},
    deleteItem {index}, indent {index}, outdent {index}, setChecked {index, checked}. Items
    are counted in document order, nested ones included; staged whole."""
    ops = _batch_ops(params.operations, LIST_ACTIONS)

    def make(s: Structure) -> list[TextEdit]:
        try:
            return lists.batch(s.text, params.nodeId, ops)
        except DomainError as exc:
            if exc.details.get("argument") == "list_id":
                raise _renamed(exc, "nodeId") from None
            raise

    return await _section_edit(ctx, params, make, "list_modify", split=False)
