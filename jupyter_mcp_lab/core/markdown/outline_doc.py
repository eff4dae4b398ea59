"""A markdown outline as the row edits see it: places by row id, the form and style a row
takes at a place, where it goes, and new rows as markdown lines (see ``outline_edits``)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..content.outline_tree import OutlineTree
from ..errors import ArgumentError
from ..text import TextEdit, newline_of
from .blocks import insert_block
from .headings import ATX_OPEN
from .outline_rows import MarkdownOutline, Place
from .outline_topics import topic_source

_BOXES = {"checked": "[x]", "unchecked": "[ ]", "none": None}


class _Places:
    """A row's place by its id (looked up when asked: an edit needs a few of 10,000)."""

    def __init__(self, outline: MarkdownOutline) -> None:
        self.o = outline

    def __getitem__(self, row_id: str) -> Place:
        return self.o.place(row_id)


class OutlineDoc:
    def __init__(self, outline: MarkdownOutline) -> None:
        self.o = outline
        self.text = outline.source
        self.idx = outline.structure.lines
        self.nl = newline_of(self.text)
        self.places = _Places(outline)

    @cached_property
    def tree(self) -> OutlineTree:
        return OutlineTree(self.o)

    def line(self, k: int) -> str:
        return self.text[self.idx.start_of(k) : self.idx.end_of(k)]

    def blank(self, k: int) -> bool:
        return k < 1 or k > self.idx.line_count or not self.line(k).strip()

    def place(self, row_id: str) -> Place:
        return self.o.place(row_id)  # NOT_FOUND naming the row

    def gap(self, parent: str | None, after: str | None, without: str | None = None) -> tuple[str | None, str | None]:
        """The siblings before and after the place under ``parent`` that follows ``after``."""
        kids = [k for k in self.o.children(parent) if k != without]
        if after is None:
            return None, kids[0] if kids else None
        if after not in kids:
            self.o.row(after)
            raise ArgumentError(f"row {after!r} is not a child of {parent or 'the top level'!r}", "after")
        k = kids.index(after)
        return after, kids[k + 1] if k + 1 < len(kids) else None

    def form(self, parent: str | None, prev: str | None, nxt: str | None, own: str | None) -> str:
        """heading or item: the form a row takes at this place (its own ``own`` when it can)."""
        if parent is not None and self.places[parent].kind == "item":
            return "item"
        if prev is not None and self.places[prev].kind == "heading":
            allowed = ["heading"]
        elif nxt is not None and self.places[nxt].kind == "item":
            allowed = ["item"]
        else:
            allowed = ["item", "heading"]
        if "heading" in allowed and self.heading_level(parent, prev, nxt) > 6:
            allowed.remove("heading")
        if own in allowed:
            return own
        if len(allowed) == 1:
            return allowed[0]
        near = prev if prev is not None else nxt
        return self.places[near].kind if near is not None else "item"

    def heading_level(self, parent: str | None, prev: str | None, nxt: str | None) -> int:
        for sib in (prev, nxt):
            if sib is not None and self.places[sib].kind == "heading":
                return self.places[sib].level
        return self.places[parent].level + 1 if parent is not None else 1

    def item_style(self, parent: str | None, prev: str | None, nxt: str | None) -> tuple[str, str, bool]:
        """Indentation, marker and whether siblings have checkboxes, for a new item here (an
        ordered list's number is ``outline_numbers``' to give)."""
        for sib in (prev, nxt):
            if sib is not None and self.places[sib].kind == "item":
                p = self.places[sib]
                return p.indent, p.marker, p.box is not None
        if parent is not None and self.places[parent].kind == "item":
            return " " * self.places[parent].column, "-", False
        return "", "-", False

    def insert_at(self, form: str, parent: str | None, prev: str | None, nxt: str | None, lines: list[str]) -> TextEdit:
        """The edit that puts ``lines`` (a row in ``form``) at this place."""
        body = self.nl.join(lines)
        if form == "item":
            near = [s for s in (prev, nxt) if s is not None and self.places[s].kind == "item"]
            if near and prev is not None and near[0] == prev:
                at = self.idx.end_of(self.places[prev].end)
                return TextEdit(at, at, self.nl + body)
            if near and nxt is not None:
                at = self.idx.start_of(self.places[nxt].line)
                return TextEdit(at, at, body + self.nl)
            if parent is not None and self.places[parent].kind == "item":
                at = self.idx.end_of(self.places[parent].end)
                return TextEdit(at, at, self.nl + body)
        if nxt is not None and self.places[nxt].kind == "heading":
            return insert_block(self.text, self.idx.start_of(self.places[nxt].line), body)
        if prev is not None:
            return insert_block(self.text, self.idx.end_of(self.places[prev].end), body)
        if parent is not None:
            return insert_block(self.text, self.idx.end_of(self.places[parent].end), body)
        return insert_block(self.text, len(self.text), body)

    def cut(self, a: int, z: int) -> TextEdit:
        """Remove lines ``a..z``: with the blank lines after them when blank lines were before
        them too (a loose list, sections), else with the blank lines before at the end."""
        after = z + 1
        while after <= self.idx.line_count and self.blank(after):
            after += 1
        if after <= self.idx.line_count:
            end = self.idx.start_of(after) if self.blank(a - 1) else self.idx.start_of(z + 1)
            return TextEdit(self.idx.start_of(a), end, "")
        prev = a - 1
        while prev >= 1 and self.blank(prev):
            prev -= 1
        return TextEdit(
            self.idx.end_of(prev) if prev >= 1 else 0, len(self.text) if prev < 1 else self.idx.end_of(z), ""
        )


