"""Checkpoints: every applied agent change, newest first, with its diff and a way back."""

from __future__ import annotations

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.errors import DomainError
from ...core.suggestions import Checkpoint as Record
from ...core.suggestions import SuggestionStore
from ...core.suggestions.model import line_span
from .base import ApiHandler, unified_diff
from .models import Checkpoint, CheckpointDetail, CheckpointList


class Texts:
    """The store's texts by revision, each read once per request (a list shows many
    checkpoints of the same few documents)."""

    def __init__(self, store: SuggestionStore) -> None:
        self.store = store
        self._texts: dict[str, str | None] = {}

    def __call__(self, revision: str) -> str | None:
        if revision not in self._texts:
            self._texts[revision] = self.store.get_text(revision)
        return self._texts[revision]


def touched_lines(cp: Record, texts: Texts) -> tuple[int, int] | None:
    """1-based first and last line of the change in the text after it (else before it);
    None once neither text is stored."""
    after = texts(cp.after_revision)
    if after is not None and after[cp.start : cp.start + len(cp.new)] == cp.new:
        return line_span(after, cp.start, cp.start + len(cp.new))
    before = texts(cp.before_revision)
    if before is not None and before[cp.start : cp.start + len(cp.old)] == cp.old:
        return line_span(before, cp.start, cp.start + len(cp.old))
    return None


def checkpoint_json(handler: ApiHandler, cp: Record, texts: Texts | None = None) -> dict[str, object]:
    """The record plus the lines it touched. Checkpoints made before rationales were stored
    with them take their accepted suggestion's."""
    store = handler.services.reviews.store
    lines = touched_lines(cp, texts or Texts(store))
    rationale = cp.rationale
    if not rationale and cp.suggestion_id and (suggestion := store.get(cp.suggestion_id)) is not None:
        rationale = suggestion.rationale
    return {
        **cp.to_json(),
        "lineStart": lines[0] if lines else None,
        "lineEnd": lines[1] if lines else None,
        "rationale": rationale,
    }


def checkpoint_diff(handler: ApiHandler, cp: Record) -> str:
    """old → new in the document around it, when a stored text still shows where it was.

    The store keeps the text after each checkpoint (and usually the one before); once
    those are pruned the diff shows the changed text alone, without context lines.
    """
    store = handler.services.reviews.store
    after = store.get_text(cp.after_revision)
    if after is not None and after[cp.start : cp.start + len(cp.new)] == cp.new:
        before = after[: cp.start] + cp.old + after[cp.start + len(cp.new) :]
        return unified_diff(before, after, cp.path)
    before_text = store.get_text(cp.before_revision)
    if before_text is not None and before_text[cp.start : cp.start + len(cp.old)] == cp.old:
        after = before_text[: cp.start] + cp.new + before_text[cp.start + len(cp.old) :]
        return unified_diff(before_text, after, cp.path)
    return unified_diff(cp.old, cp.new, cp.path)


class CheckpointsHandler(ApiHandler):
    """GET ``checkpoints?path=&limit=``: newest first."""

    query_args = {"GET": frozenset({"path", "limit"})}
    responses = {"GET": CheckpointList}

    @web.authenticated
    @authorized
    def get(self) -> None:
        path = self.query_path()
        limit = self.query_int("limit", 100, 1, 1000)
        store = self.services.reviews.store
        found = store.list_checkpoints(path, limit)
        texts = Texts(store)
        listed = [Checkpoint.model_validate(checkpoint_json(self, c, texts)) for c in found]
        self.reply(CheckpointList(checkpoints=listed, count=len(found)))


class CheckpointHandler(ApiHandler):
    """GET ``checkpoints/{id}``: the record plus its diff."""

    responses = {"GET": CheckpointDetail}

    @web.authenticated
    @authorized
    def get(self, id: str) -> None:
        cp = self.services.reviews.store.get_checkpoint(id)
        if cp is None:
            raise DomainError("NOT_FOUND", f"no checkpoint {id!r}", checkpointId=id)
        self.reply(CheckpointDetail.model_validate({**checkpoint_json(self, cp), "diff": checkpoint_diff(self, cp)}))


class RevertHandler(ApiHandler):
    """POST ``checkpoints/{id}/revert``: undo that change where it is now.

    The answer is the new checkpoint the revert made (itself revertible). 409 when the
    change was edited since (it cannot be mapped) or was reverted already.
    """

    responses = {"POST": Checkpoint}

    @web.authenticated
    @authorized
    async def post(self, id: str) -> None:
        self.refuse_if_read_only()
        undo = await self.services.reviews.revert(id, by=self.decider())
        self.reply(Checkpoint.model_validate(checkpoint_json(self, undo)))
