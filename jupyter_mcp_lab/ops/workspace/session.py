"""Session orientation: one call to see windows, tabs, what each window shows you, the
server's capabilities and workspace, and who you are."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.kinds import DocumentKind
from .. import documents
from ..base import operation
from ..context import OpContext
from .files import title_of


class GetStateParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = Field(None, description="Only this window (its label or one of its tab ids).")


class TabState(BaseModel):
    id: str
    filePath: str
    title: str
    dirty: bool
    revision: str
    kind: DocumentKind


class WindowState(BaseModel):
    label: str
    focused: bool = Field(description="True for the window this MCP session has focused.")
    tabs: list[TabState]
    labClient: bool = Field(description="True when the window is a connected JupyterLab client.")


class ProfileState(BaseModel):
    profile: str
    path: str
    url: str


class Capabilities(BaseModel):
    version: str = Field(description="jupyter-mcp-lab server version.")
    supportedKinds: list[DocumentKind]
    mcpProtocol: str | None = Field(description="The MCP protocol version of this session.")
    host: str = Field(description='"jupyter" (extension) or "standalone".')
    approval: str = Field(description='"suggest": edits wait for a person; "auto": they apply.')
    readOnly: bool
    maxResponseBytes: int
    profiles: list[ProfileState]
    labClients: int = Field(description="Connected JupyterLab clients.")
    rootPath: str = Field(description="The workspace: the server's root directory (paths are relative to it).")
    workspaceName: str


class CallerState(BaseModel):
    username: str
    displayName: str
    clientName: str
    clientVersion: str
    sessionId: str
    profile: str


class GetStateResult(BaseModel):
    windows: list[WindowState]
    activeTabs: dict[str, str | None] = Field(
        description="Per window, the tab it shows you: in your focused window your focused tab, elsewhere its last."
    )
    capabilities: Capabilities
    caller: CallerState


SUPPORTED_KINDS: list[DocumentKind] = ["markdown", "outline", "notebook", "yaml-workflow", "text"]


@operation("session.get_state", title="Session state", read_only=True)
async def get_state(ctx: OpContext, params: GetStateParams) -> GetStateResult:
    """Orientation in one call: every window (connected JupyterLab client, or "main"; or only
    windowId's) with its tabs ({id, filePath, title, dirty, revision, kind}) and the tab it
    shows you (activeTabs), the server's capabilities (version, document kinds, approval
    policy, profiles and their URLs, the workspace root) and the caller's identity. Call it
    first."""
    services = ctx.services
    focus = services.workspace.focus(ctx.caller.session_id)
    shown = [documents.window(ctx, params.windowId)] if params.windowId else list(services.workspace.windows.values())
    windows = [
        WindowState(
            label=w.label,
            focused=w.label == focus.window,
            tabs=[
                TabState(
                    id=t.id,
                    filePath=t.doc.path or "",
                    title=title_of(t.doc),
                    dirty=t.doc.dirty,
                    revision=t.doc.revision,
                    kind=t.doc.kind,
                )
                for t in w.tabs
            ],
            labClient=w.client is not None,
        )
        for w in shown
    ]
    s = services.settings
    caps = Capabilities(
        version=services.version,
        supportedKinds=SUPPORTED_KINDS,
        mcpProtocol=ctx.protocol_version,
        host=services.host,
        approval=s.approval,
        readOnly=s.read_only,
        maxResponseBytes=s.max_response_bytes,
        profiles=[
            ProfileState(profile=e.profile, path=e.path, url=ctx.caller.origin + e.path if ctx.caller.origin else e.url)
            for e in services.endpoints
        ],
        labClients=sum(1 for w in services.workspace.windows.values() if w.client is not None),
        rootPath=str(s.root_dir),
        workspaceName=s.root_dir.name or str(s.root_dir),
    )
    c = ctx.caller
    caller = CallerState(
        username=c.username,
        displayName=c.display_name,
        clientName=c.client_name,
        clientVersion=c.client_version,
        sessionId=c.session_id,
        profile=c.profile,
    )
    active = {w.label: (t.id if (t := documents.shown_tab(ctx, w)) else None) for w in shown}
    return GetStateResult(windows=windows, activeTabs=active, capabilities=caps, caller=caller)
