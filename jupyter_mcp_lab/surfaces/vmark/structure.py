"""VMark's structure tools: revision, syntax tree, digest, blocks, targets, sections.

Each is an adapter over ``document.structure`` on the tab the window shows: VMark's field
names (from/to, position, content), its type names (codeBlock, bulletList, …) and its
envelopes are applied here.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.markdown.syntax_tree import AstNode
from ...core.markdown.type_names import editor_type
from ...ops.context import OpContext
from ...ops.markdown.structure import StructureParams, StructureResult, structure
from ..adapter import adapter
from . import protocol
from .common import tool
from .shapes import WINDOW_ID, renamed

CONTENT_LIMIT = 500  # characters of a block's source in list_blocks


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


async def _structure(ctx: OpContext, window_id: str | None, **fields: Any) -> StructureResult:
    params = StructureParams(windowId=window_id, **fields)
    return cast(StructureResult, await structure(ctx, params))


def _type(type_: str | None, ordered: bool | None = None, task: bool | None = None) -> str | None:
    return editor_type(type_, ordered=ordered, task=task) if type_ and type_ != "section" else type_


# --------------------------------------------------------------------------- syntax tree


class AstResult(BaseModel):
    type: str = Field("doc", description="The root: a document.")
    children: list[AstNode]
    truncated: bool = Field(
        description="True when nested nodes (childCount) or trailing blocks were left out to fit the response "
        "limit: read parts with get_section or list_blocks."
    )
    revision: str
    filePath: str | None


@adapter(structure, title="Document AST")
async def ast(ctx: OpContext, params: _Params) -> AstResult:
    """The syntax tree of a window's markdown document."""
    r = await _structure(ctx, params.windowId, view="ast")
    return AstResult(children=r.ast or [], truncated=r.truncated, revision=r.revision, filePath=r.filePath)


# --------------------------------------------------------------------------- digest


