"""VMark's selection, cursor, insert and focus tools: adapters over ``cursor.get``,
``cursor.set`` and ``cursor.edit``, with VMark's argument names (``from``, ``position``)
and result shapes (``{text, from, to, isEmpty}``, ``originalContent``, camelCase context)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from ...core.errors import DomainError
from ...core.selection import SelectionSource
from ...ops.context import OpContext
from ...ops.markdown import cursor, cursor_edit
from ...ops.markdown import cursor_kinds as k
from ...ops.markdown.cursor_edit import renamed
from ..adapter import adapter
from .cursor_edits import edit_fields, run
from .shapes import DONE, EditorEditParams, EditorParams, EditResult

FROM: Any = Field(alias="from", ge=0, description="Start (inclusive), a code point offset.")


class PositionedParams(EditorParams):
    expected_revision: str | None = Field(None, description="The revision your offsets refer to; else STALE.")


class SetParams(PositionedParams):
    from_: int = FROM
    to: int = Field(ge=0, description="End (exclusive); equal to from places a cursor.")


class PositionParams(PositionedParams):
    position: int = Field(ge=0, description="Code point offset (0-based).")


class ContextParams(EditorParams):
    linesBefore: int = Field(3, ge=0, le=200, description="Lines before the cursor's line.")
    linesAfter: int = Field(3, ge=0, le=200, description="Lines after the cursor's line.")


class TextParams(EditorEditParams):
    text: str = Field(description="Text to insert (markdown source, inserted verbatim).")


class InsertAtParams(TextParams):
    position: int = Field(ge=0, description="Code point offset to insert at (0-based).")


class Range(BaseModel):
    model_config = ConfigDict(validate_by_name=True)
    from_: int = Field(alias="from")
    to: int


class SelectionResult(Range):
    text: str
    isEmpty: bool
    source: SelectionSource = Field(description="Who set it: the person (in JupyterLab) or an agent.")
    revision: str


class ReplaceResult(EditResult):
    range: Range
    originalContent: str


class DeleteResult(EditResult):
    range: Range
    content: str


class InsertResult(EditResult):
    position: int


class _Camel(BaseModel):
    # Python names here, VMark's camelCase names on the wire.
    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True)


class BlockContext(cursor.BlockAt):
    # The capability's block is VMark's shape already; only the published name is VMark's.
    pass


class ContextResult(_Camel):
    before: str
    after: str
    current_line: str
    current_paragraph: str
    block: BlockContext
    position: int = Field(description="The cursor (the selection's head).")
    revision: str


class FocusResult(BaseModel):
    message: str
    windowId: str = Field(description="The window now focused for this session.")
    tabId: str
    filePath: str | None


def _selection(s: cursor.CursorState) -> SelectionResult:
    return SelectionResult(from_=s.from_, to=s.to, text=s.text, isEmpty=s.isEmpty, source=s.source, revision=s.revision)


async def _state(op: Any, ctx: OpContext, params: BaseModel, names: dict[str, str] | None = None) -> cursor.CursorState:
    try:
        s = await op(ctx, params)
    except DomainError as exc:
        raise renamed(exc, names or {}) from None
    assert isinstance(s, cursor.CursorState)
    return s


@adapter(cursor.get, title="Get selection")
async def selection_get(ctx: OpContext, params: EditorParams) -> SelectionResult:
    """The tab's selection {text, from, to, isEmpty} and who set it (the person's cursor in
    JupyterLab wins until an agent sets one). Offsets are code points."""
    return _selection(await _state(cursor.get, ctx, cursor.GetParams(tabId=params.tabId, windowId=params.windowId)))


@adapter(cursor.set_, title="Set selection")
async def selection_set(ctx: OpContext, params: SetParams) -> SelectionResult:
    """Select [from, to) in the tab (from == to places the cursor)."""
    p = cursor.SetParams(**params.model_dump(), focus=False)
    return _selection(await _state(cursor.set_, ctx, p))


@adapter(cursor.set_, title="Set cursor")
async def cursor_set_position(ctx: OpContext, params: PositionParams) -> SelectionResult:
    """Place the cursor at a code point offset (clears the selection)."""
    p = cursor.SetParams(
        tabId=params.tabId, windowId=params.windowId, from_=params.position, expected_revision=params.expected_revision
    )
    return _selection(await _state(cursor.set_, ctx, p, {"from": "position", "to": "position"}))


@adapter(cursor.get, title="Cursor context")
async def cursor_get_context(ctx: OpContext, params: ContextParams) -> ContextResult:
    """The text around the cursor: lines before and after, its line and paragraph, and the
    block it is in {type, level?, language?, inList?, inBlockquote, inTable, position}."""
    s = await _state(cursor.get, ctx, cursor.GetParams(**params.model_dump()))
    assert s.context is not None
    return ContextResult.model_validate({**s.context.model_dump(), "position": s.head, "revision": s.revision})


@adapter(cursor.set_, title="Focus editor")
async def editor_focus(ctx: OpContext, params: EditorParams) -> FocusResult:
    """Focus a window's document (or a tab) for this MCP session: later calls without a
    window or tab work on it. Other sessions keep their own focus."""
    s = await _state(cursor.set_, ctx, cursor.SetParams(tabId=params.tabId, windowId=params.windowId, focus=True))
    name = s.filePath or s.title
    return FocusResult(
        message=f"Focused {name} in window {s.windowId}", windowId=s.windowId, tabId=s.tabId, filePath=s.filePath
    )


# --------------------------------------------------------------------------- text at the selection


def _message(r: cursor_edit.CursorEditResult, text: str) -> tuple[Range, str, str]:
    """The replaced range, the text it held, and VMark's message for a text change."""
    assert r.range is not None
    out, into = len(r.range.text), len(text)
    verb = "replace" if out and into else "delete" if out else "insert"
    where = f"{r.range.from_}..{r.range.to}"
    message = f"{DONE[r.mode]}: {verb} at {where} ({out} characters out, {into} in)"
    return Range(from_=r.range.from_, to=r.range.to), r.range.text, message


