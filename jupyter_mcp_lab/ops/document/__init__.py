"""Operations on any text document: read, write, undo, redo."""

from __future__ import annotations

from . import text

OPERATIONS = (
    text.read,
    text.write,
    text.undo,
    text.redo,
)
