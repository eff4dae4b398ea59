"""The selection and cursor of a tab, and the edits that use them (VMark's selection tools).

A selection belongs to a tab (one view of a document), so these operations take a tab (or a
window: the tab it shows this session), not a path. Edits go through ``mutate``: the
server's approval policy, suggestions, checkpoints and STALE all apply. The selection
moves only when a change really applied: a staged suggestion leaves the document, and so
the selection, as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from ...core.documents import stale
from ...core.errors import ArgumentError, DomainError
from ...core.selection import Selection, SelectionSource, cursor_context
from ...core.workspace import Tab
from ..base import operation
from ..context import OpContext
from ..targets import DONE, EditResult, document_for, mutate_as_asked
from .editor import EditorEditParams, EditorParams

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


class BlockContext(_Camel):
    type: str = Field(description="paragraph, heading, codeBlock, tableCell, …; blank between blocks.")
    level: int | None = None
    language: str | None = None
    in_list: Literal["bullet", "ordered", "task"] | None = None
    in_blockquote: bool
    in_table: bool
    position: int = Field(description="Where the block (in a list: the item) starts.")


class ContextResult(_Camel):
    before: str
    after: str
    current_line: str
    current_paragraph: str
    block: BlockContext
    position: int = Field(description="The cursor (the selection's head).")
    revision: str


async def _tab(ctx: OpContext, params: EditorParams) -> Tab:
    _, tab = await document_for(ctx, params.tabId, None, params.windowId)
    assert tab is not None  # no path: always a tab
    return tab


def _selection(tab: Tab) -> SelectionResult:
    sel, text = tab.current_selection(), tab.doc.text
    return SelectionResult(
        from_=sel.from_,
        to=sel.to,
        text=text[sel.from_ : sel.to],
        isEmpty=sel.empty,
        source=tab.selection_source,
        revision=tab.doc.revision,
    )


def _check(tab: Tab, expected: str | None, **offsets: int) -> None:
    if expected is not None and expected != tab.doc.revision:
        raise stale(tab.doc.revision)
    n = len(tab.doc.text)
    for name, value in offsets.items():
        if value > n:
            raise ArgumentError(f"{name} ({value}) is beyond the end of the document ({n} characters)", name)


@dataclass
class _Edit:
    start: int = 0
    end: int = 0
    removed: str = ""
    after: str = ""


async def _edit(
    ctx: OpContext,
    params: EditorEditParams,
    label: str,
    text: str,
    where: Callable[[str, Selection], tuple[int, int]],
) -> tuple[dict[str, Any], _Edit]:
    """Replace the range ``where(current text, selection)`` gives with ``text``, computed under
    the document's lock (so the selection is read in exactly the text being changed). Returns
    the result fields every edit shares, and what was changed."""
    tab = await _tab(ctx, params)
    edit = _Edit()

    def change(before: str) -> str:
        edit.start, edit.end = where(before, tab.current_selection())
        edit.removed = before[edit.start : edit.end]
        edit.after = before[: edit.start] + text + before[edit.end :]
        return edit.after

    r = await mutate_as_asked(ctx, tab.doc, params, change, save=params.save, label=label)
    if r.mode == "apply":
        tab.set_selection(Selection.cursor(edit.start + len(text)), "agent", edit.after)
    out, into = len(edit.removed), len(text)
    verb = "replace" if out and into else "delete" if out else "insert"
    fields = {
        "message": f"{DONE[r.mode]}: {verb} at {edit.start}..{edit.end} ({out} characters out, {into} in)",
        "applied": r.applied,
        "suggestionId": r.suggestionIds[0] if r.suggestionIds else None,
        "mode": r.mode,
        "revision": r.revision,
        "checkpointId": r.checkpointId,
        "diff": r.diff,
    }
    return fields, edit


@operation("selection.get", title="Get selection", read_only=True)
async def get(ctx: OpContext, params: EditorParams) -> SelectionResult:
    """The tab's selection {text, from, to, isEmpty} and who set it (the person's cursor in
    JupyterLab wins until an agent sets one). Offsets are code points."""
    return _selection(await _tab(ctx, params))


@operation("selection.set", title="Set selection", read_only=True)  # changes no document
async def set_(ctx: OpContext, params: SetParams) -> SelectionResult:
    """Select [from, to) in the tab (from == to places the cursor)."""
    tab = await _tab(ctx, params)
    if params.from_ > params.to:
        raise ArgumentError(f"from ({params.from_}) is after to ({params.to})", "from")
    _check(tab, params.expected_revision, to=params.to)
    tab.set_selection(Selection(params.from_, params.to))
    return _selection(tab)


@operation("cursor.set_position", title="Set cursor", read_only=True)
async def set_position(ctx: OpContext, params: PositionParams) -> SelectionResult:
    """Place the cursor at a code point offset (clears the selection)."""
    tab = await _tab(ctx, params)
    _check(tab, params.expected_revision, position=params.position)
    tab.set_selection(Selection.cursor(params.position))
    return _selection(tab)


@operation("cursor.get_context", title="Cursor context", read_only=True)
async def get_context(ctx: OpContext, params: ContextParams) -> ContextResult:
    """The text around the cursor: lines before and after, its line and paragraph, and the
    block it is in {type, level?, language?, inList?, inBlockquote, inTable, position}."""
    tab = await _tab(ctx, params)
    head = tab.current_selection().head
    markdown = tab.doc.kind == "markdown"
    c = cursor_context(
        tab.doc.text, head, markdown=markdown, lines_before=params.linesBefore, lines_after=params.linesAfter
    )
    return ContextResult(**asdict(c), position=head, revision=tab.doc.revision)


@operation("selection.replace", title="Replace selection")
async def replace(ctx: OpContext, params: TextParams) -> ReplaceResult:
    """Replace the selected text (an empty selection: insert at the cursor). Staged as a
    suggestion under the server's review policy; once applied the cursor ends after the text."""
    fields, e = await _edit(ctx, params, "selection replace", params.text, lambda _, s: (s.from_, s.to))
    return ReplaceResult(**fields, range=Range(from_=e.start, to=e.end), originalContent=e.removed)


