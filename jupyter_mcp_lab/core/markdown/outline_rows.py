"""The outline view of a markdown document: headings and list items as rows.

Rows are the ``Row`` of OPML outlines (``core.content.outline``), so ``OutlineTree`` and
the ``outline`` read operations read a markdown document exactly as they read an OPML one.

- A heading's rows are the headings and list items under it (a heading of a lower level
  ends it); list items before the first heading are top-level rows; nested lists nest.
  Lists inside a blockquote or another container are content, not rows.
- A row's topic is a heading's title, or the text of an item's first paragraph (its lines
  joined with a space) without the marker and checkbox, as plain text (``outline_topics``).
  ``- [ ]`` is unchecked, ``- [x]`` checked; a heading has no checkbox.
- A row's note is the markdown between its topic and its first child row (a heading's
  paragraphs, code, tables before its first list or subheading; an item's continuation
  paragraphs before its nested list), blank lines at either end left out, an item's
  lines without the item's indentation.

Ids (``md-`` and eight hex digits) are derived from content, not position: the CRC-32 of
the row's topic and its parent's topic; the n-th row (n ≥ 2, document order) with the same
pair gets ``-n``. So an edit anywhere else (text above, rows added, deleted or moved
elsewhere, a change to another row's note or checkbox) leaves a row's id as it was. A row's
id changes when its own topic or its parent's topic changes, when it moves to a parent
with another topic, or when a row with the same topic under a parent with the same topic
is added or removed before it.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ..content.outline import Row, State
from ..errors import DomainError
from ..kinds import DocumentKind
from ..text import LineIndex, split_lines
from .headings import ATX_HEADING
from .list_model import _ITEM, _shift, _width
from .outline_items import list_items
from .outline_topics import plain_topic
from .structure import Structure, structure_of
from .text_memo import TextMemo

RowKind = Literal["heading", "item"]
_BOX: dict[str | None, State] = {None: "none", "[ ]": "unchecked", "[x]": "checked", "[X]": "checked"}


class Place(NamedTuple):
    """Where a row is in the source (1-based, inclusive lines). A tuple: 10,000 are made per parse."""

    kind: RowKind
    line: int  # the heading line / the item's marker line
    topic_end: int  # the last line of the topic (a setext heading's underline for a heading)
    body_end: int  # the last line before the row's first child row (or its end)
    end: int  # the last line of the row and everything under it, trailing blank lines left out
    level: int = 0  # a heading's level (1-6)
    column: int = 0  # an item's content column (where its text and its lines start)
    indent: str = ""  # an item's indentation
    marker: str = ""  # an item's marker ("-", "*", "1.", "2)")
    box: str | None = None  # an item's checkbox ("[ ]", "[x]") or None
    topic_span: tuple[int, int] = (0, 0)  # offsets of the topic's text (its first to its last line)


@dataclass(frozen=True)
class MarkdownOutline:
    """A markdown document read as an outline (``rows`` in document order, ``places`` beside them)."""

    source: str
    structure: Structure
    rows: tuple[Row, ...]
    places: tuple[Place, ...]
    kind: DocumentKind = "markdown"

    def index(self, row_id: str) -> int | None:
        return self._order.get(row_id)

    def row(self, row_id: str) -> Row:
        """The row with this id (NOT_FOUND naming it, as ``OutlineTree.row``)."""
        k = self._order.get(row_id)
        if k is None:
            raise DomainError("NOT_FOUND", f"this outline has no row {row_id!r}", row=row_id)
        return self.rows[k]

    def place(self, row_id: str) -> Place:
        """Where the row with this id is (NOT_FOUND naming it)."""
        k = self._order.get(row_id)
        if k is None:
            self.row(row_id)
        return self.places[self._order[row_id]]

    def children(self, row_id: str | None) -> tuple[str, ...]:
        """The ids of a row's children (None: the top-level rows)."""
        if row_id is not None:
            return self.row(row_id).children
        top = self.__dict__.get("_top")
        if top is None:
            top = tuple(r.id for r in self.rows if r.parent is None)
            object.__setattr__(self, "_top", top)
        return top

    def subtree(self, row_id: str) -> range:
        """The indexes of a row and the rows under it (they follow it in document order)."""
        k = self._order[self.row(row_id).id]
        level, end = self.rows[k].level, k + 1
        while end < len(self.rows) and self.rows[end].level > level:
            end += 1
        return range(k, end)

    @property
    def _order(self) -> dict[str, int]:
        # Built on first use: a read never needs it, an edit needs it once per revision.
        order = self.__dict__.get("_order_cache")
        if order is None:
            order = {r.id: i for i, r in enumerate(self.rows)}
            object.__setattr__(self, "_order_cache", order)
        return order


def _item_topic(lines: list[str], m: re.Match[str], a: int, t: int) -> str:
    """An item's topic: its first paragraph (lines ``a..t-1``, 0-based) without marker and box."""
    first = m.group(6).strip()
    more = [ln.strip() for ln in lines[a + 1 : t]]
    return " ".join([first, *more]) if more else first


def _end(idx: LineIndex, lines: list[str], line: int) -> int:
    """The offset after the last non-blank character of ``line``."""
    text = lines[line - 1]
    return idx.end_of(line) - (len(text) - len(text.rstrip()))


