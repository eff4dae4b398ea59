"""Suggestions as agents see them: list, wait for decisions, accept or reject, checkpoints.

A person decides in JupyterLab (or through the REST API). An agent may withdraw its own
suggestions, but accepting, rejecting someone else's, or reverting a checkpoint changes
what the person reviews, so under the ``suggest`` policy it needs a person's grant on
that document (APPROVAL_REQUIRED otherwise). An agent's say-so never replaces the person.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.paths import to_api_path
from ...core.suggestions import Suggestion
from ..base import operation
from ..context import OpContext

StatusFilter = Literal["pending", "accepted", "rejected", "conflict", "all"]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListParams(_Params):
    path: str | None = Field(None, description="Only suggestions for this file (root-relative).")
    status: StatusFilter = Field("pending", description="Which suggestions (default pending).")
    mine: bool = Field(False, description="Only the ones this MCP session staged.")
    limit: int = Field(100, ge=1, le=1000, description="At most this many.")


class SuggestionsResult(BaseModel):
    suggestions: list[dict[str, Any]]
    count: int


def _api(ctx: OpContext, path: str | None) -> str | None:
    return to_api_path(ctx.settings.root_dir, path) if path else None


@operation("review.list", title="List suggestions", read_only=True)
async def list_(ctx: OpContext, params: ListParams) -> SuggestionsResult:
    """Suggestions in document order: id, path, kind, start/end (code point offsets in the base
    revision), lineStart/lineEnd, original, new, status, author, rationale, reason (conflicts)."""
    review = ctx.services.reviews
    found = review.store.list(
        path=_api(ctx, params.path),
        status=None if params.status == "all" else params.status,
        session=ctx.caller.session_id if params.mine else None,
        limit=params.limit,
    )
    return SuggestionsResult(suggestions=[s.to_json() for s in found], count=len(found))


class IdsParams(_Params):
    suggestionIds: list[str] = Field(min_length=1, description="Suggestion ids.")


def _may_decide(ctx: OpContext, suggestions: list[Suggestion], verb: str) -> None:
    review = ctx.services.reviews
    who = ctx.caller.author
    if ctx.settings.approval == "auto":
        return
    for s in suggestions:
        own = verb == "reject" and s.session == ctx.caller.session_id
        if not own and review.grant_for(s.path, who) is None:
            raise DomainError(
                "APPROVAL_REQUIRED",
                f"A person reviews suggestions on this server: {verb} {s.id} in JupyterLab's MCP Lab panel "
                "(or ask the person to grant you direct apply on this document). Use review wait to "
                "learn the decision.",
                suggestionId=s.id,
            )


@operation("review.accept", title="Accept suggestions")
async def accept(ctx: OpContext, params: IdsParams) -> SuggestionsResult:
    """Accept suggestions (mapped through later edits; a suggestion whose text changed
    becomes conflict and changes nothing). Needs a person's grant under the suggest policy."""
    review = ctx.services.reviews
    chosen = [review.get(i) for i in params.suggestionIds]
    _may_decide(ctx, chosen, "accept")
    r = await review.accept_all(by=ctx.caller.author.name, ids=params.suggestionIds)
    done = r.accepted + r.conflicts
    return SuggestionsResult(suggestions=[s.to_json() for s in done], count=len(done))


@operation("review.reject", title="Reject suggestions")
async def reject(ctx: OpContext, params: IdsParams) -> SuggestionsResult:
    """Reject (withdraw) suggestions: the document is untouched and keeps no trace."""
    review = ctx.services.reviews
    chosen = [review.get(i) for i in params.suggestionIds]
    _may_decide(ctx, chosen, "reject")
    done = await review.reject_all(by=ctx.caller.author.name, ids=params.suggestionIds)
    return SuggestionsResult(suggestions=[s.to_json() for s in done], count=len(done))


class AllParams(_Params):
    path: str = Field(description="The file whose pending suggestions to decide (root-relative).")


