"""OPML outlines: one part per row (an ``<outline>`` element's ``text``), by row id.

The file is checked with defusedxml (no entity expansion, no external entities, no DTD
tricks) and then read and changed as text: each row is located by its start tag in
document order, so a change to one row's topic rewrites only that attribute's value and
every other byte of the file (other attributes, unknown elements, comments, whitespace)
survives. A row's id is its ``id`` attribute, else ``row-<n>`` by document order until a
write stores one (the outline issue builds moves, notes and checkboxes on this).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from ..errors import DomainError
from ..kinds import DocumentKind
from .base import Part, find_part

_COMMENT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.S)
_TAG = re.compile(r"<outline\b([^>]*?)(/?)>", re.S)
_ATTR = re.compile(r"""([A-Za-z_][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')""")


@dataclass(frozen=True)
class Row:
    id: str
    text: str
    value_span: tuple[int, int] | None  # where the text attribute's value is in the file


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))  # same length: offsets stay true


@dataclass(frozen=True)
class OutlineContent:
    source: str
    rows: tuple[Row, ...]
    kind: DocumentKind = "outline"

    @classmethod
    def parse(cls, kind: DocumentKind, text: str) -> OutlineContent:
        if text.strip():
            try:
                ElementTree.fromstring(text.encode("utf-8"))
            except (ElementTree.ParseError, DefusedXmlException) as exc:
                raise DomainError("INVALID_PATH", f"this outline is not safe, well-formed XML: {exc}") from None
        scan = _COMMENT.sub(_blank, text)
        rows = []
        for n, tag in enumerate(_TAG.finditer(scan)):
            attrs = {m.group(1): m for m in _ATTR.finditer(tag.group(1))}
            id_match = attrs.get("id")
            text_match = attrs.get("text")
            row_id = unescape(id_match.group(3) or id_match.group(4) or "") if id_match else f"row-{n}"
            span = None
            topic = ""
            if text_match is not None:
                group = 3 if text_match.group(3) is not None else 4
                base = tag.start(1)
                span = (base + text_match.start(group), base + text_match.end(group))
                topic = unescape(text_match.group(group))
            rows.append(Row(row_id, topic, span))
        return cls(text, tuple(rows))

    def parts(self) -> list[Part]:
        return [Part(r.id, r.text, "row") for r in self.rows]

    def part(self, part_id: str) -> Part:
        return find_part(self.parts(), "outline", part_id)

    def with_part(self, part_id: str, text: str) -> OutlineContent:
        for row in self.rows:
            if row.id == part_id:
                if row.value_span is None:
                    raise DomainError("INVALID_ARGUMENT", f"row {part_id!r} has no text attribute to change")
                a, b = row.value_span
                value = escape(text, quote=True)  # escapes both quote kinds
                return OutlineContent.parse(self.kind, self.source[:a] + value + self.source[b:])
        find_part(self.parts(), "outline", part_id)  # raises NOT_FOUND
        raise AssertionError

    def serialize(self) -> str:
        return self.source
