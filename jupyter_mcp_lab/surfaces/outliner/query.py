"""The reference's read tools (spec/omnioutliner-mcp-tools.md) over ``outline.read``.

Every tool acts on the caller's focused tab, as the reference acts on the frontmost
document; a tab that is not an outline (or none) answers ``no_document``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ...core.errors import DomainError
from ...ops.base import Operation
from ...ops.context import OpContext
from ...ops.outline import read as outline
from ...ops.outline.read import OutlineRead, ReadParams, RowView
from ..adapter import adapter
from .errors import no_document

# A list of rows as its schema says it: an array (each row {id, topic, note, level, state,
# hasChildren, parentId, childIds}). Not a schema per row: clients validate the structured
# content against the output schema, and the SDK's validator spends seconds on 5,000 rows.
Rows = Annotated[
    list[RowView],
    WithJsonSchema(
        {"type": "array", "description": "Rows: {id, topic, note, level, state, hasChildren, parentId, childIds}."}
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


async def focused(ctx: OpContext, **arguments: Any) -> OutlineRead:
    """``outline.read`` on the focused tab (or the person's front outline)."""
    result = await on_focused(ctx, outline.read, ReadParams, arguments)
    assert isinstance(result, OutlineRead)
    return result


async def on_focused(ctx: OpContext, op: Operation, params: type[BaseModel], arguments: dict[str, Any]) -> Any:
    """``op`` on the focused tab; without one, on the outline the person has in front in
    JupyterLab (the reference's frontmost document); ``no_document`` otherwise."""
    try:
        return await op(ctx, params(**arguments))
    except DomainError as exc:
        if exc.code == "INVALID_TAB" and (front := front_outline(ctx)) is not None:
            return await op(ctx, params(path=front, **arguments))
        if exc.code == "INVALID_TAB" or (exc.code == "INVALID_ARGUMENT" and "kind" in exc.details):
            raise no_document() from None
        raise


def front_outline(ctx: OpContext) -> str | None:
    """The outline (OPML or markdown) active in the most recently used connected JupyterLab, if any."""
    lab = ctx.services.workspace.lab
    for client in lab.describe() if lab is not None else []:  # most recently used first
        active = client.get("active")
        if isinstance(active, str) and outline.is_outline_path(active):
            return active
    return None


# --------------------------------------------------------------------------- get_outline_structure


class StructureParams(_Strict):
    maxDepth: int | None = Field(None, ge=0, description="Maximum nesting depth to return. 0 = top-level only.")
    includeNotes: bool = Field(True, description="Whether to include note content for each row.")


class DocumentBrief(BaseModel):
    name: str
    rowCount: int


class StructureResult(BaseModel):
    # Frozen: the same result for the same rows list (one per parsed revision, see
    # outline.tree_rows) is returned again, and the dispatcher reuses its JSON.
    model_config = ConfigDict(frozen=True)

    document: DocumentBrief
    rows: Rows


# The last few structures, keyed by the rows list's identity (the list is held with it, so
# the id stays its own) and the name (a renamed file keeps its parsed content).
_STRUCTURES: dict[tuple[int, str], tuple[list[RowView], StructureResult]] = {}


@adapter(outline.read, title="Get outline structure")
async def get_outline_structure(ctx: OpContext, params: StructureParams) -> StructureResult:
    """Get the full outline structure including all rows, their text, notes, and hierarchy."""
    r = await focused(ctx, view="tree", maxDepth=params.maxDepth, notes=params.includeNotes)
    rows = r.rows or []
    key = (id(rows), r.name)
    hit = _STRUCTURES.get(key)
    if hit is not None and hit[0] is rows and hit[1].document.rowCount == r.rowCount:
        return hit[1]
    result = StructureResult(document=DocumentBrief(name=r.name, rowCount=r.rowCount), rows=rows)
    _STRUCTURES[key] = (rows, result)
    while len(_STRUCTURES) > 8:
        del _STRUCTURES[next(iter(_STRUCTURES))]
    return result


# --------------------------------------------------------------------------- get_row


class RowParams(_Strict):
    rowId: str = Field(description="The unique identifier of the row to retrieve.")
    includeChildren: bool = Field(False, description="Whether to include immediate child rows in the response.")


class RowResult(BaseModel):
    row: RowView
    children: list[RowView] | None = None


@adapter(outline.read, title="Get row")
async def get_row(ctx: OpContext, params: RowParams) -> RowResult:
    """Get the full details of a specific row including its text, note, state, and position in the hierarchy."""
    r = await focused(ctx, view="row", row=params.rowId, children=params.includeChildren)
    assert r.row is not None
    return RowResult(row=r.row, children=r.rows if params.includeChildren else None)


# --------------------------------------------------------------------------- search_outline


class SearchParams(_Strict):
    query: str = Field(min_length=1, description="The text to search for in the outline.")
    searchIn: Literal["all", "topics", "notes"] = Field("all", description="Which fields to search in.")
    caseSensitive: bool = Field(False, description="Whether the search should be case-sensitive.")
    maxResults: int = Field(50, ge=1, le=100, description="Maximum number of results to return.")


class SearchHit(BaseModel):
    row: RowView
    matchContext: str
    matchField: Literal["topic", "note"]


class SearchResult(BaseModel):
    results: list[SearchHit]
    totalMatches: int
    truncated: bool


@adapter(outline.read, title="Search outline")
async def search_outline(ctx: OpContext, params: SearchParams) -> SearchResult:
    """Search the current document for rows matching the given text. Searches topic text and notes."""
    r = await focused(
        ctx,
        view="search",
        query=params.query,
        searchIn=params.searchIn,
        caseSensitive=params.caseSensitive,
        maxResults=params.maxResults,
    )
    hits = [SearchHit(row=m.row, matchContext=m.context, matchField=m.field) for m in r.matches or []]
    return SearchResult(results=hits, totalMatches=r.totalMatches or 0, truncated=bool(r.truncated))


# --------------------------------------------------------------------------- get_row_children


class ChildrenParams(_Strict):
    rowId: str | None = Field(None, description="The parent row ID. Omit to get top-level rows.")


class ChildrenResult(BaseModel):
    parentId: str | None
    children: Rows


@adapter(outline.read, title="Get row children")
async def get_row_children(ctx: OpContext, params: ChildrenParams) -> ChildrenResult:
    """Get all immediate children of a row, useful for exploring outline hierarchy."""
    r = await focused(ctx, view="children", row=params.rowId)
    return ChildrenResult(parentId=params.rowId, children=r.rows or [])


# --------------------------------------------------------------------------- get_section_content


class SectionParams(_Strict):
    rowId: str | None = Field(None, description="Root row ID for the section. Omit for entire document.")
    format: Literal["plain", "markdown", "structured"] = Field(
        "structured", description="How to format the content output."
    )
    start: int = Field(0, ge=0, description="Paging: the section's row to start at (nextStart of the last page).")


class SectionRef(BaseModel):
    title: str
    id: str | None


class SectionRow(RowView):
    children: list[SectionRow] | None = None


class SectionRows(BaseModel):
    rows: list[SectionRow]
    totalRows: int


class SectionResult(BaseModel):
    section: SectionRef
    content: SectionRows | None = None
    markdown: str | None = None
    text: str | None = None
    nextStart: int | None = Field(None, description="A big section comes in pages: pass this as start for the next.")


def _nest(rows: list[RowView]) -> list[SectionRow]:
    """A page of rows in order as trees (a row whose parent is not on the page is a root)."""
    roots: list[SectionRow] = []
    by_id: dict[str, SectionRow] = {}
    for r in rows:
        node = SectionRow(**r.model_dump())
        by_id[r.id] = node
        parent = by_id.get(r.parentId) if r.parentId else None
        if parent is None:
            roots.append(node)
        else:
            if parent.children is None:
                parent.children = []
            parent.children.append(node)
    return roots


@adapter(outline.read, title="Get section content")
async def get_section_content(ctx: OpContext, params: SectionParams) -> SectionResult:
    """Get the complete text content of a section and all its descendants, formatted for
    summarization or content generation (large sections come in pages: nextStart)."""
    r = await focused(ctx, view="section", row=params.rowId, format=params.format, start=params.start)
    result = SectionResult(section=SectionRef(title=r.sectionTitle or r.name, id=params.rowId), nextStart=r.nextStart)
    if params.format == "structured":
        result.content = SectionRows(rows=_nest(r.rows or []), totalRows=r.sectionRows or 0)
    elif params.format == "markdown":
        result.markdown = r.text
    else:
        result.text = r.text
    return result
