"""Row edits on an OPML file as splices: insert, delete, move and set fields of one row.

Every change rewrites only the bytes of the rows it touches: a new row's element is written
after its sibling (or as its parent's first child) in the file's own indentation and line
breaks; a deleted row's element goes with the line break and indentation before it; a moved
row is cut and placed the same way (its lines re-indented to the new level); a field is
its attribute's value (``text``, ``_note``, ``_status``), added or removed in the start tag.
Before a change every row gets its id stored (``with_ids``), so rows keep their ids when
others are added, moved or deleted, and the ids a suggestion names stay true.

The edits are ``PartEdit``s on rows (``core.content.rows`` has their shapes); applying one
made against an earlier content answers None (a conflict) when what it changes changed since:
its row is gone; for a set, a field it sets; for a delete, the row's topic, note or checkbox;
for a move, the row's parent (a person moved it) or its new parent is gone.
"""

from __future__ import annotations

from typing import Any

from ..errors import DomainError
from ..suggestions.mapping import map_range
from .base import DocumentContent
from .outline import OutlineContent, Row, Span, attribute_value, tag_attributes
from .part_edits import PartEdit
from .rows import STATUS_VALUES, new_row_ids

SKELETON = '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head/>\n  <body>\n  </body>\n</opml>\n'
_FIELD_ATTRS = {"topic": "text", "note": "_note", "state": "_status"}


class _Text:
    """An outline's source with what splicing needs: spans by row id, line breaks, indent."""

    def __init__(self, content: OutlineContent) -> None:
        if not content.rows and content.body is None and not content.source.strip():
            content = OutlineContent.parse(content.kind, SKELETON)
        if content.rows and not content.spans:
            raise DomainError("INVALID_ARGUMENT", "this outline's rows cannot be located in its file to change them")
        self.content = content
        self.source = content.source
        self.rows = {r.id: r for r in content.rows}
        self.spans = {r.id: s for r, s in zip(content.rows, content.spans, strict=True)}
        self.nl = "\r\n" if "\r\n" in self.source else "\n"
        self.unit = self._unit()

    def indent(self, at: int) -> str | None:
        """The whitespace before ``at`` on its line; None when something else precedes it."""
        prefix = self.source[self.source.rfind("\n", 0, at) + 1 : at]
        return prefix if not prefix.strip() else None

    def _unit(self) -> str:
        """One level of indentation as the file uses it (two spaces when nothing shows it)."""
        for r in self.content.rows:
            if r.children:
                outer, inner = self.indent(self.spans[r.id].open_at), self.indent(self.spans[r.children[0]].open_at)
                if outer is not None and inner is not None and inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
        return "  "

    def child_indent(self, parent: str | None) -> str:
        """The indentation of a row placed under ``parent`` (None: the top level)."""
        siblings = (
            self.rows[parent].children if parent is not None else [r.id for r in self.content.rows if r.parent is None]
        )
        for sibling in siblings:
            if (found := self.indent(self.spans[sibling].open_at)) is not None:
                return found
        container = self.spans[parent] if parent is not None else self.content.body
        outer = self.indent(container.open_at) if container is not None else None
        return (outer or "") + self.unit

    def insert(self, parent: str | None, anchor: str | None, block: Any) -> str:
        """The source with ``block(indent)`` (an element's text) placed after sibling ``anchor``,
        or first under ``parent`` (None: first in the body) when ``anchor`` is None."""
        s = self.source
        ind = self.child_indent(parent)
        if anchor is not None:
            at = self.spans[anchor].end
            return s[:at] + self.nl + ind + block(ind) + s[at:]
        container = self.spans[parent] if parent is not None else self.content.body
        if container is None:
            raise DomainError("INVALID_ARGUMENT", "this outline has no <body> to hold rows")
        if not container.empty:
            at = container.open_end
            return s[:at] + self.nl + ind + block(ind) + s[at:]
        # <outline …/> (or <body/>) opens to hold its first child.
        name = "outline" if parent is not None else "body"
        outer = self.indent(container.open_at) or ""
        at = container.open_end - 2
        inner = ">" + self.nl + ind + block(ind) + self.nl + outer + f"</{name}>"
        return s[:at] + inner + s[container.open_end :]

    def cut(self, row_id: str) -> tuple[str, str]:
        """(the source without the row's element, the element's text): the line break and
        indentation before it go too when it is alone at its line's start."""
        span = self.spans[row_id]
        a, b = span.open_at, span.end
        line = self.source.rfind("\n", 0, a)
        if line >= 0 and self.indent(a) is not None:
            a = line - 1 if line > 0 and self.source[line - 1] == "\r" else line
        return self.source[:a] + self.source[b:], self.source[span.open_at : b]

    def render(self, row_id: str, fields: dict[str, Any], ind: str) -> str:
        """A new row's element (its first line unindented; the rest below ``ind``)."""
        attrs = f'<outline id="{attribute_value(row_id)}" text="{attribute_value(str(fields.get("topic", "")))}"'
        if fields.get("note"):
            attrs += f' _note="{attribute_value(str(fields["note"]))}"'
        if (status := STATUS_VALUES.get(str(fields.get("state") or "none"))) is not None:
            attrs += f' _status="{status}"'
        children = fields.get("children") or []
        if not children:
            return attrs + "/>"
        inner = ind + self.unit
        lines = [attrs + ">"]
        lines += [inner + self.render(str(c["id"]), c, inner) for c in children]
        return self.nl.join(lines) + self.nl + ind + "</outline>"


