"""POST ``suggestions/{id}/reopen``: a person's Undo of a rejection made moments ago.

The panel offers Undo for a few seconds after a reject; this puts the suggestion back
(pending, or conflict for a dismissed conflict) when it was rejected less than
``UNDO_SECONDS`` ago and is still rejected (``core.review.undo``). A person's route only:
agents have no tool for it.
"""

from __future__ import annotations

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.review.undo import undo_reject
from .base import ApiHandler
from .decisions import person_decision
from .models import Suggestion


class ReopenHandler(ApiHandler):
    """404 for an unknown id; 409 when it is not rejected or the undo window has passed."""

    responses = {"POST": Suggestion}

    @web.authenticated
    @authorized
    @person_decision("suggestion.reopen")
    async def post(self, id: str) -> None:
        reopened = await undo_reject(self.services.reviews, id)
        self.reply(Suggestion.model_validate(reopened.to_json()))