class DigestSection(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    nodeId: str
    level: int
    title: str
    from_: int = Field(alias="from")
    to: int
    lineStart: int
    lineEnd: int
    wordCount: int


class DigestResult(BaseModel):
    title: str | None = Field(description="The first level-1 heading.")
    sections: list[DigestSection]
    headingCount: int
    paragraphCount: int
    wordCount: int
    characterCount: int
    lineCount: int
    blockCounts: dict[str, int] = Field(description="Blocks per type (VMark's type names).")
    revision: str
    filePath: str | None


def _block_counts(counts: dict[str, int], lists: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for type_, n in counts.items():
        if type_ != "list":
            out[editor_type(type_)] = n
            continue
        for kind, k in lists.items():
            out[editor_type("list", ordered=kind == "ordered", task=kind == "task")] = k
    return out


@adapter(structure, title="Document digest")
async def digest(ctx: OpContext, params: _Params) -> DigestResult:
    """A compact digest of a window's markdown document."""
    r = await _structure(ctx, params.windowId, view="digest", words=True)
    d = r.digest
    assert d is not None and r.sections is not None
    sections = [
        DigestSection(
            nodeId=x.nodeId,
            level=x.level,
            title=x.title,
            from_=x.start,
            to=x.end,
            lineStart=x.lineStart,
            lineEnd=x.lineEnd,
            wordCount=x.wordCount or 0,
        )
        for x in r.sections
    ]
    return DigestResult(
        title=d.title,
        sections=sections,
        headingCount=d.headingCount,
        paragraphCount=d.paragraphCount,
        wordCount=d.wordCount,
        characterCount=d.characters,
        lineCount=d.lines,
        blockCounts=_block_counts(d.blockCounts, d.listCounts),
        revision=r.revision,
        filePath=r.filePath,
    )


# --------------------------------------------------------------------------- blocks


class BlockEntry(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    nodeId: str
    type: str
    level: int | None = None
    language: str | None = None
    content: str = Field(description=f"The block's markdown source (its first {CONTENT_LIMIT} characters).")
    contentTruncated: bool = False
    position: int = Field(description="Where the block starts (code point offset).")
    from_: int = Field(alias="from")
    to: int
    lineStart: int
    lineEnd: int


class ListBlocksParams(_Params):
    type: str | None = Field(
        None, description="Only blocks of this type: heading, paragraph, codeBlock, table, bulletList, … ('list': any)."
    )


class ListBlocksResult(BaseModel):
    blocks: list[BlockEntry]
    count: int
    truncated: bool = Field(description="True when the list was cut to fit the response limit.")
    revision: str = Field(description="The node ids are valid for this revision.")
    filePath: str | None


@adapter(structure, title="List blocks")
async def list_blocks(ctx: OpContext, params: ListBlocksParams) -> ListBlocksResult:
    """Every block of a window's markdown document with its node id, in document order."""
    r = await _structure(ctx, params.windowId, view="blocks", type=params.type, preview=CONTENT_LIMIT)
    budget = ctx.settings.max_response_bytes - 2048
    out: list[BlockEntry] = []
    used, truncated = 0, r.truncated
    for b in r.blocks or []:
        entry = BlockEntry(
            nodeId=b.nodeId,
            type=editor_type(b.type, ordered=b.ordered, task=b.task),
            level=b.level,
            language=b.language if b.type == "code" else None,
            content=b.preview,
            contentTruncated=b.end - b.start > CONTENT_LIMIT,
            position=b.start,
            from_=b.start,
            to=b.end,
            lineStart=b.lineStart,
            lineEnd=b.lineEnd,
        )
        used += len(entry.model_dump_json(by_alias=True)) + 1
        if used > budget:
            truncated = True
            break
        out.append(entry)
    return ListBlocksResult(blocks=out, count=len(out), truncated=truncated, revision=r.revision, filePath=r.filePath)


# --------------------------------------------------------------------------- sections


class SectionParams(_Params):
    nodeId: str = Field(description="The section's heading node id (h-0) or its title.")


class SectionResult(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    nodeId: str
    level: int
    title: str
    content: str = Field(
        description="The section's markdown: its heading line and everything up to the next heading "
        "of the same or a higher level."
    )
    from_: int = Field(alias="from")
    to: int
    lineStart: int
    lineEnd: int
    revision: str


@adapter(structure, title="Get section")
async def get_section(ctx: OpContext, params: SectionParams) -> SectionResult:
    """One section of a window's markdown document."""
    try:
        r = await _structure(ctx, params.windowId, view="section", section=params.nodeId)
    except DomainError as exc:
        raise renamed(exc, section="nodeId") from None
    sec = r.section
    assert sec is not None
    return SectionResult(
        nodeId=sec.nodeId,
        level=sec.level,
        title=sec.title,
        content=sec.content,
        from_=sec.start,
        to=sec.end,
        lineStart=sec.lineStart,
        lineEnd=sec.lineEnd,
        revision=r.revision,
    )


# --------------------------------------------------------------------------- targets


class ResolveParams(_Params):
    targets: list[str] = Field(
        min_length=1,
        max_length=200,
        description="Node ids (h-0, p-3, table-0, …), section titles, or text to find in the document.",
    )


class Resolved(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    target: str
    found: bool
    from_: int | None = Field(None, alias="from")
    to: int | None = None
    type: str | None = None
    nodeId: str | None = Field(None, description="The block (or section heading) the target is, or is in.")
    resolvedAs: str | None = Field(None, description="nodeId, section or text: how the target was understood.")
    matchCount: int | None = Field(None, description="For text: how many times it occurs (from/to: the first).")


class ResolveResult(BaseModel):
    results: list[Resolved]
    revision: str


@adapter(structure, title="Resolve targets")
async def resolve_targets(ctx: OpContext, params: ResolveParams) -> ResolveResult:
    """Resolve node ids, section titles or text to positions in a window's markdown document."""
    r = await _structure(ctx, params.windowId, view="targets", targets=params.targets)
    results = [
        Resolved(
            target=t.target,
            found=t.found,
            from_=t.start,
            to=t.end,
            type=_type(t.type, t.ordered, t.task),
            nodeId=t.nodeId,
            resolvedAs=t.resolvedAs,
            matchCount=t.matchCount,
        )
        for t in r.targets or []
    ]
    return ResolveResult(results=results, revision=r.revision)


# --------------------------------------------------------------------------- the tools

REVISION_TOOL = tool(
    "get_document_revision",
    protocol.revision,
    "Get the window's document revision for optimistic locking: {revision, hash, timestamp}. Pass revision "
    "as baseRevision.",
)

STRUCTURE_TOOLS = (
    tool(
        "get_document_ast",
        ast,
        "Get the document's syntax tree: {type: 'doc', children: [{type, nodeId, from, to, content, attrs, "
        "children}]}.",
    ),
    tool(
        "get_document_digest",
        digest,
        "Get a compact digest: {title, sections[], headingCount, paragraphCount, wordCount, blockCounts}.",
    ),
    tool(
        "list_blocks",
        list_blocks,
        "List the blocks with their node ids: {blocks: [{nodeId, type, level?, content, position}], count}. Ids "
        "use prefixes h- (heading), p- (paragraph), code-, table-, list-, bq-, hr-, math-.",
    ),
    tool(
        "resolve_targets",
        resolve_targets,
        "Resolve node ids, section titles or text to positions: {results: [{target, found, from?, to?, type?}]}.",
    ),
    tool(
        "get_section",
        get_section,
        "Get a section (heading to the next heading of the same or a higher level): {nodeId, level, title, "
        "content, from, to}.",
    ),
)
