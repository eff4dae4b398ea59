"""A window's markdown document by node: digest, blocks, sections, and resolving node ids
or text to positions (VMark's structure tools).

Node ids (h-0, p-3, code-1, table-0, list-2, …) are those of ``document.structure``,
valid for the revision returned with them. Types are VMark's names (codeBlock,
bulletList, horizontalRule, …); filters also take this server's own (code, list, hr, …).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.documents import OpenDocument
from ...core.errors import DomainError
from ...core.markdown.digest import document_digest, section_digests
from ...core.markdown.structure import Block, Structure
from ...core.markdown.type_names import type_matches, type_name
from ..base import operation
from ..context import OpContext
from ..targets import require_kind
from ..workspace.windows import WINDOW_ID, document_of_window
from .structure import parsed

CONTENT_LIMIT = 500  # characters of a block's source in list_blocks


async def markdown_of_window(ctx: OpContext, window_id: str | None) -> tuple[OpenDocument, Structure]:
    doc, _ = await document_of_window(ctx, window_id)
    require_kind(doc, "markdown")
    return doc, await parsed(doc.text)


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


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


@operation("document.digest", title="Document digest", read_only=True)
async def digest(ctx: OpContext, params: _Params) -> DigestResult:
    """A compact digest of a window's markdown document: its sections (heading node ids,
    levels, titles, ranges, word counts) and counts of headings, paragraphs, words, blocks."""
    doc, s = await markdown_of_window(ctx, params.windowId)
    d = document_digest(s, type_name)
    sections = [
        DigestSection(
            nodeId=x.id,
            level=x.level,
            title=x.title,
            from_=x.start,
            to=x.end,
            lineStart=x.line_start,
            lineEnd=x.line_end,
            wordCount=x.words,
        )
        for x in section_digests(s)
    ]
    return DigestResult(
        title=d.title,
        sections=sections,
        headingCount=d.headings,
        paragraphCount=d.paragraphs,
        wordCount=d.words,
        characterCount=d.characters,
        lineCount=d.lines,
        blockCounts=d.block_counts,
        revision=s.revision,
        filePath=doc.path,
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


def block_entry(s: Structure, b: Block) -> BlockEntry:
    source = s.text[b.start : b.end]
    return BlockEntry(
        nodeId=b.id,
        type=type_name(b),
        level=b.level,
        language=b.info if b.type == "code" else None,
        content=source[:CONTENT_LIMIT],
        contentTruncated=len(source) > CONTENT_LIMIT,
        position=b.start,
        from_=b.start,
        to=b.end,
        lineStart=b.line_start,
        lineEnd=b.line_end,
    )


@operation("document.list_blocks", title="List blocks", read_only=True)
async def list_blocks(ctx: OpContext, params: ListBlocksParams) -> ListBlocksResult:
    """Every block of a window's markdown document with its node id, in document order:
    {nodeId, type, level?, content, position}. Ids use prefixes h- (heading), p- (paragraph),
    code-, table-, list-, bq- (blockquote), hr-, math-, html-, fm- (front matter), fn-."""
    doc, s = await markdown_of_window(ctx, params.windowId)
    chosen = [b for b in s.blocks if params.type is None or type_matches(b, params.type)]
    budget = ctx.settings.max_response_bytes - 2048
    out: list[BlockEntry] = []
    used = 0
    truncated = False
    for b in chosen:
        entry = block_entry(s, b)
        used += len(entry.model_dump_json(by_alias=True)) + 1
        if used > budget:
            truncated = True
            break
        out.append(entry)
    return ListBlocksResult(blocks=out, count=len(out), truncated=truncated, revision=s.revision, filePath=doc.path)


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


@operation("document.section", title="Get section", read_only=True)
async def get_section(ctx: OpContext, params: SectionParams) -> SectionResult:
    """One section of a window's markdown document: the heading and its content up to the
    next heading of the same or a higher level (subsections included)."""
    _, s = await markdown_of_window(ctx, params.windowId)
    sec = s.section(params.nodeId)
    if sec is None or sec.heading is None:
        raise DomainError(
            "NOT_FOUND",
            f"no section {params.nodeId!r} at revision {s.revision}: give a heading's node id (h-0, …) or title",
            nodeId=params.nodeId,
        )
    return SectionResult(
        nodeId=sec.id,
        level=sec.level,
        title=sec.title,
        content=s.text[sec.start : sec.end],
        from_=sec.start,
        to=sec.end,
        lineStart=sec.line_start,
        lineEnd=sec.line_end,
        revision=s.revision,
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


def resolve(s: Structure, target: str) -> Resolved:
    block = s.by_id.get(target)
    if block is not None:
        return Resolved(
            target=target,
            found=True,
            from_=block.start,
            to=block.end,
            type=type_name(block),
            nodeId=block.id,
            resolvedAs="nodeId",
        )
    sec = s.section(target) if target.strip() else None
    if sec is not None and sec.heading is not None:
        return Resolved(
            target=target, found=True, from_=sec.start, to=sec.end, type="section", nodeId=sec.id, resolvedAs="section"
        )
    if target:
        at = s.text.find(target)
        if at >= 0:
            count = s.text.count(target)
            inside = s.block_at(at)
            return Resolved(
                target=target,
                found=True,
                from_=at,
                to=at + len(target),
                type=type_name(inside) if inside else None,
                nodeId=inside.id if inside else None,
                resolvedAs="text",
                matchCount=count,
            )
    return Resolved(target=target, found=False)


@operation("document.resolve_targets", title="Resolve targets", read_only=True)
async def resolve_targets(ctx: OpContext, params: ResolveParams) -> ResolveResult:
    """Resolve node ids, section titles or text to positions in a window's markdown document:
    {target, found, from?, to?, type?} each (a pre-flight check before editing)."""
    _, s = await markdown_of_window(ctx, params.windowId)
    return ResolveResult(results=[resolve(s, t) for t in params.targets], revision=s.revision)