def with_fields(source: str, span: Span, fields: dict[str, Any]) -> str:
    """``source`` with the row at ``span`` given ``fields`` (topic, note, state): each its
    attribute's value; an empty note and the state none remove their attribute."""
    tag = source[span.open_at : span.open_end]
    for key, name in _FIELD_ATTRS.items():
        if key not in fields:
            continue
        value = fields[key]
        if key == "state":
            value = STATUS_VALUES.get(str(value or "none"))
        elif key == "note":
            value = str(value) if value else None
        else:
            value = str(value)
        tag = _with_attribute(tag, name, value)
    return source[: span.open_at] + tag + source[span.open_end :]


def _with_attribute(tag: str, name: str, value: str | None) -> str:
    found = tag_attributes(tag, Span(0, len(tag)))
    m = found.get(name)
    if m is None:
        if value is None:
            return tag
        at = max((f.end() for f in found.values()), default=len("<outline"))
        return tag[:at] + f' {name}="{attribute_value(value)}"' + tag[at:]
    if value is None:
        a = m.start()
        while a > 0 and tag[a - 1].isspace():
            a -= 1
        return tag[:a] + tag[m.end() :]
    group = 3 if m.group(3) is not None else 4
    return tag[: m.start(group)] + attribute_value(value) + tag[m.end(group) :]


def _follows(siblings: list[str], row_id: str) -> str | None:
    at = siblings.index(row_id)
    return siblings[at - 1] if at > 0 else None


def anchor_of(
    content: OutlineContent, parent: str | None, after: str | None, index: int, moving: str = ""
) -> str | None:
    """The sibling a row placed under ``parent`` follows: ``after`` while it is still there,
    else the one at ``index`` among them (None: first); ``moving`` is not one of them."""
    if after is None:
        return None
    if parent is None:
        siblings = [r.id for r in content.rows if r.parent is None and r.id != moving]
    else:
        siblings = [c for c in next(r.children for r in content.rows if r.id == parent) if c != moving]
    if after in siblings:
        return after
    at = max(0, min(index, len(siblings)))
    return siblings[at - 1] if at > 0 else None


def _field(row: Row, key: str) -> object:
    return {"topic": row.text, "note": row.note or None, "state": row.status}.get(key)


def _fields(row: Row) -> tuple[object, ...]:
    return row.text, row.note or None, row.status


def _inside(rows: dict[str, Row], row_id: str, ancestor: str) -> bool:
    """Whether ``row_id`` is ``ancestor`` or below it."""
    at: str | None = row_id
    while at is not None:
        if at == ancestor:
            return True
        at = rows[at].parent
    return False


def apply_row_edit(content: OutlineContent, edit: PartEdit, base: DocumentContent) -> OutlineContent | None:
    """``edit`` (made against ``base``) applied to ``content`` by row id; None: a conflict."""
    try:
        now = content.with_ids()
        text = _Text(now)
    except DomainError:
        return None
    now = text.content
    rows = text.rows
    if edit.op == "insert":
        parent = edit.fields.get("parent")
        if any(i in rows for i in new_row_ids(edit.part, edit.fields)) or (parent is not None and parent not in rows):
            return None
        anchor = anchor_of(now, parent, edit.after, edit.index)
        out = text.insert(parent, anchor, lambda ind: text.render(edit.part, edit.fields, ind))
        return OutlineContent.parse(now.kind, out)
    then = {r.id: r for r in getattr(base, "rows", ())}.get(edit.part)
    row = rows.get(edit.part)
    if row is None or then is None:
        return None
    if edit.op == "text":
        where = map_range(then.text, row.text, edit.start, edit.end, edit.original)
        if where is None:
            return None
        topic = row.text[: where[0]] + edit.new + row.text[where[1] :]
        return OutlineContent.parse(now.kind, with_fields(text.source, text.spans[row.id], {"topic": topic}))
    if edit.op == "set":  # a field a person changed since stands
        if any(_field(row, k) != _field(then, k) for k in edit.fields):
            return None
        return OutlineContent.parse(now.kind, with_fields(text.source, text.spans[row.id], edit.fields))
    cut, element = text.cut(row.id)
    if edit.op == "delete":  # a row a person changed since stays
        return OutlineContent.parse(now.kind, cut) if _fields(row) == _fields(then) else None
    if row.parent != then.parent:
        return None  # a person moved it elsewhere since
    parent = edit.fields.get("parent")
    if parent is not None and (parent not in rows or _inside(rows, parent, row.id)):
        return None
    siblings = list(rows[parent].children) if parent is not None else [r.id for r in now.rows if r.parent is None]
    if row.parent == parent and _follows(siblings, row.id) == anchor_of(now, parent, edit.after, edit.index, row.id):
        return now  # where it is already: not a byte moves
    old_indent = text.indent(text.spans[row.id].open_at)
    rest = _Text(OutlineContent.parse(now.kind, cut))
    anchor = anchor_of(rest.content, parent, edit.after, edit.index)

    def moved(ind: str) -> str:
        if old_indent is None:
            return element
        lines = element.split("\n")
        return "\n".join(
            [lines[0]] + [ind + ln[len(old_indent) :] if ln.startswith(old_indent) else ln for ln in lines[1:]]
        )

    return OutlineContent.parse(now.kind, rest.insert(parent, anchor, moved))
