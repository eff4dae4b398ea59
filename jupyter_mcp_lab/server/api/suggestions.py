"""Suggestions as a person reviews them: list, one with its diff, accept or reject, all at once.

The person making the request decides (``decidedBy``); the review service does the work
(mapping through later edits, conflicts, checkpoints, events), so these handlers only
translate HTTP to its calls and its records to JSON.

``GET suggestions?path=&locate=true`` also says where each pending suggestion's original
text is in the document now (``currentStart``/``currentEnd``, code points into the text
the server reads now, or null when it cannot be placed) with that text's ``revision``:
what an editor needs to show pending suggestions inline. The placing is the one accepting
uses (``Review.locate``), so a suggestion shown at a range is accepted at that range.
With ``context=N`` each suggestion carries N lines around it, for a diff with context: of
the current text where a located list placed it, else of its base text;
``status=decided&order=recent`` lists the last decisions first.

``suggestions/{id}/reapply`` previews (GET) and does (POST) re-applying a pending or
conflicted suggestion to the document's current text (``core.review.reapply``).
"""

from __future__ import annotations

from typing import Any, Literal

from jupyter_server.auth.decorator import authorized
from pydantic import MISSING
from tornado import web

from ...core.content import NotebookContent, content_of
from ...core.content.part_edits import PartEdit
from ...core.errors import ArgumentError, DomainError
from ...core.kinds import kind_for
from ...core.suggestions import Region
from ...core.suggestions import Suggestion as Record
from .base import ApiHandler, unified_diff
from .decisions import person_decision
from .models import (
    AcceptAllResult,
    Reapply,
    ReapplyPreview,
    ReapplyResult,
    RejectAllResult,
    Selection,
    Suggestion,
    SuggestionDetail,
    SuggestionList,
)

STATUS_FILTERS = ("pending", "accepted", "rejected", "conflict", "open", "decided", "all")
# What a person still has to act on (a conflict stays until re-applied or dismissed), and what was decided.
GROUPS = {"open": ("pending", "conflict"), "decided": ("accepted", "rejected", "conflict")}
# A line of context longer than this is cut: a minified file must not make the list huge.
CONTEXT_CHARS = 2_000


def context_around(text: str, start: int, end: int, lines: int) -> tuple[str, str]:
    """The text from the start of the line ``lines`` above ``start``'s to ``start``, and from
    ``end`` to the end of the line ``lines`` below ``end``'s (line break included): whole
    lines around the change, each side cut at CONTEXT_CHARS."""
    a = text.rfind("\n", 0, start) + 1
    for _ in range(lines):
        if a == 0:
            break
        a = text.rfind("\n", 0, a - 1) + 1
    b = end
    for _ in range(lines + (0 if end == 0 or text[end - 1] == "\n" else 1)):
        nl = text.find("\n", b)
        b = len(text) if nl < 0 else nl + 1
    return text[max(a, start - CONTEXT_CHARS) : start], text[end : min(b, end + CONTEXT_CHARS)]


def changed_text(base: str | None, s: Record) -> tuple[str, str] | None:
    """The text ``s`` changes and what it becomes: its base document's text, or for a change
    to one part (a notebook cell, an outline row's topic) that part's text; None once the base
    text is gone (pruned), or for a structural change that moves or sets fields without
    changing a text."""
    if base is None:
        return None
    if s.part is None:
        return (base, base[: s.start] + s.new + base[s.end :]) if base[s.start : s.end] == s.original else None
    edit = PartEdit.from_record(s.part, s.change, s.start, s.end, s.original, s.new)
    if edit.op == "insert":  # a cell's source, a row's topic
        source = edit.fields.get("source", edit.fields.get("topic", ""))
        return "", "".join(source) if isinstance(source, list) else str(source)
    try:
        text = content_of(kind_for(s.path), base).part(s.part).text
    except DomainError:
        return None
    if edit.op == "delete":
        return text, ""
    if edit.op == "set" and "topic" in edit.fields:  # a row's topic
        return text, str(edit.fields["topic"])
    if edit.op != "text" or text[s.start : s.end] != s.original:
        return None
    return text, text[: s.start] + s.new + text[s.end :]


