"""The editing half of the ``vmark`` profile (spec/vmark-tools-v1.md): document, selection,
formatting, block, list, table, editor and VMark's special tools, flat, with VMark's tool
and argument names.

``windowId`` picks a window (a connected JupyterLab client, or ``main``) and works on the
document that window shows for the session; without it, the session's focused tab. Every
change goes through the server's approval policy: under ``suggest`` it is staged
(``applied: false`` with ``suggestionId``), under ``auto`` it applies. The operations'
extras VMark does not document stay hidden, except ``baseRevision`` (our
``expected_revision``, as in VMark's batch_edit) and ``rationale`` (shown to the reviewer).
"""

from __future__ import annotations

from typing import Any

from .base import FlatTool

# What VMark's tools do not take: it addresses windows, not tabs or paths; edits stay in the
# editor until saved; the approval policy, not the agent, decides between apply and suggest.
HIDDEN = frozenset({"tabId", "path", "save", "mode"})
RENAME = {"expected_revision": "baseRevision"}
STAGED = " Staged as a suggestion for the person to accept unless edits are auto-approved."
EDIT = " Returns {message, position, suggestionId?, applied}." + STAGED


def _tool(name: str, op: str, description: str, hidden: frozenset[str] = frozenset(), **extra: Any) -> FlatTool:
    return FlatTool(name, op, description=description, rename=RENAME, hidden=HIDDEN | hidden, **extra)


DOCUMENT_TOOLS = (
    _tool(
        "document_get_content",
        "document.read",
        "Get the full document content as markdown text: {content, revision, …}. A long document "
        "comes in pages: continue at nextLine with lineStart.",
        hidden=frozenset({"section", "maxBytes"}),
    ),
    _tool(
        "document_set_content",
        "document.set_content",
        "Set the content of an EMPTY document (markdown). A document with content is refused: use "
        "document_insert_at_cursor or selection_replace, which the person reviews." + STAGED,
    ),
    _tool("document_insert_at_cursor", "document.insert_at_cursor", "Insert text at the cursor." + EDIT),
    _tool(
        "document_insert_at_position",
        "document.insert_at_position",
        "Insert text at a character position (0-indexed, code points)." + EDIT,
    ),
    _tool(
        "document_search",
        "document.search",
        "Search for text in the document: {matches: [{from, to, line, column, text, context}], count}.",
    ),
    _tool(
        "document_replace",
        "document.replace",
        "Replace the first (or all) occurrences of a text: {count, message, suggestionIds?, applied}." + STAGED,
    ),
)

SELECTION_TOOLS = (
    _tool("selection_get", "selection.get", "Get the current text selection: {text, from, to, isEmpty}."),
    _tool(
        "selection_set",
        "selection.set",
        "Set the selection range [from, to) (code points); from == to places the cursor.",
    ),
    _tool(
        "selection_replace",
        "selection.replace",
        "Replace the selected text: {message, range, originalContent, suggestionId?, applied}." + STAGED,
    ),
    _tool(
        "selection_delete",
        "selection.delete",
        "Delete the selected text: {message, range, content, suggestionId?, applied}." + STAGED,
    ),
    _tool(
        "cursor_get_context",
        "cursor.get_context",
        "Text around the cursor and the block it is in: {before, after, currentLine, currentParagraph, "
        "block: {type, level?, language?, inList?, inBlockquote, inTable, position}}.",
    ),
    _tool("cursor_set_position", "cursor.set_position", "Set the cursor position (0-indexed, code points)."),
)

FORMAT_TOOLS = (
    _tool(
        "format_toggle",
        "format.toggle",
        "Toggle a mark (bold, italic, code, strike, underline, highlight) on the selection." + EDIT,
    ),
    _tool("format_set_link", "format.set_link", "Make the selected text a link." + EDIT),
    _tool("format_remove_link", "format.remove_link", "Remove the link from the selection (keeps the text)." + EDIT),
    _tool("format_clear", "format.clear", "Remove all formatting from the selection." + EDIT),
)

BLOCK_TOOLS = (
    _tool(
        "block_set_type",
        "block.set_type",
        "Convert the block at the cursor to paragraph, heading (with level), codeBlock or blockquote." + EDIT,
    ),
    _tool(
        "block_toggle",
        "block.toggle",
        "Toggle the block type at the cursor (back to paragraph if it already has it)." + EDIT,
    ),
    _tool(
        "block_insert_horizontal_rule",
        "block.insert_horizontal_rule",
        "Insert a horizontal rule (---) at the cursor." + EDIT,
    ),
    _tool("list_toggle", "list.toggle", "Toggle a bullet, ordered or task list on the current block." + EDIT),
    _tool("list_indent", "list.indent", "Increase the indentation of the current list item." + EDIT),
    _tool("list_outdent", "list.outdent", "Decrease the indentation of the current list item." + EDIT),
)

TABLE_TOOLS = (
    _tool("table_insert", "table.insert", "Insert a rows x cols table at the cursor." + EDIT),
    _tool("table_delete", "table.delete", "Delete the table at the cursor." + EDIT),
    _tool("table_add_row", "table.add_row", "Add a row before or after the cursor's row." + EDIT),
    _tool("table_delete_row", "table.delete_row", "Delete the cursor's row." + EDIT),
    _tool("table_add_column", "table.add_column", "Add a column before or after the cursor's column." + EDIT),
    _tool("table_delete_column", "table.delete_column", "Delete the cursor's column." + EDIT),
    _tool("table_toggle_header_row", "table.toggle_header_row", "Toggle the table's header row." + EDIT),
)

EDITOR_TOOLS = (
    _tool(
        "editor_undo",
        "document.undo",
        "Undo the last change made through this server (staged as a suggestion unless auto-approved).",
    ),
    _tool("editor_redo", "document.redo", "Redo the last undone change (staged unless auto-approved)."),
    _tool("editor_focus", "editor.focus", "Focus the editor: later calls without windowId work on it."),
)

SPECIAL_TOOLS = (
    _tool("insert_math_inline", "insert.math_inline", "Insert inline LaTeX math ($…$) at the cursor." + EDIT),
    _tool("insert_math_block", "insert.math_block", "Insert a block-level math equation ($$…$$)." + EDIT),
    _tool("insert_mermaid", "insert.mermaid", "Insert a Mermaid diagram (a mermaid code block)." + EDIT),
    _tool("insert_wiki_link", "insert.wiki_link", "Insert a wiki link: [[target]] or [[target|displayText]]." + EDIT),
    _tool(
        "cjk_punctuation_convert",
        "document.cjk_punctuation",
        "Convert punctuation between half-width and full-width beside CJK text (prose only)."
        " Returns {message, count, suggestionId?, applied}." + STAGED,
    ),
    _tool(
        "cjk_spacing_fix",
        "document.cjk_spacing",
        "Add or remove spacing between CJK and Latin characters (prose only)."
        " Returns {message, count, suggestionId?, applied}." + STAGED,
    ),
)

EDITING_TOOLS: tuple[FlatTool, ...] = (
    DOCUMENT_TOOLS + SELECTION_TOOLS + FORMAT_TOOLS + BLOCK_TOOLS + TABLE_TOOLS + EDITOR_TOOLS + SPECIAL_TOOLS
)
assert len(EDITING_TOOLS) == 38 and len({t.name for t in EDITING_TOOLS}) == 38
