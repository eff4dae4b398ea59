"""VMark's document tools: content, search and replace, undo/redo, focus, CJK rewrites.

Reading and undo/redo answer the capability's result as it is; their adapters only take
VMark's arguments (a window, in its wording) where the operations take any target.
"""

from __future__ import annotations

from typing import cast

from pydantic import BaseModel, ConfigDict, Field

from ...ops.context import OpContext
from ...ops.document import text
from ..adapter import adapter
from . import content, selection
from .common import EDIT, EDITING_STAGED, editing_tool
from .shapes import WINDOW_ID


class ReadParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID
    lineStart: int | None = Field(None, ge=1, description="First line to read (1-based).")
    lineEnd: int | None = Field(None, ge=1, description="Last line to read (inclusive).")


@adapter(text.read)
async def get_content(ctx: OpContext, params: ReadParams) -> text.ReadResult:
    """The document a window shows, whole or a line range, in pages within the response limit."""
    p = text.ReadParams(windowId=params.windowId, lineStart=params.lineStart, lineEnd=params.lineEnd)
    return cast(text.ReadResult, await text.read(ctx, p))


class WindowParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


@adapter(text.undo)
async def undo(ctx: OpContext, params: WindowParams) -> text.HistoryResult:
    """Undo the last change made through this server to the document a window shows."""
    return cast(text.HistoryResult, await text.undo(ctx, text.HistoryParams(windowId=params.windowId)))


@adapter(text.redo)
async def redo(ctx: OpContext, params: WindowParams) -> text.HistoryResult:
    """Redo the last undone change to the document a window shows."""
    return cast(text.HistoryResult, await text.redo(ctx, text.HistoryParams(windowId=params.windowId)))


DOCUMENT_TOOLS = (
    editing_tool(
        "document_get_content",
        get_content,
        "Get the full document content as markdown text: {content, revision, …}. A long document "
        "comes in pages: continue at nextLine with lineStart.",
    ),
    editing_tool(
        "document_set_content",
        content.set_content,
        "Set the content of an EMPTY document (markdown). A document with content is refused: use "
        "document_insert_at_cursor or selection_replace, which the person reviews. Applied at once in a new "
        "document you created (workspace_new_document); in another empty document it is staged as a "
        "suggestion for the person to accept unless edits are auto-approved.",
    ),
    editing_tool("document_insert_at_cursor", selection.insert_at_cursor, "Insert text at the cursor." + EDIT),
    editing_tool(
        "document_insert_at_position",
        selection.insert_at_position,
        "Insert text at a character position (0-indexed, code points)." + EDIT,
    ),
    editing_tool(
        "document_search",
        content.search,
        "Search for text in the document: {matches: [{from, to, line, column, text, context}], count}.",
    ),
    editing_tool(
        "document_replace",
        content.replace,
        "Replace the first (or all) occurrences of a text: {count, message, suggestionIds?, applied}." + EDITING_STAGED,
    ),
)

EDITOR_TOOLS = (
    editing_tool(
        "editor_undo",
        undo,
        "Undo the last change made through this server (staged as a suggestion unless auto-approved).",
    ),
    editing_tool("editor_redo", redo, "Redo the last undone change (staged unless auto-approved)."),
    editing_tool("editor_focus", selection.editor_focus, "Focus the editor: later calls without windowId work on it."),
)

CJK_TOOLS = (
    editing_tool(
        "cjk_punctuation_convert",
        content.punctuation,
        "Convert punctuation between half-width and full-width beside CJK text (prose only)."
        " Returns {message, count, suggestionId?, applied}." + EDITING_STAGED,
    ),
    editing_tool(
        "cjk_spacing_fix",
        content.spacing,
        "Add or remove spacing between CJK and Latin characters (prose only)."
        " Returns {message, count, suggestionId?, applied}." + EDITING_STAGED,
    ),
)