@operation("review.accept_all", title="Accept all suggestions")
async def accept_all(ctx: OpContext, params: AllParams) -> SuggestionsResult:
    """Accept every pending suggestion of one file, in document order, as one undo step."""
    review = ctx.services.reviews
    pending = review.pending(_api(ctx, params.path))
    if not pending:
        return SuggestionsResult(suggestions=[], count=0)
    _may_decide(ctx, pending, "accept")
    r = await review.accept_all(by=ctx.caller.author.name, ids=[s.id for s in pending])
    done = r.accepted + r.conflicts
    return SuggestionsResult(suggestions=[s.to_json() for s in done], count=len(done))


@operation("review.reject_all", title="Reject all suggestions")
async def reject_all(ctx: OpContext, params: AllParams) -> SuggestionsResult:
    """Reject every pending suggestion of one file."""
    review = ctx.services.reviews
    pending = review.pending(_api(ctx, params.path))
    if not pending:
        return SuggestionsResult(suggestions=[], count=0)
    _may_decide(ctx, pending, "reject")
    done = await review.reject_all(by=ctx.caller.author.name, ids=[s.id for s in pending])
    return SuggestionsResult(suggestions=[s.to_json() for s in done], count=len(done))


class WaitParams(_Params):
    suggestionIds: list[str] | None = Field(None, description="Wait for these (default: this session's pending).")
    seconds: float = Field(60, gt=0, le=3600, description="Give up after this long (progress is reported).")


class WaitResult(SuggestionsResult):
    decided: bool = Field(description="True when none of them is pending any more.")


@operation("review.wait", title="Wait for decisions", read_only=True)
async def wait(ctx: OpContext, params: WaitParams) -> WaitResult:
    """Wait until a person has decided the suggestions (or the time is up), with progress
    notifications meanwhile. Returns their states: accepted, rejected or conflict."""
    review = ctx.services.reviews
    ids = params.suggestionIds or [s.id for s in review.store.list(status="pending", session=ctx.caller.session_id)]
    if not ids:
        return WaitResult(suggestions=[], count=0, decided=True)
    found, decided = await review.wait(ids, params.seconds, ctx.report_progress)
    return WaitResult(suggestions=[s.to_json() for s in found], count=len(found), decided=decided)


class CheckpointsParams(_Params):
    path: str | None = Field(None, description="Only checkpoints of this file.")
    limit: int = Field(50, ge=1, le=500)


class CheckpointsResult(BaseModel):
    checkpoints: list[dict[str, Any]]
    count: int


@operation("review.checkpoints", title="List checkpoints", read_only=True)
async def checkpoints(ctx: OpContext, params: CheckpointsParams) -> CheckpointsResult:
    """Applied agent changes, newest first: path, before/after revision, the changed text,
    author, source (auto|accepted|grant|revert) and whether it was reverted."""
    found = ctx.services.reviews.store.list_checkpoints(_api(ctx, params.path), params.limit)
    return CheckpointsResult(checkpoints=[c.to_json() for c in found], count=len(found))


class RevertParams(_Params):
    checkpointId: str = Field(description="The checkpoint to revert.")


@operation("review.revert", title="Revert a checkpoint", destructive=True)
async def revert(ctx: OpContext, params: RevertParams) -> CheckpointsResult:
    """Undo one applied change where it is now (refused with CONFLICT if it was edited since).
    Needs a person's grant under the suggest policy."""
    review = ctx.services.reviews
    cp = review.store.get_checkpoint(params.checkpointId)
    if cp is None:
        raise DomainError("NOT_FOUND", f"no checkpoint {params.checkpointId!r}")
    if ctx.settings.approval != "auto" and review.grant_for(cp.path, ctx.caller.author) is None:
        raise DomainError(
            "APPROVAL_REQUIRED",
            "A person reverts checkpoints on this server (MCP Lab panel), or grants you direct apply.",
            checkpointId=cp.id,
        )
    undo = await review.revert(cp.id, by=ctx.caller.author.name)
    return CheckpointsResult(checkpoints=[undo.to_json()], count=1)
