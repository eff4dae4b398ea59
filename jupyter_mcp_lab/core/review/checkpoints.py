"""Checkpoints: every applied agent change, recorded so a person can see and revert it."""

from __future__ import annotations

from ..documents import OpenDocument
from ..errors import DomainError
from ..history import change_between
from ..revision import revision_of
from ..suggestions import Checkpoint, map_range
from ..suggestions.model import Source
from .base import ReviewBase
from .policy import Author

PRUNE_EVERY = 20
KEEP_CHECKPOINT_TEXTS = 100


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
        c = change_between(before, after)
        cp = Checkpoint(
            path=doc.key,
            before_revision=revision_of(before),
            after_revision=revision_of(after),
            start=c.start,
            old=c.old,
            new=c.new,
            author=who.name,
            user=who.user,
            session=who.session,
            source=source,
            suggestion_id=suggestion_id,
            grant_id=grant_id,
            label=label,
            rationale=rationale,
        )
        self.store.add_checkpoint(cp, texts={cp.after_revision: after})
        self._since_prune += 1
        if self._since_prune >= PRUNE_EVERY:
            # Each checkpoint keeps its whole after-text (to map a revert through later edits):
            # only the newest ones keep it, or a long agent run would fill the disk.
            self.store.prune_texts(KEEP_CHECKPOINT_TEXTS)
            self._since_prune = 0
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
            after_text = self.store.get_text(cp.after_revision)

            def change(current: str) -> str:
                end = cp.start + len(cp.new)
                if revision_of(current) == cp.after_revision:
                    where: tuple[int, int] | None = (cp.start, end)
                elif after_text is None:
                    raise DomainError(
                        "CONFLICT",
                        f"checkpoint {id} is older than the last {KEEP_CHECKPOINT_TEXTS} and the document "
                        "changed since; revert it by hand",
                        checkpointId=id,
                    )
                else:
                    where = map_range(after_text, current, cp.start, end, cp.new)
                if where is None:
                    raise DomainError(
                        "CONFLICT",
                        "the checkpoint's change was edited since; revert it by hand",
                        checkpointId=id,
                    )
                return current[: where[0]] + cp.old + current[where[1] :]

            before, after = await self.docs.commit(
                doc, change, save=doc.path is not None and not doc.dirty, label="revert checkpoint"
            )
            undo = self.checkpoint(doc, before, after, Author(by, by), "revert", label=f"revert of {id}")
            assert undo is not None
            self.store.mark_reverted(id, undo.id)
            return undo
