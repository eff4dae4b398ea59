"""OPML outlines: one part per row (an ``<outline>`` element's ``text``), by row id.

The file is checked and read with defusedxml (no entity expansion, no external entities, no
DTD tricks): that parse gives the tree and every attribute's value. Changes are made as
text: each row's start tag is located in document order, so a change to one row's topic
rewrites only that attribute's value and every other byte of the file (other attributes,
unknown elements, comments, whitespace) survives.

A row's id is its ``id`` attribute, else ``row-<n>`` by document order (never one another
row holds); ``with_ids`` stores
the ids of rows that have none (a write does, so rows keep their ids when others are added,
moved or deleted). Notes are OmniOutliner's ``_note`` attribute; a checkbox its ``_status``
(``checked``, ``unchecked``, ``indeterminate``); a row with a checkbox whose children have
checkboxes takes its state from them (all checked, all unchecked, else mixed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from html import escape
from typing import Literal, NamedTuple
from xml.etree.ElementTree import Element

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from ..errors import DomainError
from ..kinds import DocumentKind
from .base import DocumentContent, Part, find_part
from .part_edits import PartEdit

State = Literal["checked", "unchecked", "mixed", "none"]
_STATUS: dict[str, State] = {"checked": "checked", "unchecked": "unchecked", "indeterminate": "mixed"}
_COMMENT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.S)
# A start or end tag of a row or of the body; a quoted value may hold a ">".
_TAG = re.compile(r"""<(/?)(outline|body)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>""", re.S)
_ATTR = re.compile(r"""([A-Za-z_][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')""")
# Attribute values keep line breaks and tabs only as character references (XML turns a
# literal one into a space when the file is read again).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_WHITESPACE_REFS = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


@dataclass(frozen=True)
class Row:
    id: str
    text: str  # the topic
    value_span: tuple[int, int] | None  # where the topic is in the source (OPML: None, its tag is in spans)
    note: str | None = None
    status: State = "none"  # the row's own checkbox attribute
    parent: str | None = None
    children: tuple[str, ...] = ()
    level: int = 0
    tag_start: int = -1  # where the row's start tag's name ends ("<outline|"), -1 when unknown
    stored_id: bool = False  # the id is an attribute in the file


class Span(NamedTuple):  # a tuple: an edit makes thousands of shifted ones
    """Where an element is in the file: its start tag ``[open_at, open_end)`` and, unless
    the tag closes itself, its end tag ``[close_at, close_end)``."""

    open_at: int
    open_end: int
    close_at: int = -1
    close_end: int = -1

    @property
    def empty(self) -> bool:  # <outline …/>
        return self.close_at < 0

    @property
    def end(self) -> int:
        return self.open_end if self.empty else self.close_end


def element_spans(text: str) -> tuple[list[Span], Span | None]:
    """Every row's span in document order, and the body's (None without one); comments and
    CDATA are blanked first so a commented-out row is not read as one."""
    rows: list[Span] = []
    body: Span | None = None
    open_rows: list[int] = []
    for m in _TAG.finditer(_COMMENT.sub(_blank, text)):
        closing, name, self_closing = m.group(1), m.group(2), m.group(4)
        if name == "body":
            if body is None and not closing:
                body = Span(m.start(), m.end()) if self_closing else Span(m.start(), m.end(), -2, -2)
            elif closing and body is not None and body.close_at == -2:
                body = Span(body.open_at, body.open_end, m.start(), m.end())
        elif closing:
            if open_rows:
                i = open_rows.pop()
                rows[i] = Span(rows[i].open_at, rows[i].open_end, m.start(), m.end())
        else:
            rows.append(Span(m.start(), m.end()))
            if not self_closing:
                open_rows.append(len(rows) - 1)
    if body is not None and body.close_at == -2:
        body = None
    return rows, body


def tag_attributes(text: str, span: Span) -> dict[str, re.Match[str]]:
    """The attributes of the start tag at ``span`` by name (offsets into ``text``)."""
    return {m.group(1): m for m in _ATTR.finditer(text, span.open_at + len("<outline"), span.open_end)}


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))  # same length: offsets stay true


def attribute_value(text: str) -> str:
    """``text`` as the value of a double-quoted XML attribute; a character XML 1.0 cannot
    hold (a control character, an unpaired surrogate) is refused, not written."""
    if (bad := _NOT_XML.search(text)) is not None:
        raise DomainError(
            "INVALID_ARGUMENT", f"an outline cannot hold the character U+{ord(bad.group(0)):04X}", character=bad.start()
        )
    value = escape(text, quote=True)  # escapes both quote kinds
    for char, ref in _WHITESPACE_REFS.items():
        value = value.replace(char, ref)
    return value


def _parse_tree(text: str) -> Element | None:
    if not text.strip():
        return None
    try:
        root: Element = ElementTree.fromstring(text.encode("utf-8"))
    except (ElementTree.ParseError, DefusedXmlException) as exc:
        raise DomainError("INVALID_PATH", f"this outline is not safe, well-formed XML: {exc}") from None
    except RecursionError:
        raise DomainError("INVALID_PATH", "this outline nests too deeply to read") from None
    return root


