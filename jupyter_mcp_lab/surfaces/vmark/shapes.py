"""VMark's wording that its adapters share: the window a tool works on, the params of its
editing tools, and its errors.

VMark names a window (``windowId``: a connected JupyterLab client or ``main``, default the
session's focus); the operations take it as their ``windowId`` target (the tab it shows).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import ArgumentError, DomainError
from ...ops.documents import TAB as TAB_ID
from ...ops.targets import EXPECTED, MODE, RATIONALE, Mode

WINDOW_ID: Any = Field(
    None,
    description="Window label (see workspace_list_windows; a tab id also works). Default: your focused window.",
)


class EditorParams(BaseModel):
    """A tab, a window (the tab it shows this session), or this session's focused tab."""

    model_config = ConfigDict(extra="forbid")
    tabId: str | None = TAB_ID
    windowId: str | None = WINDOW_ID


class EditorEditParams(EditorParams):
    """A change to a tab's document, through the server's approval policy."""

    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    rationale: str | None = RATIONALE
    save: bool = Field(False, description="Write the file now (default: the tab keeps the change unsaved).")


# How an editing result's message begins, by the mode the change ran in.
DONE = {"apply": "Applied", "suggest": "Staged for a person's review", "dryRun": "Dry run, nothing changed"}


class EditResult(BaseModel):
    """What the editor-style tools (VMark's) answer for a change: one suggestion, a message."""

    message: str
    applied: bool = Field(description="True when the document changed; false when staged or a dry run.")
    suggestionId: str | None = Field(None, description="The staged suggestion (a person accepts or rejects it).")
    mode: Mode = Field(description="The mode the change really ran in (the server's policy decides).")
    revision: str
    checkpointId: str | None = None
    diff: str | None = None


def renamed(exc: DomainError, argument: str | None = None, **details: str) -> DomainError:
    """``exc`` as VMark reports it: naming the agent's ``argument``, with detail keys renamed
    (``details``: ours -> VMark's), without the index of the edit that failed (VMark's tools
    send one edit, or name it in ``argument``)."""
    if isinstance(exc, ArgumentError):
        return ArgumentError(exc.message, argument or exc.argument)
    kept: dict[str, Any] = {details.get(k, k): v for k, v in exc.details.items() if k != "edit"}
    if argument is not None:
        kept["argument"] = argument
    return DomainError(exc.code, exc.message, **kept)
