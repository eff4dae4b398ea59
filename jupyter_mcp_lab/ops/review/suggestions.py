"""Suggestions as agents see them: list, wait for decisions, accept or reject.

A call may name one document (by path, tab or window, as every operation does): the list
then says where each pending suggestion is in that document now, and decisions keep to
it. Who may decide is ``gate``'s: an agent may withdraw its own suggestions; anything
else needs a person's grant under the ``suggest`` policy.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.paths import to_api_path
from ...core.suggestions import Region, Suggestion
from .. import documents
from ..base import operation
from ..context import OpContext
from ..documents import PATH, TAB, WINDOW
from .gate import require_decision

StatusFilter = Literal["pending", "accepted", "rejected", "conflict", "all"]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListParams(_Params):
    path: str | None = Field(None, description="One document, by its file (root-relative).")
    tabId: str | None = Field(None, description="One document, by its tab.")
    windowId: str | None = Field(None, description="One document: the one this window shows you.")
    status: StatusFilter = Field("pending", description="Which suggestions (default pending).")
    mine: bool = Field(False, description="Only the ones this MCP session staged.")
    limit: int = Field(100, ge=1, le=1000, description="At most this many.")


class SuggestionsResult(BaseModel):
    suggestions: list[dict[str, Any]]
    count: int
    revision: str | None = Field(
        None, description="The revision of the one document named (after the decision), or null."
    )


async def _named(ctx: OpContext, path: str | None, tab_id: str | None, window_id: str | None) -> str | None:
    """The key of the document a call names (by path without opening it, by tab or window),
    or None when it names none."""
    if path:
        return to_api_path(ctx.settings.root_dir, path)
    if tab_id or window_id:
        doc, _ = await documents.resolve(ctx, tab_id, None, window_id)
        return doc.key
    return None


def _placed(ctx: OpContext, found: list[Suggestion], text: str, revision: str) -> list[dict[str, Any]]:
    """Each suggestion with ``currentStart``/``currentEnd``: where accepting it would apply it
    now, or null when it is not pending or its text changed (accepting would conflict)."""
    diffs: dict[str, list[Region]] = {}  # one diff per base revision
    out = []
    for s in found:
        where = ctx.services.reviews.locate(s, text, revision, diffs) if s.status == "pending" else None
        out.append(
            {**s.to_json(), "currentStart": where[0] if where else None, "currentEnd": where[1] if where else None}
        )
    return out


@operation("review.list", title="List suggestions", read_only=True)
async def list_(ctx: OpContext, params: ListParams) -> SuggestionsResult:
    """Suggestions in document order: id, path, kind, start/end (code point offsets in the base
    revision), lineStart/lineEnd, original, new, status, author, rationale, reason (conflicts).
    For one document (path, tabId or windowId) each also has currentStart/currentEnd: where
    it is in the text now (null: its text changed), and the result that text's revision."""
    key = await _named(ctx, params.path, params.tabId, params.windowId)
    found = ctx.services.reviews.store.list(
        path=key,
        status=None if params.status == "all" else params.status,
        session=ctx.caller.session_id if params.mine else None,
        limit=params.limit,
    )
    now = await ctx.services.reviews.current_text(key) if key is not None else None
    if now is None:
        return SuggestionsResult(suggestions=[s.to_json() for s in found], count=len(found))
    return SuggestionsResult(suggestions=_placed(ctx, found, *now), count=len(found), revision=now[1])


class IdsParams(_Params):
    suggestionIds: list[str] = Field(min_length=1, description="Suggestion ids.")
    tabId: str | None = Field(None, description="The tab whose document they must be on (else NOT_FOUND).")
    path: str | None = Field(None, description="The file they must be on (else NOT_FOUND).")
    windowId: str | None = Field(None, description="The window whose document they must be on (else NOT_FOUND).")


class DecidedResult(SuggestionsResult):
    skipped: list[dict[str, Any]] = Field(
        default_factory=list, description="Named suggestions that were not pending any more: {id, status}."
    )


