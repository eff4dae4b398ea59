"""Which document an operation acts on: one resolver, one set of rules and errors.

A target names a document by ``path`` (the file, opened if needed; no tab), by ``tabId``
(that tab; with ``windowId`` too it must be in that window), by ``windowId`` alone (the
tab that window shows this session; a tab id there names that tab), or by nothing (this
session's focused tab).

A window (a connected JupyterLab client, or ``main``) shows one document at a time: its
active tab. Which tab is active is part of each MCP session's focus, so two agents never
share a "current document": in the session's focused window it is the session's focused
tab; in any other window it is the tab focusing that window would pick (its last).
Naming a window never moves the focus; ``focus_on`` does.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..core.documents import OpenDocument
from ..core.errors import DomainError
from ..core.paths import to_api_path
from ..core.workspace import Tab, Window
from .context import OpContext

TAB: Any = Field(None, description="Target tab (default: this session's focused tab).")
PATH: Any = Field(None, description="Target file, root-relative (instead of tabId; opened if needed).")
WINDOW: Any = Field(
    None,
    description="A window: a connected JupyterLab (its label) or 'main'; a tab id also works. "
    "Default: your focused window.",
)


class TabTarget(BaseModel):
    """A tab, a window (the tab it shows this session), or this session's focused tab."""

    model_config = ConfigDict(extra="forbid")
    tabId: str | None = TAB
    windowId: str | None = WINDOW


class DocumentTarget(BaseModel):
    """A path, a tab, a window (the tab it shows this session), or this session's focused tab."""

    model_config = ConfigDict(extra="forbid")
    tabId: str | None = TAB
    path: str | None = PATH
    windowId: str | None = WINDOW


def window(ctx: OpContext, label: str | None, argument: str = "windowId") -> Window:
    """The window named by label (or by one of its tab ids); default: the session's focused
    one. INVALID_TAB names the windows there are (and the ``argument`` that named it)."""
    workspace = ctx.services.workspace
    if not label:
        return workspace.window(None, ctx.caller.session_id)
    named = workspace.windows.get(label)
    if named is not None:
        return named
    for t in workspace.tabs():
        if t.id == label:
            return workspace.windows[t.window]
    raise DomainError(
        "INVALID_TAB",
        f"no window {label!r}; windows: {', '.join(workspace.windows)}",
        argument=argument,
        window=label,
    )


def shown_tab(ctx: OpContext, w: Window) -> Tab | None:
    """The tab ``w`` shows this session (None: it shows nothing)."""
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    if focus.window == w.label:
        return next((t for t in w.tabs if t.id == focus.tab), None)
    return w.tabs[-1] if w.tabs else None


def tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    """The tab a target names (see the module doc); INVALID_TAB when there is none."""
    workspace = ctx.services.workspace
    session = ctx.caller.session_id
    if not window_id:
        return workspace.tab(tab_id, session)  # that tab, or the focused one
    if tab_id:
        found = workspace.tab(tab_id, session)
        w = window(ctx, window_id)
        if found.window != w.label:
            raise DomainError(
                "INVALID_TAB",
                f"tab {tab_id!r} is in window {found.window!r}, not {w.label!r}",
                tabId=tab_id,
                windowId=w.label,
            )
        return found
    if window_id not in workspace.windows:
        named = next((t for t in workspace.tabs() if t.id == window_id), None)
        if named is not None:
            return named
    w = window(ctx, window_id)
    shown = shown_tab(ctx, w)
    if shown is None:
        raise DomainError(
            "INVALID_TAB",
            f"window {w.label!r} shows no document for you: open one there or pick one of its tabs",
            windowId=w.label,
        )
    return shown


async def resolve(
    ctx: OpContext, tab_id: str | None = None, path: str | None = None, window_id: str | None = None
) -> tuple[OpenDocument, Tab | None]:
    """The document a target names and its tab (None when addressed by path), refreshed
    from its file while it has no unsaved changes."""
    services = ctx.services
    if path:
        return await services.docs.open(to_api_path(services.settings.root_dir, path)), None
    found = tab(ctx, tab_id, window_id)
    await services.docs.refresh(found.doc)
    return found.doc, found


async def resolve_target(ctx: OpContext, target: TabTarget | DocumentTarget) -> tuple[OpenDocument, Tab | None]:
    """``resolve`` with a target model's fields."""
    return await resolve(ctx, target.tabId, getattr(target, "path", None), target.windowId)


async def resolve_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    """The tab a tab target names, its document refreshed from its file while clean."""
    found = tab(ctx, tab_id, window_id)
    await ctx.services.docs.refresh(found.doc)
    return found


def focus_on(ctx: OpContext, t: Tab) -> None:
    """Make ``t`` this session's focused tab and its window the focused window."""
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    focus.window, focus.tab = t.window, t.id