def _trim(lines: list[str], a: int, z: int) -> tuple[int, int]:
    """Lines ``a..z`` (1-based, inclusive) without blank lines at either end (a > z: none)."""
    while a <= z and not lines[a - 1].strip():
        a += 1
    while z >= a and not lines[z - 1].strip():
        z -= 1
    return a, z


def parse_outline(text: str) -> MarkdownOutline:
    """The rows of a markdown document (see the module doc)."""
    st = structure_of(text)
    lines = split_lines(text)
    idx = st.lines
    topics: list[str] = []
    parents: list[int] = []
    places: list[list[Any]] = []  # Place's fields, final once the rows under each are known
    heads: list[int] = []  # open headings (row indexes), outermost first
    last = len(lines)
    for block in st.blocks:
        if block.type == "heading":
            level = block.level or 1
            while heads and places[heads[-1]][5] >= level:
                _close(places[heads.pop()], lines, block.line_start - 1)
            parents.append(heads[-1] if heads else -1)
            atx = ATX_HEADING.match(lines[block.line_start - 1])
            topics.append(plain_topic(atx.group(1).strip() if atx else " ".join((block.title or "").split())))
            at = idx.start_of(block.line_start)
            if atx is not None:
                span = (at + atx.start(1), at + atx.end(1))
            else:  # setext: the lines above the underline
                span = (
                    at + len(lines[block.line_start - 1]) - len(lines[block.line_start - 1].lstrip()),
                    _end(idx, lines, block.line_end - 1),
                )
            end = block.line_end
            places.append(["heading", block.line_start, end, end, end, level, 0, "", "", None, span])
            heads.append(len(places) - 1)
            continue
        if block.type != "list":
            continue
        base = len(places)
        owner = heads[-1] if heads else -1
        items = block.nested or list_items("\n".join(lines[block.line_start - 1 : block.line_end]))
        for item in items:
            a = block.line_start + item.line
            m = _ITEM.match(lines[a - 1])
            assert m is not None  # markdown-it found an item here
            indent, marker, gap, box = m.group(1), m.group(2), m.group(3), m.group(4)
            cc = _width(indent) + len(marker) + (len(gap) if 0 < len(gap) <= 4 and m.group(6) else 1)
            end = block.line_start + item.end - 1
            while end > a and not lines[end - 1].strip():  # the item's trailing blank lines
                end -= 1
            topic_end = min(block.line_start + item.topic_end - 1, end)
            topics.append(plain_topic(_item_topic(lines, m, a - 1, topic_end)))
            parents.append(base + item.parent if item.parent >= 0 else owner)
            at = idx.start_of(a) + m.start(6)
            span = (at, max(at, _end(idx, lines, topic_end)))
            body_end = min(block.line_start + item.body_end - 1, end)
            places.append(["item", a, topic_end, body_end, end, 0, cc, indent, marker, box, span])
    for h in heads:
        _close(places[h], lines, last)
    return _assemble(text, st, lines, topics, parents, places)


def _close(place: list[Any], lines: list[str], end: int) -> None:
    """A heading's place once its section is known to end at line ``end``."""
    _, z = _trim(lines, place[1], end)
    place[4] = max(z, place[2])


def _assemble(
    text: str, st: Structure, lines: list[str], topics: list[str], parents: list[int], fields: list[list[Any]]
) -> MarkdownOutline:
    children: list[list[int]] = [[] for _ in fields]
    for i, p in enumerate(parents):
        if p >= 0:
            children[p].append(i)
    ids = _ids(topics, parents)
    levels: list[int] = []
    rows: list[Row] = []
    places: list[Place] = []
    for i, f in enumerate(fields):
        p = parents[i]
        levels.append(levels[p] + 1 if p >= 0 else 0)
        kids = children[i]
        body_end = (fields[kids[0]][1] - 1) if kids else f[4]
        if f[0] == "item":
            body_end = min(body_end, f[3])
        f[3] = body_end
        place = Place(*f)
        places.append(place)
        a, z = _trim(lines, place.topic_end + 1, body_end)
        note = None
        if a <= z:
            body = lines[a - 1 : z]
            note = "\n".join(_shift(ln, -place.column) for ln in body) if place.kind == "item" else "\n".join(body)
        rows.append(
            Row(
                id=ids[i],
                text=topics[i],
                value_span=place.topic_span,
                note=note,
                status=_BOX.get(place.box, "none") if place.kind == "item" else "none",
                parent=ids[p] if p >= 0 else None,
                children=tuple(ids[k] for k in kids),
                level=levels[i],
            )
        )
    return MarkdownOutline(text, st, tuple(rows), tuple(places))


def _ids(topics: list[str], parents: list[int]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for i, topic in enumerate(topics):
        p = parents[i]
        key = (topics[p] if p >= 0 else "\x1e") + "\x1f" + topic
        base = f"md-{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}"
        n = seen.get(base, 0) + 1
        seen[base] = n
        out.append(base if n == 1 else f"{base}-{n}")
    return out


_OUTLINES = TextMemo(parse_outline, lambda o: o.source, 8)


def markdown_outline(text: str) -> MarkdownOutline:
    """``parse_outline(text)``, the last few kept (agents read, then edit, then read)."""
    return _OUTLINES(text)
