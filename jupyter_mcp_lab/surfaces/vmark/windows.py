"""What VMark reads about windows, tabs and documents: its shapes over the session's state
(``session.get_state``) and ``workspace.document_info``.

VMark addresses a window (``windowId``: a label or one of its tab ids; default: the
session's focused window) and the document it shows the session.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.kinds import DocumentKind
from ...ops.context import OpContext
from ...ops.documents import DocumentTarget
from ...ops.workspace import info as info_op
from ...ops.workspace import session
from ..adapter import adapter
from .shapes import WINDOW_ID


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WindowParams(NoParams):
    windowId: str | None = WINDOW_ID


class TabParams(WindowParams):
    tabId: str | None = Field(None, description="The tab (default: the window's active tab).")


async def state(ctx: OpContext, window_id: str | None = None) -> session.GetStateResult:
    """The session's state, of one window when ``window_id`` names one (INVALID_TAB if none)."""
    r = await session.get_state(ctx, session.GetStateParams(windowId=window_id))
    assert isinstance(r, session.GetStateResult)
    return r


async def info(ctx: OpContext, tab_id: str | None = None, window_id: str | None = None) -> info_op.DocumentInfo:
    """The document a tab or a window shows this session (INVALID_TAB when none)."""
    r = await info_op.document_info(ctx, DocumentTarget(tabId=tab_id, windowId=window_id))
    assert isinstance(r, info_op.DocumentInfo)
    return r


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


@adapter(session.get_state, title="List windows")
async def list_windows(ctx: OpContext, params: NoParams) -> WindowsResult:
    """Every window with the document it shows you."""
    s = await state(ctx)
    windows = []
    for w in s.windows:
        active = s.activeTabs.get(w.label)
        tab = next((t for t in w.tabs if t.id == active), None)
        windows.append(
            WindowInfo(
                label=w.label,
                title=tab.title if tab else "",
                filePath=(tab.filePath or None) if tab else None,
                isFocused=w.focused,
                isAiExposed=True,
                isLabClient=w.labClient,
                tabCount=len(w.tabs),
                activeTabId=active,
            )
        )
    return WindowsResult(windows=windows, count=len(windows))


class FocusedResult(BaseModel):
    label: str = Field(description="Your focused window's label.")
    activeTabId: str | None


@adapter(session.get_state, title="Focused window")
async def focused(ctx: OpContext, params: NoParams) -> FocusedResult:
    """Your focused window's label (each MCP session has its own focus)."""
    s = await state(ctx)
    label = next(w.label for w in s.windows if w.focused)
    return FocusedResult(label=label, activeTabId=s.activeTabs.get(label))


class WorkspaceInfo(BaseModel):
    isWorkspaceMode: bool = Field(description="Always true: the Jupyter root directory is the workspace.")
    rootPath: str = Field(description="The workspace root directory on the server.")
    workspaceName: str


@adapter(session.get_state, title="Workspace info")
async def workspace_info(ctx: OpContext, params: WindowParams) -> WorkspaceInfo:
    """The workspace: the Jupyter server's root directory."""
    caps = (await state(ctx, params.windowId)).capabilities  # a wrong window is still an error
    return WorkspaceInfo(isWorkspaceMode=True, rootPath=caps.rootPath, workspaceName=caps.workspaceName)


# --------------------------------------------------------------------------- documents and tabs


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


@adapter(info_op.document_info, title="Document info")
async def document_info(ctx: OpContext, params: WindowParams) -> DocumentInfo:
    """The document a window shows: its file, title, counts and revision."""
    d = await info(ctx, None, params.windowId)
    assert d.tabId is not None and d.windowId is not None
    return DocumentInfo(
        filePath=d.filePath,
        isDirty=d.dirty,
        title=d.title,
        wordCount=d.wordCount,
        charCount=d.charCount,
        revision=d.revision,
        kind=d.kind,
        tabId=d.tabId,
        windowId=d.windowId,
    )


class TabInfo(BaseModel):
    id: str
    title: str
    filePath: str | None
    isDirty: bool
    isActive: bool = Field(description="True for the tab the window shows you.")
    kind: DocumentKind
    revision: str
    windowId: str


def tab_info(d: info_op.DocumentInfo) -> TabInfo:
    assert d.tabId is not None and d.windowId is not None
    return TabInfo(
        id=d.tabId,
        title=d.title,
        filePath=d.filePath,
        isDirty=d.dirty,
        isActive=d.active,
        kind=d.kind,
        revision=d.revision,
        windowId=d.windowId,
    )


@adapter(info_op.document_info, title="Tab info")
async def get_tab(ctx: OpContext, params: TabParams) -> TabInfo:
    """A tab's details (default: the window's active tab)."""
    return tab_info(await info(ctx, params.tabId, params.windowId))


class TabsResult(BaseModel):
    tabs: list[TabInfo]
    count: int
    windowId: str


@adapter(session.get_state, title="List tabs")
async def list_tabs(ctx: OpContext, params: WindowParams) -> TabsResult:
    """The tabs of a window."""
    s = await state(ctx, params.windowId)
    w = s.windows[0] if params.windowId else next(x for x in s.windows if x.focused)
    active = s.activeTabs.get(w.label)
    tabs = [
        TabInfo(
            id=t.id,
            title=t.title,
            filePath=t.filePath or None,
            isDirty=t.dirty,
            isActive=t.id == active,
            kind=t.kind,
            revision=t.revision,
            windowId=w.label,
        )
        for t in w.tabs
    ]
    return TabsResult(tabs=tabs, count=len(tabs), windowId=w.label)
