"""Outlines (OPML) as trees of rows: reads by row, subtree, search and section."""

from __future__ import annotations

from . import read

OPERATIONS = (read.read,)
