"""Windows and their tabs, addressed the way VMark's v1 tools address them: by window.

A window (a connected JupyterLab client, or ``main``) shows one document at a time: its
active tab. Which tab is active is part of each MCP session's focus, so two agents never
share a "current document": in the session's focused window it is the session's focused
tab; in any other window it is the tab that focusing that window would pick (its last).
Operations that take ``windowId`` act on that window's active tab (resolved in ``tabs``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field

from ...core.documents import OpenDocument
from ...core.errors import DomainError
from ...core.kinds import DocumentKind
from ...core.text import word_count
from ...core.workspace import Tab, Window
from .. import documents
from ..base import operation
from ..context import OpContext
from ..tabs import WINDOW_ID, active_tab, tab_for_window, tab_in_window, window_of
from . import files as ws_ops

# Titles given to untitled documents (workspace_new_document); saved files take their name.
_TITLES: WeakKeyDictionary[OpenDocument, str] = WeakKeyDictionary()


def title_of(doc: OpenDocument) -> str:
    return _TITLES.get(doc) or doc.title


async def document_of_window(ctx: OpContext, window_id: str | None) -> tuple[OpenDocument, Tab]:
    """The document a window shows, refreshed from its file while it has no unsaved changes."""
    tab = await documents.resolve_tab(ctx, None, window_id)
    return tab.doc, tab


def _focus_on(ctx: OpContext, tab: Tab) -> None:
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    focus.window, focus.tab = tab.window, tab.id


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WindowParams(NoParams):
    windowId: str | None = WINDOW_ID


# --------------------------------------------------------------------------- windows


class WindowInfo(BaseModel):
    label: str
    title: str = Field(description="The title of the document the window shows ('' when none).")
    filePath: str | None = Field(description="Root-relative path of that document (null: untitled or none).")
    isFocused: bool = Field(description="True for your focused window.")
    isAiExposed: bool = Field(description="Whether agents may use the window (always true here).")
    isLabClient: bool = Field(description="True for a connected JupyterLab client; false for 'main'.")
    tabCount: int
    activeTabId: str | None


class WindowsResult(BaseModel):
    windows: list[WindowInfo]
    count: int


def _window_info(ctx: OpContext, window: Window) -> WindowInfo:
    focus = ctx.services.workspace.focus(ctx.caller.session_id)
    tab = active_tab(ctx, window)
    return WindowInfo(
        label=window.label,
        title=title_of(tab.doc) if tab else "",
        filePath=tab.doc.path if tab else None,
        isFocused=window.label == focus.window,
        isAiExposed=True,
        isLabClient=window.client is not None,
        tabCount=len(window.tabs),
        activeTabId=tab.id if tab else None,
    )


@operation("windows.list", title="List windows", read_only=True)
async def list_windows(ctx: OpContext, params: NoParams) -> WindowsResult:
    """Every window (a connected JupyterLab client, or 'main' when none is connected) with
    the document it shows you: {label, title, filePath, isFocused, isAiExposed}."""
    windows = [_window_info(ctx, w) for w in ctx.services.workspace.windows.values()]
    return WindowsResult(windows=windows, count=len(windows))


class FocusedResult(BaseModel):
    label: str = Field(description="Your focused window's label.")
    activeTabId: str | None


@operation("windows.focused", title="Focused window", read_only=True)
async def focused(ctx: OpContext, params: NoParams) -> FocusedResult:
    """Your focused window's label (each MCP session has its own focus)."""
    window = window_of(ctx, None)
    tab = active_tab(ctx, window)
    return FocusedResult(label=window.label, activeTabId=tab.id if tab else None)


class CloseWindowResult(BaseModel):
    label: str
    closed: bool = Field(description="True when every tab of the window is closed now.")
    closedTabs: list[str]
    dirtyTabs: list[str] = Field(description="Tabs kept open because they have unsaved changes (save them first).")
    message: str


@operation("windows.close", title="Close window")
async def close_window(ctx: OpContext, params: WindowParams) -> CloseWindowResult:
    """Close a window's documents (default: your focused window). Tabs with unsaved changes
    stay open (dirtyTabs): save them, then close again. The window itself stays: 'main' is
    always there and a JupyterLab client closes with its browser tab."""
    window = window_of(ctx, params.windowId)
    closed: list[str] = []
    dirty: list[str] = []
    for tab in list(window.tabs):
        result = await ws_ops.close(ctx, ws_ops.CloseParams(tabId=tab.id))
        (closed if result.closed else dirty).append(tab.id)
    message = f"closed {len(closed)} tab(s)" + (f"; {len(dirty)} with unsaved changes kept open" if dirty else "")
    return CloseWindowResult(label=window.label, closed=not dirty, closedTabs=closed, dirtyTabs=dirty, message=message)


