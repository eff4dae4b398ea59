"""Suggestions and checkpoints: list, wait, accept, reject, revert."""

from __future__ import annotations

from . import suggestions, window_review

OPERATIONS = (
    suggestions.list_,
    suggestions.accept,
    suggestions.reject,
    suggestions.accept_all,
    suggestions.reject_all,
    suggestions.wait,
    suggestions.checkpoints,
    suggestions.revert,
    window_review.list_suggestions,
    window_review.accept,
    window_review.reject,
    window_review.accept_all,
    window_review.reject_all,
)
