"""The old name of the window lookup (``documents.resolve_tab``), kept while the markdown
operations that import it move over to ``ops.documents``."""

from __future__ import annotations

from ...core.documents import OpenDocument
from ...core.workspace import Tab
from .. import documents
from ..context import OpContext
from ..tabs import WINDOW_ID

__all__ = ["WINDOW_ID", "document_of_window"]


async def document_of_window(ctx: OpContext, window_id: str | None) -> tuple[OpenDocument, Tab]:
    """The document a window shows, refreshed from its file while it has no unsaved changes."""
    tab = await documents.resolve_tab(ctx, None, window_id)
    return tab.doc, tab
