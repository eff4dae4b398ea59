"""The views ``document.structure`` answers with: blocks, sections, the digest, the syntax tree,
one section, resolved targets; each cut to the response budget where it can grow large.

Types are the structure's own names (heading, paragraph, code, list, hr, …; a list's kind in
``ordered``/``task``); type filters also take the editor's names (codeBlock, bulletList, …).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from ...core.errors import DomainError
from ...core.markdown.digest import document_digest, section_digests
from ...core.markdown.nodes import resolve_target
from ...core.markdown.structure import Structure
from ...core.markdown.syntax_tree import AstNode
from ...core.markdown.type_names import type_matches


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
    preview: str = Field(description="The start of the block's source (80 characters unless asked otherwise).")


class SectionInfo(BaseModel):
    nodeId: str
    level: int
    title: str
    lineStart: int
    lineEnd: int
    start: int
    end: int
    wordCount: int | None = Field(None, description="With words=true: the words in the section.")

    @model_serializer(mode="wrap")
    def _without_unasked_counts(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # An outline of hundreds of sections stays as small as it was without word counts.
        out: dict[str, Any] = handler(self)
        if out.get("wordCount") is None:
            out.pop("wordCount", None)
        return out


class Digest(BaseModel):
    title: str | None
    lines: int
    characters: int
    wordCount: int
    headingCount: int
    paragraphCount: int
    blockCounts: dict[str, int]
    listCounts: dict[str, int] = Field(description="Lists by kind: bullet, ordered, task.")
    frontMatter: bool


class SectionContent(BaseModel):
    nodeId: str
    level: int
    title: str
    content: str = Field(description="The heading line and everything up to the next heading of its level or higher.")
    start: int
    end: int
    lineStart: int
    lineEnd: int


class TargetInfo(BaseModel):
    target: str
    found: bool
    start: int | None = None
    end: int | None = None
    type: str | None = Field(None, description="The block's type (the one the text is in), or section.")
    ordered: bool | None = None
    task: bool | None = None
    nodeId: str | None = Field(None, description="The block (or section heading) the target is, or is in.")
    resolvedAs: str | None = Field(None, description="nodeId, section or text: how the target was understood.")
    matchCount: int | None = Field(None, description="For text: how many times it occurs (start/end: the first).")


def block_infos(s: Structure, type_: str | None = None, preview: int = 80) -> list[BlockInfo]:
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
            preview=s.text[b.start : min(b.end, b.start + preview)],
        )
        for b in s.blocks
        if type_ is None or type_matches(b, type_)
    ]


def section_infos(s: Structure, *, words: bool = False) -> list[SectionInfo]:
    counts = [x.words for x in section_digests(s)] if words else [None] * len(s.sections)
    return [
        SectionInfo(
            nodeId=x.id,
            level=x.level,
            title=x.title,
            lineStart=x.line_start,
            lineEnd=x.line_end,
            start=x.start,
            end=x.end,
            wordCount=n,
        )
        for x, n in zip(s.sections, counts, strict=True)
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
        listCounts=d.list_kinds,
        frontMatter=d.front_matter,
    )


def blocks_in(
    s: Structure, type_: str | None, section: str | None, line_start: int | None, line_end: int | None, preview: int
) -> list[BlockInfo]:
    """The blocks of one type, in a section and a line range."""
    first, last = line_start or 1, line_end or s.lines.line_count
    if section is not None:
        sec = s.section(section)
        if sec is None:
            raise DomainError("NOT_FOUND", f"no section {section!r}", section=section)
        first, last = max(first, sec.line_start), min(last, sec.line_end)
    return [b for b in block_infos(s, type_, preview) if b.lineEnd >= first and b.lineStart <= last]


def fitting(blocks: list[BlockInfo], budget: int) -> tuple[list[BlockInfo], int | None]:
    """Whole blocks within ``budget`` bytes, and the line to continue at (None: all fit)."""
    used = 0
    for i, b in enumerate(blocks):
        used += len(b.model_dump_json()) + 1
        if used > budget:
            return blocks[:i], b.lineStart
    return blocks, None


def _size(nodes: list[AstNode]) -> int:
    return sum(len(n.model_dump_json(by_alias=True)) + 1 for n in nodes)


def fitting_tree(nodes: list[AstNode], budget: int) -> tuple[list[AstNode], bool]:
    """The tree within ``budget`` bytes: whole, else top-level nodes without their insides
    (``childCount`` says how many), as many as fit; and whether it was cut."""
    if _size(nodes) <= budget:
        return nodes, False
    for n in nodes:
        if n.children:
            n.childCount, n.children = len(n.children), None
    kept, used = [], 0
    for n in nodes:
        used += len(n.model_dump_json(by_alias=True)) + 1
        if used > budget:
            break
        kept.append(n)
    return kept, True


def section_content(s: Structure, section: str) -> SectionContent:
    sec = s.section(section)
    if sec is None or sec.heading is None:
        raise DomainError(
            "NOT_FOUND",
            f"no section {section!r} at revision {s.revision}: give a heading's node id (h-0, …) or title",
            section=section,
        )
    return SectionContent(
        nodeId=sec.id,
        level=sec.level,
        title=sec.title,
        content=s.text[sec.start : sec.end],
        start=sec.start,
        end=sec.end,
        lineStart=sec.line_start,
        lineEnd=sec.line_end,
    )


def target_info(s: Structure, target: str) -> TargetInfo:
    t = resolve_target(s, target)
    b = t.block
    return TargetInfo(
        target=t.target,
        found=t.found,
        start=t.start,
        end=t.end,
        type="section" if t.resolved_as == "section" else b.type if b else None,
        ordered=b.ordered if b and t.resolved_as != "section" else None,
        task=b.task if b and t.resolved_as != "section" else None,
        nodeId=b.id if b else None,
        resolvedAs=t.resolved_as,
        matchCount=t.match_count,
    )