def _ordered(root: Element | None) -> list[tuple[Element, Element | None, int]]:
    """Every ``<outline>`` element with its parent row and level, in document order."""
    if root is None:
        return []
    found: list[tuple[Element, Element | None, int]] = []
    stack: list[tuple[Element, Element | None, int]] = [(root, None, 0)]
    while stack:  # iterative: a deep outline must not exhaust the interpreter's stack
        el, row_parent, level = stack.pop()
        is_row = el.tag == "outline"
        if is_row:
            found.append((el, row_parent, level))
        below = (el, level + 1) if is_row else (row_parent, level)
        stack.extend((child, below[0], below[1]) for child in reversed(list(el)))
    return found


def _row_ids(elements: list[Element]) -> dict[int, str]:
    """Each row's id: its ``id`` attribute, else ``row-<n>`` by document order; an id another
    row holds already (a stored one, a duplicate) gets a suffix, so every id names one row."""
    taken = {el.get("id") for el in elements}
    ids: dict[int, str] = {}
    used: set[str] = set()
    for n, el in enumerate(elements):
        stored = el.get("id")
        want = stored or f"row-{n}"
        candidate, k = want, 1
        while candidate in used or (not stored and candidate in taken):
            k += 1
            candidate = f"{want}-{k}"
        used.add(candidate)
        ids[id(el)] = candidate
    return ids


@dataclass(frozen=True)
class OutlineContent:
    source: str
    rows: tuple[Row, ...]
    kind: DocumentKind = "outline"
    # Where each row (same order as rows) and the body are in ``source``; empty when a tag
    # cannot be read by the scan: the outline reads, its rows cannot change.
    spans: tuple[Span, ...] = ()
    body: Span | None = None

    @classmethod
    def parse(cls, kind: DocumentKind, text: str) -> OutlineContent:
        elements = _ordered(_parse_tree(text))
        spans, body = element_spans(text)
        if len(spans) != len(elements) or any(s.close_at == -1 and text[s.open_end - 2] != "/" for s in spans):
            spans = []
        ids = _row_ids([el for el, _, _ in elements])
        children: dict[str, list[str]] = {}
        for el, parent, _ in elements:
            if parent is not None:
                children.setdefault(ids[id(parent)], []).append(ids[id(el)])
        rows = []
        for el, parent, level in elements:
            row_id = ids[id(el)]
            rows.append(
                Row(
                    id=row_id,
                    text=el.get("text", ""),
                    value_span=None,  # found in the start tag when the topic changes (spans)
                    note=el.get("_note"),
                    status=_STATUS.get(el.get("_status", ""), "none"),
                    parent=ids[id(parent)] if parent is not None else None,
                    children=tuple(children.get(row_id, ())),
                    level=level,
                    tag_start=-1,  # OPML: the tag is in spans (they move with every edit)
                    stored_id=el.get("id") is not None,
                )
            )
        return cls(text, tuple(rows), spans=tuple(spans), body=body if spans or not elements else None)

    @cached_property
    def index(self) -> dict[str, int]:
        """Each row's position in ``rows`` by id."""
        return {r.id: k for k, r in enumerate(self.rows)}

    def apply_edit(self, edit: PartEdit, base: DocumentContent) -> OutlineContent | None:
        """``edit`` (made against ``base``) applied here by row id; None: a conflict."""
        from .outline_edit import apply_row_edit  # the splicing needs this module's model

        return apply_row_edit(self, edit, base)

    def parts(self) -> list[Part]:
        return [Part(r.id, r.text, "row") for r in self.rows]

    def part(self, part_id: str) -> Part:
        return find_part(self.parts(), "outline", part_id)

    def with_part(self, part_id: str, text: str) -> OutlineContent:
        """This outline with row ``part_id``'s topic ``text`` (its ``text`` attribute's value)."""
        from .outline_edit import with_fields

        for row, span in zip(self.rows, self.spans, strict=False):
            if row.id == part_id:
                return OutlineContent.parse(self.kind, with_fields(self.source, span, {"topic": text}))
        find_part(self.parts(), "outline", part_id)  # raises NOT_FOUND
        raise DomainError("INVALID_ARGUMENT", "this outline's rows cannot be located in its file to change them")

    def with_ids(self) -> OutlineContent:
        """This outline with an ``id`` attribute on every row that has none (the id it reads
        as now), added right after the tag's name: nothing else changes."""
        missing = [r for r in self.rows if not r.stored_id]
        if not missing:
            return self
        if not self.spans:
            raise DomainError("INVALID_ARGUMENT", "this outline's rows cannot be located to store their ids")
        out, at = [], 0
        for r, span in zip(self.rows, self.spans, strict=True):
            if not r.stored_id:
                name_end = span.open_at + len("<outline")
                out += [self.source[at:name_end], f' id="{attribute_value(r.id)}"']
                at = name_end
        out.append(self.source[at:])
        return OutlineContent.parse(self.kind, "".join(out))

    def serialize(self) -> str:
        return self.source
