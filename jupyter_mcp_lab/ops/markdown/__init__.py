"""Markdown capabilities: targeted edits, structure, search, rewrites, edits at the cursor."""

from __future__ import annotations

from . import (
    cursor,
    cursor_edit,
    edit,
    node_edit,
    rewrite,
    search,
    structure,
    transform,
)

OPERATIONS = (
    cursor.get,
    cursor.set_,
    cursor_edit.edit,
    edit.edit,
    node_edit.batch_edit,
    node_edit.apply_diff,
    node_edit.replace_text_anchored,
    node_edit.update_section,
    node_edit.insert_section,
    node_edit.move_section,
    node_edit.table_modify,
    node_edit.list_modify,
    rewrite.set_content,
    rewrite.punctuation,
    rewrite.spacing,
    search.search,
    search.replace,
    structure.structure,
    transform.transform,
)
