"""Markdown capabilities: targeted edits, structure, search, rewrites, edits at the cursor."""

from __future__ import annotations

from . import (
    cursor,
    cursor_edit,
    edit,
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
    rewrite.set_content,
    rewrite.punctuation,
    rewrite.spacing,
    search.search,
    search.replace,
    structure.structure,
    transform.transform,
)
