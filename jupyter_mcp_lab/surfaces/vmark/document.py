"""VMark's document tools: content, search and replace, undo/redo, focus, CJK rewrites."""

from __future__ import annotations

from ...ops.document import text
from . import content, selection
from .common import EDIT, EDITING_STAGED, editing_tool

DOCUMENT_TOOLS = (
    editing_tool(
        "document_get_content",
        text.read,
        "Get the full document content as markdown text: {content, revision, …}. A long document "
        "comes in pages: continue at nextLine with lineStart.",
        hidden=frozenset({"section", "maxBytes"}),
    ),
    editing_tool(
        "document_set_content",
        content.set_content,
        "Set the content of an EMPTY document (markdown). A document with content is refused: use "
        "document_insert_at_cursor or selection_replace, which the person reviews." + EDITING_STAGED,
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
        text.undo,
        "Undo the last change made through this server (staged as a suggestion unless auto-approved).",
    ),
    editing_tool("editor_redo", text.redo, "Redo the last undone change (staged unless auto-approved)."),
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
