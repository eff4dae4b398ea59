"""Edits at a tab's cursor or selection (VMark's formatting tools), and what they share.

Each operation reads the tab's selection under the document's lock (so it sees exactly
the text it changes), asks a core editor (``core/markdown``) for the edits, and runs them
through ``mutate``: the server's approval policy, suggestions, checkpoints and STALE all
apply. A change is staged as one suggestion. Blocks, lists and tables at the cursor are in
``at_cursor_blocks`` and ``at_cursor_tables``, inserted content in ``at_cursor_inserts``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import marks
from ...core.selection import Selection
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import DONE, EditResult, mutate_as_asked, require_kind
from .editor import EditorEditParams, tab_for

Edits = Callable[[str, Selection], list[TextEdit]]
# Arguments the core editors name that are not the agent's: the cursor or selection stands for
# them (and for the table_modify operations the table tools build).
CURSOR_ARGUMENTS = frozenset({"offset", "range", "start", "end", "target", "offset_or_range", "table_id", "list_id"})


def after_insert(edit: TextEdit) -> int:
    """A cursor placement: after the inserted text, its trailing line breaks aside."""
    return len(edit.text.rstrip("\r\n"))


@dataclass
class _State:
    head: int = 0
    after: str = ""


class CursorEditResult(EditResult):
    position: int = Field(description="Where the change starts (code point offset in the text before it).")


def renamed(exc: DomainError, names: dict[str, str]) -> DomainError:
    """``exc`` naming the agent's argument instead of the core editor's (``names``: core → tool);
    a core argument the cursor stands for is dropped from the envelope."""
    argument = exc.argument if isinstance(exc, ArgumentError) else exc.details.get("argument")
    if not isinstance(argument, str):
        return exc
    if argument in names:
        new = names[argument]
        message = new + exc.message[len(argument) :] if exc.message.startswith(argument) else exc.message
    elif argument in CURSOR_ARGUMENTS or argument.startswith("operations["):
        new, message = None, f"at the cursor: {exc.message}"
    else:
        return exc
    if isinstance(exc, ArgumentError):
        return ArgumentError(message, new)
    details = {k: v for k, v in exc.details.items() if k != "argument"} | ({"argument": new} if new else {})
    return DomainError(exc.code, message, **details)


def selected(sel: Selection) -> tuple[int, int]:
    """The selected range; nothing selected is an error an agent can act on."""
    if sel.empty:
        raise DomainError("NOT_FOUND", "nothing is selected: select the text first (selection_set)")
    return sel.from_, sel.to


async def edit_at_cursor(
    ctx: OpContext,
    params: EditorEditParams,
    label: str,
    edits: Edits,
    *,
    names: dict[str, str] | None = None,
    cursor: Callable[[TextEdit], int] | None = None,
) -> CursorEditResult:
    """Run ``edits(text, selection)`` on the tab's markdown through ``mutate``.

    ``names`` renames the core editor's arguments in errors (core → tool). ``cursor``: once
    applied, the cursor goes to ``cursor(last edit)``, an offset into that edit's new text;
    otherwise the selection follows the change as it follows any other.
    """
    tab = await tab_for(ctx, params)
    require_kind(tab.doc, "markdown")
    made: list[TextEdit] = []
    state = _State()

    def change(before: str) -> str:
        sel = tab.current_selection()
        state.head = sel.head
        try:
            made[:] = edits(before, sel)
        except DomainError as exc:
            raise renamed(exc, names or {}) from None
        after = apply_edits(before, made)
        state.after = after
        return after

    r = await mutate_as_asked(ctx, tab.doc, params, change, save=params.save, label=label)
    if r.mode == "apply" and r.changed and cursor is not None and made:
        last = max(made, key=lambda e: e.start)
        shift = sum(len(e.text) - (e.end - e.start) for e in made if e.start < last.start)
        tab.set_selection(Selection.cursor(last.start + shift + cursor(last)), "agent", state.after)
    position = r.change.start if r.change else state.head
    if r.changed:
        message = f"{DONE[r.mode]}: {label} at {position}"
    else:
        message = f"Nothing to change: {label} leaves the document as it is"
    return CursorEditResult(
        message=message,
        position=position,
        applied=r.applied,
        suggestionId=r.suggestionIds[0] if r.suggestionIds else None,
        mode=r.mode,
        revision=r.revision,
        checkpointId=r.checkpointId,
        diff=r.diff,
    )


# --------------------------------------------------------------------------- formatting

Mark = Literal["bold", "italic", "code", "strike", "underline", "highlight"]


class ToggleParams(EditorEditParams):
    mark: Mark = Field(description="bold, italic, code, strike, underline or highlight.")


@operation("format.toggle", title="Toggle format")
async def toggle(ctx: OpContext, params: ToggleParams) -> CursorEditResult:
    """Toggle a mark on the selection: removed when all of it already has the mark, else added
    (with the cursor inside a marked run and nothing selected, the run loses the mark)."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        try:
            return marks.toggle_mark(text, sel.from_, sel.to, params.mark)
        except ArgumentError as exc:
            if sel.empty and exc.argument == "range":
                selected(sel)
            raise

    return await edit_at_cursor(ctx, params, f"toggle {params.mark}", edits)


class LinkParams(EditorEditParams):
    href: str = Field(description="Link URL.")
    title: str | None = Field(None, description="Link title (tooltip).")


@operation("format.set_link", title="Set link")
async def set_link(ctx: OpContext, params: LinkParams) -> CursorEditResult:
    """Make the selected text a link (a link already there gets the new URL; with nothing
    selected, the link around the cursor does)."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        try:
            return marks.set_link(text, sel.from_, sel.to, params.href, params.title)
        except ArgumentError as exc:
            if sel.empty and exc.argument == "range":
                selected(sel)
            raise

    return await edit_at_cursor(ctx, params, "set link", edits, names={"url": "href"})


@operation("format.remove_link", title="Remove link")
async def remove_link(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Remove the links in the selection (or around the cursor), keeping their text."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        return marks.remove_link(text, sel.head if sel.empty else (sel.from_, sel.to))

    return await edit_at_cursor(ctx, params, "remove link", edits)


@operation("format.clear", title="Clear formatting")
async def clear(ctx: OpContext, params: EditorEditParams) -> CursorEditResult:
    """Remove every mark (bold, italic, code, …) and link from the selection, keeping the text."""

    def edits(text: str, sel: Selection) -> list[TextEdit]:
        start, end = selected(sel)
        return marks.clear_marks(text, start, end)

    return await edit_at_cursor(ctx, params, "clear formatting", edits)
