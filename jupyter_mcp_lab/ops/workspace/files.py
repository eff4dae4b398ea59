"""Workspace lifecycle: new, open, save, save as, close, switch tab, focus window."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.kinds import DocumentKind
from ...core.paths import to_api_path
from ..base import operation
from ..context import OpContext
from ..targets import TAB_ID, policy_mode


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
    applied: bool = Field(True, description="False when overwriting was staged for a person's approval.")
    suggestionIds: list[str] | None = None


def _needs_approval(ctx: OpContext, key: str) -> bool:
    """Whether the server's policy stages this agent's destructive step on ``key``."""
    return policy_mode(ctx, key, "apply")[0] == "suggest"


@operation("workspace.save_as", title="Save as", destructive=True)
async def save_as(ctx: OpContext, params: SaveAsParams) -> SaveAsResult:
    """Save a tab's content to a new file; the tab then shows that file."""
    services = ctx.services
    tab = services.workspace.tab(params.tabId, ctx.caller.session_id)
    api = to_api_path(services.settings.root_dir, params.filePath)
    old = tab.doc
    if params.overwrite and api != old.path and await services.docs.storage.exists(api) and _needs_approval(ctx, api):
        # Overwriting a file is a change to that file: stage it as one, for a person to accept.
        target = await services.docs.open(api)
        staged = services.reviews.stage(
            target, target.text, old.text, ctx.caller.author, operation="workspace.save_as", split=False
        )
        return SaveAsResult(
            revision=target.revision, filePath=api, tabId=tab.id, applied=False, suggestionIds=[x.id for x in staged]
        )
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
    reason: str | None = Field(
        None,
        description='"DIRTY" when unsaved changes kept the tab open; "SUGGESTED" when discarding them was '
        "staged for a person's approval (accept it, then close again).",
    )
    suggestionIds: list[str] | None = None


@operation("workspace.close", title="Close tab", destructive=True)
async def close(ctx: OpContext, params: CloseParams) -> CloseResult:
    """Close a tab. Refuses to discard unsaved work unless force is set."""
    services = ctx.services
    tab = services.workspace.tab(params.tabId, ctx.caller.session_id)
    if tab.doc.dirty and not params.force:
        return CloseResult(closed=False, reason="DIRTY")
    if tab.doc.dirty and _needs_approval(ctx, tab.doc.key):
        # Discarding unsaved work is a change back to the saved text: a person decides.
        doc = tab.doc
        staged = services.reviews.stage(
            doc, doc.text, doc.saved or "", ctx.caller.author, operation="workspace.close", split=False
        )
        return CloseResult(closed=False, reason="SUGGESTED", suggestionIds=[x.id for x in staged])
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
