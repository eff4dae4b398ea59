"""What VMark's mutation tools share: their params and result shape, and running their edits
through ``document.edit`` (the one edit pipeline) on the document the window shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.markdown.edit import EditParams, EditResult, edit
from ...ops.markdown.edit_ops import _Op
from ...ops.targets import EXPECTED, MODE, RATIONALE, Mode, MutationResult
from .shapes import WINDOW_ID, renamed


class NodeEditParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID
    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    rationale: str | None = RATIONALE


class NodeEditResult(MutationResult):
    success: bool = Field(True, description="True when the edit was applied, staged or shown (dryRun).")
    message: str
    suggestionIds: list[str] = Field(
        default_factory=list, description="The staged suggestions (a person accepts or rejects them)."
    )


def _message(r: MutationResult) -> str:
    if not r.changed:
        return "Nothing to change"
    if r.mode == "dryRun":
        return "Dry run: nothing changed (see diff)"
    if r.mode == "suggest":
        return f"Staged as {len(r.suggestionIds or [])} suggestion(s) for a person's review"
    return "Applied"


def fields(r: EditResult) -> dict[str, Any]:
    """The fields of a ``NodeEditResult`` (VMark's success, message and suggestionIds list)."""
    base = r.model_dump(exclude={"suggestionIds", "edits"})
    return {**base, "suggestionIds": r.suggestionIds or [], "message": _message(r)}


def _as_is(exc: DomainError) -> DomainError:
    return renamed(exc)


async def run(
    ctx: OpContext,
    params: NodeEditParams,
    edits: list[_Op],
    errors: Callable[[DomainError], DomainError] = _as_is,
) -> EditResult:
    """``edits`` through ``document.edit`` on the window's document (kept in the tab until
    saved); a failure of one of the edits in VMark's terms (``errors``)."""
    p = EditParams(
        windowId=params.windowId,
        expected_revision=params.expected_revision,
        mode=params.mode,
        rationale=params.rationale,
        save=False,
        edits=edits,
    )
    try:
        return cast(EditResult, await edit(ctx, p))
    except DomainError as exc:
        if "edit" not in exc.details:
            raise  # not about the edit itself (STALE, the target, the kind, overlapping edits)
        raise errors(exc) from None