def _may_decide(ctx: OpContext, chosen: list[Suggestion], verb: str) -> None:
    for s in chosen:
        if not (verb == "reject" and s.session == ctx.caller.session_id):  # withdrawing one's own
            require_decision(ctx, s.path, f"{verb} {s.id}", suggestionId=s.id)


async def _chosen(ctx: OpContext, params: IdsParams, verb: str) -> tuple[list[Suggestion], str | None]:
    """The named suggestions (each on the named document, if one is), once the gate let them
    through; and the key of their one document (None: several)."""
    review = ctx.services.reviews
    chosen = [review.get(i) for i in params.suggestionIds]
    key = await _named(ctx, params.path, params.tabId, params.windowId)
    for s in chosen:
        if key is not None and s.path != key:
            raise DomainError("NOT_FOUND", f"suggestion {s.id} is not on {key}", suggestionId=s.id)
    _may_decide(ctx, chosen, verb)
    keys = {s.path for s in chosen}
    return chosen, key if key is not None else (keys.pop() if len(keys) == 1 else None)


async def _revision(ctx: OpContext, key: str | None) -> str | None:
    doc = ctx.services.docs.find(key) if key is not None else None
    return doc.revision if doc is not None else None


@operation("review.accept", title="Accept suggestions")
async def accept(ctx: OpContext, params: IdsParams) -> DecidedResult:
    """Accept suggestions (mapped through later edits; a suggestion whose text changed
    becomes conflict and changes nothing). Needs a person's grant under the suggest policy."""
    _, key = await _chosen(ctx, params, "accept")
    r = await ctx.services.reviews.accept_all(by=ctx.caller.author.name, ids=params.suggestionIds)
    done = r.accepted + r.conflicts
    return DecidedResult(suggestions=[s.to_json() for s in done], count=len(done), revision=await _revision(ctx, key))


@operation("review.reject", title="Reject suggestions")
async def reject(ctx: OpContext, params: IdsParams) -> DecidedResult:
    """Reject (withdraw) suggestions: the document is untouched and keeps no trace."""
    chosen, key = await _chosen(ctx, params, "reject")
    done = await ctx.services.reviews.reject_all(by=ctx.caller.author.name, ids=params.suggestionIds)
    skipped = [{"id": s.id, "status": s.status} for s in chosen if s.status != "pending"]
    return DecidedResult(
        suggestions=[s.to_json() for s in done], count=len(done), revision=await _revision(ctx, key), skipped=skipped
    )


class AllParams(_Params):
    tabId: str | None = TAB
    path: str | None = PATH
    windowId: str | None = WINDOW


async def _all(ctx: OpContext, params: AllParams, verb: str) -> SuggestionsResult:
    review = ctx.services.reviews
    key = await _named(ctx, params.path, params.tabId, params.windowId)
    if key is None:  # nothing named: the session's focused document
        key = (await documents.resolve(ctx))[0].key
    pending = review.pending(key)
    if pending:
        _may_decide(ctx, pending, verb)
        ids = [s.id for s in pending]
        if verb == "accept":
            r = await review.accept_all(by=ctx.caller.author.name, ids=ids)
            pending = r.accepted + r.conflicts
        else:
            pending = await review.reject_all(by=ctx.caller.author.name, ids=ids)
    return SuggestionsResult(
        suggestions=[s.to_json() for s in pending], count=len(pending), revision=await _revision(ctx, key)
    )


@operation("review.accept_all", title="Accept all suggestions")
async def accept_all(ctx: OpContext, params: AllParams) -> SuggestionsResult:
    """Accept every pending suggestion of one document, in document order, as one undo step."""
    return await _all(ctx, params, "accept")


@operation("review.reject_all", title="Reject all suggestions")
async def reject_all(ctx: OpContext, params: AllParams) -> SuggestionsResult:
    """Reject every pending suggestion of one document."""
    return await _all(ctx, params, "reject")


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
