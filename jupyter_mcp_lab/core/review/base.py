"""What every part of the review service shares: the store, the documents, the events."""

from __future__ import annotations

import asyncio

from ..content import DocumentContent
from ..documents import Documents, OpenDocument
from ..errors import DomainError
from ..suggestions import SuggestionStore
from .events import Events


class ReviewBase:
    def __init__(self, store: SuggestionStore, docs: Documents, events: Events | None = None) -> None:
        self.store = store
        self.docs = docs
        self.events = events or Events()
        self._decide = asyncio.Lock()
        # Parsed contents by (kind, revision): placing and accepting part changes parse each
        # base text once (Review._parsed).
        self._parsed_cache: dict[tuple[str, str], DocumentContent] = {}

    async def _document(self, key: str) -> OpenDocument:
        doc = self.docs.find(key)
        if doc is not None:
            await self.docs.refresh(doc)
            return doc
        if key.startswith("untitled:"):
            raise DomainError("NOT_FOUND", f"the untitled document {key!r} is closed")
        return await self.docs.open(key)
