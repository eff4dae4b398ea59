"""Suggestions as a person reviews them: list, one with its diff, accept or reject, all at once.

The person making the request decides (``decidedBy``); the review service does the work
(mapping through later edits, conflicts, checkpoints, events), so these handlers only
translate HTTP to its calls and its records to JSON.

``GET suggestions?path=&locate=true`` also says where each pending suggestion's original
text is in the document now (``currentStart``/``currentEnd``, code points into the text
the server reads now, or null when it cannot be placed) with that text's ``revision``:
what an editor needs to show pending suggestions inline. The placing is the one accepting
uses (``Review.locate``), so a suggestion shown at a range is accepted at that range.
"""

from __future__ import annotations

from jupyter_server.auth.decorator import authorized
from pydantic import MISSING
from tornado import web

from ...core.errors import ArgumentError
from ...core.suggestions import Region
from ...core.suggestions import Suggestion as Record
from .base import ApiHandler, unified_diff
from .models import AcceptAllResult, RejectAllResult, Selection, Suggestion, SuggestionDetail, SuggestionList

STATUS_FILTERS = ("pending", "accepted", "rejected", "conflict", "all")


def suggestion_diff(handler: ApiHandler, s: Record) -> str | None:
    """The hunk against its base text, or None once that text is gone (pruned)."""
    base = handler.services.reviews.store.get_text(s.base_revision)
    if base is None or base[s.start : s.end] != s.original:
        return None
    return unified_diff(base, base[: s.start] + s.new + base[s.end :], s.path)


class SuggestionsHandler(ApiHandler):
    """GET ``suggestions?path=&status=&limit=&locate=``: in document order, with per-path counts.

    With ``locate=true`` each suggestion also has ``currentStart`` and ``currentEnd``:
    where its original text is in its document now (code points into the text the server
    reads now), or null when it is no longer pending or cannot be placed (its text changed:
    accepting it would conflict). With ``path`` the answer has that document's ``revision``
    (the text the offsets index into); a document that cannot be read (no such file, not
    UTF-8 text) places nothing and has revision null.
    """

    query_args = {"GET": frozenset({"path", "status", "limit", "locate"})}
    responses = {"GET": SuggestionList}

    @web.authenticated
    @authorized
    async def get(self) -> None:
        path = self.query_path()
        status = self.query_choice("status", STATUS_FILTERS, "pending")
        limit = self.query_int("limit", 500, 1, 1000)
        locate = self.query_bool("locate") or False
        store = self.services.reviews.store
        found = store.list(path=path, status=None if status == "all" else status, limit=limit)
        items = [s.to_json() for s in found]
        revision: str | MISSING | None = MISSING  # only a located list says which text it placed in
        if locate:
            keys = [path] if path is not None else sorted({s.path for s in found if s.status == "pending"})
            texts = {key: await self.services.reviews.current_text(key) for key in keys}
            diffs: dict[str, dict[str, list[Region]]] = {}  # per document, one diff per base revision
            items = [
                {**item, **self._placed(s, texts.get(s.path), diffs.setdefault(s.path, {}))}
                for s, item in zip(found, items, strict=True)
            ]
            now = texts.get(path) if path is not None else None
            revision = now[1] if now is not None else None
        listed = [Suggestion.model_validate(item) for item in items]
        self.reply(SuggestionList(suggestions=listed, count=len(found), revision=revision, counts=store.counts()))

    def _placed(
        self, s: Record, current: tuple[str, str] | None, diffs: dict[str, list[Region]]
    ) -> dict[str, int | None]:
        """``currentStart``/``currentEnd``: where accepting ``s`` would apply it now, if anywhere."""
        where = None
        if current is not None and s.status == "pending":
            where = self.services.reviews.locate(s, current[0], current[1], diffs)
        return {"currentStart": where[0] if where else None, "currentEnd": where[1] if where else None}


class SuggestionHandler(ApiHandler):
    """GET ``suggestions/{id}``: the record plus a unified diff of its hunk."""

    responses = {"GET": SuggestionDetail}

    @web.authenticated
    @authorized
    def get(self, id: str) -> None:
        s = self.services.reviews.get(id)
        self.reply(SuggestionDetail.model_validate({**s.to_json(), "diff": suggestion_diff(self, s)}))


class DecideHandler(ApiHandler):
    """POST ``suggestions/{id}/accept`` and ``.../reject``.

    Accepting may end in ``conflict`` (the text moved away): that is a decision too, so it
    answers 200 with the record. Deciding one that is no longer pending is 409.
    """

    responses = {"POST": Suggestion}

    @web.authenticated
    @authorized
    async def post(self, id: str, action: str) -> None:
        review = self.services.reviews
        if action == "accept":
            self.refuse_if_read_only()
            decided = await review.accept(id, by=self.decider())
        else:
            decided = await review.reject(id, by=self.decider())
        self.reply(Suggestion.model_validate(decided.to_json()))


class DecideAllHandler(ApiHandler):
    """POST ``suggestions/accept-all`` or ``suggestions/reject-all`` with ``{path?, ids?}``.

    With ``ids`` exactly those (each must exist; with ``path`` too, each must be on it);
    with ``path`` alone every pending one of that document. Never "everything": an empty
    selection is refused rather than read as all documents.
    """

    def selection(self) -> tuple[str | None, list[str] | None]:
        """(document key, ids) the body names; None for what it leaves out."""
        body = self.json_body(Selection)
        if body.path is MISSING and body.ids is MISSING:
            raise ArgumentError("name the suggestions: give path, ids, or both", "path")
        key = self.document_key(body.path) if body.path is not MISSING else None
        return key, body.ids if body.ids is not MISSING else None


class AcceptAllHandler(DecideAllHandler):
    responses = {"POST": AcceptAllResult}

    @web.authenticated
    @authorized
    async def post(self) -> None:
        key, ids = self.selection()
        self.refuse_if_read_only()
        result = await self.services.reviews.accept_all(self.decider(), path=key, ids=ids)
        self.reply(
            AcceptAllResult(
                accepted=[Suggestion.model_validate(s.to_json()) for s in result.accepted],
                conflicts=[Suggestion.model_validate(s.to_json()) for s in result.conflicts],
                revision=result.revision,
            )
        )


class RejectAllHandler(DecideAllHandler):
    responses = {"POST": RejectAllResult}

    @web.authenticated
    @authorized
    async def post(self) -> None:
        key, ids = self.selection()
        rejected = await self.services.reviews.reject_all(self.decider(), path=key, ids=ids)
        self.reply(RejectAllResult(rejected=[Suggestion.model_validate(s.to_json()) for s in rejected]))
