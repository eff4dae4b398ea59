"""Checkpoints: every applied agent change, newest first, with its diff and a way back."""

from __future__ import annotations

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.errors import DomainError
from ...core.suggestions import Checkpoint as Record
from ...core.suggestions import patch
from .base import ApiHandler
from .decisions import person_decision
from .models import Checkpoint, CheckpointDetail, CheckpointList


def checkpoint_json(handler: ApiHandler, cp: Record) -> dict[str, object]:
    """The record plus the lines it touched (from its diff). Checkpoints made before
    rationales were stored with them take their accepted suggestion's."""
    store = handler.services.reviews.store
    lines = patch.touched_lines(cp.hunks)
    rationale = cp.rationale
    if not rationale and cp.suggestion_id and (suggestion := store.get(cp.suggestion_id)) is not None:
        rationale = suggestion.rationale
    return {
        **cp.to_json(),
        "lineStart": lines[0] if lines else None,
        "lineEnd": lines[1] if lines else None,
        "rationale": rationale,
    }


def checkpoint_diff(cp: Record) -> str:
    """old → new with the context lines the checkpoint keeps (none for one from before
    checkpoints kept their context)."""
    return patch.unified_diff(cp.hunks, cp.path)


class CheckpointsHandler(ApiHandler):
    """GET ``checkpoints?path=&limit=``: newest first."""

    query_args = {"GET": frozenset({"path", "limit"})}
    responses = {"GET": CheckpointList}

    @web.authenticated
    @authorized
    def get(self) -> None:
        path = self.query_path()
        limit = self.query_int("limit", 100, 1, 1000)
        found = self.services.reviews.store.list_checkpoints(path, limit)
        listed = [Checkpoint.model_validate(checkpoint_json(self, c)) for c in found]
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
        self.reply(CheckpointDetail.model_validate({**checkpoint_json(self, cp), "diff": checkpoint_diff(cp)}))


class RevertHandler(ApiHandler):
    """POST ``checkpoints/{id}/revert``: undo that change where it is now.

    The answer is the new checkpoint the revert made (itself revertible). 409 when the
    change was edited since (it cannot be mapped) or was reverted already.
    """

    responses = {"POST": Checkpoint}

    @web.authenticated
    @authorized
    @person_decision("checkpoint.revert")
    async def post(self, id: str) -> None:
        self.refuse_if_read_only()
        undo = await self.services.reviews.revert(id, by=self.decider())
        self.reply(Checkpoint.model_validate(checkpoint_json(self, undo)))