def _selected(_: str, s: Selection) -> tuple[int, int]:
    if s.empty:
        raise DomainError("NOT_FOUND", "nothing is selected: set a selection (selection.set) first")
    return s.from_, s.to


@operation("selection.delete", title="Delete selection", destructive=True)
async def delete(ctx: OpContext, params: EditorEditParams) -> DeleteResult:
    """Delete the selected text (staged as a suggestion under the server's review policy)."""
    fields, e = await _edit(ctx, params, "selection delete", "", _selected)
    return DeleteResult(**fields, range=Range(from_=e.start, to=e.end), content=e.removed)


@operation("document.insert_at_cursor", title="Insert at cursor")
async def insert_at_cursor(ctx: OpContext, params: TextParams) -> InsertResult:
    """Insert text at the cursor (the selection's head; selected text stays). Staged as a
    suggestion under the server's review policy; once applied the cursor ends after the text."""
    fields, e = await _edit(ctx, params, "insert at cursor", params.text, lambda _, s: (s.head, s.head))
    return InsertResult(**fields, position=e.start)


@operation("document.insert_at_position", title="Insert at position")
async def insert_at_position(ctx: OpContext, params: InsertAtParams) -> InsertResult:
    """Insert text at a code point offset. Staged as a suggestion under the server's review
    policy; once applied the cursor ends after the text."""
    at = params.position

    def where(text: str, _: Selection) -> tuple[int, int]:
        if at > len(text):
            raise ArgumentError(f"position ({at}) is beyond the end of the document ({len(text)})", "position")
        return at, at

    fields, _ = await _edit(ctx, params, "insert at position", params.text, where)
    return InsertResult(**fields, position=at)
