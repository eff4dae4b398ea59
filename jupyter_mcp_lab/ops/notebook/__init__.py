"""Notebooks as documents: reads by cell, cell edits as suggestions, outputs as resources."""

from __future__ import annotations

from . import edit, read

OPERATIONS = (
    read.read,
    edit.edit,
)
