"""Precise edits: several at once, by offset, by anchor, by node id or by section,
all computed against the same revision and applied atomically (or not at all).

The one edit pipeline: every surface's targeted edit (the lab's ``edit``, VMark's batch,
diff, anchored, section, table and list tools) is a list of these edits. Each edit also
reports what it found and changed (node ids, matches), for surfaces that answer with it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, WithJsonSchema, model_serializer

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import blocks, blocks_edit, inserts, lists, marks, tables
from ...core.markdown import edits as md
from ...core.markdown.nodes import inserted_ids, node_range
from ...core.markdown.structure import Structure, structure_of
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import MutationParams, MutationResult, change_document
from .edit_ops import (
    EDITS_SCHEMA,
    MARKDOWN_ONLY,
    TEXT_OPS,
    WHOLE,
    Anchored,
    BlockType,
    Delete,
    DeleteBlock,
    EditOp,
    FindReplace,
    Format,
    Insert,
    InsertBlock,
    InsertSection,
    InsertSpecial,
    Link,
    ListEdit,
    MoveBlock,
    MoveSection,
    Replace,
    Table,
    UpdateBlock,
    UpdateSection,
    _Op,
)

__all__ = ["EDITS_SCHEMA", "TEXT_OPS", "Anchored", "EditResult", "MoveSection", "UpdateBlock", "UpdateSection"]
_BLOCK_TYPES = {"codeBlock": "code", "bulletList": "bullet", "orderedList": "ordered", "taskList": "task"}
MAX_MATCHES = 100  # matches listed per find_replace


class Found(BaseModel):
    start: int
    end: int
    line: int
    replaced: bool = Field(description="Whether the match policy chose this match.")


class EditOutcome(BaseModel):
    """What one edit found and changed (fields that do not apply are left out)."""

    nodeIds: list[str] | None = Field(None, description="The nodes it changed (ids of the revision read).")
    newNodeIds: list[str] | None = Field(None, description="The blocks it inserted (ids after the change).")
    matchCount: int | None = Field(None, description="find_replace, anchored: how many matches there are.")
    replacedCount: int | None = Field(None, description="find_replace, anchored: how many it replaces.")
    matches: list[Found] | None = Field(None, description=f"The matches (at most {MAX_MATCHES}), in order.")

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}


def _target(node_id: str) -> str | int:
    return int(node_id) if node_id.isdigit() else node_id


def _special(text: str, op: InsertSpecial) -> list[TextEdit]:
    if op.op == "insert_hr":
        return blocks_edit.insert_horizontal_rule(text, op.at)
    if op.op == "insert_math":
        return inserts.insert_math_inline(text, op.at, op.text)
    if op.op == "insert_math_block":
        return inserts.insert_math_block(text, op.at, op.text)
    if op.op == "insert_mermaid":
        return inserts.insert_mermaid(text, op.at, op.text)
    return inserts.insert_wiki_link(text, op.at, op.text, op.alias, op.heading)


def _table(text: str, op: Table) -> list[TextEdit]:
    if op.nodeId is None:
        if op.at is None or op.rows is None or op.cols is None:
            raise ArgumentError("a new table needs at, rows and cols (or give nodeId)", "nodeId")
        return tables.insert_table(text, op.at, op.rows, op.cols, op.header)
    return tables.batch(text, _target(op.nodeId), op.operations)


def _list(text: str, op: ListEdit) -> list[TextEdit]:
    if op.kind is not None or op.indent is not None:
        if op.start is None or op.end is None:
            raise ArgumentError("kind and indent work on a range: give start and end", "start")
        if op.kind is not None:
            return lists.toggle_list(text, op.start, op.end, op.kind)
        if op.indent and op.indent < 0:
            return lists.outdent_items(text, op.start, op.end)
        return lists.indent_items(text, op.start, op.end)
    if op.nodeId is None:
        raise ArgumentError("list operations need nodeId", "nodeId")
    return lists.batch(text, _target(op.nodeId), op.operations)


def _format(s: Structure, op: Format) -> tuple[list[TextEdit], EditOutcome]:
    outcome = EditOutcome()
    if op.nodeId is not None:
        b = blocks.resolve_block(s, op.nodeId, None)
        (start, end), outcome.nodeIds = node_range(s, b, op.text), [b.id]
    elif op.start is None or op.end is None:
        raise ArgumentError("format needs start and end, or nodeId", "start")
    else:
        start, end = op.start, op.end
    if op.mark == "clear":
        return marks.clear_marks(s.text, start, end), outcome
    return marks.toggle_mark(s.text, start, end, op.mark), outcome


def _find_replace(s: Structure, op: FindReplace) -> tuple[list[TextEdit], EditOutcome]:
    found = md.find_matches(s, op.find, case_sensitive=op.caseSensitive, regex=op.regex)
    picked = md.pick(found, op.match, op.nth, repr(op.find)) if found or not op.optional else []
    chosen = {(m.start, m.end) for m in picked}
    listed = [Found(start=m.start, end=m.end, line=m.line, replaced=(m.start, m.end) in chosen) for m in found]
    outcome = EditOutcome(matchCount=len(found), replacedCount=len(picked), matches=listed[:MAX_MATCHES])
    return md.replace_matches(picked, op.replace), outcome


def plan(s: Structure, op: _Op) -> tuple[list[TextEdit], EditOutcome]:
    """The text edits one edit makes on the revision ``s``, and what it found and changed."""
    match op:
        case FindReplace():
            return _find_replace(s, op)
        case Anchored():
            m = md.anchored(s, op.text, op.before, op.after)
            found = Found(start=m.start, end=m.end, line=m.line, replaced=True)
            outcome = EditOutcome(matchCount=1, replacedCount=1, matches=[found])
            return [TextEdit(m.start, m.end, op.replacement)], outcome
        case UpdateBlock():
            b = blocks.resolve_block(s, op.nodeId, None)
            edit = blocks.update_block(s.text, b, op.content, keep_heading=op.keepHeading)
            return [edit], EditOutcome(nodeIds=[b.id])
        case DeleteBlock():
            b = blocks.resolve_block(s, op.nodeId, None)
            return [blocks.delete_block(s.text, b)], EditOutcome(nodeIds=[b.id])
        case MoveBlock():
            b = blocks.resolve_block(s, op.nodeId, None)
            after = None if op.after is None else blocks.resolve_block(s, op.after, None)
            return blocks.move_block(s.text, b, after), EditOutcome(nodeIds=[b.id])
        case Format():
            return _format(s, op)
    return text_edits(s, op), EditOutcome()


_PLANNED = (FindReplace, Anchored, UpdateBlock, DeleteBlock, MoveBlock, Format)


def text_edits(s: Structure, op: _Op) -> list[TextEdit]:
    """The text edits one edit makes on the revision ``s``."""
    if isinstance(op, _PLANNED):
        return plan(s, op)[0]
    match op:
        case Insert():
            return [TextEdit(op.at, op.at, op.text)]
        case Replace():
            return [TextEdit(op.start, op.end, op.text)]
        case Delete():
            return [TextEdit(op.start, op.end, "")]
        case InsertBlock():
            after = None if op.after is None else blocks.resolve_block(s, op.after, None)
            return [blocks.insert_after(s.text, after, op.content)]
        case UpdateSection():
            return [md.update_section(s, op.nodeId, op.content, keep_heading=op.keepHeading)]
        case InsertSection():
            return [md.insert_section(s, op.after, op.level, op.title, op.content)]
        case MoveSection():
            return md.move_section(s, op.nodeId, op.after)
        case Link():
            if op.url is None:
                return marks.remove_link(s.text, (op.start, op.end))
            return marks.set_link(s.text, op.start, op.end, op.url, op.title)
        case BlockType():
            kind = _BLOCK_TYPES.get(op.type, op.type)
            return blocks_edit.set_block_type(s.text, _target(op.nodeId), kind, op.level, op.language)
        case InsertSpecial():
            return _special(s.text, op)
        case Table():
            return _table(s.text, op)
        case ListEdit():
            return _list(s.text, op)
    raise AssertionError(op)


class EditParams(MutationParams):
    edits: Annotated[list[EditOp], WithJsonSchema(EDITS_SCHEMA)] = Field(
        min_length=1, description="Edits against the same revision, applied together."
    )


class EditResult(MutationResult):
    edits: list[EditOutcome] = Field(
        default_factory=list,
        description="Per edit: the nodes and matches it touched (left out of a batch too large to report them).",
    )


@operation("document.edit", title="Edit document", destructive=True)
async def edit(ctx: OpContext, params: EditParams) -> EditResult:
    """Apply edits that change only the bytes they target: insert/replace/delete by offset,
    find_replace with a match policy, anchored (text + before/after context); on markdown also
    update/insert/delete/move a block by node id, update/insert/move a section, format (bold,
    italic, code, strike, underline, highlight, clear) a range or a node and link a range,
    change a block's type, insert a rule, math, mermaid or a wiki link, and edit tables and
    lists. All positions and node ids refer to the revision you read (pass it as
    expected_revision); the edits must not overlap; they apply together or not at all. An
    error names the failing edit by its index (``edit``)."""
    outcomes: list[EditOutcome] = []

    def change(text: str) -> str:
        s = structure_of(text)
        out: list[TextEdit] = []
        planned: list[EditOutcome] = []
        new_blocks: list[tuple[int, int]] = []  # (edit index, index of its text edit)
        for n, op in enumerate(params.edits):
            try:
                made, outcome = plan(s, op)
            except DomainError as exc:
                exc.details.setdefault("edit", n)
                raise
            if isinstance(op, InsertBlock):
                new_blocks.append((n, len(out)))
            out.extend(made)
            planned.append(outcome)
        after = apply_edits(text, out)
        if new_blocks:
            ids = inserted_ids(out, [i for _, i in new_blocks], after)
            for (n, _), new_id in zip(new_blocks, ids, strict=True):
                planned[n].newNodeIds = [new_id] if new_id else []
        outcomes[:] = planned
        return after

    markdown = any(isinstance(op, MARKDOWN_ONLY) for op in params.edits)
    whole = any(isinstance(op, WHOLE) for op in params.edits)
    r = await change_document(
        ctx, params, change, label="edit", kinds=("markdown",) if markdown else (), split=not whole
    )
    return _reported(EditResult(**r.model_dump(), edits=outcomes), ctx.settings.max_response_bytes - 4096)


def _reported(result: EditResult, budget: int) -> EditResult:
    """The result within the response budget. The change is made by now: a batch of hundreds
    of edits must not be answered with RESPONSE_TOO_LARGE (the agent would think it failed),
    so the per-edit report gives way, its matches first, then the list."""
    if len(result.model_dump_json()) <= budget:
        return result
    for outcome in result.edits:
        outcome.matches = None
    if len(result.model_dump_json()) > budget:
        result.edits = []
    return result
