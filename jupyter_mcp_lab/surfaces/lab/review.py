"""The lab profile's ``review`` tool: suggestions and checkpoints."""

from __future__ import annotations

from ...ops.review import checkpoints, suggestions
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

REVIEW = CompositeTool(
    name="review",
    title="Suggestions and checkpoints",
    description=(
        "A person approves changes here: under the server's 'suggest' policy your edits are staged as "
        "suggestions (the result has suggestionIds, applied=false). list {path? | tabId?, status?, mine?} → "
        "suggestions with id, kind, lines, original/new, status (for one document also currentStart/currentEnd: "
        "where each is now); wait {suggestionIds?, seconds?} blocks until the person decided (progress "
        "meanwhile); reject {suggestionIds} withdraws yours; accept {suggestionIds}, accept_all/reject_all "
        "{path | tabId} (default: your focused tab), revert {checkpointId} need a person's grant; "
        "checkpoints {path?} lists applied changes."
    ),
    actions={
        "list": suggestions.list_,
        "wait": suggestions.wait,
        "accept": suggestions.accept,
        "reject": suggestions.reject,
        "accept_all": suggestions.accept_all,
        "reject_all": suggestions.reject_all,
        "checkpoints": checkpoints.checkpoints,
        "revert": checkpoints.revert,
    },
    hidden=BY_PATH_OR_TAB,
)