def topic_text(value: Any, form: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError("topic must be a string", "topic")
    return topic_source(" ".join(value.split()), form)  # one paragraph: its line breaks are spaces


def note_lines(value: Any, column: int | None) -> list[str]:
    """A note's lines as stored: under an item indented to its column; a heading's verbatim,
    a line that would start a heading escaped (it would end the section)."""
    if value is None or value == "":
        return []
    if not isinstance(value, str):
        raise ArgumentError("note must be a string", "note")
    lines = value.replace("\r\n", "\n").replace("\r", "\n").strip("\n").split("\n")
    if column is None:
        return ["\\" + ln.lstrip() if ATX_OPEN.match(ln) else ln for ln in lines]
    return [" " * column + ln if ln.strip() else "" for ln in lines]


def box_of(state: Any) -> tuple[bool, str | None]:
    """(given, checkbox) for a state argument."""
    if state is None:
        return False, None
    if state not in _BOXES:
        raise ArgumentError("state must be checked, unchecked or none (mixed follows from a task's items)", "state")
    return True, _BOXES[state]


def render_row(form: str, fields: dict[str, Any], level: int, indent: str, marker: str, boxed: bool) -> list[str]:
    """A new row (with its ``children``, nested rows as items) as markdown lines."""
    given, box = box_of(fields.get("state"))
    if form == "heading":
        head = ["#" * level + " " + topic_text(fields.get("topic", ""), form)]
        note = note_lines(fields.get("note"), None)
        kids = [ln for child in fields.get("children") or [] for ln in render_row("item", child, 0, "", "-", False)]
        return head + (["", *note] if note else []) + (["", *kids] if kids else [])
    if not given and boxed:
        box = "[ ]"
    column = len(indent.expandtabs(4)) + len(marker) + 1
    head = [f"{indent}{marker} " + (f"{box} " if box else "") + topic_text(fields.get("topic", ""), form)]
    note = note_lines(fields.get("note"), column)
    kids = [
        ln for child in fields.get("children") or [] for ln in render_row("item", child, 0, " " * column, "-", False)
    ]
    return head + (["", *note] if note else []) + kids
