"""Notebooks as documents: reads by cell, cell edits as suggestions, outputs as resources,
code run in the notebook's kernel."""

from __future__ import annotations

from . import edit, execute, read, sessions

OPERATIONS = (
    read.read,
    edit.edit,
    execute.execute,
    execute.kernel,
    sessions.list_,
    sessions.use,
    sessions.unuse,
)
