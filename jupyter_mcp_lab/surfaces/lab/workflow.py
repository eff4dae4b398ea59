"""The lab profile's ``workflow`` tool: GitHub Actions workflow YAML."""

from __future__ import annotations

from ...ops.workflow import patches
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

WORKFLOW = CompositeTool(
    name="workflow",
    title="Workflow YAML",
    description=(
        "GitHub Actions workflows. apply_patch {patches: [{kind: workflow.set|job.set|step.set|with.set|"
        "with.remove|needs.add|needs.remove|trigger.setFilters, …}], expected_revision} keeps comments, "
        "anchors and key order byte-identical; validate → actionlint {ok, diagnostics, binaryAvailable}."
    ),
    actions={"apply_patch": patches.apply_patch, "validate": patches.validate},
    hidden=BY_PATH_OR_TAB,
)
