"""The shape of a markdown document: outline, blocks with node ids, digest."""

from __future__ import annotations

import asyncio
from typing import Literal

from pydantic import BaseModel, Field

from ...core.errors import DomainError
from ...core.markdown.digest import document_digest
from ...core.markdown.structure import Structure, structure_of
from ..base import operation
from ..context import OpContext
from ..targets import TargetParams, document_for, require_kind


class BlockInfo(BaseModel):
    nodeId: str
    type: str
    lineStart: int
    lineEnd: int
    start: int
    end: int
    level: int | None = None
    title: str | None = None
    language: str | None = None
    ordered: bool | None = None
    task: bool | None = None
    preview: str = Field(description="The block's first 80 characters.")


class SectionInfo(BaseModel):
    nodeId: str
    level: int
    title: str
    lineStart: int
    lineEnd: int
    start: int
    end: int


class Digest(BaseModel):
    title: str | None
    lines: int
    characters: int
    wordCount: int
    headingCount: int
    paragraphCount: int
    blockCounts: dict[str, int]
    frontMatter: bool


class StructureParams(TargetParams):
    view: Literal["outline", "blocks", "digest", "all"] = Field(
        "outline", description="outline: sections; blocks: every block with its node id; digest: counts."
    )
    type: str | None = Field(None, description="With view=blocks: only this block type (heading, table, list, …).")
    section: str | None = Field(None, description="With view=blocks: only blocks of this section (id or title).")
    lineStart: int | None = Field(None, ge=1, description="With view=blocks: only blocks from this line on.")
    lineEnd: int | None = Field(None, ge=1, description="With view=blocks: only blocks up to this line.")


class StructureResult(BaseModel):
    revision: str = Field(description="Node ids are valid for this revision.")
    filePath: str | None
    sections: list[SectionInfo] | None = None
    blocks: list[BlockInfo] | None = None
    digest: Digest | None = None
    truncated: bool = Field(False, description="True when the block list was cut to fit: continue at nextLine.")
    nextLine: int | None = None


def block_infos(s: Structure, type_: str | None = None) -> list[BlockInfo]:
    return [
        BlockInfo(
            nodeId=b.id,
            type=b.type,
            lineStart=b.line_start,
            lineEnd=b.line_end,
            start=b.start,
            end=b.end,
            level=b.level,
            title=b.title,
            language=b.info,
            ordered=b.ordered,
            task=b.task,
            preview=s.text[b.start : min(b.end, b.start + 80)],
        )
        for b in s.blocks
        if type_ is None or b.type == type_
    ]


def section_infos(s: Structure) -> list[SectionInfo]:
    return [
        SectionInfo(
            nodeId=x.id,
            level=x.level,
            title=x.title,
            lineStart=x.line_start,
            lineEnd=x.line_end,
            start=x.start,
            end=x.end,
        )
        for x in s.sections
    ]


def digest_of(s: Structure) -> Digest:
    d = document_digest(s)
    return Digest(
        title=d.title,
        lines=d.lines,
        characters=d.characters,
        wordCount=d.words,
        headingCount=d.headings,
        paragraphCount=d.paragraphs,
        blockCounts=d.block_counts,
        frontMatter=d.front_matter,
    )


@operation("document.structure", title="Document structure", read_only=True)
async def structure(ctx: OpContext, params: StructureParams) -> StructureResult:
    """The structure of a markdown document at its current revision: the outline (sections
    with heading node ids and line ranges), every block with its node id (h-0, p-3, code-1,
    table-0, list-2, bq-0, hr-0, math-0, html-0, fm-0), or a digest (counts)."""
    doc, _ = await document_for(ctx, params.tabId, params.path, params.windowId)
    require_kind(doc, "markdown")
    s = await parsed(doc.text)
    view = params.view
    result = StructureResult(
        revision=s.revision,
        filePath=doc.path,
        sections=section_infos(s) if view in ("outline", "all") else None,
        digest=digest_of(s) if view in ("digest", "all") else None,
    )
    if view in ("blocks", "all"):
        first, last = params.lineStart or 1, params.lineEnd or s.lines.line_count
        if params.section is not None:
            sec = s.section(params.section)
            if sec is None:
                raise DomainError("NOT_FOUND", f"no section {params.section!r}", section=params.section)
            first, last = max(first, sec.line_start), min(last, sec.line_end)
        blocks = [b for b in block_infos(s, params.type) if b.lineEnd >= first and b.lineStart <= last]
        # Whole blocks within the response budget; the rest is a page away.
        budget = ctx.settings.max_response_bytes - 4096 - len(result.model_dump_json())
        used = 0
        for i, b in enumerate(blocks):
            used += len(b.model_dump_json()) + 1
            if used > budget:
                result.truncated, result.nextLine = True, b.lineStart
                blocks = blocks[:i]
                break
        result.blocks = blocks
    return result


async def parsed(text: str) -> Structure:
    """The structure, parsed off the event loop when it is big (other agents keep going)."""
    if len(text) < 64_000:
        return structure_of(text)
    return await asyncio.to_thread(structure_of, text)
