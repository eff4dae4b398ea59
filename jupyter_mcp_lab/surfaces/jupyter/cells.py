"""The reference's cell edits: insert_cell, overwrite_cell_source, edit_cell_source,
delete_cell, clear_cell_output, move_cell, over ``notebook.edit`` (and ``notebook.read``) and
``notebook.edit``. Every change is a suggestion under the default policy: the answer says so
(with the suggestion id) where the reference says it is done."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.notebook import edit, read
from ..adapter import adapter
from .answers import EditAnswer, edit_answer, tsv
from .reading import BRIEF, brief_rows, read_nb
from .target import CELL_ID, NOTEBOOK_NAME, Strict, cell_ref, notebook_path


async def _edit(ctx: OpContext, path: str | None, **fields: object) -> edit.NotebookEditResult:
    r = await edit.edit(ctx, edit.EditParams(path=path, **fields))
    assert isinstance(r, edit.NotebookEditResult)
    return r


def _diff(r: edit.NotebookEditResult) -> str:
    return f"```diff\n{r.diff.rstrip()}\n```" if r.diff else ""


async def _around(ctx: OpContext, path: str | None, start: int, limit: int) -> str:
    nb = await read_nb(ctx, path, view="brief", start=max(0, start), limit=limit)
    return tsv(BRIEF, brief_rows(nb.cells or []))


# ------------------------------------------------------------------ insert_cell


class InsertParams(Strict):
    cell_index: int = Field(ge=-1, description="Target index for insertion (0-based), use -1 to append at end")
    cell_type: Literal["code", "markdown", "raw"] = Field(description="Type of cell to insert")
    cell_source: str = Field(description="Source content for the cell")
    notebook_name: str | None = NOTEBOOK_NAME


async def insert(
    ctx: OpContext, path: str | None, index: int, cell_type: str, source: str
) -> tuple[edit.NotebookEditResult, int]:
    """The insert both insert tools make: (its result, the index the cell takes)."""
    n = (await read_nb(ctx, path, view="outline")).cellCount
    if index < -1 or index > n:
        raise DomainError(
            "INVALID_ARGUMENT",
            f"Index {index} is outside valid range [-1, {n}]. Use -1 to append at end.",
            argument="cell_index",
        )
    r = await _edit(ctx, path, op="insert", index=index, cell_type=cell_type, source=source)
    return r, (n if index == -1 else index)


@adapter(edit.edit, read.read, title="Insert Cell")
async def insert_cell(ctx: OpContext, params: InsertParams) -> EditAnswer:
    """Insert a cell to specified position from the currently activated notebook (a suggestion
    for the person to accept unless they let you apply)."""
    path = await notebook_path(ctx, params.notebook_name)
    r, at = await insert(ctx, path, params.cell_index, params.cell_type, params.cell_source)
    what = f"Cell insertion at index {at} ({params.cell_type})"
    detail, sep = _diff(r), "\n\n"
    if r.applied:
        sep = "\n"
        n = (await read_nb(ctx, path, view="outline")).cellCount
        start = max(0, n - 10) if n - at < 5 else max(0, at - 5)
        detail = f"Notebook now has {n} cells, showing surrounding cells:\n{await _around(ctx, path, start, 10)}"
    done = f"Cell inserted successfully at index {at} ({params.cell_type})!"
    return edit_answer("cell.insert", r, done, what, detail, sep)


# ------------------------------------------------------------------ overwrite / edit source


class OverwriteParams(Strict):
    cell_index: int | None = Field(
        None, ge=0, description="Index of the cell to overwrite (0-based). Omit when passing cell_id."
    )
    cell_source: str = Field(description="New complete cell source")
    notebook_name: str | None = NOTEBOOK_NAME
    cell_id: str | None = CELL_ID


@adapter(edit.edit, title="Overwrite Cell Source")
async def overwrite_cell_source(ctx: OpContext, params: OverwriteParams) -> EditAnswer:
    """Replace the entire source of a cell in the currently activated notebook.
    Returns a diff showing the changes made (a suggestion for the person unless they let you apply).

    Use this when rewriting a cell completely. For small, targeted changes, prefer edit_cell_source."""
    path = await notebook_path(ctx, params.notebook_name)
    ref = cell_ref(params.cell_index, params.cell_id)
    r = await _edit(ctx, path, op="source", cell=ref, source=params.cell_source)
    return edit_answer("cell.overwrite", r, f"Cell {ref} overwritten successfully", f"Overwriting cell {ref}", _diff(r))


class EditSourceParams(Strict):
    cell_index: int | None = Field(
        None, ge=0, description="Index of the cell to edit (0-based). Omit when passing cell_id."
    )
    old_string: str = Field(description="Exact string to find in cell source")
    new_string: str = Field(description="Replacement string")
    replace_all: bool = Field(False, description="Replace all occurrences (default: first only)")
    notebook_name: str | None = NOTEBOOK_NAME
    cell_id: str | None = CELL_ID


@adapter(edit.edit, title="Edit Cell Source")
async def edit_cell_source(ctx: OpContext, params: EditSourceParams) -> EditAnswer:
    """Perform a surgical find-and-replace within a cell's source (like an editor's Edit tool).
    Finds `old_string` in the cell and replaces it with `new_string`. Matching is literal
    (not regex) and may span multiple lines. By default, `old_string` must appear exactly once;
    set `replace_all=True` for multiple occurrences. Returns a diff of the changes made
    (a suggestion for the person unless they let you apply)."""
    path = await notebook_path(ctx, params.notebook_name)
    if not params.old_string:
        raise DomainError("INVALID_ARGUMENT", "old_string must not be empty", argument="old_string")
    ref = cell_ref(params.cell_index, params.cell_id)
    r = await _edit(
        ctx, path, op="replace", cell=ref, old=params.old_string, new=params.new_string, all=params.replace_all
    )
    return edit_answer("cell.edit", r, f"Cell {ref} edited successfully", f"Editing cell {ref}", _diff(r))


# ------------------------------------------------------------------ delete_cell


class DeleteParams(Strict):
    cell_indices: list[int] | None = Field(
        None,
        min_length=1,
        description="List of cell indices to delete (0-based). Omit when passing cell_ids_to_delete.",
    )
    include_source: bool = Field(True, description="Whether to include the source of deleted cells")
    notebook_name: str | None = NOTEBOOK_NAME
    cell_ids_to_delete: list[str] | None = Field(
        None, description="Address the cells by their ids instead of their indices. Given both, the ids win."
    )


@adapter(edit.edit, read.read, title="Delete Cell")
async def delete_cell(ctx: OpContext, params: DeleteParams) -> EditAnswer:
    """Delete specific cells from the currently activated notebook and return the cell source of
    deleted cells (if include_source=True). Each deletion is a suggestion for the person unless
    they let you apply; every cell is checked before any is deleted."""
    path = await notebook_path(ctx, params.notebook_name)
    refs: list[str | int] = list(params.cell_ids_to_delete or params.cell_indices or [])
    if not refs:
        raise DomainError("INVALID_ARGUMENT", "give cell_indices or cell_ids_to_delete", argument="cell_indices")
    if len(set(refs)) != len(refs):
        raise DomainError(
            "INVALID_ARGUMENT", f"cell_indices contains duplicate values: {refs}", argument="cell_indices"
        )
    cells = [(await read_nb(ctx, path, view="cell", cell=ref)).cells or [] for ref in refs]  # all checked first
    lines, ids, applied, pending = [], [], True, False
    for ref, (cell,) in zip(refs, cells, strict=True):
        r = await _edit(ctx, path, op="delete", cell=cell.id)
        ids += r.suggestionIds or []
        applied, pending = applied and r.applied, pending or bool(r.suggestionIds)
        if r.suggestionIds:
            lines.append(
                f"Cell {ref} ({cell.type}) deletion is a suggestion ({', '.join(r.suggestionIds)}) waiting "
                "for the person's review in JupyterLab: NOT deleted yet."
            )
        else:
            lines.append(f"Cell {ref} ({cell.type}) deleted successfully.")
        if params.include_source:
            lines += [f"deleted cell source:\n{cell.source or ''}", "\n---\n"]
    return EditAnswer(
        kind="cell.delete",
        result="\n".join(lines),
        applied=applied,
        pending=pending,
        suggestionIds=ids,
        cellIds=[c[0].id for c in cells],
    )


# ------------------------------------------------------------------ clear_cell_output


class ClearParams(Strict):
    cell_index: int | None = Field(
        None, ge=0, description="Index of the code cell to clear (0-based). Omit when passing cell_id."
    )
    notebook_name: str | None = NOTEBOOK_NAME
    cell_id: str | None = CELL_ID


@adapter(edit.edit, read.read, title="Clear Cell Output")
async def clear_cell_output(ctx: OpContext, params: ClearParams) -> EditAnswer:
    """Clear the outputs and execution count of a single code cell in the currently
    activated notebook, without deleting the cell itself (a suggestion unless you may apply)."""
    path = await notebook_path(ctx, params.notebook_name)
    ref = cell_ref(params.cell_index, params.cell_id)
    cell = ((await read_nb(ctx, path, view="cell", cell=ref)).cells or [])[0]
    if cell.type != "code":
        raise DomainError(
            "INVALID_ARGUMENT", f"Cell {ref} is not a code cell, cannot clear output.", argument="cell_index"
        )
    count = len(cell.outputs) if isinstance(cell.outputs, list) else 0
    r = await _edit(ctx, path, op="clear_outputs", cell=cell.id)
    if not r.changed:
        answer = edit_answer("cell.clear_output", r, f"Cell {ref} had no output to clear.", "")
        answer.result = f"Cell {ref} had no output to clear."
        return answer
    done = f"Cell {ref} output cleared successfully ({count} output(s) removed)."
    return edit_answer("cell.clear_output", r, done, f"Clearing the {count} output(s) of cell {ref}")


# ------------------------------------------------------------------ move_cell


class MoveParams(Strict):
    source_index: int | None = Field(
        None, ge=0, description="Index of the cell to move (0-based). Omit when passing source_cell_id."
    )
    target_index: int | None = Field(
        None,
        ge=0,
        description="Destination index where the cell will end up (0-based). Omit when passing target_cell_id.",
    )
    notebook_name: str | None = NOTEBOOK_NAME
    source_cell_id: str | None = Field(None, description="Address the cell to move by its id rather than its index.")
    target_cell_id: str | None = Field(None, description="Put the moved cell where this cell is now, addressed by id.")


@adapter(edit.edit, read.read, title="Move Cell")
async def move_cell(ctx: OpContext, params: MoveParams) -> EditAnswer:
    """Move a cell from source_index to target_index within the currently activated notebook.

    The cell is removed from source_index and placed at target_index. Cells in between shift
    to fill the gap. Example: in a notebook [A, B, C, D], move_cell(1, 3) produces [A, C, D, B].
    A suggestion for the person unless they let you apply."""
    path = await notebook_path(ctx, params.notebook_name)
    source = (
        (
            await read_nb(
                ctx, path, view="cell", cell=cell_ref(params.source_index, params.source_cell_id, "source_index")
            )
        ).cells
        or []
    )[0]
    if params.target_cell_id is not None:
        target = ((await read_nb(ctx, path, view="cell", cell=params.target_cell_id)).cells or [])[0].index
    elif params.target_index is not None:
        target = params.target_index
    else:
        raise DomainError("INVALID_ARGUMENT", "give target_index or target_cell_id", argument="target_index")
    n = (await read_nb(ctx, path, view="outline")).cellCount
    if target >= n:
        raise DomainError(
            "INVALID_ARGUMENT",
            f"Target index {target} is out of range. Notebook has {n} cells (valid: 0-{n - 1}).",
            argument="target_index",
        )
    r = await _edit(ctx, path, op="move", cell=source.id, index=target)
    done = f"Cell moved successfully from index {source.index} to {target} ({source.type})."
    detail = ""
    if r.applied:
        detail = f"Notebook has {n} cells, showing surrounding cells:\n{await _around(ctx, path, target - 3, 7)}"
    return edit_answer("cell.move", r, done, f"Moving cell {source.index} to {target} ({source.type})", detail, "\n")
