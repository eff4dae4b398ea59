"""Cell edits by cell id (or index): each one change, staged as one suggestion on its cell
under the default policy, applied (and checkpointed) when the agent may apply.

A suggestion on a cell is found by the cell's id when accepted, wherever the cell moved;
a person's change to that cell's text range (or, for a delete, move or type change, to the
cell's source, type or metadata) makes it a conflict. Notebooks older than nbformat 4.5 get
their cell ids stored by the first write that applies.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ...core.content import NotebookContent
from ...core.content.cells import new_cell
from ...core.content.part_edits import PartEdit
from ...core.diffs import unified
from ...core.errors import ArgumentError, DomainError
from ...core.revision import revision_of
from ..base import operation
from ..context import OpContext
from ..documents import resolve
from ..targets import MutationParams, policy_mode, record_applied, require_kind
from .read import CELL

EditKind = Literal["insert", "source", "replace", "move", "delete", "clear_outputs", "set_type", "metadata"]


class EditParams(MutationParams):
    op: EditKind = Field(
        description="insert {index?, cell_type?, source}; source {cell, source}; replace {cell, old, new, all?}; "
        "move {cell, index}; delete {cell}; clear_outputs {cell}; set_type {cell, cell_type}; "
        "metadata {cell, metadata?, tags?}."
    )
    cell: str | int | None = CELL
    index: int | None = Field(None, description="insert/move: the index the cell takes (default/-1: the end).")
    cell_type: Literal["code", "markdown", "raw"] | None = None
    source: str | None = None
    old: str | None = Field(None, description="replace: text that occurs once in the cell's source.")
    new: str | None = None
    all: bool = Field(False, description="replace: every occurrence of old (default: it must occur once).")
    metadata: dict[str, Any] | None = Field(None, description="Merged into the cell's metadata; null removes a key.")
    tags: list[str] | None = Field(None, description="The cell's tags (replaces them).")


class NotebookEditResult(BaseModel):
    revision: str = Field(description="The notebook's revision after the edit (unchanged when staged).")
    applied: bool
    mode: Literal["apply", "suggest", "dryRun"]
    filePath: str | None
    changed: bool
    cellId: str | None = Field(None, description="The cell edited (the new one for insert).")
    index: int | None = Field(None, description="Its index once the edit is made.")
    diff: str | None = Field(None, description="The cell's change.")
    suggestionIds: list[str] | None = None
    checkpointId: str | None = None


def _need(value: Any, name: str, op: str) -> Any:
    if value is None:
        raise ArgumentError(f"{op} needs {name}", name)
    return value


def _cell(nb: NotebookContent, p: EditParams) -> str:
    return nb.cell_id(_need(p.cell, "cell", p.op))


def _index(p: EditParams, n: int) -> int:
    """The index a new or moved cell takes among ``n`` others (-1 and None: the end)."""
    if p.index is None or p.index == -1:
        return n
    if not 0 <= p.index <= n:
        raise ArgumentError(f"index {p.index} is outside 0..{n} (or -1 for the end)", "index")
    return p.index


def plan(nb: NotebookContent, p: EditParams) -> PartEdit:
    """The edit ``p`` asks for on ``nb``; a clear error when it cannot be made."""
    if p.op == "insert":
        cell = new_cell(p.cell_type or "code", p.source or "")
        at = _index(p, len(nb.cells))
        after = nb.cells[at - 1]["id"] if at > 0 else None
        return PartEdit(cell["id"], "insert", after=after, index=at, fields=cell)
    cell_id = _cell(nb, p)
    cell = nb.cell(cell_id)
    source = cell.get("source", "")
    if p.op == "source":
        return PartEdit(cell_id, "text", 0, len(source), source, _need(p.source, "source", p.op))
    if p.op == "replace":
        old, new = _need(p.old, "old", p.op), _need(p.new, "new", p.op)
        count = source.count(old) if old else 0
        if count == 0 or (count > 1 and not p.all):
            raise DomainError(
                "NOT_FOUND" if count == 0 else "INVALID_ARGUMENT",
                f"old occurs {count} times in cell {cell_id!r}: give text that occurs exactly once"
                + ("" if count == 0 else ", or replace all"),
                argument="old",
                occurrences=count,
            )
        at, end = source.index(old), source.rindex(old) + len(old)
        # Every occurrence: one change from the first to the last (the text between them kept).
        return PartEdit(cell_id, "text", at, end, source[at:end], source[at:end].replace(old, new))
    if p.op == "delete":
        return PartEdit(cell_id, "delete")
    if p.op == "move":
        rest = [c["id"] for c in nb.cells if c["id"] != cell_id]
        at = _index(p, len(rest))
        return PartEdit(cell_id, "move", after=rest[at - 1] if at > 0 else None, index=at)
    if p.op == "clear_outputs":
        if cell["cell_type"] != "code":
            raise DomainError("INVALID_ARGUMENT", f"cell {cell_id!r} is a {cell['cell_type']} cell: it has no outputs")
        return PartEdit(cell_id, "set", fields={"outputs": [], "execution_count": None})
    if p.op == "set_type":
        return PartEdit(cell_id, "set", fields={"cell_type": _need(p.cell_type, "cell_type", p.op)})
    if p.metadata is None and p.tags is None:
        raise ArgumentError("metadata needs metadata or tags", "metadata")
    metadata = dict(cell.get("metadata") or {})
    for key, value in (p.metadata or {}).items():
        if value is None:
            metadata.pop(key, None)
        else:
            metadata[key] = value
    if p.tags is not None:
        if p.tags:
            metadata["tags"] = list(dict.fromkeys(p.tags))
        else:
            metadata.pop("tags", None)
    return PartEdit(cell_id, "set", fields={"metadata": metadata})


def _cell_diff(before: NotebookContent, after: NotebookContent, edit: PartEdit, name: str) -> str:
    """What a reviewer reads of the change: the cell's source (and fields) before and after."""

    def shown(nb: NotebookContent) -> str:
        if edit.part not in {c["id"] for c in nb.cells}:
            return ""
        cell = nb.cell(edit.part)
        head = f"# cell {edit.part} ({cell['cell_type']}) at index {nb.index_of(edit.part)}"
        extra = ""
        if edit.op == "set":
            extra = "".join(f"# {k}: {cell.get(k)!r}\n" for k in sorted(edit.fields) if k != "source")
        return f"{head}\n{extra}{cell.get('source', '')}\n"

    return unified(shown(before), shown(after), f"{name}#{edit.part}")


