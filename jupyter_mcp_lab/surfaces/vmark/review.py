"""VMark's suggestion tools, on the window's document: adapters over the review
capabilities (``ops.review``) with VMark's shapes (type/from/to, success and message)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.review import suggestions as review
from ...ops.workspace import info as info_op
from ..adapter import adapter
from .common import tool
from .windows import WindowParams, info


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


def _pending(s: dict[str, Any]) -> PendingSuggestion:
    mapped = s["currentStart"] is not None
    return PendingSuggestion(
        id=s["id"],
        type=s["kind"],
        from_=s["currentStart"] if mapped else s["start"],
        to=s["currentEnd"] if mapped else s["end"],
        newContent=s["new"],
        originalContent=s["original"],
        mapped=mapped,
        lineStart=s["lineStart"],
        lineEnd=s["lineEnd"],
        author=s["author"],
        rationale=s["rationale"],
    )


@adapter(info_op.document_info, review.list_, title="List a window's suggestions")
async def list_suggestions(ctx: OpContext, params: WindowParams) -> SuggestionListResult:
    """The pending suggestions on the document a window shows, in document order, with
    positions in its current text."""
    d = await info(ctx, None, params.windowId)
    r = await review.list_(ctx, review.ListParams(tabId=d.tabId, limit=1000))
    assert isinstance(r, review.SuggestionsResult)
    out = sorted((_pending(s) for s in r.suggestions), key=lambda p: (p.from_, p.to))
    return SuggestionListResult(
        suggestions=out, count=len(out), focusedId=out[0].id if out else None, filePath=d.filePath, revision=d.revision
    )


class OneParams(WindowParams):
    suggestionId: str = Field(description="The suggestion (suggestion_list).")


class DecisionResult(BaseModel):
    success: bool = Field(description="False when accepting found its text changed (status conflict).")
    message: str
    suggestionId: str
    status: str = Field(description="accepted, rejected or conflict.")
    revision: str = Field(description="The document's revision after the decision.")


def _decided(record: dict[str, Any], revision: str | None, verb: str) -> DecisionResult:
    status = str(record["status"])
    if status == "conflict":
        message = f"{record['id']} conflicts: {record.get('reason') or 'its text changed since it was suggested'}"
    else:
        message = f"Suggestion {record['id']} {verb}"
    return DecisionResult(
        success=status != "conflict", message=message, suggestionId=record["id"], status=status, revision=revision or ""
    )


async def _decide(ctx: OpContext, params: OneParams, verb: str) -> review.DecidedResult:
    """One suggestion decided (it must be on the window's document when a window is named)."""
    one = review.IdsParams(suggestionIds=[params.suggestionId], windowId=params.windowId)
    r = await (review.accept if verb == "accept" else review.reject)(ctx, one)
    assert isinstance(r, review.DecidedResult)
    return r


@adapter(review.accept, title="Accept a suggestion")
async def accept(ctx: OpContext, params: OneParams) -> DecisionResult:
    """Accept a suggestion: its change applies where its text is now (a conflict changes
    nothing). Under the server's 'suggest' policy a person decides."""
    r = await _decide(ctx, params, "accept")
    return _decided(r.suggestions[0], r.revision, "accepted and applied")


@adapter(review.reject, title="Reject a suggestion")
async def reject(ctx: OpContext, params: OneParams) -> DecisionResult:
    """Reject a suggestion: the document stays as it is. You may always withdraw your own."""
    r = await _decide(ctx, params, "reject")
    if not r.suggestions:
        status = r.skipped[0]["status"] if r.skipped else "decided"
        raise DomainError(
            "CONFLICT", f"suggestion {params.suggestionId} is already {status}", suggestionId=params.suggestionId
        )
    return _decided(r.suggestions[0], r.revision, "rejected")


class AllResult(BaseModel):
    success: bool
    message: str
    count: int = Field(description="How many suggestions were decided.")
    suggestionIds: list[str] = Field(description="Those accepted (or rejected).")
    conflictIds: list[str] = Field(description="Those whose text changed since (accept_all): nothing applied.")
    revision: str


async def _all(ctx: OpContext, params: WindowParams, verb: str) -> AllResult:
    target = review.AllParams(windowId=params.windowId)
    r = await (review.accept_all if verb == "accept" else review.reject_all)(ctx, target)
    assert isinstance(r, review.SuggestionsResult)
    if not r.suggestions:
        return AllResult(
            success=True,
            message="No pending suggestions",
            count=0,
            suggestionIds=[],
            conflictIds=[],
            revision=r.revision or "",
        )
    ok = [d["id"] for d in r.suggestions if d["status"] != "conflict"]
    conflicts = [d["id"] for d in r.suggestions if d["status"] == "conflict"]
    word = "Accepted" if verb == "accept" else "Rejected"
    message = f"{word} {len(ok)} suggestion(s)" + (f"; {len(conflicts)} conflicted" if conflicts else "")
    return AllResult(
        success=not conflicts,
        message=message,
        count=len(ok),
        suggestionIds=ok,
        conflictIds=conflicts,
        revision=r.revision or "",
    )


@adapter(review.accept_all, title="Accept all suggestions")
async def accept_all(ctx: OpContext, params: WindowParams) -> AllResult:
    """Accept every pending suggestion on the window's document, in document order, as one
    undo step."""
    return await _all(ctx, params, "accept")


@adapter(review.reject_all, title="Reject all suggestions")
async def reject_all(ctx: OpContext, params: WindowParams) -> AllResult:
    """Reject every pending suggestion on the window's document."""
    return await _all(ctx, params, "reject")


SUGGESTION_TOOLS = (
    tool(
        "suggestion_list",
        list_suggestions,
        "List the pending suggestions on the window's document: {suggestions: [{id, type, from, to, newContent, "
        "originalContent}], count, focusedId}.",
    ),
    tool(
        "suggestion_accept",
        accept,
        "Accept a suggestion (applies it). Under the server's review policy a person decides: without their "
        "grant this answers APPROVAL_REQUIRED.",
    ),
    tool("suggestion_reject", reject, "Reject a suggestion (your own may always be withdrawn)."),
    tool(
        "suggestion_accept_all",
        accept_all,
        "Accept all pending suggestions on the window's document in document order (APPROVAL_REQUIRED without "
        "a person's grant under the review policy): {count, suggestionIds, conflictIds}.",
    ),
    tool("suggestion_reject_all", reject_all, "Reject all pending suggestions on the window's document."),
)
