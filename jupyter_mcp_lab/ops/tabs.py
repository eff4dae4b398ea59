"""Which tab an operation acts on: by tab id, by window (VMark's ``windowId``), or this MCP
session's focus.

A window (a connected JupyterLab client, or ``main``) shows one document at a time: its
active tab. Which tab is active is part of each MCP session's focus, so two agents never
share a "current document": in the session's focused window it is the session's focused
tab; in any other window it is the tab that focusing that window would pick (its last).

This module depends on the workspace model only, so ``targets`` (every document
operation), ``editor`` and ``windows`` can all resolve a window the same way without
importing each other.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..core.errors import DomainError
from ..core.workspace import Tab, Window
from .context import OpContext

WINDOW_ID: Any = Field(
    None,
    description="Window label (see workspace_list_windows; a tab id also works). Default: your focused window.",
)


def window_of(ctx: OpContext, window_id: str | None) -> Window:
    """The window named by label (or by one of its tab ids); default: the session's focused one."""
    workspace = ctx.services.workspace
    if window_id is None:
        return workspace.window(None, ctx.caller.session_id)
    window = workspace.windows.get(window_id)
    if window is not None:
        return window
    for tab in workspace.tabs():
        if tab.id == window_id:
            return workspace.windows[tab.window]
    raise DomainError(
        "INVALID_TAB",
        f"no window {window_id!r}; windows: {', '.join(workspace.windows)} (workspace_list_windows)",
        argument="windowId",
        windowId=window_id,
    )


def active_tab(ctx: OpContext, window: Window) -> Tab | None:
    """The tab ``window`` shows for this session (None: nothing to show)."""
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    if focus.window == window.label:
        return next((t for t in window.tabs if t.id == focus.tab), None)
    return window.tabs[-1] if window.tabs else None


def tab_for_window(ctx: OpContext, window_id: str | None) -> Tab:
    """The tab an operation with ``windowId`` acts on: the window's active tab (or the tab
    itself when ``window_id`` is a tab id)."""
    workspace = ctx.services.workspace
    if window_id is not None and window_id not in workspace.windows:
        named = next((t for t in workspace.tabs() if t.id == window_id), None)
        if named is not None:
            return named
    window = window_of(ctx, window_id)
    tab = active_tab(ctx, window)
    if tab is None:
        raise DomainError(
            "INVALID_TAB",
            f"window {window.label!r} shows no document for you: open one (workspace_open_document, "
            "tabs_create) or pick a tab (tabs_list, tabs_switch)",
            windowId=window.label,
        )
    return tab


def tab_in_window(ctx: OpContext, tab_id: str, window_id: str | None) -> Tab:
    """Tab ``tab_id``, which must belong to window ``window_id`` when one is named."""
    tab = ctx.services.workspace.tab(tab_id, ctx.caller.session_id)
    if window_id is not None:
        window = window_of(ctx, window_id)
        if tab.window != window.label:
            raise DomainError(
                "INVALID_TAB",
                f"tab {tab_id!r} is in window {tab.window!r}, not {window.label!r}",
                tabId=tab_id,
                windowId=window.label,
            )
    return tab


def editor_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    """Tab ``tab_id`` (which must be in window ``window_id`` when both are given), else the tab
    the window shows this session, else the session's focused tab; INVALID_TAB when none."""
    if tab_id is None:
        return tab_for_window(ctx, window_id)
    return tab_in_window(ctx, tab_id, window_id)


def target_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    """The tab a document operation acts on: ``editor_tab`` when a window is named; otherwise
    tab ``tab_id`` or the session's focused tab (whose error tells the agent to pass tabId)."""
    if window_id is None:
        return ctx.services.workspace.tab(tab_id, ctx.caller.session_id)
    return editor_tab(ctx, tab_id, window_id)
