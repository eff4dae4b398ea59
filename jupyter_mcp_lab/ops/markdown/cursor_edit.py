"""``cursor.edit``: one change at a tab's cursor or selection, through the approval policy.

The selection is read under the document's lock (so the change is computed on exactly the
text it changes), a core editor (``core/markdown/at_cursor``, ``inserts``, ``blocks_edit``)
makes the edits, and ``mutate`` runs them: the server's approval policy, suggestions,
checkpoints and STALE all apply, and a change is staged as one suggestion. Once applied,
inserted text leaves the cursor after it; otherwise the selection follows the change as
it follows any other (a staged suggestion moves nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ...core.errors import ArgumentError, DomainError
from ...core.markdown import at_cursor as cmd
from ...core.markdown import blocks_edit, inserts
from ...core.selection import Selection
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..documents import TabTarget, resolve_tab
from ..targets import EXPECTED, MODE, RATIONALE, Mode, MutationResult, mutate_as_asked, require_kind
from . import cursor_kinds as k

Edits = Callable[[str, Selection], list[TextEdit]]
# Arguments the core editors name that are not the agent's: the cursor or selection stands for them.
CURSOR_ARGUMENTS = frozenset({"offset", "range", "start", "end", "target", "offset_or_range", "table_id", "list_id"})


@dataclass(frozen=True)
class Plan:
    """What one kind of change does: its label (the suggestion's), its edits on (text,
    selection), and where an applied change leaves the cursor (an offset into the last
    edit's new text; none: the selection follows the change)."""

    label: str
    edits: Edits
    markdown: bool = True
    cursor: Callable[[TextEdit], int] | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # the core editor's argument -> the kind's field


def _text(label: str, text: str, where: Callable[[str, Selection], tuple[int, int]]) -> Plan:
    def edits(before: str, sel: Selection) -> list[TextEdit]:
        start, end = where(before, sel)
        return [TextEdit(start, end, text)]

    return Plan(label, edits, markdown=False, cursor=lambda e: len(e.text))


def _at(at: int) -> Callable[[str, Selection], tuple[int, int]]:
    def where(text: str, _: Selection) -> tuple[int, int]:
        if at > len(text):
            raise ArgumentError(f"at ({at}) is beyond the end of the document ({len(text)})", "at")
        return at, at

    return where


def plan(edit: k.CursorEdit) -> Plan:
    """The plan for one change (refusing, before anything is read, one that lacks a field)."""
    after = cmd.after_insert
    match edit:
        case k.Insert(at=None):
            return _text("insert at cursor", edit.text, lambda _, s: (s.head, s.head))
        case k.Insert(at=int(at)):
            return _text("insert at position", edit.text, _at(at))
        case k.Replace():
            return _text("selection replace", edit.text, lambda _, s: (s.from_, s.to))
        case k.Delete():
            return _text("selection delete", "", lambda _, s: cmd.selected(s))
        case k.Format() as f:
            label = "clear formatting" if f.mark == "clear" else f"toggle {f.mark}"
            return Plan(label, lambda t, s: cmd.toggle_mark(t, s, f.mark))
        case k.Link() as ln:
            return Plan("remove link" if ln.url is None else "set link", lambda t, s: cmd.link(t, s, ln.url, ln.title))
        case k.Block() as b:
            label = f"toggle block {b.type}" if b.toggle else f"set block type {b.type}"
            return Plan(label, lambda t, s: cmd.block_type(t, s, b.type, b.level, b.language, toggle=b.toggle))
        case k.ListToggle() as li:
            return Plan(f"toggle {li.type} list", lambda t, s: cmd.toggle_list(t, s, li.type), names={"kind": "type"})
        case k.Indent() as i:
            return Plan(f"{i.kind} list item", lambda t, s: cmd.indent(t, s, outdent=i.kind == "outdent"))
        case k.Table() as tb:
            return _table(tb)
        case k.Rule():
            rule = blocks_edit.insert_horizontal_rule
            return Plan("insert horizontal rule", lambda t, s: rule(t, s.head), cursor=after)
        case k.Math(display=True) as m:
            return Plan("insert math block", lambda t, s: inserts.insert_math_block(t, s.head, m.latex), cursor=after)
        case k.Math() as m:
            return Plan("insert inline math", lambda t, s: inserts.insert_math_inline(t, s.head, m.latex), cursor=after)
        case k.Mermaid() as mm:
            return Plan("insert mermaid diagram", lambda t, s: inserts.insert_mermaid(t, s.head, mm.code), cursor=after)
        case k.WikiLink() as w:
            link = inserts.insert_wiki_link
            edits: Edits = lambda t, s: link(t, s.head, w.target, w.alias)  # noqa: E731
            return Plan("insert wiki link", edits, cursor=after, names={"target": "target"})
    raise AssertionError(edit)


def _table(tb: k.Table) -> Plan:
    if tb.change == "insert":
        rows, cols = tb.rows, tb.cols
        if rows is None or cols is None:
            raise ArgumentError("a new table needs rows and cols", "rows" if rows is None else "cols")
        insert = cmd.insert_table
        return Plan(
            f"insert {rows}x{cols} table",
            lambda t, s: insert(t, s, rows, cols, header=tb.header),
            cursor=cmd.first_cell,
        )
    change = tb.change
    labels = {"delete": "delete table", "add_row": f"add row {tb.side}", "add_column": f"add column {tb.side}"}
    return Plan(labels.get(change, change.replace("_", " ")), lambda t, s: cmd.change_table(t, s, change, tb.side))


def renamed(exc: DomainError, names: Mapping[str, str], drop: frozenset[str] = frozenset()) -> DomainError:
    """``exc`` naming ``names[argument]`` instead of its argument (and starting its message so
    when it started with the old name); an argument in ``drop`` is left out of the envelope."""
    argument = exc.argument if isinstance(exc, ArgumentError) else exc.details.get("argument")
    if not isinstance(argument, str):
        return exc
    if argument in names:
        new: str | None = names[argument]
        assert new is not None
        message = new + exc.message[len(argument) :] if exc.message.startswith(argument) else exc.message
    elif argument in drop or argument.startswith("operations["):
        new, message = None, f"at the cursor: {exc.message}"
    else:
        return exc
    if isinstance(exc, ArgumentError):
        return ArgumentError(message, new)
    details = {k: v for k, v in exc.details.items() if k != "argument"} | ({"argument": new} if new else {})
    return DomainError(exc.code, message, **details)


@dataclass
class _Seen:
    """What the change saw under the document's lock."""

    head: int = 0
    before: str = ""
    after: str = ""
    made: list[TextEdit] = field(default_factory=list)


class CursorEditParams(TabTarget):
    """A change at a tab's cursor, through the server's approval policy."""

    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    rationale: str | None = RATIONALE
    save: bool = Field(False, description="Write the file now (default: the tab keeps the change unsaved).")
    edit: Annotated[k.CursorEdit, WithJsonSchema(k.SCHEMA)] = Field(description="The change, by kind.")


class Replaced(BaseModel):
    model_config = ConfigDict(validate_by_name=True)
    from_: int = Field(alias="from")
    to: int
    text: str = Field(description="The text that was there.")


class CursorEditResult(MutationResult):
    operation: str = Field(description="What the change does (the label of its suggestion or checkpoint).")
    position: int = Field(description="Where the change starts (in the text before it); unchanged: the cursor.")
    range: Replaced | None = Field(None, description="insert, replace, delete: the range replaced.")


@operation("cursor.edit", title="Edit at the cursor", destructive=True)
async def edit(ctx: OpContext, params: CursorEditParams) -> CursorEditResult:
    """One change at the tab's cursor or selection: insert, replace or delete text; on markdown
    toggle a mark, set or remove a link, change the block's type, toggle a list, indent or
    outdent items, insert or change a table, insert a rule, math, a Mermaid diagram or a wiki
    link. Staged as a suggestion under the server's approval policy."""
    p = plan(params.edit)
    tab = await resolve_tab(ctx, params.tabId, params.windowId)
    if p.markdown:
        require_kind(tab.doc, "markdown")
    seen = _Seen()

    def change(before: str) -> str:
        sel = tab.current_selection()
        seen.head, seen.before = sel.head, before
        try:
            seen.made = p.edits(before, sel)
        except DomainError as exc:
            raise renamed(exc, p.names, CURSOR_ARGUMENTS) from None
        seen.after = apply_edits(before, seen.made)
        return seen.after

    r = await mutate_as_asked(ctx, tab.doc, params, change, save=params.save, label=p.label)
    made = seen.made
    if r.mode == "apply" and p.cursor is not None and made:
        last = max(made, key=lambda e: e.start)
        shift = sum(len(e.text) - (e.end - e.start) for e in made if e.start < last.start)
        tab.set_selection(Selection.cursor(last.start + shift + p.cursor(last)), "agent", seen.after)
    replaced = None
    if not p.markdown:  # a text change: the range it replaced, as the selection or offset named it
        (e,) = made
        replaced = Replaced(from_=e.start, to=e.end, text=seen.before[e.start : e.end])
    position = r.change.start if r.change else seen.head
    return CursorEditResult(**r.model_dump(), operation=p.label, position=position, range=replaced)
