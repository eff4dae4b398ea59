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

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import DomainError
from ..suggestions.mapping import map_range
from .base import DocumentContent
from .outline import OutlineContent, Row, Span, attribute_value, element_spans, tag_attributes
from .outline_rebuild import rebuilt
from .part_edits import PartEdit
from .rows import STATUS_VALUES, new_row_ids

SKELETON = '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head/>\n  <body>\n  </body>\n</opml>\n'
_FIELD_ATTRS = {"topic": "text", "note": "_note", "state": "_status"}


class _Text:
    """An outline's source with what splicing needs: rows by id, line breaks, indentation."""

    def __init__(self, content: OutlineContent) -> None:
        if not content.rows and content.body is None and not content.source.strip():
            content = OutlineContent.parse(content.kind, SKELETON)
        if content.rows and not content.spans:
            raise DomainError("INVALID_ARGUMENT", "this outline's rows cannot be located in its file to change them")
        self.content = content
        self.source = content.source
        self.index = content.index
        self.nl = "\r\n" if "\r\n" in self.source else "\n"
        self.unit = self._unit()

    def row(self, row_id: str) -> Row:
        return self.content.rows[self.index[row_id]]

    def span(self, row_id: str) -> Span:
        return self.content.spans[self.index[row_id]]

    def chain(self, row_id: str | None) -> list[int]:
        """The indexes of ``row_id`` and its ancestors (the rows whose elements hold it)."""
        out = []
        while row_id is not None:
            out.append(self.index[row_id])
            row_id = self.row(row_id).parent
        return out

    def subtree(self, row_id: str) -> tuple[int, int]:
        """The run of rows ``row_id`` and its descendants are (document order)."""
        rows = self.content.rows
        k = end = self.index[row_id]
        end += 1
        while end < len(rows) and rows[end].level > rows[k].level:
            end += 1
        return k, end

    def indent(self, at: int) -> str | None:
        """The whitespace before ``at`` on its line; None when something else precedes it."""
        prefix = self.source[self.source.rfind("\n", 0, at) + 1 : at]
        return prefix if not prefix.strip() else None

    def _unit(self) -> str:
        """One level of indentation as the file uses it (two spaces when nothing shows it)."""
        for r, span in zip(self.content.rows, self.content.spans, strict=True):
            if r.children:
                outer, inner = self.indent(span.open_at), self.indent(self.span(r.children[0]).open_at)
                if outer is not None and inner is not None and inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
        return "  "

    def child_indent(self, parent: str | None) -> str:
        """The indentation of a row placed under ``parent`` (None: the top level)."""
        top = [r.id for r in self.content.rows if r.parent is None] if parent is None else []
        for sibling in self.row(parent).children if parent is not None else top:
            if (found := self.indent(self.span(sibling).open_at)) is not None:
                return found
        container = self.span(parent) if parent is not None else self.content.body
        outer = self.indent(container.open_at) if container is not None else None
        return (outer or "") + self.unit

    def put(
        self, parent: str | None, anchor: str | None, block: Callable[[str], str], rows: list[Row]
    ) -> OutlineContent:
        """This outline with ``block(indent)`` (the element of ``rows``, their first row its
        root) placed after sibling ``anchor``, or first under ``parent`` (None: first in the
        body) when ``anchor`` is None."""
        ind = self.child_indent(parent)
        element = block(ind)
        head = self.nl + ind
        opened: Span | None = None
        if anchor is not None:
            a = b = self.span(anchor).end
            text = head + element
            at = self.subtree(anchor)[1]
        else:
            container = self.span(parent) if parent is not None else self.content.body
            if container is None:
                raise DomainError("INVALID_ARGUMENT", "this outline has no <body> to hold rows")
            at = self.index[parent] + 1 if parent is not None else 0
            if not container.empty:
                a = b = container.open_end
                text = head + element
            else:  # <outline …/> (or <body/>) opens to hold its first child
                close = f"</{'outline' if parent is not None else 'body'}>"
                a, b = container.open_end - 2, container.open_end
                text = ">" + head + element + self.nl + (self.indent(container.open_at) or "") + close
                opened = Span(container.open_at, a + 1, a + len(text) - len(close), a + len(text))
        base = a + len(head) if opened is None else a + 1 + len(head)
        found, _ = element_spans(element)
        if len(found) != len(rows):
            raise DomainError("INTERNAL", "a placed row's element does not read as its rows")
        placed = [
            Span(
                x.open_at + base,
                x.open_end + base,
                *((x.close_at + base, x.close_end + base) if x.close_at >= 0 else ()),
            )
            for x in found
        ]
        changed: dict[int, Row] = {}
        if parent is not None:
            kids = list(self.row(parent).children)
            kids.insert(kids.index(anchor) + 1 if anchor is not None else 0, rows[0].id)
            changed[self.index[parent]] = replace(self.row(parent), children=tuple(kids))
        span_of = {self.index[parent]: opened} if opened is not None and parent is not None else None
        body = opened if opened is not None and parent is None else None
        holders = self.chain(parent)
        return rebuilt(self.content, a, b, text, holders, (at, at), rows, placed, changed, span_of, body)

    def cut(self, row_id: str) -> tuple[OutlineContent, str]:
        """(this outline without the row and its subtree, the row's element text): the line
        break and indentation before it go too when it is alone at its line's start."""
        span, row = self.span(row_id), self.row(row_id)
        a, b = span.open_at, span.end
        line = self.source.rfind("\n", 0, a)
        if line >= 0 and self.indent(a) is not None:
            a = line - 1 if line > 0 and self.source[line - 1] == "\r" else line
        changed = {}
        if row.parent is not None:
            parent = self.row(row.parent)
            changed[self.index[parent.id]] = replace(parent, children=tuple(c for c in parent.children if c != row_id))
        rest = rebuilt(self.content, a, b, "", self.chain(row.parent), self.subtree(row_id), changed=changed)
        return rest, self.source[span.open_at : b]

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


