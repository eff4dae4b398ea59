"""Row edits on an outline: add, update, check, move, delete, insert nested rows.

Each call is planned as ``PartEdit``s on rows (``core.content.rows``) against the outline as
it is, then applied (checkpointed) when the agent may apply, else staged as suggestions on
those rows: one per edit, found by row id when a person accepts them wherever the rows have
moved meanwhile. Topics, notes and nested rows are data written as attribute values, never
markup or a query.
"""

from __future__ import annotations

import secrets
from typing import Any, Literal, cast

from pydantic import BaseModel, Field

from ...core.content import DocumentContent, OutlineContent, content_of
from ...core.content.outline_tree import OutlineTree
from ...core.content.part_edits import PartEdit
from ...core.content.rows import RowSource
from ...core.diffs import unified
from ...core.errors import ArgumentError, DomainError
from ...core.markdown.outline_source import MarkdownRows
from ...core.revision import revision_of
from ..base import operation
from ..context import OpContext
from ..documents import resolve
from ..targets import MutationParams, policy_mode, record_applied
from .read import RowView, outline_of, row_view
from .rows_in import NewRow, as_dicts

EditOp = Literal["add", "update", "check", "move", "delete", "insert"]


class EditParams(MutationParams):
    op: EditOp = Field(
        description="add {topic, note?, state?, parent?|sibling?}; update {row, topic?, note?, state?}; "
        "check {row, state?}; move {row, parent?|sibling?}; delete {row} (with its subtree); "
        "insert {content, parent?|sibling?}."
    )
    row: str | None = Field(None, description="The row to change (its id).")
    parent: str | None = Field(None, description="The parent row (default: the top level).")
    position: Literal["first", "last"] = Field("last", description="Among the parent's children.")
    sibling: str | None = Field(None, description="Place next to this row instead (its parent is the parent).")
    relative: Literal["before", "after"] = Field("after", description="Before or after the sibling.")
    topic: str | None = None
    note: str | None = Field(None, description="A row's note ('' removes it).")
    state: Literal["checked", "unchecked", "none"] | None = Field(
        None, description="Its checkbox (none: no checkbox); rows below with a checkbox follow."
    )
    content: str | list[NewRow] | None = Field(
        None, description="insert: nested rows {topic, note?, state?, children?}, or indented lines / a markdown list."
    )


class OutlineEditResult(BaseModel):
    revision: str = Field(description="The outline's revision after the edit (unchanged when staged).")
    applied: bool
    mode: Literal["apply", "suggest", "dryRun"]
    filePath: str | None
    changed: bool
    message: str
    rowId: str | None = Field(None, description="The row changed (the first new one for add and insert).")
    rows: list[RowView] = Field(
        default_factory=list,
        description="The rows as the change leaves them (new rows with their ids; delete: the rows it removes).",
    )
    diff: str | None = Field(None, description="The file's change, for dryRun and suggest.")
    suggestionIds: list[str] | None = None
    checkpointId: str | None = None


def rows_of(kind: Any, text: str) -> RowSource:
    """The rows of a document's text: an OPML outline's, a markdown document's outline view."""
    if kind == "markdown":
        return MarkdownRows.parse(text)
    content = content_of(kind, text)
    if not hasattr(content, "apply_edit") or not hasattr(content, "rows"):
        raise DomainError("INVALID_ARGUMENT", f"a {kind} document has no rows to edit", kind=kind)
    return cast(RowSource, content)


def _now_id(rows: RowSource, row_id: str) -> str:
    """The id a planned row has in ``rows`` (a markdown row's id follows its topic)."""
    resolve = getattr(rows, "resolve", None)
    return (resolve(row_id) or row_id) if resolve is not None else row_id


def _need(value: Any, name: str, op: str) -> Any:
    if value is None:
        raise ArgumentError(f"{op} needs {name}", name)
    return value


