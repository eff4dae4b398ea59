"""Suggestions as a person reviews them: list, one with its diff, accept or reject, all at once.

The person making the request decides (``decidedBy``); the review service does the work
(mapping through later edits, conflicts, checkpoints, events), so these handlers only
translate HTTP to its calls and its records to JSON.
"""

from __future__ import annotations

from typing import Annotated, Any

from jupyter_server.auth.decorator import authorized
from pydantic import BaseModel, ConfigDict, Field, field_validator
from tornado import web

from ...core.errors import ArgumentError
from ...core.suggestions import Suggestion
from .base import ApiHandler, unified_diff

STATUS_FILTERS = ("pending", "accepted", "rejected", "conflict", "all")


def suggestion_diff(handler: ApiHandler, s: Suggestion) -> str | None:
    """The hunk against its base text, or None once that text is gone (pruned)."""
    base = handler.services.reviews.store.get_text(s.base_revision)
    if base is None or base[s.start : s.end] != s.original:
        return None
    return unified_diff(base, base[: s.start] + s.new + base[s.end :], s.path)


class SuggestionsHandler(ApiHandler):
    """GET ``suggestions?path=&status=&limit=``: in document order, with per-path counts."""

    query_args = {"GET": frozenset({"path", "status", "limit"})}

    @web.authenticated
    @authorized
    def get(self) -> None:
        path = self.query_path()
        status = self.query_choice("status", STATUS_FILTERS, "pending")
        limit = self.query_int("limit", 500, 1, 1000)
        store = self.services.reviews.store
        found = store.list(path=path, status=None if status == "all" else status, limit=limit)
        self.reply({"suggestions": [s.to_json() for s in found], "count": len(found), "counts": store.counts()})


class SuggestionHandler(ApiHandler):
    """GET ``suggestions/{id}``: the record plus a unified diff of its hunk."""

    @web.authenticated
    @authorized
    def get(self, id: str) -> None:
        s = self.services.reviews.get(id)
        self.reply({**s.to_json(), "diff": suggestion_diff(self, s)})


class DecideHandler(ApiHandler):
    """POST ``suggestions/{id}/accept`` and ``.../reject``.

    Accepting may end in ``conflict`` (the text moved away): that is a decision too, so it
    answers 200 with the record. Deciding one that is no longer pending is 409.
    """

    @web.authenticated
    @authorized
    async def post(self, id: str, action: str) -> None:
        review = self.services.reviews
        if action == "accept":
            self.refuse_if_read_only()
            decided = await review.accept(id, by=self.decider())
        else:
            decided = await review.reject(id, by=self.decider())
        self.reply(decided.to_json())


class Selection(BaseModel):
    """Which suggestions accept-all / reject-all decide: a document's pending ones, or ids."""

    model_config = ConfigDict(strict=True, extra="forbid")
    path: str | None = Field(None, min_length=1)
    ids: list[Annotated[str, Field(min_length=1)]] | None = Field(None, min_length=1, max_length=1000)

    @field_validator("path", "ids", mode="before")
    @classmethod
    def _no_null(cls, value: Any) -> Any:
        # Leave a key out to mean "any"; an explicit null is more likely a client bug.
        if value is None:
            raise ValueError("must not be null (leave it out instead)")
        return value


class DecideAllHandler(ApiHandler):
    """POST ``suggestions/accept-all`` and ``suggestions/reject-all`` with ``{path?, ids?}``.

    With ``ids`` exactly those (each must exist; with ``path`` too, each must be on it);
    with ``path`` alone every pending one of that document. Never "everything": an empty
    selection is refused rather than read as all documents.
    """

    @web.authenticated
    @authorized
    async def post(self, action: str) -> None:
        body = self.json_body(Selection)
        if body.path is None and body.ids is None:
            raise ArgumentError("name the suggestions: give path, ids, or both", "path")
        review = self.services.reviews
        key = self.document_key(body.path) if body.path is not None else None
        ids = body.ids
        if action == "accept":
            self.refuse_if_read_only()
            result = await review.accept_all(self.decider(), path=key, ids=ids)
            self.reply(
                {
                    "accepted": [s.to_json() for s in result.accepted],
                    "conflicts": [s.to_json() for s in result.conflicts],
                    "revision": result.revision,
                }
            )
        else:
            rejected = await review.reject_all(self.decider(), path=key, ids=ids)
            self.reply({"rejected": [s.to_json() for s in rejected]})