@operation("notebook.edit", title="Edit notebook cells", destructive=True)
async def edit(ctx: OpContext, params: EditParams) -> NotebookEditResult:
    """Edit one notebook cell by id or index: insert, source, replace, move, delete,
    clear_outputs, set_type, metadata."""
    doc, _ = await resolve(ctx, params.tabId, params.path, params.windowId)
    require_kind(doc, "notebook")
    mode, grant = policy_mode(ctx, doc.key, params.mode)
    staged = mode != "apply"
    made: list[tuple[PartEdit, NotebookContent, NotebookContent]] = []

    def change(text: str) -> str:
        nb = NotebookContent.parse("notebook", text)
        e = plan(nb, params)
        out = nb.apply_edit(e, nb)
        if out is None:  # cannot happen against the content it was planned on
            raise DomainError("CONFLICT", "the edit does not apply to this notebook")
        made[:] = [(e, nb, out)]
        return out.serialize()

    before, after = await ctx.services.docs.commit(
        doc,
        change,
        expected_revision=params.expected_revision,
        # Saved at once by path or tab, as its outputs are when code runs (save=false: not).
        save=params.save is not False and not staged,
        dry_run=staged,
        label=f"notebook {params.op}",
    )
    e, nb_before, nb_after = made[0]
    changed = nb_before.serialize() != nb_after.serialize()
    review, who = ctx.services.reviews, ctx.caller.author
    suggestions, checkpoint = [], None
    if changed and mode == "suggest":
        suggestions = review.stage_parts(
            doc, before, [e], who, operation=f"notebook.{params.op}", rationale=params.rationale or ""
        )
    elif mode == "apply" and before != after:
        checkpoint = record_applied(ctx, doc, before, after, grant, f"notebook {params.op}", params.rationale)
    ids = {c["id"] for c in nb_after.cells}
    return NotebookEditResult(
        revision=revision_of(after) if mode == "dryRun" else doc.revision,
        applied=mode == "apply" and before != after,
        mode=mode,
        filePath=doc.path,
        changed=changed,
        cellId=e.part,
        index=nb_after.index_of(e.part) if e.part in ids else None,
        diff=_cell_diff(nb_before, nb_after, e, doc.path or doc.key) if changed else None,
        suggestionIds=[s.id for s in suggestions] if mode == "suggest" else None,
        checkpointId=checkpoint.id if checkpoint else None,
    )
