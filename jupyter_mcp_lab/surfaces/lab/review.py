"""The lab profile's ``review`` tool: suggestions and checkpoints."""

from __future__ import annotations

from ..base import CompositeTool

REVIEW = CompositeTool(
    name="review",
    title="Suggestions and checkpoints",
    description=(
        "A person approves changes here: under the server's 'suggest' policy your edits are staged as "
        "suggestions (the result has suggestionIds, applied=false). list {path?, status?, mine?} → suggestions "
        "with id, kind, lines, original/new, status; wait {suggestionIds?, seconds?} blocks until the person "
        "decided (progress meanwhile); reject {suggestionIds} withdraws yours; accept {suggestionIds}, "
        "accept_all/reject_all {path}, revert {checkpointId} need a person's grant; checkpoints {path?} lists "
        "applied changes."
    ),
    actions={
        "list": "review.list",
        "wait": "review.wait",
        "accept": "review.accept",
        "reject": "review.reject",
        "accept_all": "review.accept_all",
        "reject_all": "review.reject_all",
        "checkpoints": "review.checkpoints",
        "revert": "review.revert",
    },
)