def suggested_cell(base: str | None, s: Record, parsed: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The notebook cell ``s`` changes as its base text has it (index, type, output count,
    tags), or None: an inserted cell, not a notebook's cell, or the base text gone.
    ``parsed`` keeps one parse per base revision (suggestions staged together share it)."""
    if base is None or s.part is None or kind_for(s.path) != "notebook":
        return None
    cache = {} if parsed is None else parsed
    if s.base_revision not in cache:
        try:
            cache[s.base_revision] = content_of("notebook", base)
        except DomainError:
            cache[s.base_revision] = None
    nb = cache[s.base_revision]
    if not isinstance(nb, NotebookContent) or s.part not in {c["id"] for c in nb.cells}:
        return None
    cell = nb.cell(s.part)
    tags = (cell.get("metadata") or {}).get("tags")
    return {
        "index": nb.index_of(s.part),
        "cellType": cell["cell_type"],
        "outputCount": len(cell.get("outputs") or []),
        "tags": [str(t) for t in tags] if isinstance(tags, list) else [],
    }


def suggestion_diff(handler: ApiHandler, s: Record) -> str | None:
    """The hunk against its base text (a cell's text for a cell's change), or None once
    that text is gone (pruned) or the change has no text (a move)."""
    texts = changed_text(handler.services.reviews.store.get_text(s.base_revision), s)
    if texts is None:
        return None
    return unified_diff(*texts, s.path if s.part is None else f"{s.path}#{s.part}")


class SuggestionsHandler(ApiHandler):
    """GET ``suggestions?path=&status=&limit=&locate=``: in document order, with per-path counts.

    With ``locate=true`` each suggestion also has ``currentStart`` and ``currentEnd``:
    where its original text is in its document now (code points into the text the server
    reads now), or null when it is no longer pending or cannot be placed (its text changed:
    accepting it would conflict). With ``path`` the answer has that document's ``revision``
    (the text the offsets index into); a document that cannot be read (no such file, not
    UTF-8 text) places nothing and has revision null.
    """

    query_args = {"GET": frozenset({"path", "status", "limit", "locate", "context", "order"})}
    responses = {"GET": SuggestionList}

    @web.authenticated
    @authorized
    async def get(self) -> None:
        path = self.query_path()
        status = self.query_choice("status", STATUS_FILTERS, "pending")
        limit = self.query_int("limit", 500, 1, 1000)
        locate = self.query_bool("locate") or False
        context = self.query_int("context", 0, 0, 10) if self.query("context") is not None else None
        order: Literal["document", "recent"] = (
            "recent" if self.query_choice("order", ("document", "recent"), "document") == "recent" else "document"
        )
        store = self.services.reviews.store
        wanted = None if status == "all" else GROUPS.get(status, status)
        found = store.list(path=path, status=wanted, limit=limit, order=order)
        items = [s.to_json() for s in found]
        revision: str | MISSING | None = MISSING  # only a located list says which text it placed in
        texts: dict[str, tuple[str, str] | None] = {}
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
        if context is not None:
            bases: dict[str, str | None] = {}  # one read per base revision
            parsed: dict[str, Any] = {}  # one parse per notebook's base revision
            items = [
                {
                    **item,
                    **self._context(s, context, bases, item, texts.get(s.path)),
                    "cell": suggested_cell(bases[s.base_revision], s, parsed),
                }
                for s, item in zip(found, items, strict=True)
            ]
        listed = [Suggestion.model_validate(item) for item in items]
        self.reply(SuggestionList(suggestions=listed, count=len(found), revision=revision, counts=store.counts()))

    def _context(
        self,
        s: Record,
        lines: int,
        bases: dict[str, str | None],
        item: dict[str, Any],
        current: tuple[str, str] | None,
    ) -> dict[str, str | None]:
        """``contextBefore``/``contextAfter``: ``lines`` lines around ``s`` of the text it will
        change: the current text where a located list placed it, else its base text. After a
        neighbouring suggestion was accepted, the card then shows the neighbour's new wording."""
        if s.base_revision not in bases:
            bases[s.base_revision] = self.services.reviews.store.get_text(s.base_revision)
        start = item.get("currentStart")
        if current is not None and s.part is None and start is not None:
            before, after = context_around(current[0], start, item["currentEnd"], lines)
            return {"contextBefore": before, "contextAfter": after}
        texts = changed_text(bases[s.base_revision], s)
        if texts is None or (s.part is not None and s.change is not None):
            return {"contextBefore": None, "contextAfter": None}  # a whole cell has no context
        before, after = context_around(texts[0], s.start, s.end, lines)
        return {"contextBefore": before, "contextAfter": after}

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
        base = self.services.reviews.store.get_text(s.base_revision)
        detail = {**s.to_json(), "diff": suggestion_diff(self, s), "cell": suggested_cell(base, s)}
        self.reply(SuggestionDetail.model_validate(detail))


class DecideHandler(ApiHandler):
    """POST ``suggestions/{id}/accept`` and ``.../reject``.

    Accepting may end in ``conflict`` (the text moved away): that is a decision too, so it
    answers 200 with the record. Deciding one that is no longer pending is 409.
    """

    responses = {"POST": Suggestion}

    @web.authenticated
    @authorized
    @person_decision("suggestion.{action}")
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
    @person_decision("suggestions.accept_all")
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
    @person_decision("suggestions.reject_all")
    async def post(self) -> None:
        key, ids = self.selection()
        rejected = await self.services.reviews.reject_all(self.decider(), path=key, ids=ids)
        self.reply(RejectAllResult(rejected=[Suggestion.model_validate(s.to_json()) for s in rejected]))


class ReapplyHandler(ApiHandler):
    """GET ``suggestions/{id}/reapply``: where re-applying it would stage its change now;
    POST (``{expectedRevision?}``): do it. A pending or conflicted suggestion only (409)."""

    responses = {"GET": ReapplyPreview, "POST": ReapplyResult}

    @web.authenticated
    @authorized
    async def get(self, id: str) -> None:
        plan = await self.services.reviews.reapply_plan(id)
        r = plan.rebased
        before, after = context_around(plan.text, r.start, r.end, 2)
        self.reply(
            ReapplyPreview(
                suggestionId=plan.suggestion.id,
                path=plan.suggestion.path,
                revision=plan.revision,
                start=r.start,
                end=r.end,
                lineStart=plan.line_start,
                lineEnd=plan.line_end,
                current=r.current,
                new=r.new,
                clean=r.clean,
                contextBefore=before,
                contextAfter=after,
            )
        )

    @web.authenticated
    @authorized
    @person_decision("suggestion.reapply")
    async def post(self, id: str) -> None:
        body = self.json_body(Reapply) if self.request.body else Reapply()
        expected = body.expectedRevision if body.expectedRevision is not MISSING else None
        old, fresh = await self.services.reviews.reapply(id, self.decider(), expected_revision=expected)
        self.reply(
            ReapplyResult(
                previous=Suggestion.model_validate(old.to_json()), suggestion=Suggestion.model_validate(fresh.to_json())
            )
        )
