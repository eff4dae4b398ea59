"""The reference's server tools: list_files (the workspace's files) and list_kernels."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from ...ops.context import OpContext
from ...ops.notebook import execute
from ...ops.workspace import listing
from ..adapter import adapter
from .answers import TableAnswer, table
from .target import NoParams, Strict

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


def _env(env: dict[str, str]) -> str:
    """The kernelspec's environment as the reference shows it: ``K=V; …``, cut at 100 characters."""
    if not env:
        return "unknown"
    shown = "; ".join(f"{k}={v}" for k, v in env.items())
    return shown[:100] + "..." if len(shown) > 100 else shown


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
            k.lastActivity or "unknown",
            _env(k.env),
        ]
        for k in r.kernels
    ]
    return table("kernels.list", headers, rows)
