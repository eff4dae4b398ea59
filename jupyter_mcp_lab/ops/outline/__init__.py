"""Outlines (OPML) as trees of rows: reads by row, subtree, search and section; row edits."""

from __future__ import annotations

from . import edit, read

OPERATIONS = (read.read, edit.edit)
