"""VMark's workspace and tab tools: windows, documents, tabs, as adapters over the
workspace capabilities (``ops.workspace``) with VMark's shapes and messages."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.kinds import DocumentKind
from ...ops.context import OpContext
from ...ops.workspace import files, focus, history, session
from ...ops.workspace import info as info_op
from ..adapter import adapter
from .common import tool
from .windows import (
    NoParams,
    TabInfo,
    TabParams,
    WindowParams,
    document_info,
    focused,
    get_tab,
    info,
    list_tabs,
    list_windows,
    state,
    tab_info,
    workspace_info,
)


async def _close(ctx: OpContext, tab_id: str) -> files.CloseResult:
    r = await files.close(ctx, files.CloseParams(tabId=tab_id))
    assert isinstance(r, files.CloseResult)
    return r


async def _new(ctx: OpContext, params: files.NewParams) -> info_op.DocumentInfo:
    r = await files.new(ctx, params)
    assert isinstance(r, files.TabResult)
    return await info(ctx, r.tabId)


class NewDocumentParams(NoParams):
    title: str | None = Field(None, description="Title of the new untitled document (save_as gives it a file).")


class NewDocumentResult(BaseModel):
    tabId: str
    windowId: str
    title: str
    revision: str
    kind: DocumentKind


@adapter(files.new, info_op.document_info, title="New document")
async def new_document(ctx: OpContext, params: NewDocumentParams) -> NewDocumentResult:
    """An empty untitled markdown document in your focused window, focused."""
    d = await _new(ctx, files.NewParams(title=params.title))
    assert d.tabId is not None and d.windowId is not None
    return NewDocumentResult(tabId=d.tabId, windowId=d.windowId, title=d.title, revision=d.revision, kind=d.kind)


@adapter(files.save, title="Save document")
async def save_document(ctx: OpContext, params: WindowParams) -> files.SaveResult:
    """Save the document a window shows to its file."""
    r = await files.save(ctx, files.SaveParams(windowId=params.windowId))
    assert isinstance(r, files.SaveResult)
    return r


class SaveAsParams(WindowParams):
    filePath: str = Field(description="New file path, relative to the workspace root.")


@adapter(files.save_as, title="Save document as")
async def save_document_as(ctx: OpContext, params: SaveAsParams) -> files.SaveAsResult:
    """Save the document a window shows to a new file; the tab then shows that file."""
    r = await files.save_as(ctx, files.SaveAsParams(windowId=params.windowId, filePath=params.filePath))
    assert isinstance(r, files.SaveAsResult)
    return r


class CloseWindowResult(BaseModel):
    label: str
    closed: bool = Field(description="True when every tab of the window is closed now.")
    closedTabs: list[str]
    dirtyTabs: list[str] = Field(description="Tabs kept open because they have unsaved changes (save them first).")
    message: str


@adapter(session.get_state, files.close, title="Close window", destructive=False)
async def close_window(ctx: OpContext, params: WindowParams) -> CloseWindowResult:
    """Close a window's documents; tabs with unsaved changes stay open. The window itself
    stays: 'main' is always there and a JupyterLab client closes with its browser tab."""
    s = await state(ctx, params.windowId)
    window = s.windows[0] if params.windowId else next(w for w in s.windows if w.focused)
    closed: list[str] = []
    dirty: list[str] = []
    for t in window.tabs:
        (closed if (await _close(ctx, t.id)).closed else dirty).append(t.id)
    message = f"closed {len(closed)} tab(s)" + (f"; {len(dirty)} with unsaved changes kept open" if dirty else "")
    return CloseWindowResult(label=window.label, closed=not dirty, closedTabs=closed, dirtyTabs=dirty, message=message)


class RecentFile(BaseModel):
    path: str = Field(description="Root-relative path (open it with workspace_open_document).")
    name: str
    timestamp: int = Field(description="When it was last opened, in milliseconds since the epoch.")


class RecentFilesResult(BaseModel):
    files: list[RecentFile]
    count: int


@adapter(history.recent, title="Recent files")
async def recent_files(ctx: OpContext, params: NoParams) -> RecentFilesResult:
    """Files opened recently on this server, most recent first (at most 10)."""
    r = await history.recent(ctx, history.RecentParams())
    assert isinstance(r, history.RecentResult)
    listed = [RecentFile(path=f.path, name=f.name, timestamp=f.timestamp) for f in r.files]
    return RecentFilesResult(files=listed, count=len(listed))


# --------------------------------------------------------------------------- tabs


class SwitchParams(WindowParams):
    tabId: str = Field(description="The tab to switch to (tabs_list).")


@adapter(focus.switch_tab, info_op.document_info, title="Switch tab")
async def switch_tab(ctx: OpContext, params: SwitchParams) -> TabInfo:
    """Make a tab the active one of its window, and that window your focused window."""
    await focus.switch_tab(ctx, focus.SwitchTabParams(tabId=params.tabId, windowId=params.windowId))
    return tab_info(await info(ctx, params.tabId))


class CloseTabResult(BaseModel):
    tabId: str
    closed: bool
    reason: str | None = Field(None, description='"DIRTY": it has unsaved changes (save it first).')
    message: str


@adapter(info_op.document_info, files.close, title="Close tab", destructive=False)
async def close_tab(ctx: OpContext, params: TabParams) -> CloseTabResult:
    """Close a tab (default: the window's active tab); unsaved changes keep it open."""
    tab_id = (await info(ctx, params.tabId, params.windowId)).tabId
    assert tab_id is not None
    r = await _close(ctx, tab_id)
    if r.closed:
        message = f"closed {tab_id}"
    else:
        message = f"{tab_id} has unsaved changes: save it (workspace_save_document) before closing it"
    return CloseTabResult(tabId=tab_id, closed=r.closed, reason=r.reason, message=message)


class CreateTabResult(BaseModel):
    tabId: str
    windowId: str
    title: str


@adapter(files.new, info_op.document_info, title="New tab")
async def create_tab(ctx: OpContext, params: WindowParams) -> CreateTabResult:
    """A new empty untitled markdown tab in a window, made active."""
    d = await _new(ctx, files.NewParams(windowLabel=params.windowId))
    assert d.tabId is not None and d.windowId is not None
    return CreateTabResult(tabId=d.tabId, windowId=d.windowId, title=d.title)


class ReopenResult(BaseModel):
    reopened: bool
    tabId: str | None = None
    filePath: str | None = None
    title: str | None = None
    message: str


@adapter(history.reopen_closed, title="Reopen closed tab")
async def reopen_closed(ctx: OpContext, params: WindowParams) -> ReopenResult:
    """Reopen the file of the window's most recently closed tab."""
    r = await history.reopen_closed(ctx, history.ReopenParams(windowLabel=params.windowId))
    assert isinstance(r, history.ReopenResult)
    if not r.reopened:
        return ReopenResult(reopened=False, message="No closed tabs to reopen")
    return ReopenResult(
        reopened=True, tabId=r.tabId, filePath=r.filePath, title=r.title, message=f"reopened {r.filePath}"
    )


# --------------------------------------------------------------------------- the tools

WORKSPACE_TOOLS = (
    tool(
        "workspace_list_windows",
        list_windows,
        "List the open windows (connected JupyterLab clients, or 'main'): {windows: [{label, title, filePath, "
        "isFocused, isAiExposed}], count}.",
    ),
    tool("workspace_get_focused", focused, "Get your focused window's label: {label, activeTabId}."),
    tool(
        "workspace_focus_window",
        focus.focus_window,
        "Focus a window (its last tab becomes your active tab): {windowLabel, tabId}.",
        rename={"windowLabel": "windowId"},
    ),
    tool(
        "workspace_new_document",
        new_document,
        "Create a new empty markdown document in your focused window: {tabId, windowId, title}. Save it with "
        "workspace_save_document_as.",
    ),
    tool(
        "workspace_open_document",
        files.open_,
        "Open a document from the workspace (path relative to the Jupyter root) in your focused window: "
        "{tabId, filePath, revision, kind}.",
        rename={"filePath": "path"},
        hidden=frozenset({"windowLabel"}),
    ),
    tool("workspace_save_document", save_document, "Save the window's document to its file: {filePath, revision}."),
    tool(
        "workspace_save_document_as",
        save_document_as,
        "Save the window's document to a new path (relative to the Jupyter root; an existing file is refused "
        "with CONFLICT): {filePath, revision, tabId}.",
        rename={"filePath": "path"},
    ),
    tool(
        "workspace_get_document_info",
        document_info,
        "Get the window's document metadata: {filePath, isDirty, title, wordCount, charCount, revision}.",
    ),
    tool(
        "workspace_close_window",
        close_window,
        "Close a window's documents (default: the focused window); tabs with unsaved changes stay open: "
        "{closed, closedTabs, dirtyTabs}.",
    ),
    tool(
        "workspace_list_recent_files",
        recent_files,
        "List recently opened files, most recent first (up to 10): {files: [{path, name, timestamp}], count}.",
    ),
    tool(
        "workspace_get_info",
        workspace_info,
        "Get the workspace: {isWorkspaceMode, rootPath, workspaceName} (the Jupyter root directory).",
    ),
)

TAB_TOOLS = (
    tool("tabs_list", list_tabs, "List a window's tabs: {tabs: [{id, title, filePath, isDirty, isActive}], count}."),
    tool(
        "tabs_get_active",
        get_tab,
        "Get a window's active tab: {id, title, filePath, isDirty, isActive}.",
        hidden=frozenset({"tabId"}),
    ),
    tool("tabs_switch", switch_tab, "Switch to a tab (it becomes the window's active tab, the window focused)."),
    tool(
        "tabs_close",
        close_tab,
        "Close a tab (default: the active tab); unsaved changes keep it open: {tabId, closed, reason?}.",
    ),
    tool("tabs_create", create_tab, "Create a new empty tab in a window: {tabId}."),
    tool(
        "tabs_get_info",
        get_tab,
        "Get a tab's details (default: the active tab): {id, title, filePath, isDirty, isActive}.",
    ),
    tool(
        "tabs_reopen_closed",
        reopen_closed,
        "Reopen the most recently closed tab of a window (the last 10 are kept): {tabId, filePath, title}, or "
        "{reopened: false, message: 'No closed tabs to reopen'}.",
    ),
)
