"""Markdown capabilities: targeted edits, structure, search, rewrites, edits at the cursor."""

from __future__ import annotations

from . import (
    cursor,
    cursor_edit,
    edit,
    structure,
    transform,
)

OPERATIONS = (
    cursor.get,
    cursor.set_,
    cursor_edit.edit,
    edit.edit,
    structure.structure,
    transform.transform,
)
