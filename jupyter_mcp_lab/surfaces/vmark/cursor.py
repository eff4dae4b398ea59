"""VMark's tools at the cursor: selection, formatting, blocks, lists, tables, inserts.

Each is an adapter (``selection``, ``cursor_edits``, ``cursor_inserts``) over the three
cursor capabilities: ``cursor.get``, ``cursor.set`` and ``cursor.edit``.
"""

from __future__ import annotations

from . import cursor_edits as e
from . import cursor_inserts as i
from . import selection as s
from .common import EDIT, EDITING_STAGED, editing_tool

SELECTION_TOOLS = (
    editing_tool("selection_get", s.selection_get, "Get the current text selection: {text, from, to, isEmpty}."),
    editing_tool(
        "selection_set",
        s.selection_set,
        "Set the selection range [from, to) (code points); from == to places the cursor.",
    ),
    editing_tool(
        "selection_replace",
        s.selection_replace,
        "Replace the selected text: {message, range, originalContent, suggestionId?, applied}." + EDITING_STAGED,
    ),
    editing_tool(
        "selection_delete",
        s.selection_delete,
        "Delete the selected text: {message, range, content, suggestionId?, applied}." + EDITING_STAGED,
    ),
    editing_tool(
        "cursor_get_context",
        s.cursor_get_context,
        "Text around the cursor and the block it is in: {before, after, currentLine, currentParagraph, "
        "block: {type, level?, language?, inList?, inBlockquote, inTable, position}}.",
    ),
    editing_tool("cursor_set_position", s.cursor_set_position, "Set the cursor position (0-indexed, code points)."),
)

FORMAT_TOOLS = (
    editing_tool(
        "format_toggle",
        e.format_toggle,
        "Toggle a mark (bold, italic, code, strike, underline, highlight) on the selection." + EDIT,
    ),
    editing_tool("format_set_link", e.format_set_link, "Make the selected text a link." + EDIT),
    editing_tool(
        "format_remove_link", e.format_remove_link, "Remove the link from the selection (keeps the text)." + EDIT
    ),
    editing_tool("format_clear", e.format_clear, "Remove all formatting from the selection." + EDIT),
)

BLOCK_TOOLS = (
    editing_tool(
        "block_set_type",
        e.block_set_type,
        "Convert the block at the cursor to paragraph, heading (with level), codeBlock or blockquote." + EDIT,
    ),
    editing_tool(
        "block_toggle",
        e.block_toggle,
        "Toggle the block type at the cursor (back to paragraph if it already has it)." + EDIT,
    ),
    editing_tool(
        "block_insert_horizontal_rule",
        e.block_insert_horizontal_rule,
        "Insert a horizontal rule (---) at the cursor." + EDIT,
    ),
    editing_tool("list_toggle", e.list_toggle, "Toggle a bullet, ordered or task list on the current block." + EDIT),
    editing_tool("list_indent", e.list_indent, "Increase the indentation of the current list item." + EDIT),
    editing_tool("list_outdent", e.list_outdent, "Decrease the indentation of the current list item." + EDIT),
)

TABLE_TOOLS = (
    editing_tool("table_insert", i.table_insert, "Insert a rows x cols table at the cursor." + EDIT),
    editing_tool("table_delete", i.table_delete, "Delete the table at the cursor." + EDIT),
    editing_tool("table_add_row", i.table_add_row, "Add a row before or after the cursor's row." + EDIT),
    editing_tool("table_delete_row", i.table_delete_row, "Delete the cursor's row." + EDIT),
    editing_tool("table_add_column", i.table_add_column, "Add a column before or after the cursor's column." + EDIT),
    editing_tool("table_delete_column", i.table_delete_column, "Delete the cursor's column." + EDIT),
    editing_tool("table_toggle_header_row", i.table_toggle_header_row, "Toggle the table's header row." + EDIT),
)

INSERT_TOOLS = (
    editing_tool("insert_math_inline", i.insert_math_inline, "Insert inline LaTeX math ($…$) at the cursor." + EDIT),
    editing_tool("insert_math_block", i.insert_math_block, "Insert a block-level math equation ($$…$$)." + EDIT),
    editing_tool("insert_mermaid", i.insert_mermaid, "Insert a Mermaid diagram (a mermaid code block)." + EDIT),
    editing_tool(
        "insert_wiki_link", i.insert_wiki_link, "Insert a wiki link: [[target]] or [[target|displayText]]." + EDIT
    ),
)
