"""The review service: stage suggestions, accept or reject them, checkpoints, grants, waits.

Decisions go through one lock: people decide at human speed, and serializing them makes
"map the suggestion, apply it, mark it" one step that no other decision can interleave
with. The store's compare-and-set still guards against other processes (a standalone
server sharing the same database).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..content import DocumentContent, content_of, locate
from ..content.part_edits import PartEdit, apply_edits
from ..documents import OpenDocument
from ..errors import ArgumentError, DomainError
from ..kinds import DocumentKind, kind_for
from ..revision import revision_of
from ..suggestions import (
    Region,
    Suggestion,
    apply_many,
    map_range,
    new_id,
    regions,
)
from ..suggestions.model import line_span
from ..text import LineIndex
from .checkpoints import CheckpointsMixin
from .grants import GrantsMixin
from .hunks import hunks, kind_of
from .policy import Author
from .reapply import ReapplyMixin


def _source(value: object) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


Progress = Callable[[float, float | None, str | None], Awaitable[None]]


class _Conflict(Exception):
    """Raised inside a commit to leave the document untouched."""


@dataclass
class AcceptAllResult:
    accepted: list[Suggestion] = field(default_factory=list)
    conflicts: list[Suggestion] = field(default_factory=list)
    revision: str | None = None


class Review(CheckpointsMixin, GrantsMixin, ReapplyMixin):
    """Staging and deciding suggestions; checkpoints, grants and re-applying come from the mixins."""

    # ------------------------------------------------------------------ staging

    def stage(
        self,
        doc: OpenDocument,
        before: str,
        after: str,
        who: Author,
        *,
        operation: str,
        rationale: str = "",
        split: bool = True,
    ) -> list[Suggestion]:
        """Store the change ``before`` → ``after`` as pending suggestions (one per hunk)."""
        parts = hunks(before, after, split=split)
        if not parts:
            return []
        group = new_id("grp") if len(parts) > 1 else None
        index = LineIndex(before)
        revision = revision_of(before)
        out = []
        common = self._common(doc, who, revision, rationale=rationale, operation=operation, group=group)
        for start, end, new in parts:
            original = before[start:end]
            first, last = line_span(before, start, end, index)
            out.append(
                Suggestion(
                    **common,
                    kind=kind_of(original, new),
                    start=start,
                    end=end,
                    original=original,
                    new=new,
                    line_start=first,
                    line_end=last,
                )
            )
        return self._staged(out, revision, before)

    def stage_parts(
        self, doc: OpenDocument, before: str, edits: list[PartEdit], who: Author, *, operation: str, rationale: str = ""
    ) -> list[Suggestion]:
        """Store changes to parts of ``before`` (a notebook's cells, an outline's rows) as pending suggestions,
        one per edit, each located by its part's id when accepted."""
        if not edits:
            return []
        base = content_of(doc.kind, before)
        texts = {p.id: p.text for p in base.parts()}
        group = new_id("grp") if len(edits) > 1 else None
        revision = revision_of(before)
        out = []
        common = self._common(doc, who, revision, rationale=rationale, operation=operation, group=group)
        for e in edits:
            text = texts.get(e.part, "")
            original, new, start, end = text, text, 0, len(text)
            kind = {"insert": "insert", "delete": "delete", "move": "move", "set": "replace"}.get(e.op, "")
            if e.op == "text":
                original, new, start, end = e.original, e.new, e.start, e.end
                kind = kind_of(original, new)
            elif e.op == "insert":  # a cell's source, a row's topic
                original, new, start, end = "", _source(e.fields.get("source", e.fields.get("topic", ""))), 0, 0
            elif e.op == "delete":
                new = ""
            elif e.op == "set" and "topic" in e.fields:  # a row's new topic
                new = str(e.fields["topic"])
            first, last = line_span(original if e.op == "insert" else text, start, end)
            out.append(
                Suggestion(
                    **common,
                    kind=kind,
                    start=start,
                    end=end,
                    original=original,
                    new=new,
                    line_start=first,
                    line_end=last,
                    part=e.part,
                    change=e.change_json(),
                )
            )
        return self._staged(out, revision, before)

    @staticmethod
    def _common(doc: OpenDocument, who: Author, revision: str, **fields: Any) -> dict[str, Any]:
        """The fields every suggestion of one staging shares (document, author, base)."""
        return dict(path=doc.key, base_revision=revision, author=who.name, user=who.user, session=who.session, **fields)

    def _staged(self, out: list[Suggestion], revision: str, before: str) -> list[Suggestion]:
        """Store ``out`` (made against ``before``) and announce each."""
        self.store.add_many(out, texts={revision: before})
        for s in out:
            self.events.publish("suggestion", action="created", suggestion=s.to_json())
        return out

    # ------------------------------------------------------------------ decisions

    def get(self, id: str) -> Suggestion:
        s = self.store.get(id)
        if s is None:
            raise DomainError("NOT_FOUND", f"no suggestion {id!r}", suggestionId=id)
        return s

    def pending(self, path: str | None = None) -> list[Suggestion]:
        return self.store.list(path=path, status="pending")

    def _base(self, s: Suggestion) -> str | None:
        return self.store.get_text(s.base_revision)

    async def current_text(self, key: str) -> tuple[str, str] | None:
        """(text, revision) of document ``key`` as accepting would see it: the server's buffer
        when the document is open (following its file while clean), else the file, without
        opening a buffer for it; None when there is no such readable text."""
        doc = self.docs.find(key)
        try:
            if doc is not None:
                await self.docs.refresh(doc)
                return doc.text, doc.revision
            text = await self.docs.storage.read_text(key)
        except DomainError as exc:
            if exc.code in ("NOT_FOUND", "INVALID_PATH"):
                return None
            raise
        except OSError:  # e.g. a name too long for the file system: no such file
            return None
        return text, revision_of(text)

    def locate(
        self, s: Suggestion, current: str, revision: str, found: dict[str, list[Region]]
    ) -> tuple[int, int] | None:
        """Where ``s``'s range is in ``current`` (of ``revision``); None when its text changed.

        ``found`` keeps one diff per base revision: suggestions staged together share it.
        """
        if s.part is not None:
            return self._locate_part(s, current, revision)
        if revision == s.base_revision:
            return (s.start, s.end) if current[s.start : s.end] == s.original else None
        base = self._base(s)
        if base is None:
            return None
        diff = found.get(s.base_revision)
        if diff is None:
            diff = found[s.base_revision] = regions(base, current)
        return map_range(base, current, s.start, s.end, s.original, found=diff)

    def _locate_part(self, s: Suggestion, current: str, revision: str) -> tuple[int, int] | None:
        """Where a part's change would apply now: a text change's range in its part's text
        (offsets into that part), (0, 0) for a structural change that still applies; None
        when accepting it would conflict."""
        base_text = self._base(s)
        if base_text is None:
            return None
        kind = kind_for(s.path)
        try:
            base = self._parsed(kind, s.base_revision, base_text)
            now = self._parsed(kind, revision, current)
        except DomainError:
            return None  # a text that no longer parses as its kind places nothing
        edit = PartEdit.from_record(s.part or "", s.change, s.start, s.end, s.original, s.new)
        if edit.op == "text":
            return locate(base, now, edit.part, edit.start, edit.end, edit.original)
        apply = getattr(now, "apply_edit", None)
        return (0, 0) if apply is not None and apply(edit, base) is not None else None

    def _parsed(self, kind: DocumentKind, revision: str, text: str) -> DocumentContent:
        """The content model of a text by revision: a listing parses each notebook once."""
        cache = self._parsed_cache
        key = (kind, revision)
        if key not in cache:
            if len(cache) >= 8:
                cache.clear()
            cache[key] = content_of(kind, text)
        return cache[key]

    async def accept(self, id: str, by: str) -> Suggestion:
        """Apply one pending suggestion where its text is now; a conflict changes nothing."""
        async with self._decide:
            s = self.get(id)
            self._require_pending(s)
            result = await self._apply(s.path, [s], by)
            return result.accepted[0] if result.accepted else result.conflicts[0]

    async def accept_all(self, by: str, path: str | None = None, ids: list[str] | None = None) -> AcceptAllResult:
        """Accept pending suggestions, per document in document order, one undo step each."""
        async with self._decide:
            chosen = self._chosen(path, ids)
            for s in chosen:
                self._require_pending(s)
            total = AcceptAllResult()
            for key in sorted({s.path for s in chosen}):
                r = await self._apply(key, [s for s in chosen if s.path == key], by)
                total.accepted += r.accepted
                total.conflicts += r.conflicts
                total.revision = r.revision
            return total

    async def _apply(self, key: str, items: list[Suggestion], by: str) -> AcceptAllResult:
        doc = await self._document(key)
        result = AcceptAllResult()
        placed: list[tuple[Suggestion, int, int]] = []
        # Changes to parts (cells) apply in the order they were made: an insert before the
        # move that places it.
        by_part = sorted((s for s in items if s.part is not None), key=lambda s: s.created)
        whole = [s for s in items if s.part is None]

        def change(current: str) -> str:
            placed.clear()
            result.conflicts.clear()
            found: dict[str, list[Region]] = {}
            revision = revision_of(current)
            for s in whole:
                where = self.locate(s, current, revision, found)
                if where is None:
                    result.conflicts.append(s)
                else:
                    placed.append((s, *where))
            text, skipped = apply_many(current, [(a, z, s.new) for s, a, z in placed])
            for i in sorted(skipped, reverse=True):  # overlapping an earlier one: a conflict too
                result.conflicts.append(placed.pop(i)[0])
            if by_part:
                text = self._apply_parts(doc, text, by_part, placed, result.conflicts)
            if not placed:
                raise _Conflict
            return text

        before = after = doc.text
        with contextlib.suppress(_Conflict):  # every one conflicts: the document stays as it is
            before, after = await self.docs.commit(
                doc, change, save=doc.path is not None and not doc.dirty, label="accept suggestions"
            )
        now = time.time()
        for s in result.conflicts:
            reason = "its original text is no longer where it was (changed since it was suggested)"
            if (d := self.store.decide(s.id, "conflict", decided_by=by, reason=reason, now=now)) is not None:
                self.events.publish("suggestion", action="conflict", suggestion=d.to_json())
        if placed:
            result.revision = revision_of(after)
            for s, _, _ in placed:
                d = self.store.decide(s.id, "accepted", decided_by=by, result_revision=result.revision, now=now)
                if d is not None:
                    result.accepted.append(d)
                    self.events.publish("suggestion", action="accepted", suggestion=d.to_json())
            author = Author(items[0].author, items[0].user, items[0].session)
            sid = placed[0][0].id if len(placed) == 1 else None
            why = "; ".join(dict.fromkeys(s.rationale for s, _, _ in placed if s.rationale))
            self.checkpoint(
                doc, before, after, author, "accepted", suggestion_id=sid, label=f"accepted by {by}", rationale=why
            )
        result.conflicts = [self.store.get(s.id) or s for s in result.conflicts]
        return result

    def _apply_parts(
        self,
        doc: OpenDocument,
        text: str,
        items: list[Suggestion],
        placed: list[tuple[Suggestion, int, int]],
        conflicts: list[Suggestion],
    ) -> str:
        """``text`` with the part changes of ``items`` applied where their parts are now."""
        bases = {}
        for s in items:
            if s.base_revision not in bases and (base := self._base(s)) is not None:
                bases[s.base_revision] = self._parsed(doc.kind, s.base_revision, base)
        edits = [
            (s.base_revision, PartEdit.from_record(s.part or "", s.change, s.start, s.end, s.original, s.new))
            for s in items
        ]
        content, applied, conflicted = apply_edits(bases, content_of(doc.kind, text), edits)
        placed += [(items[i], 0, 0) for i in applied]
        conflicts += [items[i] for i in conflicted]
        return content.serialize() if applied else text

    async def reject(self, id: str, by: str) -> Suggestion:
        """Reject a pending suggestion, or dismiss a conflicted one (it stays listed as a
        conflict, with its base text kept for re-applying, until a person does either)."""
        async with self._decide:
            s = self.get(id)
            if s.status != "conflict":
                self._require_pending(s)
            d = self.store.decide(
                s.id, "rejected", expected=(s.status,), decided_by=by, reason=s.reason, now=time.time()
            )
            if d is None:
                raise DomainError("CONFLICT", f"suggestion {id} was decided meanwhile", suggestionId=id)
            self.events.publish("suggestion", action="rejected", suggestion=d.to_json())
            return d

    async def reject_all(self, by: str, path: str | None = None, ids: list[str] | None = None) -> list[Suggestion]:
        async with self._decide:
            chosen = self._chosen(path, ids)
            out = []
            for s in chosen:
                d = self.store.decide(s.id, "rejected", decided_by=by, now=time.time())
                if d is not None:
                    out.append(d)
                    self.events.publish("suggestion", action="rejected", suggestion=d.to_json())
            return out

    def _chosen(self, path: str | None, ids: list[str] | None) -> list[Suggestion]:
        """The named suggestions (each once, in the order given; with ``path`` each must be on
        it), or the pending ones of ``path``. Unknown ids fail before anything is decided."""
        if ids is None:
            return self.pending(path)
        chosen = [self.get(i) for i in dict.fromkeys(ids)]
        for s in chosen:
            if path is not None and s.path != path:
                raise ArgumentError(f"suggestion {s.id} is on {s.path!r}, not on {path!r}", "ids")
        return chosen

    @staticmethod
    def _require_pending(s: Suggestion) -> None:
        if s.status != "pending":
            raise DomainError(
                "CONFLICT", f"suggestion {s.id} is already {s.status}", suggestionId=s.id, status=s.status
            )

    async def wait(
        self, ids: list[str], seconds: float, progress: Progress | None = None, interval: float = 5.0
    ) -> tuple[list[Suggestion], bool]:
        """The suggestions once none is pending, or after ``seconds`` (then False)."""
        deadline = time.monotonic() + seconds
        while True:
            current = [self.get(i) for i in ids]
            open_ = sum(s.status == "pending" for s in current)
            if not open_:
                return current, True
            left = deadline - time.monotonic()
            if left <= 0:
                return current, False
            if progress is not None:
                await progress(len(ids) - open_, len(ids), f"{open_} of {len(ids)} suggestions still pending")
            await self.events.next_change(min(left, interval))
