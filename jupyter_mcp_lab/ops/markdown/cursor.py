"""A tab's selection and cursor: reading it with the text around it, setting it, focusing the tab.

A selection belongs to a tab (one view of a document), so these operations take a tab (or
a window: the tab it shows this session), never a path. The person's selection in
JupyterLab is the one read and changed until an agent sets one. Changes at the cursor are
``cursor.edit`` (``cursor_edit``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from ...core.documents import stale
from ...core.errors import ArgumentError
from ...core.selection import Selection, SelectionSource, cursor_context
from ...core.workspace import Tab
from ..base import operation
from ..context import OpContext
from ..documents import TabTarget, focus_on, resolve_tab


class GetParams(TabTarget):
    linesBefore: int = Field(3, ge=0, le=200, description="Lines of context before the cursor's line.")
    linesAfter: int = Field(3, ge=0, le=200, description="Lines of context after the cursor's line.")


class SetParams(TabTarget):
    model_config = ConfigDict(validate_by_name=True)
    from_: int | None = Field(None, alias="from", ge=0, description="Selection start, a code point offset.")
    to: int | None = Field(None, ge=0, description="Selection end (exclusive; default from: a cursor).")
    focus: bool = Field(False, description="Also make this tab your session's focused tab.")
    expected_revision: str | None = Field(None, description="The revision your offsets refer to; else STALE.")


class _Camel(BaseModel):
    # core's snake_case names, camelCase on the wire as every result here.
    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True)


class BlockAt(_Camel):
    type: str = Field(description="paragraph, heading, codeBlock, tableCell, …; blank between blocks.")
    level: int | None = None
    language: str | None = None
    in_list: Literal["bullet", "ordered", "task"] | None = None
    in_blockquote: bool
    in_table: bool
    position: int = Field(description="Where the block (in a list: the item) starts.")


class Context(_Camel):
    before: str = Field(description="The lines before the cursor's line.")
    after: str = Field(description="The lines after it.")
    current_line: str
    current_paragraph: str
    block: BlockAt


class CursorState(BaseModel):
    """A tab's selection: [from, to) with the selected text, the cursor (head) and who set it."""

    model_config = ConfigDict(validate_by_name=True)
    tabId: str
    windowId: str
    filePath: str | None
    title: str
    from_: int = Field(alias="from")
    to: int
    head: int = Field(description="The cursor: the end of the selection that moves.")
    text: str = Field(description="The selected text.")
    isEmpty: bool
    source: SelectionSource = Field(description="Who set it: the person (in JupyterLab) or an agent.")
    revision: str
    context: Context | None = Field(None, description="The text around the cursor and the block it is in.")


def state(tab: Tab, context: GetParams | None = None) -> CursorState:
    """The tab's selection now (with the text around the cursor when ``context`` says how much)."""
    sel, text = tab.current_selection(), tab.doc.text
    around: Any = None
    if context is not None:
        c = cursor_context(
            text,
            sel.head,
            markdown=tab.doc.kind == "markdown",
            lines_before=context.linesBefore,
            lines_after=context.linesAfter,
        )
        around = Context.model_validate(asdict(c))
    return CursorState(
        tabId=tab.id,
        windowId=tab.window,
        filePath=tab.doc.path,
        title=tab.doc.title,
        from_=sel.from_,
        to=sel.to,
        head=sel.head,
        text=text[sel.from_ : sel.to],
        isEmpty=sel.empty,
        source=tab.selection_source,
        revision=tab.doc.revision,
        context=around,
    )


@operation("cursor.get", title="Get selection", read_only=True)
async def get(ctx: OpContext, params: GetParams) -> CursorState:
    """The tab's selection {from, to, text, isEmpty, head} and who set it (the person's cursor
    in JupyterLab wins until an agent sets one), with the lines around the cursor and the
    block it is in. Offsets are code points."""
    return state(await resolve_tab(ctx, params.tabId, params.windowId), params)


@operation("cursor.set", title="Set selection", read_only=True)  # changes no document
async def set_(ctx: OpContext, params: SetParams) -> CursorState:
    """Select [from, to) in the tab (no to, or to == from: place the cursor); focus: make the
    tab this session's focused one (later calls without a tab work on it; other sessions
    keep theirs)."""
    if params.from_ is None and (params.to is not None or not params.focus):
        raise ArgumentError("give from (and to) to set the selection, or focus", "from")
    tab = await resolve_tab(ctx, params.tabId, params.windowId)
    if params.from_ is not None:
        to = params.from_ if params.to is None else params.to
        if params.from_ > to:
            raise ArgumentError(f"from ({params.from_}) is after to ({to})", "from")
        if params.expected_revision is not None and params.expected_revision != tab.doc.revision:
            raise stale(tab.doc.revision)
        n = len(tab.doc.text)
        if to > n:
            raise ArgumentError(f"to ({to}) is beyond the end of the document ({n} characters)", "to")
        tab.set_selection(Selection(params.from_, to))
    if params.focus:
        focus_on(ctx, tab)
    return state(tab)
