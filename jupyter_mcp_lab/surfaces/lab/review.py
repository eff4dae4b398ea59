"""The lab profile's ``review`` tool: suggestions and checkpoints."""

from __future__ import annotations

from ...ops.review import checkpoints, suggestions
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

REVIEW = CompositeTool(
    name="review",
    title="Review",
    description=(
        "A person approves changes here: under the 'suggest' policy your edits are staged as suggestions "
        "(result: suggestionIds, applied=false). list → suggestions {id, kind, lines, original, new, status} "
        "(one document's: also currentStart/currentEnd, where each is now); wait: until the person decided "
        "(with progress); reject withdraws yours; accept, accept_all and reject_all (default: your "
        "focused tab) and revert need a person's grant; checkpoints: applied changes."
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
    describe={
        "path": "One document's.",
        "tabId": "One document's.",
        "suggestionIds": "wait: default your pending ones.",
        "seconds": "",
        "checkpointId": "",
        "limit": "",
        "mine": "Only this session's.",
        "status": "Default pending.",
    },
)
