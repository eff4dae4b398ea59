"""get_current_document and check_connection: the focused tab's outline, or why there is none."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.outline import read as outline
from ..adapter import adapter
from .query import focused


class _NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CurrentDocument(BaseModel):
    name: str
    path: str | None
    isFrontmost: bool
    canUndo: bool
    canRedo: bool
    rowCount: int


class CurrentResult(BaseModel):
    document: CurrentDocument


@adapter(outline.read, title="Get current document")
async def get_current_document(ctx: OpContext, params: _NoParams) -> CurrentResult:
    """Get the name and metadata of the outline in your focused JupyterLab tab."""
    r = await focused(ctx, view="children")
    return CurrentResult(
        document=CurrentDocument(
            name=r.name, path=r.path, isFrontmost=True, canUndo=r.canUndo, canRedo=r.canRedo, rowCount=r.rowCount
        )
    )


class ConnectionResult(BaseModel):
    connected: bool
    appRunning: bool
    documentOpen: bool
    documentName: str | None
    message: str


@adapter(outline.read, title="Check connection")
async def check_connection(ctx: OpContext, params: _NoParams) -> ConnectionResult:
    """Check that the server answers and whether an outline is open in your focused tab."""
    try:
        r = await focused(ctx, view="children")
    except DomainError as exc:
        return ConnectionResult(
            connected=True, appRunning=True, documentOpen=False, documentName=None, message=exc.message
        )
    return ConnectionResult(
        connected=True,
        appRunning=True,
        documentOpen=True,
        documentName=r.name,
        message=f"Connected to JupyterLab. Document '{r.name}' is open.",
    )
