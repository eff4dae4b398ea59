"""Session orientation: one call to see windows, tabs, capabilities and who you are."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...core.kinds import DocumentKind
from ..base import operation
from ..context import OpContext


class GetStateParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class CallerState(BaseModel):
    username: str
    displayName: str
    clientName: str
    clientVersion: str
    sessionId: str
    profile: str


class GetStateResult(BaseModel):
    windows: list[WindowState]
    capabilities: Capabilities
    caller: CallerState


SUPPORTED_KINDS: list[DocumentKind] = ["markdown", "outline", "notebook", "yaml-workflow", "text"]


@operation("session.get_state", title="Session state", read_only=True)
async def get_state(ctx: OpContext, params: GetStateParams) -> GetStateResult:
    """Orientation in one call: every window (connected JupyterLab client, or "main") with
    its tabs ({id, filePath, title, dirty, revision, kind}), the server's capabilities
    (version, document kinds, approval policy, profiles and their URLs) and the caller's
    identity. Call it first."""
    services = ctx.services
    focus = services.workspace.focus(ctx.caller.session_id)
    windows = [
        WindowState(
            label=w.label,
            focused=w.label == focus.window,
            tabs=[
                TabState(
                    id=t.id,
                    filePath=t.doc.path or "",
                    title=t.doc.title,
                    dirty=t.doc.dirty,
                    revision=t.doc.revision,
                    kind=t.doc.kind,
                )
                for t in w.tabs
            ],
            labClient=w.client is not None,
        )
        for w in services.workspace.windows.values()
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
    return GetStateResult(windows=windows, capabilities=caps, caller=caller)