def new_rows(row_id: str, fields: dict[str, Any], parent: str | None, level: int) -> list[Row]:
    """The rows an insert adds, in document order, as reading their elements gives them."""
    out: list[Row] = []
    stack: list[tuple[str, dict[str, Any], str | None, int]] = [(row_id, fields, parent, level)]
    while stack:
        rid, f, up, depth = stack.pop()
        kids = f.get("children") or []
        state = str(f.get("state") or "none")
        out.append(
            Row(
                id=rid,
                text=str(f.get("topic", "")),
                value_span=None,
                note=str(f["note"]) if f.get("note") else None,
                status=state if state in ("checked", "unchecked", "mixed") else "none",  # type: ignore[arg-type]
                parent=up,
                children=tuple(str(c["id"]) for c in kids),
                level=depth,
                stored_id=True,
            )
        )
        stack.extend((str(c["id"]), c, rid, depth + 1) for c in reversed(kids))
    return out


def new_tag(tag: str, fields: dict[str, Any]) -> str:
    """A start tag given ``fields`` (topic, note, state): each its attribute's value; an
    empty note and the state none remove their attribute."""
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
    return tag


def with_fields(source: str, span: Span, fields: dict[str, Any]) -> str:
    """``source`` with the row at ``span`` given ``fields`` (``new_tag``)."""
    return source[: span.open_at] + new_tag(source[span.open_at : span.open_end], fields) + source[span.open_end :]


def _set(text: _Text, row: Row, fields: dict[str, Any]) -> OutlineContent:
    span = text.span(row.id)
    tag = new_tag(text.source[span.open_at : span.open_end], fields)
    state = str(fields.get("state") or "none")
    updated = replace(
        row,
        text=str(fields["topic"]) if "topic" in fields else row.text,
        note=(str(fields["note"]) if fields["note"] else None) if "note" in fields else row.note,
        status=(state if state in ("checked", "unchecked", "mixed") else "none") if "state" in fields else row.status,  # type: ignore[arg-type]
    )
    k = text.index[row.id]
    return rebuilt(text.content, span.open_at, span.open_end, tag, text.chain(row.id), changed={k: updated})


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


