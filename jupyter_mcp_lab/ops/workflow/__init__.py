"""GitHub Actions workflow YAML: comment-preserving patches and actionlint."""

from __future__ import annotations

from . import patches

OPERATIONS = (
    patches.apply_patch,
    patches.validate,
)