# --------------------------------------------------------------------------- workspace


class WorkspaceInfo(BaseModel):
    isWorkspaceMode: bool = Field(description="Always true: the Jupyter root directory is the workspace.")
    rootPath: str = Field(description="The workspace root directory on the server.")
    workspaceName: str


@operation("workspace.info", title="Workspace info", read_only=True)
async def workspace_info(ctx: OpContext, params: WindowParams) -> WorkspaceInfo:
    """The workspace: the Jupyter server's root directory (paths are relative to it)."""
    window_of(ctx, params.windowId)  # a wrong window is still an error
    root = ctx.settings.root_dir
    return WorkspaceInfo(isWorkspaceMode=True, rootPath=str(root), workspaceName=root.name or str(root))


class RecentFile(BaseModel):
    path: str = Field(description="Root-relative path (open it with workspace_open_document).")
    name: str
    timestamp: int = Field(description="When it was last opened, in milliseconds since the epoch.")


class RecentFilesResult(BaseModel):
    files: list[RecentFile]
    count: int


@operation("workspace.recent", title="Recent files", read_only=True)
async def recent_files(ctx: OpContext, params: NoParams) -> RecentFilesResult:
    """Files opened recently on this server, most recent first (at most 10)."""
    workspace = ctx.services.workspace
    paths = list(reversed(workspace.recent))[:10]
    files = [
        RecentFile(path=p, name=PurePosixPath(p).name, timestamp=round(workspace.opened_at.get(p, 0.0) * 1000))
        for p in paths
    ]
    return RecentFilesResult(files=files, count=len(files))


class NewDocumentParams(NoParams):
    title: str | None = Field(None, description="Title of the new untitled document (save_as gives it a file).")


class NewDocumentResult(BaseModel):
    tabId: str
    windowId: str
    title: str
    revision: str
    kind: DocumentKind


@operation("workspace.new_document", title="New document")
async def new_document(ctx: OpContext, params: NewDocumentParams) -> NewDocumentResult:
    """Create an empty untitled markdown document in your focused window and focus it."""
    services = ctx.services
    window = window_of(ctx, None)
    doc = services.docs.new_untitled("markdown")
    if params.title and params.title.strip():
        _TITLES[doc] = params.title.strip()
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return NewDocumentResult(
        tabId=tab.id, windowId=window.label, title=title_of(doc), revision=doc.revision, kind=doc.kind
    )


@operation("windows.save", title="Save document", idempotent=True)
async def save_document(ctx: OpContext, params: WindowParams) -> ws_ops.SaveResult:
    """Save the document a window shows to its file (atomic write). Refuses (CONFLICT) when
    the file changed on disk since it was read; an untitled document needs save_as."""
    tab = tab_for_window(ctx, params.windowId)
    return await ws_ops.save(ctx, ws_ops.SaveParams(tabId=tab.id))


class SaveAsParams(WindowParams):
    filePath: str = Field(description="New file path, relative to the workspace root.")


@operation("windows.save_as", title="Save document as", destructive=True)
async def save_document_as(ctx: OpContext, params: SaveAsParams) -> ws_ops.SaveAsResult:
    """Save the document a window shows to a new file (CONFLICT when it exists); the tab
    then shows that file."""
    tab = tab_for_window(ctx, params.windowId)
    return await ws_ops.save_as(ctx, ws_ops.SaveAsParams(tabId=tab.id, filePath=params.filePath))


class DocumentInfo(BaseModel):
    filePath: str | None
    isDirty: bool
    title: str
    wordCount: int
    charCount: int = Field(description="Characters (Unicode code points) of the source text.")
    revision: str
    kind: DocumentKind
    tabId: str
    windowId: str


def document_info(tab: Tab) -> DocumentInfo:
    doc = tab.doc
    return DocumentInfo(
        filePath=doc.path,
        isDirty=doc.dirty,
        title=title_of(doc),
        wordCount=word_count(doc.text),
        charCount=len(doc.text),
        revision=doc.revision,
        kind=doc.kind,
        tabId=tab.id,
        windowId=tab.window,
    )


@operation("windows.document_info", title="Document info", read_only=True)
async def get_document_info(ctx: OpContext, params: WindowParams) -> DocumentInfo:
    """The document a window shows: {filePath, isDirty, title, wordCount, charCount} and its revision."""
    _, tab = await document_of_window(ctx, params.windowId)
    return document_info(tab)


# --------------------------------------------------------------------------- tabs


class TabInfo(BaseModel):
    id: str
    title: str
    filePath: str | None
    isDirty: bool
    isActive: bool = Field(description="True for the tab the window shows you.")
    kind: DocumentKind
    revision: str
    windowId: str


