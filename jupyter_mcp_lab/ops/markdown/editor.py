"""The editor an agent works in: a tab, addressed by tab or by window (the tab a window
shows this session), and what a change to its document takes.

A window shows one document per MCP session, its active tab (see ``tabs``); naming a
window does not move the session's focus, only ``cursor.set`` with ``focus`` and the
workspace operations do.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.workspace import Tab
from ..context import OpContext
from ..tabs import WINDOW_ID, editor_tab
from ..targets import EXPECTED, MODE, RATIONALE, TAB_ID, Mode


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


async def tab_for(ctx: OpContext, params: EditorParams) -> Tab:
    """``editor_tab`` with the document refreshed from its source (a change on disk shows)."""
    tab = editor_tab(ctx, params.tabId, params.windowId)
    await ctx.services.docs.refresh(tab.doc)
    return tab
