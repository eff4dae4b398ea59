"""VMark's node and section mutations: batch_edit, apply_diff, sections, tables, lists
(the adapters: ``node_edits`` and ``section_edits``)."""

from __future__ import annotations

from .common import STAGED, SUGGEST, tool
from .node_edits import apply_diff, batch_edit, replace_text_anchored
from .section_edits import insert_section, list_modify, move_section, table_modify, update_section

MUTATION_TOOLS = (
    tool(
        "batch_edit",
        batch_edit,
        "Apply operations atomically: [{type: update|insert|delete|format|move, nodeId, after?, text|content, "
        "mark?}]. Returns {success, changedNodeIds, suggestionIds}." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "apply_diff",
        apply_diff,
        "Find text and replace it with a match policy (first, all, nth, error_if_multiple): {matchCount, "
        "appliedCount, matches, suggestionIds}." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "replace_text_anchored",
        replace_text_anchored,
        "Replace text located by anchor {text, beforeContext, afterContext} (exactly one match)." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "update_section",
        update_section,
        "Update a section's content (by its heading node id): the body, or the whole section when content "
        "starts with a heading." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "insert_section",
        insert_section,
        "Insert a new section {level, title, content?} after a section or block." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "move_section",
        move_section,
        "Move a section (with its subsections) after another section or block." + STAGED,
        defaults=SUGGEST,
    ),
    tool(
        "table_modify",
        table_modify,
        "Batch-modify a table: operations setCellContent {row, col, content}, addRow {index?, cells?}, deleteRow "
        "{row}, addColumn {index?, header?, cells?}, deleteColumn {col}, setHeaderRow {enabled?}. Row 0 is the "
        "header. Staged for the person's review unless edits are auto-approved.",
        hidden=frozenset({"mode"}),
    ),
    tool(
        "list_modify",
        list_modify,
        "Batch-modify a list: operations setItemContent {index, text}, addItem {index?, text}, deleteItem "
        "{index}, indent {index}, outdent {index}, setChecked {index, checked}. Staged for the person's review "
        "unless edits are auto-approved.",
        hidden=frozenset({"mode"}),
    ),
)
