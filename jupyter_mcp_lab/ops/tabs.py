"""The old names of the document resolver (``ops.documents``), kept while the modules that
call them move over; each is a thin delegation with the resolver's rules and errors."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..core.workspace import Tab, Window
from . import documents
from .context import OpContext

# VMark's wording of the window target, published by the vmark tools that still take
# their params from an operation (their adapters will carry it; ``documents.WINDOW`` is ours).
WINDOW_ID: Any = Field(
    None,
    description="Window label (see workspace_list_windows; a tab id also works). Default: your focused window.",
)


def window_of(ctx: OpContext, window_id: str | None) -> Window:
    return documents.window(ctx, window_id)


def active_tab(ctx: OpContext, window: Window) -> Tab | None:
    return documents.shown_tab(ctx, window)


def tab_for_window(ctx: OpContext, window_id: str | None) -> Tab:
    return documents.tab(ctx, None, window_id)


def tab_in_window(ctx: OpContext, tab_id: str, window_id: str | None) -> Tab:
    return documents.tab(ctx, tab_id, window_id)


def editor_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    return documents.tab(ctx, tab_id, window_id)


def target_tab(ctx: OpContext, tab_id: str | None, window_id: str | None) -> Tab:
    return documents.tab(ctx, tab_id, window_id)
