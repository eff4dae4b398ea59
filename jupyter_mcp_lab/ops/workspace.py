"""Workspace lifecycle: new, open, save, save as, close, switch tab, focus window."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import DomainError
from ..core.paths import to_api_path
from ..core.workspace import DocumentKind
from .base import operation
from .context import OpContext
from .targets import TAB_ID


class NewParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: DocumentKind = Field("markdown", description='Kind of the new untitled document ("markdown" default).')
    windowLabel: str | None = Field(None, description="Target window (default: the focused one).")


class TabResult(BaseModel):
    tabId: str
    filePath: str | None = None
    revision: str | None = None
    kind: DocumentKind | None = None


@operation("workspace.new", title="New document")
async def new(ctx: OpContext, params: NewParams) -> TabResult:
    """Create a new untitled tab (save it with save_as)."""
    services = ctx.services
    window = services.workspace.window(params.windowLabel, ctx.caller.session_id)
    doc = services.docs.new_untitled(params.kind)
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return TabResult(tabId=tab.id, revision=doc.revision, kind=doc.kind)


class OpenParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    filePath: str = Field(description="File to open, relative to the workspace root.")
    windowLabel: str | None = Field(None, description="Target window (default: the focused one).")


@operation("workspace.open", title="Open document", read_only=True)  # changes no document
async def open_(ctx: OpContext, params: OpenParams) -> TabResult:
    """Open a file from the workspace in a tab (the existing tab if it is open) and focus it."""
    services = ctx.services
    api = to_api_path(services.settings.root_dir, params.filePath)
    window = services.workspace.window(params.windowLabel, ctx.caller.session_id)
    try:
        doc = await services.docs.open(api)
    except DomainError as exc:
        if exc.code == "NOT_FOUND":
            raise DomainError("INVALID_PATH", f"cannot open {params.filePath!r}: {exc.message}", path=api) from None
        raise
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return TabResult(tabId=tab.id, filePath=doc.path, revision=doc.revision, kind=doc.kind)


class SaveParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabId: str | None = TAB_ID


class SaveResult(BaseModel):
    filePath: str
    revision: str


@operation("workspace.save", title="Save", idempotent=True)
async def save(ctx: OpContext, params: SaveParams) -> SaveResult:
    """Save a tab to its file (atomic write). Refuses (CONFLICT) when the file changed on disk
    since it was read, rather than overwrite someone else's change."""
    tab = ctx.services.workspace.tab(params.tabId, ctx.caller.session_id)
    revision = await ctx.services.docs.save(tab.doc)
    assert tab.doc.path is not None
    return SaveResult(filePath=tab.doc.path, revision=revision)


class SaveAsParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    filePath: str = Field(description="New file path, relative to the workspace root.")
    tabId: str | None = TAB_ID
    overwrite: bool = Field(False, description="Replace the file if it exists (otherwise: CONFLICT).")


class SaveAsResult(BaseModel):
    revision: str
    filePath: str
    tabId: str


@operation("workspace.save_as", title="Save as", destructive=True)
async def save_as(ctx: OpContext, params: SaveAsParams) -> SaveAsResult:
    """Save a tab's content to a new file; the tab then shows that file."""
    services = ctx.services
    tab = services.workspace.tab(params.tabId, ctx.caller.session_id)
    api = to_api_path(services.settings.root_dir, params.filePath)
    old = tab.doc
    doc = await services.docs.save_as(old, api, overwrite=params.overwrite)
    tab.doc = doc
    if old.path is not None and not services.workspace.is_shown(old):
        # Its unsaved changes went to the new file; the old file stays as it is on disk.
        services.docs.close(old)
    return SaveAsResult(revision=doc.revision, filePath=api, tabId=tab.id)


class CloseParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabId: str = Field(description="The tab to close.")
    force: bool = Field(False, description="Discard unsaved changes.")


class CloseResult(BaseModel):
    closed: bool
    reason: str | None = Field(None, description='"DIRTY" when unsaved changes kept the tab open.')


@operation("workspace.close", title="Close tab", destructive=True)
async def close(ctx: OpContext, params: CloseParams) -> CloseResult:
    """Close a tab. Refuses to discard unsaved work unless force is set."""
    services = ctx.services
    tab = services.workspace.tab(params.tabId, ctx.caller.session_id)
    if tab.doc.dirty and not params.force:
        return CloseResult(closed=False, reason="DIRTY")
    services.workspace.close(tab)
    if not services.workspace.is_shown(tab.doc):
        services.docs.close(tab.doc)
    return CloseResult(closed=True)


class SwitchTabParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabId: str = Field(description="The tab to activate.")


@operation("workspace.switch_tab", title="Switch tab", read_only=True)
async def switch_tab(ctx: OpContext, params: SwitchTabParams) -> TabResult:
    """Make a tab this session's focused tab (and its window the focused window)."""
    services = ctx.services
    tab = services.workspace.tab(params.tabId, ctx.caller.session_id)
    focus = services.workspace.focus(ctx.caller.session_id)
    focus.window, focus.tab = tab.window, tab.id
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
    services = ctx.services
    window = services.workspace.window(params.windowLabel, ctx.caller.session_id)
    focus = services.workspace.focus(ctx.caller.session_id)
    if focus.window != window.label:
        focus.window = window.label
        focus.tab = window.tabs[-1].id if window.tabs else None
    return FocusWindowResult(windowLabel=window.label, tabId=focus.tab)
