"""One transport-neutral dispatcher for every surface: MCP, resources and plain-HTTP routes."""

from __future__ import annotations

from .core import SILENT, Dispatcher, Outcome, Reporter
from .tools import CompositeBinding, FlatBinding, Invocation, ToolBinding

__all__ = [
    "SILENT",
    "CompositeBinding",
    "Dispatcher",
    "FlatBinding",
    "Invocation",
    "Outcome",
    "Reporter",
    "ToolBinding",
]
