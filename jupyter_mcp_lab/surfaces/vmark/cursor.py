"""VMark's tools at the cursor: selection, formatting, blocks, lists, tables, inserts."""

from __future__ import annotations

from .common import EDIT, EDITING_STAGED, editing_tool

SELECTION_TOOLS = (
    editing_tool("selection_get", "selection.get", "Get the current text selection: {text, from, to, isEmpty}."),
    editing_tool(
        "selection_set",
        "selection.set",
        "Set the selection range [from, to) (code points); from == to places the cursor.",
    ),
    editing_tool(
        "selection_replace",
        "selection.replace",
        "Replace the selected text: {message, range, originalContent, suggestionId?, applied}." + EDITING_STAGED,
    ),
    editing_tool(
        "selection_delete",
        "selection.delete",
        "Delete the selected text: {message, range, content, suggestionId?, applied}." + EDITING_STAGED,
    ),
    editing_tool(
        "cursor_get_context",
        "cursor.get_context",
        "Text around the cursor and the block it is in: {before, after, currentLine, currentParagraph, "
        "block: {type, level?, language?, inList?, inBlockquote, inTable, position}}.",
    ),
    editing_tool("cursor_set_position", "cursor.set_position", "Set the cursor position (0-indexed, code points)."),
)

FORMAT_TOOLS = (
    editing_tool(
        "format_toggle",
        "format.toggle",
        "Toggle a mark (bold, italic, code, strike, underline, highlight) on the selection." + EDIT,
    ),
    editing_tool("format_set_link", "format.set_link", "Make the selected text a link." + EDIT),
    editing_tool(
        "format_remove_link", "format.remove_link", "Remove the link from the selection (keeps the text)." + EDIT
    ),
    editing_tool("format_clear", "format.clear", "Remove all formatting from the selection." + EDIT),
)

BLOCK_TOOLS = (
    editing_tool(
        "block_set_type",
        "block.set_type",
        "Convert the block at the cursor to paragraph, heading (with level), codeBlock or blockquote." + EDIT,
    ),
    editing_tool(
        "block_toggle",
        "block.toggle",
        "Toggle the block type at the cursor (back to paragraph if it already has it)." + EDIT,
    ),
    editing_tool(
        "block_insert_horizontal_rule",
        "block.insert_horizontal_rule",
        "Insert a horizontal rule (---) at the cursor." + EDIT,
    ),
    editing_tool("list_toggle", "list.toggle", "Toggle a bullet, ordered or task list on the current block." + EDIT),
    editing_tool("list_indent", "list.indent", "Increase the indentation of the current list item." + EDIT),
    editing_tool("list_outdent", "list.outdent", "Decrease the indentation of the current list item." + EDIT),
)

TABLE_TOOLS = (
    editing_tool("table_insert", "table.insert", "Insert a rows x cols table at the cursor." + EDIT),
    editing_tool("table_delete", "table.delete", "Delete the table at the cursor." + EDIT),
    editing_tool("table_add_row", "table.add_row", "Add a row before or after the cursor's row." + EDIT),
    editing_tool("table_delete_row", "table.delete_row", "Delete the cursor's row." + EDIT),
    editing_tool("table_add_column", "table.add_column", "Add a column before or after the cursor's column." + EDIT),
    editing_tool("table_delete_column", "table.delete_column", "Delete the cursor's column." + EDIT),
    editing_tool("table_toggle_header_row", "table.toggle_header_row", "Toggle the table's header row." + EDIT),
)

INSERT_TOOLS = (
    editing_tool("insert_math_inline", "insert.math_inline", "Insert inline LaTeX math ($…$) at the cursor." + EDIT),
    editing_tool("insert_math_block", "insert.math_block", "Insert a block-level math equation ($$…$$)." + EDIT),
    editing_tool("insert_mermaid", "insert.mermaid", "Insert a Mermaid diagram (a mermaid code block)." + EDIT),
    editing_tool(
        "insert_wiki_link", "insert.wiki_link", "Insert a wiki link: [[target]] or [[target|displayText]]." + EDIT
    ),
)
