"""Suggestions: agent edits a person approves, checkpoints of applied changes, trust grants.

Pure Python (no Jupyter, no MCP): the records, mapping a suggestion's range through later
edits, and the SQLite store. Surfaces and operations build on these.
"""

from __future__ import annotations

from .diff import Region, regions
from .mapping import apply_many, map_range
from .model import (
    AGENT_KINDS,
    SOURCES,
    STATUSES,
    AgentKind,
    Checkpoint,
    Grant,
    Source,
    Status,
    Suggestion,
    check_status,
    line_span,
    new_id,
    new_suggestion,
    normalize_scope,
)
from .retention import Retention
from .store import Decision, SuggestionStore

__all__ = [
    "AGENT_KINDS",
    "SOURCES",
    "STATUSES",
    "AgentKind",
    "Checkpoint",
    "Decision",
    "Grant",
    "Region",
    "Retention",
    "Source",
    "Status",
    "Suggestion",
    "SuggestionStore",
    "apply_many",
    "check_status",
    "line_span",
    "map_range",
    "new_id",
    "new_suggestion",
    "normalize_scope",
    "regions",
]
