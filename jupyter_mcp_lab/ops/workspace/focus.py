"""This session's focus: which tab and window calls without a target work on.

Each MCP session has its own focus, so two agents never share a "current document".
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .. import documents
from ..base import operation
from ..context import OpContext
from .files import TabResult


class SwitchTabParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabId: str = Field(description="The tab to activate.")
    windowId: str | None = Field(None, description="The window the tab must be in (default: any).")


@operation("workspace.switch_tab", title="Switch tab", read_only=True)
async def switch_tab(ctx: OpContext, params: SwitchTabParams) -> TabResult:
    """Make a tab this session's focused tab (and its window the focused window)."""
    tab = documents.tab(ctx, params.tabId, params.windowId)
    documents.focus_on(ctx, tab)
    return TabResult(tabId=tab.id, filePath=tab.doc.path, revision=tab.doc.revision, kind=tab.doc.kind)


class FocusWindowParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowLabel: str = Field(description="The window to focus.")


class FocusWindowResult(BaseModel):
    windowLabel: str
    tabId: str | None


@operation("workspace.focus_window", title="Focus window", read_only=True)
async def focus_window(ctx: OpContext, params: FocusWindowParams) -> FocusWindowResult:
    """Make a window this session's focused window (its last tab becomes the focused tab)."""
    window = documents.window(ctx, params.windowLabel, "windowLabel")
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    if focus.window != window.label:
        focus.window = window.label
        focus.tab = window.tabs[-1].id if window.tabs else None
    return FocusWindowResult(windowLabel=window.label, tabId=focus.tab)
