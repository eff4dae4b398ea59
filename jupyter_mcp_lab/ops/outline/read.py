"""Reading an outline: the tree (to a depth), one row, a row's children, search, a section.

An outline is an OPML file (``.opml``) or a markdown document read as one (headings and
list items as rows, ``core.markdown.outline_rows``): ``outline_of`` is the one place that
decides, so every view reads both the same way. Rows carry their id, topic, note,
checkbox state (mixed derived from the children), level, parent and children's ids. A
section is paged (``start``, ``limit`` over its rows in order) and stops early when the
page would pass the server's response budget: ``nextStart``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Literal, NoReturn
from weakref import WeakKeyDictionary

from pydantic import BaseModel, Field

from ...core.content import OutlineContent
from ...core.content.outline import Row, State
from ...core.content.outline_tree import OutlineTree, SearchIn, markdown_lines, plain_lines
from ...core.documents import OpenDocument
from ...core.errors import ArgumentError
from ...core.kinds import kind_for
from ...core.markdown.outline_rows import MarkdownOutline, markdown_outline
from ...core.markdown.outline_topics import topic_source
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..targets import require_kind

View = Literal["tree", "row", "children", "search", "section"]
Format = Literal["structured", "plain", "markdown"]
BUDGET_SHARE = 0.8  # of max_response_bytes a page may fill (the envelope needs the rest)


class ReadParams(DocumentTarget):
    view: View = Field(
        "tree",
        description="tree: rows to maxDepth; row: one (children too with children=true); children: a row's "
        "or the top level's; search: rows matching query; section: a row's subtree as rows or text (paged).",
    )
    row: str | None = Field(None, description="A row id (default: the whole outline / the top level).")
    maxDepth: int | None = Field(None, ge=0, description="tree: levels below the start to include (0: top only).")
    notes: bool = Field(True, description="Include notes.")
    children: bool = Field(False, description="row: include its immediate children.")
    query: str | None = Field(None, min_length=1, description="search: text to find.")
    searchIn: SearchIn = Field("all", description="search: topics, notes or all.")
    caseSensitive: bool = False
    maxResults: int = Field(50, ge=1, le=100, description="search: matches to return at most.")
    format: Format = Field("structured", description="section: rows, indented plain text or markdown.")
    start: int = Field(0, ge=0, description="section: first row of the page (0: the section's root).")
    limit: int = Field(500, ge=1, le=5000, description="section: rows per page at most.")


class RowView(BaseModel):
    id: str
    topic: str
    note: str | None = None
    level: int
    state: State
    hasChildren: bool
    parentId: str | None
    childIds: list[str]


class MatchView(BaseModel):
    row: RowView
    field: Literal["topic", "note"]
    context: str


class OutlineRead(BaseModel):
    path: str | None
    name: str
    revision: str
    rowCount: int
    canUndo: bool
    canRedo: bool
    rows: list[RowView] | None = None
    row: RowView | None = None
    matches: list[MatchView] | None = None
    totalMatches: int | None = None
    truncated: bool | None = None
    text: str | None = Field(None, description="section as plain text or markdown.")
    sectionTitle: str | None = None
    sectionRows: int | None = Field(None, description="section: rows in the whole section.")
    nextStart: int | None = Field(None, description="Where the next page starts (None: this was the last).")


OUTLINE_KINDS = ("outline", "markdown")  # the kinds a document can be read as an outline


def is_outline_path(path: str) -> bool:
    """Whether the file at ``path`` reads as an outline (an .opml or a markdown file)."""
    return kind_for(path) in OUTLINE_KINDS


def outline_of(doc: OpenDocument) -> OutlineContent | MarkdownOutline:
    """The document's rows: an OPML file's, or a markdown document's outline view."""
    require_kind(doc, *OUTLINE_KINDS)
    if doc.kind == "markdown":
        return markdown_outline(doc.text)
    content = doc.content
    assert isinstance(content, OutlineContent)
    return content


def row_view(tree: OutlineTree, r: Row, notes: bool = True) -> RowView:
    # Built from a parsed row: its fields are already what RowView says (no validation).
    return RowView.model_construct(
        id=r.id,
        topic=r.text,
        note=r.note if notes else None,
        level=r.level,
        state=tree.state(r.id),
        hasChildren=bool(r.children),
        parentId=r.parent,
        childIds=list(r.children),
    )


# The tree and its rows' views per parsed content: rows are immutable, so a structure read
# after a read (or a search after a structure) reuses them. Keyed by identity, the last few.
_TREES: OrderedDict[int, tuple[object, OutlineTree]] = OrderedDict()
_VIEWS: WeakKeyDictionary[OutlineTree, dict[bool, dict[str, RowView]]] = WeakKeyDictionary()


