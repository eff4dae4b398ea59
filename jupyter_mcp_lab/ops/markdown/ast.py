"""The syntax tree of a window's markdown document (VMark's ``get_document_ast``): the
operation, with the response budget; the tree itself is ``core/markdown/syntax_tree``."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, ConfigDict, Field

from ...core.markdown.syntax_tree import AstNode, ast_of
from ..base import operation
from ..context import OpContext
from ..workspace.windows import WINDOW_ID
from .nodes import markdown_of_window


class AstParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


class AstResult(BaseModel):
    type: str = Field("doc", description="The root: a document.")
    children: list[AstNode]
    truncated: bool = Field(
        description="True when nested nodes (childCount) or trailing blocks were left out to fit the response "
        "limit: read parts with get_section or list_blocks."
    )
    revision: str
    filePath: str | None


def _size(nodes: list[AstNode]) -> int:
    return sum(len(n.model_dump_json(by_alias=True)) + 1 for n in nodes)


@operation("document.ast", title="Document AST", read_only=True)
async def ast(ctx: OpContext, params: AstParams) -> AstResult:
    """The syntax tree of a window's markdown document: nodes {type, nodeId (top level),
    from, to, lineStart, lineEnd, content (leaves), attrs, children}. Types: heading,
    paragraph, codeBlock, blockquote, bulletList, orderedList, taskList, listItem, taskItem,
    table, tableRow, tableHeader, tableCell, horizontalRule, mathBlock, htmlBlock,
    frontmatter, footnoteDefinition."""
    doc, s = await markdown_of_window(ctx, params.windowId)
    nodes = ast_of(s) if len(s.text) < 64_000 else await asyncio.to_thread(ast_of, s)
    budget = ctx.settings.max_response_bytes - 4096
    truncated = False
    if _size(nodes) > budget:
        # Top-level blocks without their insides, then as many of those as fit.
        truncated = True
        for n in nodes:
            if n.children:
                n.childCount, n.children = len(n.children), None
        kept, used = [], 0
        for n in nodes:
            used += len(n.model_dump_json(by_alias=True)) + 1
            if used > budget:
                break
            kept.append(n)
        nodes = kept
    return AstResult(children=nodes, truncated=truncated, revision=s.revision, filePath=doc.path)
