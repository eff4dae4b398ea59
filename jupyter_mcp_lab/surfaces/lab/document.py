"""The lab profile's ``document`` tool: reading and changing documents."""

from __future__ import annotations

from ...ops.document import search, text
from ...ops.markdown import edit, structure, transform
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

DOCUMENT = CompositeTool(
    name="document",
    title="Document",
    description=(
        "Read and change documents (by path or tabId). read {section? | lineStart/lineEnd?, maxBytes?} → "
        "{content, revision, totalLines, truncated, nextLine}. search {query, caseSensitive?, regex?} → matches "
        "{start, end, line, column, context}. structure {view: outline|blocks|digest|all|ast|section|targets} → "
        "sections and blocks with node ids (h-0, p-3, table-0, …) valid for that revision; section {section} its "
        "markdown; targets {targets} node ids, titles or text → positions. edit {edits: [{op: insert|replace|"
        "delete|find_replace|anchored|update_block|insert_block|delete_block|move_block|update_section|"
        "insert_section|move_section, …}], expected_revision} changes only the targeted bytes, atomically "
        "(edits[] in the result: what each touched). write {content, expected_revision} replaces everything. "
        "transform {kind: cjk-spacing|cjk-punctuation|cjk-format, spacing?, direction?}. undo / redo. Changes by "
        "path are saved at once; mode=dryRun returns the diff without changing anything."
    ),
    actions={
        "read": text.read,
        "search": search.search,
        "structure": structure.structure,
        "edit": edit.edit,
        "write": text.write,
        "transform": transform.transform,
        "undo": text.undo,
        "redo": text.redo,
    },
    hidden=BY_PATH_OR_TAB,
)
