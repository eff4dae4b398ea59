"""What was open: files opened recently, and a window's closed tabs to reopen."""

from __future__ import annotations

from pathlib import PurePosixPath

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from .. import documents
from ..base import operation
from ..context import OpContext
from .files import title_of


class RecentParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RecentEntry(BaseModel):
    path: str = Field(description="Root-relative path.")
    name: str
    timestamp: int = Field(description="When it was last opened, in milliseconds since the epoch.")


class RecentResult(BaseModel):
    files: list[RecentEntry]
    count: int


@operation("workspace.recent", title="Recent files", read_only=True)
async def recent(ctx: OpContext, params: RecentParams) -> RecentResult:
    """Files opened recently on this server, most recent first (at most 10)."""
    workspace = ctx.services.workspace
    paths = list(reversed(workspace.recent))[:10]
    files = [
        RecentEntry(path=p, name=PurePosixPath(p).name, timestamp=round(workspace.opened_at.get(p, 0.0) * 1000))
        for p in paths
    ]
    return RecentResult(files=files, count=len(files))


class ReopenParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowLabel: str | None = Field(None, description="The window (default: the focused one).")


class ReopenResult(BaseModel):
    reopened: bool = Field(description="False when the window has no closed tab left to reopen.")
    tabId: str | None = None
    filePath: str | None = None
    title: str | None = None


@operation("workspace.reopen_closed", title="Reopen closed tab", read_only=True)  # changes no document
async def reopen_closed(ctx: OpContext, params: ReopenParams) -> ReopenResult:
    """Reopen the file of a window's most recently closed tab and focus it (the last 10
    closed tabs of each window are remembered; files deleted since are skipped)."""
    services = ctx.services
    window = documents.window(ctx, params.windowLabel, "windowLabel")
    while window.closed:
        path = window.closed.pop()
        try:
            doc = await services.docs.open(path)
        except DomainError as exc:
            if exc.code in ("NOT_FOUND", "INVALID_PATH"):
                continue
            raise
        tab = services.workspace.show(doc, window, ctx.caller.session_id)
        return ReopenResult(reopened=True, tabId=tab.id, filePath=doc.path, title=title_of(doc))
    return ReopenResult(reopened=False)
