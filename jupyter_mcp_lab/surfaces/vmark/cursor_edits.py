"""VMark's formatting, block and list tools: adapters over ``cursor.edit``.

Each takes VMark's arguments, asks ``cursor.edit`` for one kind of change and answers
VMark's ``{message, position, suggestionId?, applied, …}``; errors name VMark's arguments
(``href``, ``displayText``, ``position``) where the capability names its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.markdown import cursor_edit
from ...ops.markdown import cursor_kinds as k
from ...ops.markdown.cursor_edit import renamed
from ..adapter import adapter
from .shapes import DONE, EditorEditParams, EditResult

EDIT_FIELDS = frozenset(EditorEditParams.model_fields)


async def run(
    ctx: OpContext, params: EditorEditParams, edit: k.CursorEdit, names: Mapping[str, str] | None = None
) -> cursor_edit.CursorEditResult:
    """``cursor.edit`` with the tool's tab, revision, mode and rationale; its errors naming
    ``names[field]`` for the change's fields VMark calls otherwise."""
    p = cursor_edit.CursorEditParams(edit=edit, **params.model_dump(include=set(EDIT_FIELDS)))
    try:
        r = await cursor_edit.edit(ctx, p)
    except DomainError as exc:
        raise renamed(exc, names or {}) from None
    assert isinstance(r, cursor_edit.CursorEditResult)
    return r


def edit_fields(r: cursor_edit.CursorEditResult) -> dict[str, Any]:
    """The fields every VMark editing result shares."""
    return {
        "applied": r.applied,
        "suggestionId": r.suggestionIds[0] if r.suggestionIds else None,
        "mode": r.mode,
        "revision": r.revision,
        "checkpointId": r.checkpointId,
        "diff": r.diff,
    }


class CursorEditResult(EditResult):
    position: int = Field(description="Where the change starts (code point offset in the text before it).")


async def at_cursor(
    ctx: OpContext, params: EditorEditParams, edit: k.CursorEdit, names: Mapping[str, str] | None = None
) -> CursorEditResult:
    r = await run(ctx, params, edit, names)
    if r.changed:
        message = f"{DONE[r.mode]}: {r.operation} at {r.position}"
    else:
        message = f"Nothing to change: {r.operation} leaves the document as it is"
    return CursorEditResult(message=message, position=r.position, **edit_fields(r))


# --------------------------------------------------------------------------- formatting

Mark = Literal["bold", "italic", "code", "strike", "underline", "highlight"]


class ToggleParams(EditorEditParams):
    mark: Mark = Field(description="bold, italic, code, strike, underline or highlight.")


@adapter(cursor_edit.edit, title="Toggle format", destructive=False)
async def format_toggle(ctx: OpContext, params: ToggleParams) -> CursorEditResult:
    """Toggle a mark on the selection: removed when all of it already has the mark, else added
    (with the cursor inside a marked run and nothing selected, the run loses the mark)."""
    return await at_cursor(ctx, params, k.Format(kind="format", mark=params.mark))


class LinkParams(EditorEditParams):
    href: str = Field(description="Link URL.")
    title: str | None = Field(None, description="Link title (tooltip).")


@adapter(cursor_edit.edit, title="Set link", destructive=False)
async def format_set_link(ctx: OpContext, params: LinkParams) -> CursorEditResult:
    """Make the selected text a link (a link already there gets the new URL; with nothing
    selected, the link around the cursor does)."""
    edit = k.Link(kind="link", url=params.href, title=params.title)
    return await at_cursor(ctx, params, edit, names={"url": "href"})


@adapter(cursor_edit.edit, title="Remove link", destructive=False)
async def format_remove_link(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Remove the links in the selection (or around the cursor), keeping their text."""
    return await at_cursor(ctx, params, k.Link(kind="link"))


@adapter(cursor_edit.edit, title="Clear formatting", destructive=False)
async def format_clear(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Remove every mark (bold, italic, code, …) and link from the selection, keeping the text."""
    return await at_cursor(ctx, params, k.Format(kind="format", mark="clear"))


# --------------------------------------------------------------------------- blocks and lists

BlockKind = Literal["paragraph", "heading", "codeBlock", "blockquote"]
ListKind = Literal["bullet", "ordered", "task"]


class SetTypeParams(EditorEditParams):
    type: BlockKind = Field(description="paragraph, heading, codeBlock or blockquote.")
    level: int | None = Field(None, ge=1, le=6, description="Heading level 1-6 (required for heading).")
    language: str | None = Field(None, description="Code language (for codeBlock).")


@adapter(cursor_edit.edit, title="Set block type", destructive=False)
async def block_set_type(ctx: OpContext, params: SetTypeParams) -> CursorEditResult:
    """Convert the block at the cursor to a paragraph, heading, code block or blockquote; its
    text is kept (a blockquote is lifted when it becomes another type)."""
    edit = k.Block(kind="block", type=params.type, level=params.level, language=params.language)
    return await at_cursor(ctx, params, edit)


class ToggleTypeParams(EditorEditParams):
    type: BlockKind = Field(description="paragraph, heading, codeBlock or blockquote.")
    level: int | None = Field(None, ge=1, le=6, description="Heading level (for heading; default 1).")


@adapter(cursor_edit.edit, title="Toggle block type", destructive=False)
async def block_toggle(ctx: OpContext, params: ToggleTypeParams) -> CursorEditResult:
    """Give the block at the cursor a type, or make it a paragraph again when it already has
    that type (a heading of another level gets the new level)."""
    edit = k.Block(kind="block", type=params.type, level=params.level, toggle=True)
    return await at_cursor(ctx, params, edit)


@adapter(cursor_edit.edit, title="Insert horizontal rule", destructive=False)
async def block_insert_horizontal_rule(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Insert a horizontal rule (---) as its own block at the cursor (after the block the cursor
    is in, or before it when the cursor is at its first character)."""
    return await at_cursor(ctx, params, k.Rule(kind="rule"))


class ListToggleParams(EditorEditParams):
    type: ListKind = Field(description="bullet, ordered or task.")


@adapter(cursor_edit.edit, title="Toggle list", destructive=False)
async def list_toggle(ctx: OpContext, params: ListToggleParams) -> CursorEditResult:
    """Make the paragraphs and items in the selection (or at the cursor) a list of this type,
    or lift them out of the list when they already are one."""
    return await at_cursor(ctx, params, k.ListToggle(kind="list", type=params.type))


@adapter(cursor_edit.edit, title="Indent list item", destructive=False)
async def list_indent(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Nest the list items in the selection (or at the cursor) under their previous sibling."""
    return await at_cursor(ctx, params, k.Indent(kind="indent"))


@adapter(cursor_edit.edit, title="Outdent list item", destructive=False)
async def list_outdent(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Move the nested list items in the selection (or at the cursor) one level up."""
    return await at_cursor(ctx, params, k.Indent(kind="outdent"))
