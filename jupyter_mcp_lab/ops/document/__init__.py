"""Operations on any text document: read, search, write, undo, redo."""

from __future__ import annotations

from . import search, text

OPERATIONS = (
    text.read,
    search.search,
    text.write,
    text.undo,
    text.redo,
)
