"""Notebook widgets (anywidget): tool forms, the MCP inspector, suggestion review, documents.

>>> lab.form("document")          # a tool's form, generated from its JSON Schema
>>> lab.inspector()               # tools, resources, prompts, ping, log, the server's requests
>>> lab.review_widget("notes.md") # pending suggestions to accept or reject
>>> lab.document_view("notes.md") # the document with its suggestions marked
>>> lab.outline_view("plan.opml")  # an outline as a tree, its rows' suggestions to decide

Each loads only when asked for (``SuggestionReview``, ``DocumentView`` and ``OutlineView``
live in their own modules, imported on first use).
"""

from __future__ import annotations

import importlib
from typing import Any

from .inspector import Inspector
from .tool_form import ToolBrowser

_LAZY = {"SuggestionReview": ".review", "DocumentView": ".document", "OutlineView": ".outline"}

__all__ = ["DocumentView", "Inspector", "OutlineView", "SuggestionReview", "ToolBrowser"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