def tree_of(content: OutlineContent | MarkdownOutline) -> OutlineTree:
    hit = _TREES.get(id(content))
    if hit is not None and hit[0] is content:
        _TREES.move_to_end(id(content))
        return hit[1]
    tree = OutlineTree(content)
    _TREES[id(content)] = (content, tree)
    while len(_TREES) > 8:
        _TREES.popitem(last=False)
    return tree


def views(tree: OutlineTree, rows: Iterable[Row], notes: bool) -> list[RowView]:
    """The views of ``rows`` (of ``tree``), each made once per tree."""
    made = _VIEWS.setdefault(tree, {}).setdefault(notes, {})
    out = []
    for r in rows:
        v = made.get(r.id)
        if v is None:
            v = made[r.id] = row_view(tree, r, notes)
        out.append(v)
    return out


# The tree view's rows list per tree and (row, maxDepth, notes): the same list object while
# the content is the same (a new revision parses a new content, so a new tree), which lets
# the structure tool keep its result and the dispatcher its JSON per revision.
_WALKS: WeakKeyDictionary[OutlineTree, dict[tuple[str | None, int | None, bool], list[RowView]]] = WeakKeyDictionary()


def tree_rows(tree: OutlineTree, row: str | None, max_depth: int | None, notes: bool) -> list[RowView]:
    """The views of ``tree``'s rows from ``row`` to ``max_depth``, one list per tree and
    arguments (do not change it)."""
    made = _WALKS.setdefault(tree, {})
    key = (row, max_depth, notes)
    hit = made.get(key)
    if hit is None:
        hit = made[key] = views(tree, tree.walk(row, max_depth), notes)
        while len(made) > 4:  # a few depths at a time
            del made[next(iter(made))]
    return hit


def _section(ctx: OpContext, tree: OutlineTree, params: ReadParams, result: OutlineRead) -> None:
    rows = list(tree.walk(params.row))
    root = tree.row(params.row) if params.row is not None else None
    result.sectionTitle = root.text if root else result.name
    result.sectionRows = len(rows)
    budget = int(ctx.settings.max_response_bytes * BUDGET_SHARE)
    used = 300
    page: list[Row] = []
    end = min(len(rows), params.start + params.limit)
    for i in range(params.start, end):
        size = len(rows[i].text) + len(rows[i].note or "") + 200
        if page and used + size > budget:
            end = i
            break
        used += size
        page.append(rows[i])
    result.nextStart = end if end < len(rows) else None
    if params.format == "structured":
        result.rows = views(tree, page, params.notes)
        return
    base = root.level if root else 0
    if params.format == "plain":
        result.text = "\n".join(plain_lines(tree, page, base))
        return
    lines: list[str] = []
    body = page
    if params.start == 0:  # the section's title is its heading
        lines.append(f"# {topic_source(result.sectionTitle, 'heading')}")  # plain text, as markdown
        if root is not None:
            body = page[1:]
            if root.note:
                lines += [""] + [f"> {line}" for line in root.note.splitlines()]
        lines.append("")
    lines += markdown_lines(tree, body, base + 1 if root else 0)
    result.text = "\n".join(lines).rstrip("\n") + "\n"


@operation("outline.read", read_only=True, title="Read outline")
async def read(ctx: OpContext, params: ReadParams) -> OutlineRead:
    """Read an outline (.opml, or a markdown document's headings and list items) by row: the
    tree to a depth, one row, children, search, a section."""
    doc, _ = await resolve_target(ctx, params)
    tree = tree_of(outline_of(doc))
    name = (doc.path or doc.key).rsplit("/", 1)[-1]
    result = OutlineRead(
        path=doc.path,
        name=name,
        revision=doc.revision,
        rowCount=len(tree.rows),
        canUndo=bool(doc.history.undo_stack),
        canRedo=bool(doc.history.redo_stack),
    )
    if params.view == "tree":
        result.rows = tree_rows(tree, params.row, params.maxDepth, params.notes)
    elif params.view == "row":
        if params.row is None:
            raise_missing("row", "view 'row'")
        result.row = row_view(tree, tree.row(params.row), params.notes)
        if params.children:
            result.rows = views(tree, tree.children(params.row), params.notes)
    elif params.view == "children":
        result.rows = views(tree, tree.children(params.row), params.notes)
    elif params.view == "search":
        if params.query is None:
            raise_missing("query", "view 'search'")
        found = tree.search(params.query, params.searchIn, params.caseSensitive)
        result.totalMatches = len(found)
        result.truncated = len(found) > params.maxResults
        result.matches = [
            MatchView(row=views(tree, [m.row], params.notes)[0], field=m.field, context=m.context)
            for m in found[: params.maxResults]
        ]
    else:
        _section(ctx, tree, params, result)
    return result


def raise_missing(argument: str, where: str) -> NoReturn:
    raise ArgumentError(f"{where} needs {argument}", argument=argument)
