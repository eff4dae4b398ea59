"""Open documents: a buffer per file, its revision, dirty state and history.

Reads see the buffer (with unsaved edits) or, while the buffer is clean, the file as it
is now, whoever changed it (JupyterLab, a kernel, git). Every change goes through
``commit`` under the document's lock, which checks ``expected_revision`` first: of two
agents writing with the same revision exactly one wins, the other gets STALE.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from .content import DocumentContent, content_of
from .errors import DomainError
from .history import History
from .kinds import DocumentKind, kind_for
from .revision import revision_of
from .storage import Storage


@dataclass(eq=False)
class OpenDocument:
    key: str  # the API path, or "untitled:N"
    path: str | None
    kind: DocumentKind
    text: str
    saved: str | None  # the file's text as last read or written; None while untitled
    history: History = field(default_factory=History)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def dirty(self) -> bool:
        # An untitled buffer has unsaved work once it has any text.
        return self.text != (self.saved if self.saved is not None else "")

    _rev: tuple[str, str] | None = field(default=None, repr=False)

    @property
    def revision(self) -> str:
        # Hashing 0.5 MB costs a millisecond; strings are immutable, so identity is enough.
        if self._rev is None or self._rev[0] is not self.text:
            self._rev = (self.text, revision_of(self.text))
        return self._rev[1]

    _content: tuple[str, DocumentContent] | None = field(default=None, repr=False)

    @property
    def content(self) -> DocumentContent:
        """The text parsed as its kind's model (a notebook's cells, an outline's rows), parsed
        once per text. Changes still go through ``Documents.commit`` as the new text."""
        if self._content is None or self._content[0] is not self.text:
            self._content = (self.text, content_of(self.kind, self.text))
        return self._content[1]

    def parsed(self, text: str) -> DocumentContent | None:
        """``text`` parsed, if this document holds that parse already (its text before a
        change, once the change is committed)."""
        return self._content[1] if self._content is not None and self._content[0] is text else None

    @property
    def title(self) -> str:
        return PurePosixPath(self.path).stem if self.path else self.key.replace(":", "-")


def stale(current: str) -> DomainError:
    return DomainError("STALE", "Document has changed since the last read; re-read and retry", current_revision=current)


class Documents:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._open: dict[str, OpenDocument] = {}
        self._untitled = itertools.count(1)

    def find(self, key: str) -> OpenDocument | None:
        return self._open.get(key)

    async def open(self, path: str) -> OpenDocument:
        """The document at ``path`` (an API path), loaded or refreshed from storage."""
        doc = self._open.get(path)
        if doc is None:
            text = await self.storage.read_text(path)
            doc = self._open.setdefault(path, OpenDocument(path, path, kind_for(path, text), text, text))
            return doc
        await self.refresh(doc)
        return doc

    def new_untitled(self, kind: DocumentKind = "markdown") -> OpenDocument:
        key = f"untitled:{next(self._untitled)}"
        doc = OpenDocument(key, None, kind, "", None)
        self._open[key] = doc
        return doc

    async def refresh(self, doc: OpenDocument) -> str | None:
        """Follow changes made to the file by others while our buffer is clean; the file's
        text as read (None when it was not read)."""
        if doc.path is None or doc.dirty:
            return None
        try:
            text = await self.storage.read_text(doc.path)
        except DomainError as exc:
            if exc.code == "NOT_FOUND":
                return None  # deleted under us: the buffer still holds the last text
            raise
        if text != doc.saved:
            doc.text = doc.saved = text
        return text

    async def commit(
        self,
        doc: OpenDocument,
        change: str | Callable[[str], str],
        *,
        expected_revision: str | None = None,
        save: bool = False,
        dry_run: bool = False,
        label: str = "",
    ) -> tuple[str, str]:
        """Replace the buffer (and the file when ``save``) if the revision still matches.

        ``change`` is the new text, or a function of the current text computed under the
        document's lock (so it sees exactly the revision it is checked against). Returns
        (before, after); with ``dry_run`` nothing is changed.
        """
        async with doc.lock:
            read = await self.refresh(doc)
            if expected_revision is not None and expected_revision != doc.revision:
                raise stale(doc.revision)
            before = doc.text
            after = change(before) if callable(change) else change
            if dry_run:
                return before, after
            doc.history.record(before, after, label)
            doc.text = after
            if save:
                try:
                    # Nothing awaited since the file was read: what was read is what is there.
                    await self._write(doc, on_disk=read)
                except BaseException:
                    doc.text = before  # nothing half-done: the buffer goes back too
                    if before != after:
                        doc.history.undo_stack.pop()
                    raise
            return before, after

    async def save(self, doc: OpenDocument, *, force: bool = False) -> str:
        if doc.path is None:
            raise DomainError("INVALID_PATH", "this tab has no file yet: use save_as with a filePath")
        async with doc.lock:
            await self._write(doc, force=force)
            return doc.revision

    async def save_as(self, doc: OpenDocument, path: str, *, overwrite: bool = False) -> OpenDocument:
        if not overwrite and await self.storage.exists(path):
            raise DomainError("CONFLICT", f"{path!r} already exists; pass overwrite to replace it", path=path)
        async with doc.lock:
            await self.storage.write_text(path, doc.text)
            target = self._open.get(path)
            if target is doc:  # its own path: a save (one document per path, history kept)
                doc.saved = doc.text
                return doc
            if target is None:
                target = OpenDocument(path, path, kind_for(path, doc.text), doc.text, doc.text)
                self._open[path] = target
            else:
                target.history.record(target.text, doc.text, "save as")
                target.text = target.saved = doc.text
            if doc.path is None:
                self._open.pop(doc.key, None)  # an untitled buffer becomes the file
            return target

    async def _write(self, doc: OpenDocument, *, force: bool = False, on_disk: str | None = None) -> None:
        """Write the buffer unless the file changed since it was read; ``on_disk``: the file's
        text if the caller has just read it."""
        assert doc.path is not None
        if not force and doc.saved is not None and on_disk is None:
            try:
                on_disk = await self.storage.read_text(doc.path)
            except DomainError as exc:
                if exc.code != "NOT_FOUND":
                    raise
                on_disk = doc.saved  # deleted meanwhile: writing it back loses nothing
            if on_disk != doc.saved and on_disk != doc.text:
                raise DomainError(
                    "CONFLICT",
                    f"{doc.path!r} changed on disk since it was read; saving would overwrite that change",
                    path=doc.path,
                    disk_revision=revision_of(on_disk),
                )
        # What was checked above is what a live document must still hold when written.
        await self.storage.write_text(doc.path, doc.text, base=on_disk)
        doc.saved = doc.text

    async def undo(self, doc: OpenDocument, *, save: bool = False) -> str:
        return await self._step(doc, doc.history.undo, save)

    async def redo(self, doc: OpenDocument, *, save: bool = False) -> str:
        return await self._step(doc, doc.history.redo, save)

    async def _step(self, doc: OpenDocument, step: Callable[[str], str], save: bool) -> str:
        async with doc.lock:
            await self.refresh(doc)
            doc.text = step(doc.text)
            if save:
                await self._write(doc)
            return doc.revision

    def close(self, doc: OpenDocument) -> None:
        self._open.pop(doc.key, None)
