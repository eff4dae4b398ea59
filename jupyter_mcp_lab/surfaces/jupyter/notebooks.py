"""The reference's server and notebook management tools: list_files, list_kernels,
use_notebook, list_notebooks, restart_notebook, unuse_notebook, read_notebook."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import nbformat
from pydantic import Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.document import text
from ...ops.notebook import execute, read, sessions
from ...ops.notebook.read import CellView
from ...ops.workspace import files, listing
from ..adapter import adapter
from .answers import Answer, TableAnswer, table
from .target import Strict, notebook_path, used

# ------------------------------------------------------------------ list_files


class ListFilesParams(Strict):
    path: str = Field("", description="The starting path to list from (empty string means root directory)")
    max_depth: int = Field(1, ge=0, le=3, description="Maximum depth to recurse into subdirectories")
    start_index: int = Field(0, ge=0, description="Starting index for pagination (0-based)")
    limit: int = Field(25, ge=0, description="Maximum number of items to return (0 means no limit)")
    pattern: str = Field("", description="Glob pattern to filter file paths")


def _size(n: int | None) -> str:
    if not n:
        return ""
    if n < 1024:
        return f"{n}B"
    return f"{n / 1024:.1f}KB" if n < 1024 * 1024 else f"{n / (1024 * 1024):.1f}MB"


def _when(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M:%S")


@adapter(listing.files, title="List Files")
async def list_files(ctx: OpContext, params: ListFilesParams) -> TableAnswer:
    """List all files and directories recursively in the Jupyter server's file system.
    Used to explore the file system structure of the Jupyter server or to find specific files or directories."""
    where = params.path or "root"
    ask = listing.FilesParams(folder=params.path, depth=params.max_depth, pattern=params.pattern or None, limit=1)
    first = await listing.files(ctx, ask)
    assert isinstance(first, listing.FilesResult)
    total = first.total
    if total == 0:
        found = f"No files matching pattern '{params.pattern}' found" if params.pattern else "No files found"
        return TableAnswer(kind="files.list", result=f"{found} in path '{where}'")
    warning, start = "", params.start_index
    if start >= total:
        warning = (
            f"[WARNING] Start index is greater than the number of files: start_index={start}, "
            f"total_files={total}. Reset start_index to 0. \n"
        )
        start = 0
    limit = params.limit or total
    page = await listing.files(ctx, ask.model_copy(update={"start": start, "limit": min(limit, 1000)}))
    assert isinstance(page, listing.FilesResult)
    end = start + len(page.files)
    rows = [[f.path, f.type, _size(f.size), _when(f.modified)] for f in page.files]
    head = f"{warning}Showing {start}-{end} of {total} files\n\n"
    return table("files.list", ["Path", "Type", "Size", "Last_Modified"], rows, head)


# ------------------------------------------------------------------ list_kernels


class NoParams(Strict):
    pass


@adapter(execute.kernel, title="List Kernels", read_only=True)
async def list_kernels(ctx: OpContext, params: NoParams) -> TableAnswer:
    """List all available kernels in the Jupyter server.

    This tool shows all running and available kernel sessions on the Jupyter server,
    including their IDs, names, states, connection information, and kernel specifications."""
    r = await execute.kernel(ctx, execute.KernelParams(kernel="list"))
    assert isinstance(r, execute.KernelResult)
    if not r.kernels:
        return TableAnswer(kind="kernels.list", result="No kernels found on the Jupyter server.")
    headers = ["ID", "Name", "Display_Name", "Language", "State", "Connections", "Last_Activity", "Environment"]
    rows = [
        [
            k.id,
            k.name,
            k.displayName or "unknown",
            k.language or "unknown",
            k.state or "unknown",
            k.connections,
            _when(k.lastActivity) if k.lastActivity else "unknown",
            "unknown",
        ]
        for k in r.kernels
    ]
    return table("kernels.list", headers, rows)


# ------------------------------------------------------------------ use / list / unuse


class UseParams(Strict):
    notebook_name: str = Field(description="Unique identifier for the notebook")
    notebook_path: str = Field(
        description="Path to the notebook file, relative to the Jupyter server root (e.g. 'notebook.ipynb')"
    )
    mode: Literal["connect", "create"] = Field(
        "connect",
        description="Notebook operation mode: 'connect' to connect to existing and activate it, 'create' to "
        "create new and activate it",
    )
    kernel_id: str | None = Field(
        None,
        description="Pass 'NEW' (or any id) to start the notebook's kernel now if none runs. Code runs in the "
        "kernel of the notebook's Jupyter session, the one JupyterLab shows; without it a kernel starts on "
        "first execution.",
    )


def brief_rows(cells: list[CellView]) -> list[list[object]]:
    rows: list[list[object]] = []
    for c in cells:
        first = c.firstLine or ""
        hidden = (c.lines or 1) - 1
        rows.append(
            [c.index, c.type, c.executionCount or "N/A", first + (f"...({hidden} lines hidden)" if hidden else "")]
        )
    return rows


async def _brief(ctx: OpContext, path: str, start: int, limit: int) -> read.NotebookRead:
    r = await read.read(ctx, read.ReadParams(path=path, view="brief", start=start, limit=limit))
    assert isinstance(r, read.NotebookRead)
    return r


async def _create(ctx: OpContext, path: str) -> None:
    """A new empty notebook at ``path``: a new document of this agent's, saved there (refused
    when the file exists)."""
    tab = await files.new(ctx, files.NewParams(kind="notebook"))
    assert isinstance(tab, files.TabResult)
    empty = nbformat.writes(nbformat.v4.new_notebook())
    await text.write(ctx, text.WriteParams(tabId=tab.tabId, content=empty, mode="apply"))
    await files.save_as(ctx, files.SaveAsParams(tabId=tab.tabId, filePath=path))


@adapter(sessions.use, files.new, text.write, files.save_as, read.read, title="Use Notebook", destructive=False)
async def use_notebook(ctx: OpContext, params: UseParams) -> Answer:
    """Use a notebook and activate it for following cell operations (in this MCP session: other
    agents keep their own). All cell operations will be performed on the currently activated notebook.
    Activate new notebook will deactivate the previously activated notebook.
    Reactivate previously activated notebook using same notebook_name and notebook_path."""
    name, path = params.notebook_name, params.notebook_path
    names = await used(ctx)
    info: list[str] = []
    if name in names:
        if params.mode == "create":
            if names[name] == path:
                return Answer(
                    kind="notebook.use",
                    result=f"Notebook '{name}'(path: {path}) is already created. DO NOT CREATE AGAIN.",
                )
            return Answer(
                kind="notebook.use",
                result=f"Notebook '{name}' is already used. Use different notebook_name to create a new notebook "
                f"on {path}.",
            )
        if names[name] != path:
            return Answer(
                kind="notebook.use",
                result=f"The path '{path}' is not the correct path for notebook '{name}'. Do you mean connect to "
                f"'{names[name]}'?",
            )
        current = sessions.current_path(ctx)
        if current == path:
            return Answer(
                kind="notebook.use",
                result=f"Notebook '{name}' is already connected — no need to call use_notebook again.",
            )
        previous = next((n for n, p in names.items() if p == current), current)
        info.append(f"[INFO] Reactivating notebook '{name}' and deactivating '{previous}'.")
    elif params.mode == "create":
        await _create(ctx, path)
    start = params.kernel_id is not None or (params.mode == "create" and name not in names)
    r = await sessions.use(
        ctx, sessions.UseParams(path=path, name=name, startKernel=start and ctx.services.kernels is not None)
    )
    assert isinstance(r, sessions.UseResult)
    if name not in names:
        if r.kernel is not None:
            info.append(f"[INFO] Connected to kernel '{r.kernel.id}'.")
            if params.kernel_id not in (None, "NEW", r.kernel.id):
                info.append(
                    f"[WARNING] Existing Jupyter session for '{r.path}' uses kernel '{r.kernel.id}', not requested "
                    f"kernel '{params.kernel_id}'."
                )
        else:
            info.append(
                "[INFO] Notebook opened. No Jupyter session was found, so no kernel was created; a kernel is "
                "started on first execution."
            )
        info.append(f"[INFO] Successfully activate notebook '{name}'.")
    nb = await _brief(ctx, r.path, 0, 20)
    shown = nb.cells or []
    info.append(f"\nNotebook has {nb.cellCount} cells.")
    info.append(f"Showing first {len(shown)} cells:\n")
    info.append(tsv_brief(shown))
    return Answer(kind="notebook.use", result="\n".join(info))


def tsv_brief(cells: list[CellView]) -> str:
    if not cells:
        return "Notebook is empty"
    return table("", ["Index", "Type", "Count", "First Line"], brief_rows(cells)).result


@adapter(sessions.list_, title="List Notebooks")
async def list_notebooks(ctx: OpContext, params: NoParams) -> TableAnswer:
    """List all notebooks that have been used via use_notebook tool (in this MCP session)"""
    r = await sessions.list_(ctx, sessions.ListParams(used=True, limit=1000))
    assert isinstance(r, sessions.NotebookList)
    if not r.notebooks:
        return TableAnswer(
            kind="notebooks.list", result="No managed notebooks. Use the use_notebook tool to manage notebooks first."
        )
    rows = [
        [
            e.name or e.path,
            e.path,
            e.kernel.id if e.kernel else "-",
            e.kernel.state if e.kernel else "-",
            "✓" if e.current else "",
        ]
        for e in sorted(r.notebooks, key=lambda e: e.name or e.path)
    ]
    return table("notebooks.list", ["Name", "Path", "Kernel_ID", "Kernel_Status", "Activate"], rows)


class NameParams(Strict):
    notebook_name: str = Field(description="Notebook identifier")


@adapter(execute.kernel, title="Restart Notebook")
async def restart_notebook(ctx: OpContext, params: NameParams) -> Answer:
    """Restart the kernel for a specific notebook. The person allows it in JupyterLab first
    unless they granted you the notebook."""
    path = await notebook_path(ctx, params.notebook_name)
    r = await execute.kernel(ctx, execute.KernelParams(kernel="restart", path=path))
    assert isinstance(r, execute.KernelResult)
    return Answer(
        kind="notebook.restart",
        result=f"Notebook '{params.notebook_name}' kernel restarted successfully. Memory state and imported "
        "packages have been cleared.",
    )


@adapter(sessions.unuse, title="Unuse Notebook", destructive=False)
async def unuse_notebook(ctx: OpContext, params: NameParams) -> Answer:
    """Unuse from a specific notebook (in this MCP session). Its kernel keeps running."""
    names = await used(ctx)
    name = params.notebook_name
    if name not in names:
        return Answer(
            kind="notebook.unuse",
            result=f"Notebook '{name}' is not connected. All currently connected notebooks: {list(names)}",
        )
    r = await sessions.unuse(ctx, sessions.UnuseParams(path=names[name]))
    assert isinstance(r, sessions.UnuseResult)
    message = f"Notebook '{name}' unused successfully."
    if r.wasCurrent:
        now = next((n for n, p in names.items() if p == r.current and n != name), None)
        message += f" Current notebook switched to '{now}'." if now else " No notebooks remaining."
    return Answer(kind="notebook.unuse", result=message)


# ------------------------------------------------------------------ read_notebook


class ReadNotebookParams(Strict):
    notebook_name: str = Field(description="Notebook identifier to read")
    response_format: Literal["brief", "detailed"] = Field(
        "brief",
        description="Response format: 'brief' will return first line and lines number, 'detailed' will return "
        "full cell source",
    )
    start_index: int = Field(0, ge=0, description="Starting index for pagination (0-based)")
    limit: int = Field(20, ge=0, description="Maximum number of items to return (0 means no limit)")


@adapter(read.read, title="Read Notebook")
async def read_notebook(ctx: OpContext, params: ReadNotebookParams) -> Answer:
    """Read a notebook and return index, source content, type, execution count of each cell.

    Using brief format to get a quick overview of the notebook structure and it's useful for locating specific
    cells for operations like delete or insert. Using detailed format to get detailed information of the notebook.
    Long notebooks come in pages: when the response budget ends a page early, the answer says where to go on."""
    path = await notebook_path(ctx, params.notebook_name)
    view: read.View = "brief" if params.response_format == "brief" else "cells"
    limit = min(params.limit or 1000, 1000)
    try:
        r = await read.read(ctx, read.ReadParams(path=path, view=view, start=params.start_index, limit=limit))
    except DomainError:
        raise
    assert isinstance(r, read.NotebookRead)
    n = r.cellCount
    if params.start_index >= n and not (params.start_index == 0 and n == 0):
        return Answer(
            kind="notebook.read", result=f"Start index {params.start_index} is out of range. Notebook has {n} cells."
        )
    cells = r.cells or []
    if n == 0:
        body = "Notebook is empty"
    elif params.response_format == "brief":
        body = tsv_brief(cells)
    else:
        body = "\n".join(
            part
            for c in cells
            for part in (
                f"=====Cell {c.index} | type: {c.type} | execution count: {c.executionCount or 'N/A'}=====\n",
                c.source or "",
                "\n\n",
            )
        )
    wanted_end = n if not params.limit else min(n, params.start_index + params.limit)
    more = ""
    if r.nextStart is not None and r.nextStart < wanted_end:
        more = f"\n\n[Page cut at the response budget: continue with start_index={r.nextStart}]"
    return Answer(kind="notebook.read", result=f"Notebook {params.notebook_name} has {n} cells.\n\n{body}{more}")
