"""Reading and writing documents: whole, by section or lines, within a byte budget."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from ...core.errors import ArgumentError, DomainError
from ...core.kinds import DocumentKind
from ...core.markdown import structure_of
from ...core.text import LineIndex
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..review.gate import fills_own_new_document
from ..targets import (
    MutationParams,
    MutationResult,
    SavingParams,
    mutate,
    mutate_as_asked,
    policy_mode,
)


class ReadParams(DocumentTarget):
    section: str | None = Field(None, description="Only this section: a heading node id (h-3) or its title.")
    lineStart: int | None = Field(None, ge=1, description="First line to read (1-based).")
    lineEnd: int | None = Field(None, ge=1, description="Last line to read (inclusive).")
    maxBytes: int | None = Field(None, ge=256, description="Byte budget for content; the rest can be paged.")


class ReadResult(BaseModel):
    content: str
    revision: str
    filePath: str | None
    kind: DocumentKind
    dirty: bool
    lineStart: int = Field(description="First line of content.")
    lineEnd: int = Field(description="Last line of content.")
    totalLines: int
    truncated: bool = Field(description="True when the budget cut the content; continue at nextLine.")
    nextLine: int | None = None


@operation("document.read", title="Read document", read_only=True)
async def read(ctx: OpContext, params: ReadParams) -> ReadResult:
    """Read a document: whole, one section, or a line range, within a byte budget. Returns the
    revision token to pass as expected_revision on the next write. Always read before writing."""
    doc, _ = await resolve_target(ctx, params)
    text = doc.text
    lines = LineIndex(text)
    total = lines.line_count if not text.endswith(("\n", "\r")) else max(lines.line_count - 1, 1)
    first, last = 1, total
    if params.section is not None:
        if doc.kind != "markdown":
            raise ArgumentError("section works on markdown documents", "section")
        sec = structure_of(text).section(params.section)
        if sec is None:
            raise DomainError("NOT_FOUND", f"no section {params.section!r}", section=params.section)
        first, last = sec.line_start, sec.line_end
    if params.lineStart is not None:
        first = max(first, params.lineStart)
    if params.lineEnd is not None:
        last = min(last, params.lineEnd)
    if first > last and text:
        raise ArgumentError(f"empty line range {first}..{last} (the document has {total} lines)", "lineStart")
    # The reply's envelope needs ~1 KB of the server's limit, which counts the content as
    # JSON (a newline or a quote takes two bytes there); an agent's maxBytes counts it raw.
    limit = max(ctx.settings.max_response_bytes - 1024, 256)
    budget = min(params.maxBytes, limit) if params.maxBytes else limit

    def over(piece: str) -> int:
        return max(len(piece.encode()) - budget, _json_size(piece) - limit)

    start, end = lines.start_of(first), lines.start_of(last + 1) if last < total else len(text)
    content = text[start:end]
    truncated, next_line = False, None
    if over(content) > 0:
        cut = len(content.encode()[:budget].decode("utf-8", "ignore"))
        one_line = lines.start_of(first + 1) - start
        while True:
            # Whole lines only, and at least one even if it alone is over the budget: paging
            # on from nextLine must never skip text.
            cut = lines.start_of(max(lines.line_of(start + cut), first + 1)) - start
            excess = over(content[:cut])
            if excess <= 0 or cut <= one_line:
                break
            cut -= excess  # bytes over, taken as characters: at least enough, then whole lines again
        if cut < len(content):
            content, truncated = content[:cut], True
            last = lines.line_of(start + cut - 1)
            next_line = last + 1
    return ReadResult(
        content=content,
        revision=doc.revision,
        filePath=doc.path,
        kind=doc.kind,
        dirty=doc.dirty,
        lineStart=first,
        lineEnd=last,
        totalLines=total,
        truncated=truncated,
        nextLine=next_line,
    )


class WriteParams(MutationParams):
    content: str = Field(description="The new full content.")


@operation("document.write", title="Write document", destructive=True)
async def write(ctx: OpContext, params: WriteParams) -> MutationResult:
    """Replace a document's full content (stored verbatim). Pass expected_revision from your
    last read: if the document changed since, the answer is STALE with current_revision.
    A new document you created applies its first content at once while it is empty."""
    doc, tab = await resolve_target(ctx, params)
    if params.mode == "apply" and fills_own_new_document(ctx, doc):
        # Applied at once under any policy; written only over the empty text just seen (a
        # person who typed into the tab meanwhile gets STALE for the agent, not overwritten).
        return await mutate(
            ctx,
            doc,
            params.content,
            expected_revision=params.expected_revision or doc.revision,
            mode="apply",
            save=params.saves(tab),
            label="first content of its new document",
            rationale=params.rationale,
            first_content=True,
        )
    return await mutate_as_asked(ctx, doc, params, params.content, save=params.saves(tab), label="write")


class HistoryParams(SavingParams):
    pass


class HistoryResult(BaseModel):
    revision: str
    canUndo: bool
    canRedo: bool
    applied: bool = Field(True, description="False when the step was staged as a suggestion (suggest policy).")
    suggestionIds: list[str] | None = None
    checkpointId: str | None = None


async def _step(ctx: OpContext, params: HistoryParams, name: str) -> HistoryResult:
    """Undo or redo. Under the suggest policy the step is staged like any other change (an
    agent's undo could take back what a person accepted), the history stays as it is."""
    doc, tab = await resolve_target(ctx, params)
    mode, grant = policy_mode(ctx, doc.key, "apply")
    if mode == "suggest":
        peek = doc.history.peek_undo if name == "undo" else doc.history.peek_redo
        staged = await mutate(ctx, doc, peek, expected_revision=None, mode="suggest", save=False, label=name)
        return HistoryResult(
            revision=doc.revision,
            canUndo=bool(doc.history.undo_stack),
            canRedo=bool(doc.history.redo_stack),
            applied=False,
            suggestionIds=staged.suggestionIds,
        )
    before = doc.text
    step = ctx.services.docs.undo if name == "undo" else ctx.services.docs.redo
    revision = await step(doc, save=params.saves(tab))
    cp = ctx.services.reviews.checkpoint(
        doc,
        before,
        doc.text,
        ctx.caller.author,
        "grant" if grant else "auto",
        grant_id=grant.id if grant else None,
        label=name,
    )
    return HistoryResult(
        revision=revision,
        canUndo=bool(doc.history.undo_stack),
        canRedo=bool(doc.history.redo_stack),
        checkpointId=cp.id if cp else None,
    )


@operation("document.undo", title="Undo")
async def undo(ctx: OpContext, params: HistoryParams) -> HistoryResult:
    """Undo the last change made through this server to the document."""
    return await _step(ctx, params, "undo")


@operation("document.redo", title="Redo")
async def redo(ctx: OpContext, params: HistoryParams) -> HistoryResult:
    """Redo the last undone change."""
    return await _step(ctx, params, "redo")


def _json_size(text: str) -> int:
    """UTF-8 bytes of ``text`` as a JSON string's body (what the reply's limit counts)."""
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2
