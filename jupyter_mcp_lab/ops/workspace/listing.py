"""The workspace's files: what is there to open, below a folder, by pattern, in pages."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field

from ...core.files import EntryType, walk
from ..base import operation
from ..context import OpContext


class FilesParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    folder: str = Field("", description="Root-relative folder (default: the root).")
    depth: int = Field(0, ge=0, le=32, description="Sub-folder levels to enter (0: the folder's own entries).")
    pattern: str | None = Field(None, description="Glob on the root-relative path ('**/*.ipynb'; * stays in a folder).")
    start: int = Field(0, ge=0)
    limit: int = Field(100, ge=1, le=1000)


class FileView(BaseModel):
    path: str
    type: EntryType
    size: int | None = Field(None, description="Bytes (None for a folder).")
    modified: str = Field(description="ISO 8601, UTC.")


class FilesResult(BaseModel):
    files: list[FileView]
    total: int = Field(description="Entries found (this page holds start..start+limit).")
    nextStart: int | None = Field(None, description="Where the next page starts (None: this was the last).")


@operation("workspace.files", title="List files", read_only=True)
async def files(ctx: OpContext, params: FilesParams) -> FilesResult:
    """List the workspace's files and folders below a folder (hidden ones left out), sorted
    by path, paged."""
    found = await asyncio.to_thread(walk, ctx.settings.root_dir, params.folder, params.depth, params.pattern)
    end = min(len(found), params.start + params.limit)
    page = [
        FileView(
            path=e.path,
            type=e.type,
            size=e.size,
            modified=datetime.fromtimestamp(e.modified, UTC).isoformat(timespec="seconds"),
        )
        for e in found[params.start : end]
    ]
    return FilesResult(files=page, total=len(found), nextStart=end if end < len(found) else None)
