"""Applied agent changes: list them, revert one."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.paths import to_api_path
from ..base import operation
from ..context import OpContext
from .gate import require_decision


class CheckpointsParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str | None = Field(None, description="Only checkpoints of this file.")
    limit: int = Field(50, ge=1, le=500)


class CheckpointsResult(BaseModel):
    checkpoints: list[dict[str, Any]]
    count: int


@operation("review.checkpoints", title="List checkpoints", read_only=True)
async def checkpoints(ctx: OpContext, params: CheckpointsParams) -> CheckpointsResult:
    """Applied agent changes, newest first: path, before/after revision, the changed text,
    author, source (auto|accepted|grant|revert) and whether it was reverted."""
    path = to_api_path(ctx.settings.root_dir, params.path) if params.path else None
    found = ctx.services.reviews.store.list_checkpoints(path, params.limit)
    return CheckpointsResult(checkpoints=[c.to_json() for c in found], count=len(found))


class RevertParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    checkpointId: str = Field(description="The checkpoint to revert.")


@operation("review.revert", title="Revert a checkpoint", destructive=True)
async def revert(ctx: OpContext, params: RevertParams) -> CheckpointsResult:
    """Undo one applied change where it is now (refused with CONFLICT if it was edited since).
    Needs a person's grant under the suggest policy."""
    review = ctx.services.reviews
    cp = review.store.get_checkpoint(params.checkpointId)
    if cp is None:
        raise DomainError("NOT_FOUND", f"no checkpoint {params.checkpointId!r}")
    require_decision(ctx, cp.path, f"revert {cp.id}", checkpointId=cp.id)
    undo = await review.revert(cp.id, by=ctx.caller.author.name)
    return CheckpointsResult(checkpoints=[undo.to_json()], count=1)
