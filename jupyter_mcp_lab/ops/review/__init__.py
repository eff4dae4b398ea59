"""Suggestions and checkpoints: list, wait, accept, reject, revert (``gate``: who may decide)."""

from __future__ import annotations

from . import checkpoints, suggestions

OPERATIONS = (
    suggestions.list_,
    suggestions.accept,
    suggestions.reject,
    suggestions.accept_all,
    suggestions.reject_all,
    suggestions.wait,
    checkpoints.checkpoints,
    checkpoints.revert,
)