@adapter(cursor_edit.edit, title="Replace selection", destructive=False)
async def selection_replace(ctx: OpContext, params: TextParams) -> ReplaceResult:
    """Replace the selected text (an empty selection: insert at the cursor). Staged as a
    suggestion under the server's review policy; once applied the cursor ends after the text."""
    r = await run(ctx, params, k.Replace(kind="replace", text=params.text))
    span, removed, message = _message(r, params.text)
    return ReplaceResult(message=message, range=span, originalContent=removed, **edit_fields(r))


@adapter(cursor_edit.edit, title="Delete selection")
async def selection_delete(ctx: OpContext, params: EditorEditParams) -> DeleteResult:
    """Delete the selected text (staged as a suggestion under the server's review policy)."""
    r = await run(ctx, params, k.Delete(kind="delete"))
    span, removed, message = _message(r, "")
    return DeleteResult(message=message, range=span, content=removed, **edit_fields(r))


@adapter(cursor_edit.edit, title="Insert at cursor", destructive=False)
async def insert_at_cursor(ctx: OpContext, params: TextParams) -> InsertResult:
    """Insert text at the cursor (the selection's head; selected text stays). Staged as a
    suggestion under the server's review policy; once applied the cursor ends after the text."""
    r = await run(ctx, params, k.Insert(kind="insert", text=params.text))
    span, _, message = _message(r, params.text)
    return InsertResult(message=message, position=span.from_, **edit_fields(r))


@adapter(cursor_edit.edit, title="Insert at position", destructive=False)
async def insert_at_position(ctx: OpContext, params: InsertAtParams) -> InsertResult:
    """Insert text at a code point offset. Staged as a suggestion under the server's review
    policy; once applied the cursor ends after the text."""
    edit = k.Insert(kind="insert", text=params.text, at=params.position)
    r = await run(ctx, params, edit, {"at": "position"})
    _, _, message = _message(r, params.text)
    return InsertResult(message=message, position=params.position, **edit_fields(r))
