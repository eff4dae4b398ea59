"""One document at a glance: its file, title, size, revision and where it is shown."""

from __future__ import annotations

import hashlib
import time
from weakref import WeakKeyDictionary

from pydantic import BaseModel, Field

from ...core.documents import OpenDocument
from ...core.kinds import DocumentKind
from ...core.text import word_count
from .. import documents
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget
from .files import title_of

# Per document: the revision last reported and when it was first seen (a return to an older one is new).
_SEEN: WeakKeyDictionary[OpenDocument, tuple[str, float]] = WeakKeyDictionary()


class DocumentInfo(BaseModel):
    filePath: str | None = Field(description="Root-relative path (null: untitled).")
    title: str
    kind: DocumentKind
    dirty: bool = Field(description="True when it has changes not saved to its file.")
    wordCount: int
    charCount: int = Field(description="Characters (Unicode code points) of the source text.")
    revision: str = Field(description="Pass it as expected_revision: a change to a changed document answers STALE.")
    hash: str = Field(description="SHA-256 of the text (UTF-8), hex.")
    revisionSeen: int = Field(
        description="When this server saw the document take this revision, in milliseconds since the epoch."
    )
    tabId: str | None = Field(description="Its tab (null: addressed by path).")
    windowId: str | None = Field(description="The window of that tab.")
    active: bool = Field(description="True when that tab is the one its window shows you.")


@operation("workspace.document_info", title="Document info", read_only=True)
async def document_info(ctx: OpContext, params: DocumentTarget) -> DocumentInfo:
    """A document's file, title, kind, unsaved state, word and character counts, revision
    (with its hash and when it was first seen) and its tab."""
    doc, tab = await documents.resolve_target(ctx, params)
    text, current = doc.text, doc.revision
    seen = _SEEN.get(doc)
    if seen is None or seen[0] != current:
        seen = _SEEN[doc] = (current, time.time())
    shown = documents.shown_tab(ctx, ctx.services.workspace.windows[tab.window]) if tab is not None else None
    return DocumentInfo(
        filePath=doc.path,
        title=title_of(doc),
        kind=doc.kind,
        dirty=doc.dirty,
        wordCount=word_count(text),
        charCount=len(text),
        revision=current,
        hash=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        revisionSeen=round(seen[1] * 1000),
        tabId=tab.id if tab else None,
        windowId=tab.window if tab else None,
        active=tab is not None and shown is tab,
    )