def _row_of(content: DocumentContent, row_id: str) -> Row | None:
    if isinstance(content, OutlineContent):
        at = content.index.get(row_id)
        return content.rows[at] if at is not None else None
    return next((r for r in getattr(content, "rows", ()) if r.id == row_id), None)


def _field(row: Row, key: str) -> object:
    return {"topic": row.text, "note": row.note or None, "state": row.status}.get(key)


def _fields(row: Row) -> tuple[object, ...]:
    return row.text, row.note or None, row.status


def _inside(text: _Text, row_id: str, ancestor: str) -> bool:
    """Whether ``row_id`` is ``ancestor`` or below it."""
    at: str | None = row_id
    while at is not None:
        if at == ancestor:
            return True
        at = text.row(at).parent
    return False


def apply_row_edit(content: OutlineContent, edit: PartEdit, base: DocumentContent) -> OutlineContent | None:
    """``edit`` (made against ``base``) applied to ``content`` by row id; None: a conflict."""
    try:
        text = _Text(content.with_ids())
    except DomainError:
        return None
    now, rows = text.content, text.index
    if edit.op == "insert":
        parent = edit.fields.get("parent")
        if any(i in rows for i in new_row_ids(edit.part, edit.fields)) or (parent is not None and parent not in rows):
            return None
        level = text.row(parent).level + 1 if parent is not None else 0
        added = new_rows(edit.part, edit.fields, parent, level)
        anchor = anchor_of(now, parent, edit.after, edit.index)
        return text.put(parent, anchor, lambda ind: text.render(edit.part, edit.fields, ind), added)
    then = _row_of(base, edit.part)
    if edit.part not in rows or then is None:
        return None
    row = text.row(edit.part)
    if not then.stored_id and (row.text, row.level) != (then.text, then.level):
        return None  # an id by position, now another row's: rows were added or removed above it
    if edit.op == "text":
        where = map_range(then.text, row.text, edit.start, edit.end, edit.original)
        if where is None:
            return None
        return _set(text, row, {"topic": row.text[: where[0]] + edit.new + row.text[where[1] :]})
    if edit.op == "set":  # a field a person changed since stands
        if any(_field(row, k) != _field(then, k) for k in edit.fields):
            return None
        return _set(text, row, edit.fields)
    if edit.op == "delete":  # a row a person changed since stays
        return text.cut(row.id)[0] if _fields(row) == _fields(then) else None
    if row.parent != then.parent:
        return None  # a person moved it elsewhere since
    parent = edit.fields.get("parent")
    if parent is not None and (parent not in rows or _inside(text, parent, row.id)):
        return None
    siblings = list(text.row(parent).children) if parent is not None else [r.id for r in now.rows if r.parent is None]
    if row.parent == parent and _follows(siblings, row.id) == anchor_of(now, parent, edit.after, edit.index, row.id):
        return now  # where it is already: not a byte moves
    old_indent = text.indent(text.span(row.id).open_at)
    i, j = text.subtree(row.id)
    rest, element = text.cut(row.id)
    there = _Text(rest)
    level = there.row(parent).level + 1 if parent is not None else 0
    moving = [replace(r, level=r.level - row.level + level) for r in now.rows[i:j]]
    moving[0] = replace(moving[0], parent=parent)

    def moved(ind: str) -> str:
        if old_indent is None:
            return element
        lines = element.split("\n")
        return "\n".join(
            [lines[0]] + [ind + ln[len(old_indent) :] if ln.startswith(old_indent) else ln for ln in lines[1:]]
        )

    return there.put(parent, anchor_of(rest, parent, edit.after, edit.index), moved, moving)
