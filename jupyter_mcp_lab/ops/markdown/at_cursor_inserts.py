"""Content inserted at the cursor (VMark's special tools): inline and block math, Mermaid
diagrams, wiki links, on ``core/markdown/inserts``.

Inline inserts go exactly at the cursor (refused inside code, math, a link's destination);
between blocks they become a paragraph of their own. Block inserts land on their own lines
after the block the cursor is in (before it when the cursor is at its first character).
Once applied, the cursor is after the inserted content.
"""

from __future__ import annotations

from pydantic import Field

from ...core.markdown import inserts
from ...core.selection import Selection
from ...core.text import TextEdit
from ..base import operation
from ..context import OpContext
from .at_cursor import CursorEditResult, after_insert, edit_at_cursor
from .editor import EditorEditParams


class LatexParams(EditorEditParams):
    latex: str = Field(description="LaTeX expression (e.g. E = mc^2), without dollar signs.")


@operation("insert.math_inline", title="Insert inline math")
async def math_inline(ctx: OpContext, params: LatexParams) -> CursorEditResult:
    """Insert inline LaTeX math ($latex$) at the cursor."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return inserts.insert_math_inline(text, sel.head, params.latex)

    return await edit_at_cursor(ctx, params, "insert inline math", edits, cursor=after_insert)


@operation("insert.math_block", title="Insert math block")
async def math_block(ctx: OpContext, params: LatexParams) -> CursorEditResult:
    """Insert a block-level math equation ($$ … $$ on lines of its own) at the cursor."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return inserts.insert_math_block(text, sel.head, params.latex)

    return await edit_at_cursor(ctx, params, "insert math block", edits, cursor=after_insert)


class MermaidParams(EditorEditParams):
    code: str = Field(description="Mermaid diagram code (e.g. graph TD; A --> B).")


@operation("insert.mermaid", title="Insert Mermaid diagram")
async def mermaid(ctx: OpContext, params: MermaidParams) -> CursorEditResult:
    """Insert a Mermaid diagram (a ```mermaid fenced block) at the cursor."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return inserts.insert_mermaid(text, sel.head, params.code)

    return await edit_at_cursor(ctx, params, "insert mermaid diagram", edits, cursor=after_insert)


class WikiLinkParams(EditorEditParams):
    target: str = Field(description="Link target (page name).")
    displayText: str | None = Field(None, description="Display text (if different from the target).")


@operation("insert.wiki_link", title="Insert wiki link")
async def wiki_link(ctx: OpContext, params: WikiLinkParams) -> CursorEditResult:
    """Insert a wiki link at the cursor: [[target]] or [[target|displayText]]."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return inserts.insert_wiki_link(text, sel.head, params.target, params.displayText)

    return await edit_at_cursor(
        ctx, params, "insert wiki link", edits, names={"alias": "displayText", "target": "target"}, cursor=after_insert
    )
