"""The suggestions of the document a window shows (VMark's suggestion tools).

Thin over ``review``: the same rules decide. An agent may withdraw (reject) its own
suggestions; accepting, or rejecting someone else's, needs a person's grant on the
document under the ``suggest`` policy (APPROVAL_REQUIRED otherwise).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...core.suggestions import Region, Suggestion
from ..base import operation
from ..context import OpContext
from ..workspace.windows import WINDOW_ID, document_of_window
from . import suggestions as review_ops


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


class PendingSuggestion(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    id: str
    type: str = Field(description="insert, replace or delete.")
    from_: int = Field(alias="from", description="Start in the document as it is now (code point offset).")
    to: int = Field(description="End in the document as it is now.")
    newContent: str
    originalContent: str
    mapped: bool = Field(
        description="False when the text it changes was edited since: from/to are then its offsets in the "
        "revision it was made on, and accepting it will report a conflict."
    )
    lineStart: int
    lineEnd: int
    author: str
    rationale: str


class SuggestionListResult(BaseModel):
    suggestions: list[PendingSuggestion]
    count: int
    focusedId: str | None = Field(description="The suggestion a person reviews first (the first in the document).")
    filePath: str | None
    revision: str


@operation("review.window_list", title="List a window's suggestions", read_only=True)
async def list_suggestions(ctx: OpContext, params: _Params) -> SuggestionListResult:
    """The pending suggestions on the document a window shows, in document order:
    {id, type, from, to, newContent, originalContent}, with positions in its current text."""
    doc, _ = await document_of_window(ctx, params.windowId)
    current = doc.text
    found: dict[str, list[Region]] = {}
    out = []
    for s in ctx.services.reviews.pending(doc.key):
        where = ctx.services.reviews.locate(s, current, doc.revision, found)
        start, end = where if where is not None else (s.start, s.end)
        out.append(
            PendingSuggestion(
                id=s.id,
                type=s.kind,
                from_=start,
                to=end,
                newContent=s.new,
                originalContent=s.original,
                mapped=where is not None,
                lineStart=s.line_start,
                lineEnd=s.line_end,
                author=s.author,
                rationale=s.rationale,
            )
        )
    out.sort(key=lambda p: (p.from_, p.to))
    return SuggestionListResult(
        suggestions=out,
        count=len(out),
        focusedId=out[0].id if out else None,
        filePath=doc.path,
        revision=doc.revision,
    )


class OneParams(_Params):
    suggestionId: str = Field(description="The suggestion (suggestion_list).")


class DecisionResult(BaseModel):
    success: bool = Field(description="False when accepting found its text changed (status conflict).")
    message: str
    suggestionId: str
    status: str = Field(description="accepted, rejected or conflict.")
    revision: str = Field(description="The document's revision after the decision.")


async def _one(ctx: OpContext, params: OneParams) -> Suggestion:
    """The suggestion, which must be on the window's document when a window is named."""
    s = ctx.services.reviews.get(params.suggestionId)
    if params.windowId is not None:
        doc, _ = await document_of_window(ctx, params.windowId)
        if s.path != doc.key:
            raise DomainError(
                "NOT_FOUND",
                f"suggestion {s.id} is not on the document window {params.windowId!r} shows ({doc.path or doc.key})",
                suggestionId=s.id,
            )
    return s


async def _revision(ctx: OpContext, key: str) -> str:
    doc = ctx.services.docs.find(key)
    return doc.revision if doc is not None else ""


def _decided(record: dict[str, Any], revision: str, verb: str) -> DecisionResult:
    status = str(record["status"])
    if status == "conflict":
        message = f"{record['id']} conflicts: {record.get('reason') or 'its text changed since it was suggested'}"
    else:
        message = f"Suggestion {record['id']} {verb}"
    return DecisionResult(
        success=status != "conflict", message=message, suggestionId=record["id"], status=status, revision=revision
    )


@operation("review.accept_one", title="Accept a suggestion")
async def accept(ctx: OpContext, params: OneParams) -> DecisionResult:
    """Accept a suggestion: its change applies where its text is now (a conflict changes
    nothing). Under the server's 'suggest' policy a person decides, so an agent without
    their grant gets APPROVAL_REQUIRED."""
    s = await _one(ctx, params)
    done = await review_ops.accept(ctx, review_ops.IdsParams(suggestionIds=[s.id]))
    return _decided(done.suggestions[0], await _revision(ctx, s.path), "accepted and applied")


@operation("review.reject_one", title="Reject a suggestion")
async def reject(ctx: OpContext, params: OneParams) -> DecisionResult:
    """Reject a suggestion: the document stays as it is. You may always withdraw your own."""
    s = await _one(ctx, params)
    done = await review_ops.reject(ctx, review_ops.IdsParams(suggestionIds=[s.id]))
    if not done.suggestions:
        raise DomainError("CONFLICT", f"suggestion {s.id} is already {s.status}", suggestionId=s.id)
    return _decided(done.suggestions[0], await _revision(ctx, s.path), "rejected")


class AllResult(BaseModel):
    success: bool
    message: str
    count: int = Field(description="How many suggestions were decided.")
    suggestionIds: list[str] = Field(description="Those accepted (or rejected).")
    conflictIds: list[str] = Field(description="Those whose text changed since (accept_all): nothing applied.")
    revision: str


async def _all(ctx: OpContext, params: _Params, verb: str) -> AllResult:
    doc, _ = await document_of_window(ctx, params.windowId)
    ids = [s.id for s in ctx.services.reviews.pending(doc.key)]
    if not ids:
        return AllResult(
            success=True,
            message="No pending suggestions",
            count=0,
            suggestionIds=[],
            conflictIds=[],
            revision=doc.revision,
        )
    decide = review_ops.accept if verb == "accept" else review_ops.reject
    done = await decide(ctx, review_ops.IdsParams(suggestionIds=ids))
    ok = [d["id"] for d in done.suggestions if d["status"] != "conflict"]
    conflicts = [d["id"] for d in done.suggestions if d["status"] == "conflict"]
    word = "Accepted" if verb == "accept" else "Rejected"
    message = f"{word} {len(ok)} suggestion(s)" + (f"; {len(conflicts)} conflicted" if conflicts else "")
    return AllResult(
        success=not conflicts,
        message=message,
        count=len(ok),
        suggestionIds=ok,
        conflictIds=conflicts,
        revision=doc.revision,
    )


@operation("review.accept_window", title="Accept all suggestions")
async def accept_all(ctx: OpContext, params: _Params) -> AllResult:
    """Accept every pending suggestion on the window's document, in document order, as one
    undo step. Needs a person's grant under the 'suggest' policy (APPROVAL_REQUIRED)."""
    return await _all(ctx, params, "accept")


@operation("review.reject_window", title="Reject all suggestions")
async def reject_all(ctx: OpContext, params: _Params) -> AllResult:
    """Reject every pending suggestion on the window's document (APPROVAL_REQUIRED for
    suggestions of others under the 'suggest' policy, unless a person granted you)."""
    return await _all(ctx, params, "reject")
