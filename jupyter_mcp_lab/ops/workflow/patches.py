"""GitHub Actions workflows: surgical patches that keep comments, anchors and key order,
and actionlint diagnostics."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ...core.workflow import apply_patches
from ...core.workflow import validate as run_actionlint
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..targets import MutationParams, MutationResult, change_document, require_kind


class ApplyPatchParams(MutationParams):
    patches: list[dict[str, Any]] = Field(
        description="IRPatch objects by kind: workflow.set {path, value}; job.set {jobId, path, value}; "
        "step.set {jobId, stepIndex, path, value}; with.set {jobId, stepIndex, key, value}; "
        "with.remove {jobId, stepIndex, key}; needs.add / needs.remove {jobId, needs}; "
        "trigger.setFilters {event, filter, value: string[]}."
    )


@operation("workflow.apply_patch", title="Patch workflow")
async def apply_patch(ctx: OpContext, params: ApplyPatchParams) -> MutationResult:
    """Apply IRPatch edits to a GitHub Actions workflow; everything the patches do not touch
    (comments, anchors, quoting, key order, blank lines) stays byte-identical. All patches
    apply or none (INVALID_PATCH names the bad one)."""
    return await change_document(
        ctx,
        params,
        lambda text: apply_patches(text, params.patches),
        label="workflow patch",
        kinds=("yaml-workflow",),
    )


class ValidateParams(DocumentTarget):
    pass


class DiagnosticInfo(BaseModel):
    line: int
    col: int
    message: str
    severity: str


class ValidateResult(BaseModel):
    ok: bool
    diagnostics: list[DiagnosticInfo]
    binaryAvailable: bool = Field(description="False when actionlint is not installed: nothing was checked.")
    revision: str


@operation("workflow.validate", title="Validate workflow", read_only=True)
async def validate(ctx: OpContext, params: ValidateParams) -> ValidateResult:
    """Run actionlint over the workflow as it is now (unsaved changes included)."""
    doc, _ = await resolve_target(ctx, params)
    require_kind(doc, "yaml-workflow")
    result = await run_actionlint(doc.text, doc.path or "workflow.yml")
    return ValidateResult(
        ok=result.ok,
        diagnostics=[
            DiagnosticInfo(line=d.line, col=d.col, message=d.message, severity=d.severity) for d in result.diagnostics
        ],
        binaryAvailable=result.binaryAvailable,
        revision=doc.revision,
    )
