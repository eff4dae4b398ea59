"""Blocks and lists at the cursor (VMark's block and list tools).

The block is the top-level block holding the cursor (a list counts as one block: converting
it converts the whole list); list tools work on the items the selection touches. Edits come
from ``core/markdown/blocks_edit`` and ``lists`` and go through ``at_cursor.edit_at_cursor``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import blocks_edit, lists
from ...core.markdown.structure import Block, structure_of
from ...core.selection import Selection
from ...core.text import TextEdit
from ..base import operation
from ..context import OpContext
from .at_cursor import CursorEditResult, Edits, after_insert, edit_at_cursor
from .editor import EditorEditParams

BlockKind = Literal["paragraph", "heading", "codeBlock", "blockquote"]
ListKind = Literal["bullet", "ordered", "task"]


def block_at_cursor(text: str, sel: Selection, *types: str) -> Block:
    """The top-level block holding the cursor (the selection's head), of one of ``types`` if given."""
    block = structure_of(text).block_at(sel.head)
    if block is None:
        raise DomainError("NOT_FOUND", f"the cursor ({sel.head}) is between blocks: place it inside one first")
    if types and block.type not in types:
        raise DomainError(
            "NOT_FOUND", f"the cursor ({sel.head}) is in {block.id}, a {block.type}, not a {' or '.join(types)}"
        )
    return block


class SetTypeParams(EditorEditParams):
    type: BlockKind = Field(description="paragraph, heading, codeBlock or blockquote.")
    level: int | None = Field(None, ge=1, le=6, description="Heading level 1-6 (required for heading).")
    language: str | None = Field(None, description="Code language (for codeBlock).")


@operation("block.set_type", title="Set block type")
async def set_type(ctx: OpContext, params: SetTypeParams) -> CursorEditResult:
    """Convert the block at the cursor to a paragraph, heading, code block or blockquote; its
    text is kept (a blockquote is lifted when it becomes another type)."""
    if params.type == "heading" and params.level is None:
        raise ArgumentError("level is required for a heading (1-6)", "level")

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        block = block_at_cursor(text, sel)
        return blocks_edit.set_block_type(text, block.id, params.type, params.level, params.language)

    return await edit_at_cursor(ctx, params, f"set block type {params.type}", edits)


class ToggleTypeParams(EditorEditParams):
    type: BlockKind = Field(description="paragraph, heading, codeBlock or blockquote.")
    level: int | None = Field(None, ge=1, le=6, description="Heading level (for heading; default 1).")


@operation("block.toggle", title="Toggle block type")
async def toggle(ctx: OpContext, params: ToggleTypeParams) -> CursorEditResult:
    """Give the block at the cursor a type, or make it a paragraph again when it already has
    that type (a heading of another level gets the new level)."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        block = block_at_cursor(text, sel)
        return blocks_edit.toggle_block(text, block.id, params.type, params.level)

    return await edit_at_cursor(ctx, params, f"toggle block {params.type}", edits)


@operation("block.insert_horizontal_rule", title="Insert horizontal rule")
async def insert_horizontal_rule(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Insert a horizontal rule (---) as its own block at the cursor (after the block the cursor
    is in, or before it when the cursor is at its first character)."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return blocks_edit.insert_horizontal_rule(text, sel.head)

    return await edit_at_cursor(ctx, params, "insert horizontal rule", edits, cursor=after_insert)


# --------------------------------------------------------------------------- lists


class ListToggleParams(EditorEditParams):
    type: ListKind = Field(description="bullet, ordered or task.")


@operation("list.toggle", title="Toggle list")
async def list_toggle(ctx: OpContext, params: ListToggleParams) -> CursorEditResult:
    """Make the paragraphs and items in the selection (or at the cursor) a list of this type,
    or lift them out of the list when they already are one."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        block_at_cursor(text, sel, "paragraph", "list")
        return lists.toggle_list(text, sel.from_, sel.to, params.type)

    return await edit_at_cursor(ctx, params, f"toggle {params.type} list", edits, names={"kind": "type"})


def _indent(outdent: bool) -> Edits:
    def edits(text: str, sel: Selection) -> list[TextEdit]:
        block_at_cursor(text, sel, "list")
        change = lists.outdent_items if outdent else lists.indent_items
        return change(text, sel.from_, sel.to)

    return edits


@operation("list.indent", title="Indent list item")
async def indent(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Nest the list items in the selection (or at the cursor) under their previous sibling."""
    return await edit_at_cursor(ctx, params, "indent list item", _indent(False))


@operation("list.outdent", title="Outdent list item")
async def outdent(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Move the nested list items in the selection (or at the cursor) one level up."""
    return await edit_at_cursor(ctx, params, "outdent list item", _indent(True))
