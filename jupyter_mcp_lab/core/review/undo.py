"""Undo of a rejection: a person takes back a reject they made moments ago.

The panel rejects at once (every window and an agent's ``wait`` see the decision) and
offers Undo for a few seconds; Undo reopens the suggestion, which every window then lists
again. The server allows it for ``UNDO_SECONDS`` after the rejection (longer than the offer,
for a slow network), only to a person (the REST API: agents' keys never reach it), and only
while the suggestion is still rejected. An agent that already acted on the rejection sees
the suggestion pending again if it looks.
"""

from __future__ import annotations

import time

from ..errors import DomainError
from ..suggestions import Suggestion
from ..suggestions.reopen import reopen_rejected
from .base import ReviewBase

UNDO_SECONDS = 60.0


async def undo_reject(review: ReviewBase, id: str, now: float | None = None) -> Suggestion:
    """Reopen suggestion ``id``, rejected less than ``UNDO_SECONDS`` ago.

    NOT_FOUND for an unknown id; CONFLICT when it is not rejected or was rejected too long
    ago (nothing changes then).
    """
    now = time.time() if now is None else now
    async with review._decide:  # one decision at a time, as accept and reject are made
        s = review.store.get(id)
        if s is None:
            raise DomainError("NOT_FOUND", f"no suggestion {id!r}", suggestionId=id)
        if s.status != "rejected":
            raise DomainError(
                "CONFLICT", f"suggestion {id} is {s.status}, not rejected: nothing to undo", suggestionId=id
            )
        reopened = reopen_rejected(review.store, id, since=now - UNDO_SECONDS)
        if reopened is None:
            raise DomainError(
                "CONFLICT",
                f"suggestion {id} was rejected more than {UNDO_SECONDS:g} s ago: it can no longer be undone",
                suggestionId=id,
            )
        review.events.publish("suggestion", action="reopened", suggestion=reopened.to_json())
        return reopened
