"""The lab profile's ``workflow`` tool: GitHub Actions workflow YAML."""

from __future__ import annotations

from ...ops.workflow import patches
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

WORKFLOW = CompositeTool(
    name="workflow",
    title="Workflow YAML",
    description=(
        "GitHub Actions workflow YAML. apply_patch keeps comments, anchors and key order byte-identical; "
        "validate → actionlint's {ok, diagnostics, binaryAvailable}."
    ),
    actions={"apply_patch": patches.apply_patch, "validate": patches.validate},
    hidden=BY_PATH_OR_TAB,
    describe={
        "patches": "By kind: workflow.set {path, value}; job.set {jobId, path, value}; step.set {jobId, "
        "stepIndex, path, value}; with.set {jobId, stepIndex, key, value}; with.remove {jobId, stepIndex, key}; "
        "needs.add, needs.remove {jobId, needs}; trigger.setFilters {event, filter, value: string[]}."
    },
)
