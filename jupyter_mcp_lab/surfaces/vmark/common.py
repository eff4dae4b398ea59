"""How the ``vmark`` profile's flat tools map onto capabilities: VMark's names for the
target (``windowId``), the revision (``baseRevision``) and its staged-edit wording."""

from __future__ import annotations

from typing import Any

from ...ops.base import Operation
from ..base import FlatTool

BASE = {"expected_revision": "baseRevision"}
SUGGEST = {"mode": "suggest"}
STAGED = (
    " mode defaults to suggest: the change is staged for the person to accept (suggestion_list); the server's "
    "approval policy decides whether apply is honoured. baseRevision (get_document_revision) guards against "
    "concurrent edits (STALE)."
)

# What VMark's editing tools do not take: it addresses windows, not tabs or paths; edits stay
# in the editor until saved; the approval policy, not the agent, decides between apply and suggest.
EDITING_HIDDEN = frozenset({"tabId", "path", "save", "mode"})
EDITING_STAGED = " Staged as a suggestion for the person to accept unless edits are auto-approved."
EDIT = " Returns {message, position, suggestionId?, applied}." + EDITING_STAGED


def tool(
    name: str,
    op: Operation,
    description: str,
    *,
    rename: dict[str, str] | None = None,
    hidden: frozenset[str] = frozenset(),
    defaults: dict[str, Any] | None = None,
) -> FlatTool:
    """A workspace, tab, review, structure or mutation tool (windowId and baseRevision)."""
    return FlatTool(
        name,
        op,
        description=description,
        rename={**BASE, **(rename or {})},
        hidden=hidden,
        defaults=defaults or {},
    )


def editing_tool(
    name: str, op: Operation, description: str, hidden: frozenset[str] = frozenset(), **extra: Any
) -> FlatTool:
    """An editing tool: the window's document, never a path or tab."""
    return FlatTool(name, op, description=description, rename=BASE, hidden=EDITING_HIDDEN | hidden, **extra)
