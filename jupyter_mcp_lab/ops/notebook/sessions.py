"""Which notebooks a session works on: list them (with their kernels), use one, unuse it.

Using a notebook opens it in a tab and makes that tab the session's focus, so later calls
without a path or tab go to it through the one resolver of "which document"
(``ops/documents.py``). Focus is per MCP session: agents on different notebooks never move
each other's. A session may use several notebooks; the focused one is current. Unusing one
forgets it for this session only: its tab, file and kernel stay for everyone else.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.files import walk
from ...core.paths import to_api_path
from ...core.workspace import SessionFocus, Tab
from .. import documents
from ..base import operation
from ..context import OpContext
from .execute import KernelView, kernel_view
from .read import notebook_of


class ListParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    folder: str = Field("", description="Root-relative folder to list below (default: the whole workspace).")
    used: bool = Field(False, description="Only the notebooks this session uses.")
    start: int = Field(0, ge=0)
    limit: int = Field(100, ge=1, le=1000)


class NotebookEntry(BaseModel):
    path: str
    used: bool = Field(description="This session uses it.")
    current: bool = Field(description="It is this session's focused document.")
    name: str | None = Field(None, description="The name this session uses it by.")
    kernel: KernelView | None = Field(None, description="The kernel of its Jupyter session (None: none runs).")


class NotebookList(BaseModel):
    notebooks: list[NotebookEntry]
    total: int
    nextStart: int | None = None
    kernels: bool = Field(description="Whether this server runs kernels (not standalone).")


def _focus(ctx: OpContext) -> SessionFocus:
    return ctx.services.workspace.focus(ctx.caller.session_id)


def current_path(ctx: OpContext) -> str | None:
    """The path of the session's focused document (None: no tab focused, or an untitled one)."""
    focus = _focus(ctx)
    tab = next((t for t in ctx.services.workspace.tabs() if t.id == focus.tab), None)
    return tab.doc.path if tab is not None else None


async def _kernels_by_path(ctx: OpContext) -> dict[str, KernelView]:
    kernels = ctx.services.kernels
    if kernels is None:
        return {}
    return {path: kernel_view(k) for k in await kernels.list() for path in k.paths}


@operation("notebook.list", title="List notebooks", read_only=True)
async def list_(ctx: OpContext, params: ListParams) -> NotebookList:
    """The workspace's notebooks (or the ones this session uses), each with its running kernel
    and whether this session uses it."""
    focus = _focus(ctx)
    if params.used:
        paths = list(focus.notebooks)
    else:
        found = await asyncio.to_thread(walk, ctx.settings.root_dir, params.folder, 32, "**/*.ipynb")
        paths = [e.path for e in found if e.type == "notebook"]
    end = min(len(paths), params.start + params.limit)
    kernels = await _kernels_by_path(ctx)
    current = current_path(ctx)
    entries = [
        NotebookEntry(
            path=p,
            used=p in focus.notebooks,
            current=p == current,
            name=focus.notebooks.get(p),
            kernel=kernels.get(p),
        )
        for p in paths[params.start : end]
    ]
    return NotebookList(
        notebooks=entries,
        total=len(paths),
        nextStart=end if end < len(paths) else None,
        kernels=ctx.services.kernels is not None,
    )


class UseParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str = Field(description="The notebook, root-relative.")
    name: str | None = Field(None, description="What this session calls it (default: its path).")
    startKernel: bool = Field(False, description="Start its kernel now if none runs (its kernelspec).")


class UseResult(BaseModel):
    path: str
    name: str
    tabId: str
    revision: str
    cellCount: int
    previous: str | None = Field(None, description="The document focused before.")
    notebooks: list[str] = Field(description="The notebooks this session uses, oldest first.")
    kernel: KernelView | None = None
    kernelStarted: bool = False


async def show(ctx: OpContext, path: str) -> Tab:
    """``path`` open in a tab of the session's focused window, focused for the session."""
    services = ctx.services
    doc = await services.docs.open(to_api_path(services.settings.root_dir, path))
    notebook_of(doc)
    return services.workspace.show(doc, documents.window(ctx, None), ctx.caller.session_id)


@operation("notebook.use", title="Use notebook", read_only=True)  # changes no document
async def use(ctx: OpContext, params: UseParams) -> UseResult:
    """Use a notebook in this session: later calls without a path or tab act on it (your
    focus only). Optionally start its kernel."""
    if params.startKernel and ctx.services.kernels is None:  # refused before anything changes
        raise DomainError(
            "NOT_IMPLEMENTED",
            "Kernels need a Jupyter server: this server runs standalone. Use the notebook without startKernel.",
            needs="jupyter",
        )
    previous = current_path(ctx)
    tab = await show(ctx, params.path)
    path = tab.doc.path
    assert path is not None
    focus = _focus(ctx)
    focus.notebooks.pop(path, None)  # re-used: now the newest
    focus.notebooks[path] = params.name or path
    kernel, started = None, False
    if ctx.services.kernels is not None:
        if params.startKernel:
            spec = (notebook_of(tab.doc).nb.get("metadata") or {}).get("kernelspec") or {}
            found, started = await ctx.services.kernels.ensure(path, spec.get("name"))
            kernel = kernel_view(found)
        else:
            found_ = await ctx.services.kernels.find(path)
            kernel = kernel_view(found_) if found_ is not None else None
    return UseResult(
        path=path,
        name=focus.notebooks[path],
        tabId=tab.id,
        revision=tab.doc.revision,
        cellCount=len(notebook_of(tab.doc).cells),
        previous=previous,
        notebooks=list(focus.notebooks),
        kernel=kernel,
        kernelStarted=started,
    )


class UnuseParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str | None = Field(None, description="The notebook (default: the one you focus).")


class UnuseResult(BaseModel):
    path: str
    wasCurrent: bool
    current: str | None = Field(description="The notebook now focused (the last one still used), or None.")
    notebooks: list[str]


@operation("notebook.unuse", title="Unuse notebook", read_only=True)  # changes no document
async def unuse(ctx: OpContext, params: UnuseParams) -> UnuseResult:
    """Stop using a notebook in this session; when it was the focused one, the focus goes to
    the notebook used before it. Its tab, file and kernel stay as they are."""
    focus = _focus(ctx)
    current = current_path(ctx)
    path = to_api_path(ctx.settings.root_dir, params.path) if params.path else current
    if path is None or path not in focus.notebooks:
        used = ", ".join(focus.notebooks) or "none"
        raise DomainError(
            "NOT_FOUND",
            f"this session does not use {path or 'a notebook'!r} (it uses: {used})",
            path=path,
            notebooks=list(focus.notebooks),
        )
    del focus.notebooks[path]
    was_current = path == current
    now = current if not was_current else None
    if was_current:
        focus.tab = None
        if focus.notebooks:
            now = list(focus.notebooks)[-1]
            await show(ctx, now)
    return UnuseResult(path=path, wasCurrent=was_current, current=now, notebooks=list(focus.notebooks))
