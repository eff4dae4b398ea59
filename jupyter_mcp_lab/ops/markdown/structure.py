"""The shape of a markdown document: outline, blocks with node ids, digest, syntax tree, one
section, and targets resolved to positions (``views`` builds each)."""

from __future__ import annotations

import asyncio
from typing import Literal

from pydantic import BaseModel, Field

from ...core.errors import ArgumentError
from ...core.markdown.structure import Structure, structure_of
from ...core.markdown.syntax_tree import AstNode, ast_of
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..targets import require_kind
from . import views
from .views import BlockInfo, Digest, SectionContent, SectionInfo, TargetInfo, block_infos, digest_of, section_infos

__all__ = ["StructureResult", "block_infos", "digest_of", "parsed", "section_infos", "structure"]

View = Literal["outline", "blocks", "digest", "all", "ast", "section", "targets"]


class StructureParams(DocumentTarget):
    view: View = Field(
        "outline",
        description="outline: sections; blocks: every block with its node id; digest: counts; all: those three; "
        "ast: the syntax tree; section: one section's markdown; targets: node ids, section titles or text resolved "
        "to positions.",
    )
    words: bool = Field(False, description="With view=outline, digest or all: also each section's word count.")
    type: str | None = Field(None, description="With view=blocks: only this block type (heading, table, list, …).")
    section: str | None = Field(
        None, description="With view=blocks: only blocks of this section; view=section: the section (id or title)."
    )
    lineStart: int | None = Field(None, ge=1, description="With view=blocks: only blocks from this line on.")
    lineEnd: int | None = Field(None, ge=1, description="With view=blocks: only blocks up to this line.")
    preview: int = Field(80, ge=0, le=2000, description="With view=blocks: characters of each block's source shown.")
    targets: list[str] | None = Field(
        None, max_length=200, description="With view=targets: node ids (h-0, p-3, …), section titles or text."
    )


class StructureResult(BaseModel):
    revision: str = Field(description="Node ids are valid for this revision.")
    filePath: str | None
    sections: list[SectionInfo] | None = None
    blocks: list[BlockInfo] | None = None
    digest: Digest | None = None
    ast: list[AstNode] | None = Field(None, description="view=ast: top-level nodes with their children.")
    section: SectionContent | None = None
    targets: list[TargetInfo] | None = None
    truncated: bool = Field(
        False, description="True when blocks (continue at nextLine) or the tree were cut to fit the response."
    )
    nextLine: int | None = None


@operation("document.structure", title="Document structure", read_only=True)
async def structure(ctx: OpContext, params: StructureParams) -> StructureResult:
    """The structure of a markdown document at its current revision: the outline (sections
    with heading node ids and line ranges), every block with its node id (h-0, p-3, code-1,
    table-0, list-2, bq-0, hr-0, math-0, html-0, fm-0, fn-0), a digest (counts), the syntax
    tree, one section's markdown, or targets (node ids, section titles, text) resolved to
    positions."""
    doc, _ = await resolve_target(ctx, params)
    require_kind(doc, "markdown")
    s = await parsed(doc.text)
    view = params.view
    result = StructureResult(
        revision=s.revision,
        filePath=doc.path,
        sections=section_infos(s, words=params.words) if view in ("outline", "digest", "all") else None,
        digest=digest_of(s) if view in ("digest", "all") else None,
    )
    budget = ctx.settings.max_response_bytes - 4096
    if view in ("blocks", "all"):
        blocks = views.blocks_in(s, params.type, params.section, params.lineStart, params.lineEnd, params.preview)
        kept, result.nextLine = views.fitting(blocks, budget - len(result.model_dump_json()))
        result.blocks, result.truncated = kept, result.nextLine is not None
    elif view == "ast":
        tree = ast_of(s) if len(s.text) < 64_000 else await asyncio.to_thread(ast_of, s)
        result.ast, result.truncated = views.fitting_tree(tree, budget)
    elif view == "section":
        if params.section is None:
            raise ArgumentError("view=section needs section (a heading's node id or title)", "section")
        result.section = views.section_content(s, params.section)
    elif view == "targets":
        if not params.targets:
            raise ArgumentError("view=targets needs targets (node ids, section titles or text)", "targets")
        result.targets = [views.target_info(s, t) for t in params.targets]
    return result


async def parsed(text: str) -> Structure:
    """The structure, parsed off the event loop when it is big (other agents keep going)."""
    if len(text) < 64_000:
        return structure_of(text)
    return await asyncio.to_thread(structure_of, text)