def _new_id(taken: set[str]) -> str:
    while (found := f"r-{secrets.token_hex(4)}") in taken:
        pass
    taken.add(found)
    return found


def place(tree: OutlineTree, p: EditParams, moving: str | None = None) -> tuple[str | None, str | None, int]:
    """(parent, the sibling it follows or None, its index among the parent's children) of a
    row placed as ``p`` says; a row moved into itself or below itself is refused."""
    parent = p.parent
    if p.sibling is not None:
        sibling = tree.row(p.sibling)
        if p.parent is not None and sibling.parent != p.parent:
            raise ArgumentError(f"row {p.sibling!r} is not a child of {p.parent!r}", "sibling")
        if sibling.id == moving:
            raise ArgumentError("a row cannot be placed next to itself", "sibling")
        parent = sibling.parent
    elif parent is not None:
        tree.row(parent)
    if moving is not None and parent is not None and parent in {r.id for r in tree.walk(moving)}:
        raise DomainError("INVALID_ARGUMENT", "a row cannot move into itself or its own descendant", row=moving)
    siblings = [r.id for r in tree.children(parent) if r.id != moving]
    if p.sibling is not None:
        at = siblings.index(p.sibling) + (1 if p.relative == "after" else 0)
    else:
        at = 0 if p.position == "first" else len(siblings)
    return parent, siblings[at - 1] if at > 0 else None, at


def _inserts(tree: OutlineTree, p: EditParams, rows: list[dict[str, Any]]) -> list[PartEdit]:
    parent, after, index = place(tree, p)
    taken = set(tree.by_id)
    edits = []
    for row in rows:
        stack = list(row.get("children") or [])
        while stack:  # every nested row gets its id now: a suggestion names them
            child = stack.pop()
            child["id"] = _new_id(taken)
            stack.extend(child.get("children") or [])
        row_id = _new_id(taken)
        edits.append(PartEdit(row_id, "insert", after=after, index=index, fields={"parent": parent, **row}))
        after, index = row_id, index + 1
    return edits


def _states(tree: OutlineTree, row_id: str, state: str) -> list[PartEdit]:
    """A checkbox set on a row and on the rows below it that have one (as outliners do)."""
    below = [r for r in tree.walk(row_id) if r.id != row_id and r.status != "none" and r.status != state]
    return [PartEdit(r.id, "set", fields={"state": state}) for r in below] if state != "none" else []


def plan(tree: OutlineTree, p: EditParams) -> list[PartEdit]:
    """The row edits ``p`` asks for; a clear error when they cannot be made."""
    if p.op == "add":
        new = {"topic": _need(p.topic, "topic", p.op), "note": p.note or None, "state": p.state, "children": []}
        return _inserts(tree, p, [{k: v for k, v in new.items() if v is not None}])
    if p.op == "insert":
        return _inserts(tree, p, as_dicts(_need(p.content, "content", p.op)))
    row = tree.row(_need(p.row, "row", p.op))
    if p.op == "delete":
        return [PartEdit(row.id, "delete", fields={"topic": row.text})]
    if p.op == "move":
        parent, after, index = place(tree, p, moving=row.id)
        return [PartEdit(row.id, "move", after=after, index=index, fields={"parent": parent, "topic": row.text})]
    state = p.state or ("checked" if p.op == "check" else None)
    fields: dict[str, Any] = {"topic": p.topic, "note": p.note, "state": state}
    fields = {k: v for k, v in fields.items() if v is not None and (p.op == "update" or k == "state")}
    if not fields:
        raise ArgumentError("update needs topic, note or state", "topic")
    return [PartEdit(row.id, "set", fields=fields)] + (_states(tree, row.id, state) if state else [])


