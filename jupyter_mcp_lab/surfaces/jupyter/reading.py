"""The reference's reads: read_notebook (brief or detailed, paged) and read_cell, over
``notebook.read``; the brief TSV the other tools show cells in."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.notebook import read
from ...ops.notebook.read import CellView
from ..adapter import adapter
from .answers import Answer, OutputsAnswer, outputs_answer, table
from .target import CELL_ID, NOTEBOOK_NAME, Strict, cell_ref, not_connected_text, notebook_path, used

BRIEF = ["Index", "Type", "Count", "First Line"]


async def read_nb(ctx: OpContext, path: str | None, **fields: object) -> read.NotebookRead:
    """``notebook.read`` of ``path`` (None: the session's current notebook)."""
    r = await read.read(ctx, read.ReadParams(path=path, **fields))
    assert isinstance(r, read.NotebookRead)
    return r


def brief_rows(cells: list[CellView]) -> list[list[object]]:
    rows: list[list[object]] = []
    for c in cells:
        first = c.firstLine or ""
        hidden = (c.lines or 1) - 1
        rows.append(
            [c.index, c.type, c.executionCount or "N/A", first + (f"...({hidden} lines hidden)" if hidden else "")]
        )
    return rows


def tsv_brief(cells: list[CellView]) -> str:
    if not cells:
        return "Notebook is empty"
    return table("", BRIEF, brief_rows(cells)).result


# ------------------------------------------------------------------ read_notebook


class ReadNotebookParams(Strict):
    notebook_name: str = Field(description="Notebook identifier to read")
    response_format: Literal["brief", "detailed"] = Field(
        "brief",
        description="Response format: 'brief' will return first line and lines number, 'detailed' will return "
        "full cell source",
    )
    start_index: int = Field(0, ge=0, description="Starting index for pagination (0-based)")
    limit: int = Field(20, ge=0, description="Maximum number of items to return (0 means no limit)")


@adapter(read.read, title="Read Notebook")
async def read_notebook(ctx: OpContext, params: ReadNotebookParams) -> Answer:
    """Read a notebook and return index, source content, type, execution count of each cell.

    Using brief format to get a quick overview of the notebook structure and it's useful for locating specific
    cells for operations like delete or insert. Using detailed format to get detailed information of the notebook.
    Long notebooks come in pages: when the response budget ends a page early, the answer says where to go on."""
    names = await used(ctx)
    if params.notebook_name not in names:  # the reference answers this, as a result
        return Answer(kind="notebook.read", result=not_connected_text(params.notebook_name, list(names)))
    path = names[params.notebook_name]
    view: read.View = "brief" if params.response_format == "brief" else "cells"
    limit = min(params.limit or 1000, 1000)
    try:
        r = await read.read(ctx, read.ReadParams(path=path, view=view, start=params.start_index, limit=limit))
    except DomainError:
        raise
    assert isinstance(r, read.NotebookRead)
    n = r.cellCount
    if params.start_index >= n and not (params.start_index == 0 and n == 0):
        return Answer(
            kind="notebook.read", result=f"Start index {params.start_index} is out of range. Notebook has {n} cells."
        )
    cells = r.cells or []
    if n == 0:
        body = "Notebook is empty"
    elif params.response_format == "brief":
        body = tsv_brief(cells)
    else:
        body = "\n".join(
            part
            for c in cells
            for part in (
                f"=====Cell {c.index} | type: {c.type} | execution count: {c.executionCount or 'N/A'}=====\n",
                c.source or "",
                "\n\n",
            )
        )
    wanted_end = n if not params.limit else min(n, params.start_index + params.limit)
    more = ""
    if r.nextStart is not None and r.nextStart < wanted_end:
        more = f"\n\n[Page cut at the response budget: continue with start_index={r.nextStart}]"
    return Answer(kind="notebook.read", result=f"Notebook {params.notebook_name} has {n} cells.\n\n{body}{more}")


# ------------------------------------------------------------------ read_cell


class ReadCellParams(Strict):
    cell_index: int | None = Field(
        None, ge=0, description="Index of the cell to read (0-based). Omit when passing cell_id."
    )
    include_outputs: bool = Field(True, description="Include outputs in the response (only for code cells)")
    notebook_name: str | None = NOTEBOOK_NAME
    cell_id: str | None = CELL_ID


@adapter(read.read, title="Read Cell")
async def read_cell(ctx: OpContext, params: ReadCellParams) -> OutputsAnswer:
    """Read a cell as readable text entries.

    Includes metadata and source, plus optional formatted output text (images as resources to
    fetch) rather than raw nbformat objects."""
    path = await notebook_path(ctx, params.notebook_name)
    r = await read_nb(ctx, path, view="cell", cell=cell_ref(params.cell_index, params.cell_id))
    c = (r.cells or [])[0]
    head = [f"=====Cell {c.index} | type: {c.type} | execution count: {c.executionCount or 'N/A'}=====", c.source or ""]
    outs = c.outputs if params.include_outputs and isinstance(c.outputs, list) else []
    return outputs_answer("cell.read", head, outs, cellId=c.id)
