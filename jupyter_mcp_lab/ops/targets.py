"""What mutating and reading operations share: which document, which mode, what changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from ..core.diffs import unified
from ..core.documents import OpenDocument
from ..core.errors import DomainError
from ..core.history import change_between
from ..core.review import effective_mode
from ..core.revision import revision_of
from ..core.suggestions import Checkpoint, Grant
from ..core.text import line_at
from ..core.workspace import Tab
from . import documents
from .context import OpContext

Mode = Literal["apply", "suggest", "dryRun"]

EXPECTED = Field(None, description="Revision token from your last read; a mismatch answers STALE.")
MODE: Any = Field(
    "apply",
    description=(
        "apply: change the document (staged as a suggestion anyway when the server's approval policy is "
        "'suggest' and no person granted you direct apply); suggest: stage for a person's approval; "
        "dryRun: show the change only."
    ),
)
RATIONALE: Any = Field(None, description="Why you make this change: shown to the person who reviews it.")


SAVE: Any = Field(
    None,
    description="Write the file now. Default: yes when addressed by path, no for a tab (it stays unsaved).",
)


class SavingParams(documents.DocumentTarget):
    save: bool | None = SAVE

    def saves(self, tab: Tab | None) -> bool:
        """Changes by path are saved at once; changes to a tab wait until the tab is saved."""
        return self.save if self.save is not None else tab is None


class MutationParams(SavingParams):
    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    rationale: str | None = RATIONALE


class ChangeInfo(BaseModel):
    """The region an operation changed, in the text before it."""

    start: int
    end: int
    lineStart: int
    lineEnd: int
    removed: str
    inserted: str


class MutationResult(BaseModel):
    revision: str = Field(description="The document's revision after the operation (unchanged when staged).")
    applied: bool = Field(description="True when the document changed; false for dryRun and staged suggestions.")
    mode: Mode = Field(
        description="The mode the change really ran in (the server's policy can turn apply into suggest)."
    )
    filePath: str | None
    changed: bool = Field(description="Whether the operation changes the text (applied, staged or shown).")
    change: ChangeInfo | None = None
    diff: str | None = Field(None, description="Unified diff, for dryRun and suggest.")
    suggestionIds: list[str] | None = Field(None, description="The staged suggestions (mode suggest).")
    checkpointId: str | None = Field(None, description="The checkpoint of an applied change (a person can revert it).")


def require_kind(doc: OpenDocument, *kinds: str) -> None:
    if doc.kind not in kinds:
        raise DomainError(
            "NOT_WORKFLOW" if "yaml-workflow" in kinds else "INVALID_ARGUMENT",
            f"{doc.path or doc.key} is a {doc.kind} document; this needs {' or '.join(kinds)}",
            kind=doc.kind,
        )


def _diff(before: str, after: str, name: str) -> str:
    return unified(before, after, name)


def policy_mode(ctx: OpContext, key: str, requested: Mode) -> tuple[Mode, Grant | None]:
    """The mode the server's policy lets this agent's change to ``key`` run in, and the grant
    that lets it apply (if one does)."""
    grant = ctx.services.reviews.grant_for(key, ctx.caller.author) if requested == "apply" else None
    return effective_mode(requested, ctx.settings.approval, granted=grant is not None), grant


def record_applied(
    ctx: OpContext, doc: OpenDocument, before: str, after: str, grant: Grant | None, label: str, rationale: str | None
) -> Checkpoint | None:
    """The checkpoint an applied agent change leaves (under the grant that let it apply, or
    automatically), so a person can see and revert it."""
    return ctx.services.reviews.checkpoint(
        doc,
        before,
        after,
        ctx.caller.author,
        "grant" if grant else "auto",
        grant_id=grant.id if grant else None,
        label=label,
        rationale=rationale or "",
    )


async def mutate(
    ctx: OpContext,
    doc: OpenDocument,
    change: str | Callable[[str], str],
    *,
    expected_revision: str | None,
    mode: Mode,
    save: bool,
    label: str,
    rationale: str | None = None,
    split: bool = False,
    first_content: bool = False,
) -> MutationResult:
    """Run one change through the document's lock in the mode the server's policy allows.

    ``split``: stage one suggestion per hunk (independent edits such as replace-all) rather
    than one for the whole change (moves, rewrites: accepted whole or not at all).
    ``first_content``: the change is the first content of an empty document this agent
    created (``review.gate.fills_own_new_document``): an ``apply`` applies under any policy.
    """
    review = ctx.services.reviews
    who = ctx.caller.author
    requested = mode
    mode, grant = policy_mode(ctx, doc.key, mode)
    if first_content and requested == "apply":
        mode = "apply"
    staged = mode != "apply"
    before, after = await ctx.services.docs.commit(
        doc, change, expected_revision=expected_revision, save=save and not staged, dry_run=staged, label=label
    )
    suggestions, checkpoint = [], None
    if mode == "suggest":
        suggestions = review.stage(doc, before, after, who, operation=label, rationale=rationale or "", split=split)
    elif mode == "apply":
        checkpoint = record_applied(ctx, doc, before, after, grant, label, rationale)
    info = None
    if before != after:
        c = change_between(before, after)
        end = c.start + len(c.old)
        info = ChangeInfo(
            start=c.start,
            end=end,
            lineStart=line_at(before, c.start),
            lineEnd=line_at(before, max(end - 1, c.start)),
            removed=c.old[:2000],
            inserted=c.new[:2000],
        )
    return MutationResult(
        revision=revision_of(after) if mode == "dryRun" else doc.revision,
        applied=mode == "apply" and before != after,
        mode=mode,
        filePath=doc.path,
        changed=before != after,
        change=info,
        diff=_diff(before, after, doc.path or doc.key) if staged and before != after else None,
        suggestionIds=[x.id for x in suggestions] if mode == "suggest" else None,
        checkpointId=checkpoint.id if checkpoint else None,
    )


class ChangeRequest(Protocol):
    """The fields of a mutating call that say how the agent wants its change made."""

    expected_revision: str | None
    mode: Mode
    rationale: str | None


async def mutate_as_asked(
    ctx: OpContext,
    doc: OpenDocument,
    params: ChangeRequest,
    change: str | Callable[[str], str],
    *,
    save: bool,
    label: str,
    split: bool = False,
) -> MutationResult:
    """``mutate`` with the agent's expected_revision, mode and rationale from ``params``."""
    return await mutate(
        ctx,
        doc,
        change,
        expected_revision=params.expected_revision,
        mode=params.mode,
        save=save,
        label=label,
        rationale=params.rationale,
        split=split,
    )


async def change_document(
    ctx: OpContext,
    params: MutationParams,
    change: str | Callable[[str], str],
    *,
    label: str,
    kinds: tuple[str, ...] = (),
    split: bool = False,
) -> MutationResult:
    """Resolve the target, check its kind, and run ``change`` through ``mutate``."""
    doc, tab = await documents.resolve(ctx, params.tabId, params.path, params.windowId)
    if kinds:
        require_kind(doc, *kinds)
    return await mutate_as_asked(ctx, doc, params, change, save=params.saves(tab), label=label, split=split)
