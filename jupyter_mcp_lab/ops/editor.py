"""The editor an agent works in: a tab, addressed by tab or by window (VMark's ``windowId``),
and focusing it (VMark's ``editor_focus``).

A window shows one document per MCP session, its active tab (see ``windows``); naming a
window does not move the session's focus, only ``editor.focus`` and the workspace and tab
operations do.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import DomainError
from ..core.workspace import Tab
from .base import operation
from .context import OpContext
from .targets import EXPECTED, MODE, RATIONALE, TAB_ID, Mode
from .windows import WINDOW_ID, tab_for_window, window_of


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


def editor_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    """Tab ``tab_id`` (which must be in window ``window_id`` when both are given), else the tab
    the window shows this session, else the session's focused tab; INVALID_TAB when none."""
    if tab_id is None:
        return tab_for_window(ctx, window_id)
    tab = ctx.services.workspace.tab(tab_id, ctx.caller.session_id)
    if window_id is not None and (window := window_of(ctx, window_id)).label != tab.window:
        raise DomainError(
            "INVALID_TAB", f"tab {tab_id!r} is in window {tab.window!r}, not {window.label!r}", tabId=tab_id
        )
    return tab


async def tab_for(ctx: OpContext, params: EditorParams) -> Tab:
    """``editor_tab`` with the document refreshed from its source (a change on disk shows)."""
    tab = editor_tab(ctx, params.tabId, params.windowId)
    await ctx.services.docs.refresh(tab.doc)
    return tab


class FocusResult(BaseModel):
    message: str
    windowId: str = Field(description="The window now focused for this session.")
    tabId: str
    filePath: str | None


@operation("editor.focus", title="Focus editor", read_only=True)  # changes no document
async def focus(ctx: OpContext, params: EditorParams) -> FocusResult:
    """Focus a window's document (or a tab) for this MCP session: later calls without a
    window or tab work on it. Other sessions keep their own focus."""
    tab = editor_tab(ctx, params.tabId, params.windowId)
    f = ctx.services.workspace.focus(ctx.caller.session_id)
    f.window, f.tab = tab.window, tab.id
    name = tab.doc.path or tab.doc.title
    return FocusResult(
        message=f"Focused {name} in window {tab.window}", windowId=tab.window, tabId=tab.id, filePath=tab.doc.path
    )
