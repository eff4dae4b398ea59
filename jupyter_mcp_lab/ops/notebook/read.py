"""Reading a notebook: a brief listing, detailed pages, one cell, sources, the outline.

Detailed reads are paged (``start``, ``limit``) and stop early when the page would pass
the server's response budget; ``nextStart`` says where the next page begins.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from ...core.content import NotebookContent
from ...core.documents import OpenDocument
from ...core.markdown.headings import ATX_HEADING
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..targets import require_kind
from . import outputs as nb_outputs

View = Literal["brief", "cells", "cell", "sources", "outline"]
CELL: Any = Field(None, description="A cell: its id, or its 0-based index (negative counts from the end).")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
BUDGET_SHARE = 0.8  # of max_response_bytes a page may fill (the envelope needs the rest)


class ReadParams(DocumentTarget):
    view: View = Field(
        "brief",
        description="brief: a line per cell; cells: sources and outputs; cell: one; sources; outline: headings.",
    )
    cell: str | int | None = CELL
    start: int = Field(0, ge=0, description="First cell index of the page.")
    limit: int = Field(100, ge=1, le=1000, description="Cells per page at most.")


def _none(value: Any) -> bool:
    return value is None


# A view's fields that another view (or the cell) does not have are left out, not sent as
# nulls: a 200-cell brief listing is a third smaller for the agent, the wire and both SDKs.
class CellView(BaseModel):
    index: int
    id: str
    type: str
    firstLine: str | None = Field(None, exclude_if=_none)
    lines: int | None = Field(None, description="brief: lines of its source.", exclude_if=_none)
    source: str | None = Field(None, exclude_if=_none)
    executionCount: int | None = Field(None, description="absent: never run.", exclude_if=_none)
    outputs: str | list[nb_outputs.OutputView] | None = Field(
        None, description="brief: a summary; cells/cell: each output (text, or resources to fetch).", exclude_if=_none
    )
    tags: list[str] | None = Field(None, exclude_if=_none)


_CELLS = TypeAdapter(list[CellView])
_BRIEF_SET = frozenset(("index", "id", "type", "firstLine", "lines", "executionCount", "outputs"))
_set = object.__setattr__


def _constructed(fields: dict[str, Any]) -> CellView:
    """What ``CellView.model_construct(**fields)`` makes of a brief view's fields (all given)."""
    view = CellView.__new__(CellView)
    _set(view, "__dict__", fields)
    _set(view, "__pydantic_fields_set__", set(_BRIEF_SET))
    _set(view, "__pydantic_extra__", None)
    _set(view, "__pydantic_private__", None)
    return view


class Heading(BaseModel):
    level: int
    title: str
    cellId: str
    index: int


class NotebookRead(BaseModel):
    path: str | None
    revision: str
    cellCount: int
    cells: list[CellView] | None = None
    headings: list[Heading] | None = None
    nextStart: int | None = Field(None, description="Where the next page starts (None: this was the last).")


def notebook_of(doc: OpenDocument) -> NotebookContent:
    require_kind(doc, "notebook")
    content = doc.content
    assert isinstance(content, NotebookContent)
    return content


def _first_line(source: str) -> str:
    line = source.lstrip("\n").split("\n", 1)[0]
    return line if len(line) <= 120 else line[:119] + "…"


def cell_view(path: str, index: int, cell: dict[str, Any], view: View) -> CellView:
    source = cell.get("source", "")
    code = cell["cell_type"] == "code"
    outs = cell.get("outputs", []) if code else []
    tags = (cell.get("metadata") or {}).get("tags") or None
    if view == "brief":
        # A brief read lists every cell: built as ``model_construct`` builds a model (trusted
        # values, these of its types) without its walk over the fields' defaults, which cost
        # more than the rest of the cell's view. Every field, in its order.
        return _constructed(
            {
                "index": index,
                "id": cell["id"],
                "type": cell["cell_type"],
                "firstLine": _first_line(source),
                "lines": len(source.splitlines()),
                "source": None,
                "executionCount": cell.get("execution_count"),
                "outputs": nb_outputs.summary(outs) or None,
                "tags": None,
            }
        )
    if view == "sources":
        return CellView(index=index, id=cell["id"], type=cell["cell_type"], source=source)
    return CellView(
        index=index,
        id=cell["id"],
        type=cell["cell_type"],
        source=source,
        executionCount=cell.get("execution_count"),
        outputs=[nb_outputs.view(path, cell["id"], i, o) for i, o in enumerate(outs)] if code else None,
        tags=tags,
    )


def headings(nb: NotebookContent) -> list[Heading]:
    out = []
    for i, cell in enumerate(nb.cells):
        if cell["cell_type"] != "markdown":
            continue
        fence = None
        for line in cell.get("source", "").split("\n"):
            m = _FENCE.match(line)
            if m:
                fence = None if fence and m.group(1)[0] == fence else fence or m.group(1)[0]
                continue
            if fence is None and (h := ATX_HEADING.match(line)) and h.group(1):
                level = len(line.lstrip(" ")) - len(line.lstrip(" ").lstrip("#"))
                out.append(Heading(level=level, title=h.group(1), cellId=cell["id"], index=i))
    return out


@operation("notebook.read", read_only=True, title="Read notebook")
async def read(ctx: OpContext, params: ReadParams) -> NotebookRead:
    """Read a notebook: brief listing, detailed cells (paged), one cell, sources, outline."""
    doc, _ = await resolve_target(ctx, params)
    nb = notebook_of(doc)
    path = doc.path or doc.key
    n = len(nb.cells)
    result = NotebookRead(path=doc.path, revision=doc.revision, cellCount=n)
    if params.view == "outline":
        result.headings = headings(nb)
        return result
    if params.view == "cell" or params.cell is not None:
        cell_id = nb.cell_id(params.cell if params.cell is not None else params.start)
        i = nb.index_of(cell_id)
        result.cells = [cell_view(path, i, nb.cells[i], "cells" if params.view in ("cell", "brief") else params.view)]
        return result
    budget = int(ctx.settings.max_response_bytes * BUDGET_SHARE)
    used = 200
    cells: list[CellView] = []
    end = min(n, params.start + params.limit)
    whole = False
    if params.view in ("brief", "sources"):
        # Small views: the page in one pass when it fits whole (the JSON array's brackets and
        # commas are not the cells'), cell by cell only when it does not: the same page.
        views = [cell_view(path, i, nb.cells[i], params.view) for i in range(params.start, end)]
        size = len(_CELLS.dump_json(views, exclude_none=True)) - 2 - max(0, len(views) - 1)
        whole = used + size <= budget
        if whole:
            cells = views
    for i in range(end if whole else params.start, end):
        shown = cell_view(path, i, nb.cells[i], params.view)
        size = len(shown.model_dump_json(exclude_none=True))
        if cells and used + size > budget:
            end = i
            break
        used += size
        cells.append(shown)
    result.cells = cells
    result.nextStart = end if end < n else None
    return result
