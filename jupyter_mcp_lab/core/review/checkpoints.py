"""Checkpoints: every applied agent change, recorded so a person can see and revert it.

A checkpoint keeps its change as a diff (the changed places with a few lines of context,
``suggestions.patch``), not the texts: the store prunes them by its retention policy."""

from __future__ import annotations

import json

from ..content.notebook import NotebookContent
from ..documents import OpenDocument
from ..errors import DomainError
from ..revision import revision_of
from ..suggestions import Checkpoint
from ..suggestions import patch as diffs
from ..suggestions.model import Source
from .base import ReviewBase
from .cell_changes import cell_changes
from .policy import Author


class CheckpointsMixin(ReviewBase):
    def checkpoint(
        self,
        doc: OpenDocument,
        before: str,
        after: str,
        who: Author,
        source: Source,
        *,
        suggestion_id: str | None = None,
        grant_id: str | None = None,
        label: str = "",
        rationale: str = "",
    ) -> Checkpoint | None:
        """Record an applied agent change so a person can see and revert it."""
        if before == after:
            return None
        hunks = diffs.hunks_between(before, after)
        start, old, new = diffs.summary(hunks)
        cells = None
        if doc.kind == "notebook":  # told by cell; the edit parsed ``before`` already, mostly
            known = doc.parsed(before)
            cells = cell_changes(before, after, known.cells if isinstance(known, NotebookContent) else None)
        cp = Checkpoint(
            path=doc.key,
            before_revision=revision_of(before),
            after_revision=revision_of(after),
            start=start,
            old=old,
            new=new,
            hunks=hunks,
            author=who.name,
            user=who.user,
            session=who.session,
            source=source,
            suggestion_id=suggestion_id,
            grant_id=grant_id,
            label=label,
            rationale=rationale,
            cells=json.dumps(cells) if cells and cells["changes"] else None,
        )
        self.store.add_checkpoint(cp)
        self.events.publish("checkpoint", action="created", checkpoint=cp.to_json())
        self.events.publish("document", path=doc.key, revision=cp.after_revision)
        return cp

    async def revert(self, id: str, by: str) -> Checkpoint:
        """Undo one checkpoint's change where it is now; refused when it was edited since."""
        async with self._decide:
            cp = self.store.get_checkpoint(id)
            if cp is None:
                raise DomainError("NOT_FOUND", f"no checkpoint {id!r}", checkpointId=id)
            if cp.reverted_by:
                raise DomainError("CONFLICT", f"checkpoint {id} was already reverted", checkpointId=id)
            doc = await self._document(cp.path)

            def change(current: str) -> str:
                # Where it was put while nothing changed since; else found by its context.
                undone = diffs.revert(cp.hunks, current, exact=revision_of(current) == cp.after_revision)
                if undone is None:
                    raise DomainError(
                        "CONFLICT",
                        "the checkpoint's change was edited since; revert it by hand",
                        checkpointId=id,
                    )
                return undone

            before, after = await self.docs.commit(
                doc, change, save=doc.path is not None and not doc.dirty, label="revert checkpoint"
            )
            undo = self.checkpoint(doc, before, after, Author(by, by), "revert", label=f"revert of {id}")
            assert undo is not None
            self.store.mark_reverted(id, undo.id)
            return undo