def _message(before: OutlineTree, after: OutlineTree, out: RowSource, edits: list[PartEdit]) -> str:
    def title(tree: OutlineTree, row_id: str | None) -> str:
        if row_id is None:
            return "the top level"
        return f"'{tree.row(row_id if tree is before else _now_id(out, row_id)).text}'"

    first = edits[0]
    if first.op == "insert":
        count = sum(1 for e in edits for _ in after.walk(_now_id(out, e.part)))
        what = f"row '{first.fields.get('topic', '')}'" if count == 1 else f"{count} rows"
        return f"Added {what} under {title(after, first.fields.get('parent'))}"
    if first.op == "delete":
        n = before.descendants(first.part)
        return f"Deleted {title(before, first.part)}" + (f" and {n} child rows" if n else "")
    if first.op == "move":
        return f"Moved {title(before, first.part)} under {title(after, first.fields.get('parent'))}"
    said = [k for k in ("topic", "note", "state") if k in first.fields]
    return f"Updated row {title(after, first.part)}: changed {' and '.join(said)}"


@operation("outline.edit", title="Edit outline rows", destructive=True)
async def edit(ctx: OpContext, params: EditParams) -> OutlineEditResult:
    """Change an outline's rows by id: add, update, check, move (with its subtree), delete
    (with its subtree), insert nested rows."""
    doc, tab = await resolve(ctx, params.tabId, params.path, params.windowId)
    outline_of(doc)
    mode, grant = policy_mode(ctx, doc.key, params.mode)
    staged = mode != "apply"
    made: list[tuple[list[PartEdit], RowSource, RowSource]] = []

    def change(text: str) -> str:
        base = rows_of(doc.kind, text)
        edits = plan(OutlineTree(base), params)
        out = base
        for e in edits:
            nxt = out.apply_edit(e, cast(DocumentContent, base))
            if nxt is None:  # cannot happen against the content it was planned on
                raise DomainError("CONFLICT", "the edit does not apply to this outline", row=e.part)
            out = nxt
        made[:] = [(edits, base, out)]
        # A change that changes no row writes nothing (not even the ids it would store).
        stored = base.with_ids() if isinstance(base, OutlineContent) else base
        return text if out.serialize() == stored.serialize() else out.serialize()

    before, after = await ctx.services.docs.commit(
        doc,
        change,
        expected_revision=params.expected_revision,
        save=params.saves(tab) and not staged,
        dry_run=staged,
        label=f"outline {params.op}",
    )
    edits, base, out = made[0]
    review, who = ctx.services.reviews, ctx.caller.author
    suggestions, checkpoint = [], None
    if mode == "suggest" and before == after:
        pass  # nothing to suggest
    elif mode == "suggest" and isinstance(base, MarkdownRows):  # a markdown splice: a text suggestion
        suggestions = review.stage(
            doc, before, after, who, operation=f"outline.{params.op}", rationale=params.rationale or "", split=False
        )
    elif mode == "suggest":
        suggestions = review.stage_parts(
            doc, before, edits, who, operation=f"outline.{params.op}", rationale=params.rationale or ""
        )
    elif mode == "apply" and before != after:
        checkpoint = record_applied(ctx, doc, before, after, grant, f"outline {params.op}", params.rationale)
    then, now = OutlineTree(base), OutlineTree(out)
    first = edits[0]
    if first.op == "delete":
        shown = [row_view(then, r) for r in then.walk(first.part)]
    elif first.op == "insert":
        shown = [row_view(now, r) for e in edits for r in now.walk(_now_id(out, e.part))]
    else:
        shown = [row_view(now, now.row(_now_id(out, first.part)))]
    return OutlineEditResult(
        revision=revision_of(after) if mode == "dryRun" else doc.revision,
        applied=mode == "apply" and before != after,
        mode=mode,
        filePath=doc.path,
        changed=before != after,
        message=_message(then, now, out, edits),
        rowId=_now_id(out, first.part) if first.op != "delete" else first.part,
        rows=shown,
        diff=unified(before, after, doc.path or doc.key) if staged and before != after else None,
        suggestionIds=[s.id for s in suggestions] if mode == "suggest" else None,
        checkpointId=checkpoint.id if checkpoint else None,
    )
