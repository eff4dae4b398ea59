"""Old names of the document resolver (``ops.documents``), kept while the modules that
import them (``markdown/editor.py``, ``targets.TargetParams``) move over."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..core.workspace import Tab
from . import documents
from .context import OpContext

# VMark's wording of the window target, published by the vmark tools that still take
# their params from an operation (their adapters carry ``surfaces/vmark/shapes.WINDOW_ID``).
WINDOW_ID: Any = Field(
    None,
    description="Window label (see workspace_list_windows; a tab id also works). Default: your focused window.",
)


def editor_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    return documents.tab(ctx, tab_id, window_id)