def _tab_info(ctx: OpContext, tab: Tab) -> TabInfo:
    window = ctx.services.workspace.windows[tab.window]
    active = active_tab(ctx, window)
    return TabInfo(
        id=tab.id,
        title=title_of(tab.doc),
        filePath=tab.doc.path,
        isDirty=tab.doc.dirty,
        isActive=active is tab,
        kind=tab.doc.kind,
        revision=tab.doc.revision,
        windowId=tab.window,
    )


class TabsResult(BaseModel):
    tabs: list[TabInfo]
    count: int
    windowId: str


@operation("tabs.list", title="List tabs", read_only=True)
async def list_tabs(ctx: OpContext, params: WindowParams) -> TabsResult:
    """The tabs of a window: {id, title, filePath, isDirty, isActive}."""
    window = window_of(ctx, params.windowId)
    tabs = [_tab_info(ctx, t) for t in window.tabs]
    return TabsResult(tabs=tabs, count=len(tabs), windowId=window.label)


class TabParams(WindowParams):
    tabId: str | None = Field(None, description="The tab (default: the window's active tab).")


@operation("tabs.get", title="Tab info", read_only=True)
async def get_tab(ctx: OpContext, params: TabParams) -> TabInfo:
    """A tab's {id, title, filePath, isDirty, isActive} (default: the window's active tab)."""
    if params.tabId is not None:
        tab = tab_in_window(ctx, params.tabId, params.windowId)
    else:
        tab = tab_for_window(ctx, params.windowId)
    await ctx.services.docs.refresh(tab.doc)
    return _tab_info(ctx, tab)


class SwitchParams(WindowParams):
    tabId: str = Field(description="The tab to switch to (tabs_list).")


@operation("tabs.switch", title="Switch tab", read_only=True)
async def switch_tab(ctx: OpContext, params: SwitchParams) -> TabInfo:
    """Make a tab the active one of its window, and that window your focused window."""
    tab = tab_in_window(ctx, params.tabId, params.windowId)
    _focus_on(ctx, tab)
    return _tab_info(ctx, tab)


class CloseTabResult(BaseModel):
    tabId: str
    closed: bool
    reason: str | None = Field(None, description='"DIRTY": it has unsaved changes (save it first).')
    message: str


@operation("tabs.close", title="Close tab")
async def close_tab(ctx: OpContext, params: TabParams) -> CloseTabResult:
    """Close a tab (default: the window's active tab). A tab with unsaved changes stays open
    (reason DIRTY): save it first. tabs_reopen_closed brings a closed file back."""
    tab = tab_in_window(ctx, params.tabId, params.windowId) if params.tabId else tab_for_window(ctx, params.windowId)
    result = await ws_ops.close(ctx, ws_ops.CloseParams(tabId=tab.id))
    if result.closed:
        message = f"closed {tab.id}"
    else:
        message = f"{tab.id} has unsaved changes: save it (workspace_save_document) before closing it"
    return CloseTabResult(tabId=tab.id, closed=result.closed, reason=result.reason, message=message)


class CreateTabResult(BaseModel):
    tabId: str
    windowId: str
    title: str


@operation("tabs.create", title="New tab")
async def create_tab(ctx: OpContext, params: WindowParams) -> CreateTabResult:
    """Open a new empty untitled markdown tab in a window and make it active."""
    services = ctx.services
    window = window_of(ctx, params.windowId)
    doc = services.docs.new_untitled("markdown")
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return CreateTabResult(tabId=tab.id, windowId=window.label, title=title_of(doc))


class ReopenResult(BaseModel):
    reopened: bool
    tabId: str | None = None
    filePath: str | None = None
    title: str | None = None
    message: str


@operation("tabs.reopen_closed", title="Reopen closed tab", read_only=True)  # changes no document
async def reopen_closed(ctx: OpContext, params: WindowParams) -> ReopenResult:
    """Reopen the file of the window's most recently closed tab (the last 10 closed tabs of
    each window are remembered; files deleted since are skipped)."""
    services = ctx.services
    window = window_of(ctx, params.windowId)
    while window.closed:
        path = window.closed.pop()
        try:
            doc = await services.docs.open(path)
        except DomainError as exc:
            if exc.code in ("NOT_FOUND", "INVALID_PATH"):
                continue
            raise
        tab = services.workspace.show(doc, window, ctx.caller.session_id)
        return ReopenResult(
            reopened=True, tabId=tab.id, filePath=doc.path, title=title_of(doc), message=f"reopened {doc.path}"
        )
    return ReopenResult(reopened=False, message="No closed tabs to reopen")
