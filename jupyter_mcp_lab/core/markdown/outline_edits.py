"""Row edits on a markdown outline as splices: insert, delete, move and set a row's fields.

The edits are the outline's ``PartEdit``s (``core.content.rows``: insert under
``fields["parent"]`` after sibling ``after`` (None: first), delete, move, set topic / note /
state); ``row_edit`` turns one into a ``TextEdit`` of the markdown, which stages and reviews
like every other markdown edit. Only the lines of the rows concerned change.

A new row takes the form of its siblings: after a heading it is a heading of that level,
next to a list item an item of that list (same indentation, marker, checkbox style);
under an item with no children it starts a nested list, under a heading with no rows a
new list (``blocks.insert_block``). Under a heading its items come before its subheadings,
so an item cannot follow a subheading: a moved item there becomes a heading (its items a
list under it), a moved heading next to items becomes an item (not when it has
subheadings, which an item cannot hold). A heading moved to another depth has every
heading of its section shifted (not past level 6). A task's state is ``[ ]`` / ``[x]``;
a heading has none. Topics are one paragraph: line breaks in a new topic become spaces.
An ordered list numbered in sequence stays so when an item is added, deleted or moved: the
list a row left and the list it joined (``outline_numbers``).
"""

from __future__ import annotations

from ..content.part_edits import PartEdit
from ..errors import ArgumentError
from ..history import change_between
from ..text import TextEdit, apply_edits
from .headings import ATX_HEADING
from .list_model import _ITEM, _shift, _width
from .outline_doc import OutlineDoc, box_of, note_lines, render_row, topic_text
from .outline_numbers import numbering
from .outline_rows import MarkdownOutline, Place, markdown_outline


def _set(d: OutlineDoc, place: Place, topic: str, fields: dict[str, object]) -> list[TextEdit]:
    edits: list[TextEdit] = []
    if "topic" in fields and (not isinstance(fields["topic"], str) or " ".join(fields["topic"].split()) != topic):
        # the topic as it reads: the row (its markup too) stays as it is
        a, b = place.topic_span
        edits.append(TextEdit(a, b, topic_text(fields["topic"], place.kind)))
    if "state" in fields:
        _, box = box_of(fields["state"])
        if place.kind == "heading":
            if box is not None:
                raise ArgumentError("a heading has no checkbox: only list items are tasks", "state")
        else:
            base = d.idx.start_of(place.line)
            m = _ITEM.match(d.line(place.line))
            assert m is not None
            if m.group(4) is not None and box is None:
                edits.append(TextEdit(base + m.start(4), base + m.start(6), ""))
            elif m.group(4) is not None and box is not None and (box == "[ ]") != (m.group(4) == "[ ]"):
                edits.append(TextEdit(base + m.start(4), base + m.end(4), box))
            elif m.group(4) is None and box is not None:
                at = base + m.start(6)
                edits.append(TextEdit(at, at, ("" if m.group(3) else " ") + box + " "))
    if "note" in fields:
        new = note_lines(fields["note"], place.column if place.kind == "item" else None)
        a, z = place.topic_end + 1, place.body_end
        while a <= z and d.blank(a):
            a += 1
        while z >= a and d.blank(z):
            z -= 1
        end_topic = d.idx.end_of(place.topic_end)
        if a <= z:
            edits.append(
                TextEdit(d.idx.start_of(a), d.idx.end_of(z), d.nl.join(new))
                if new
                else TextEdit(end_topic, d.idx.end_of(z), "")
            )
        elif new:
            after = place.topic_end + 1
            tail = d.nl if after <= d.idx.line_count and not d.blank(after) else ""
            edits.append(TextEdit(end_topic, end_topic, d.nl + d.nl + d.nl.join(new) + tail))
    return edits


def _headings_in(d: OutlineDoc, place: Place) -> list[tuple[int, int, int, str]]:
    """(line, last line, level, title) of every heading block in the row's lines."""
    out = []
    for b in d.o.structure.headings:
        if place.line <= b.line_start <= place.end:
            atx = ATX_HEADING.match(d.line(b.line_start))
            title = atx.group(1) if atx else " ".join((b.title or "").split())
            out.append((b.line_start, b.line_end, b.level or 1, title))
    return out


def _moved_lines(d: OutlineDoc, place: Place, form: str, level: int, indent: str, marker: str) -> list[str]:
    """The row's lines as they will stand at their new place (form, level, indentation)."""
    lines = [d.line(k) for k in range(place.line, place.end + 1)]
    if place.kind == "item":
        m = _ITEM.match(lines[0])
        assert m is not None
        if form == "item":
            delta = (_width(indent) + len(marker)) - (_width(m.group(1)) + len(m.group(2)))
            return [indent + marker + lines[0][m.end(2) :]] + [_shift(ln, delta) for ln in lines[1:]]
        a, b = place.topic_span  # the whole first paragraph, its markup too: its lines joined
        first = "#" * level + " " + " ".join(d.text[a:b].split())
        return [first] + [_shift(ln, -place.column) for ln in lines[place.topic_end - place.line + 1 :]]
    heads = _headings_in(d, place)
    if form == "heading":
        delta = level - place.level
        if any(not 1 <= lv + delta <= 6 for _, _, lv, _ in heads):
            raise ArgumentError("there a heading of this section would be deeper than level 6", "parent")
        out = list(lines)
        for a, z, lv, title in reversed(heads):  # a setext heading becomes ATX: its level is its underline
            if delta or a != z:
                out[a - place.line : z - place.line + 1] = ["#" * (lv + delta) + " " + title.strip()]
        return out
    if len(heads) > 1:
        raise ArgumentError(
            "this heading has subheadings, which a list item cannot hold: place it next to a heading", "after"
        )
    column = _width(indent) + len(marker) + 1
    body = lines[place.topic_end - place.line + 1 :]
    gap = [""] if body and body[0].strip() and not _ITEM.match(body[0].lstrip()) else []
    return [f"{indent}{marker} {heads[0][3].strip()}"] + gap + [" " * column + ln if ln.strip() else "" for ln in body]


def _move(d: OutlineDoc, row_id: str, place: Place, parent: str | None, after: str | None) -> str:
    o = d.o
    inside = {o.rows[k].id for k in o.subtree(row_id)}
    if parent is not None:
        d.place(parent)
        if parent in inside:
            raise ArgumentError("a row cannot move under itself or its own rows", "parent")
    if after == row_id:
        raise ArgumentError("a row cannot move after itself", "after")
    prev, nxt = d.gap(parent, after, without=row_id)  # checks ``after`` is a child of ``parent``
    row = o.row(row_id)
    if row.parent == parent:
        sibs = list(o.children(parent))
        k = sibs.index(row_id)
        if (after is None and k == 0) or (after is not None and k > 0 and sibs[k - 1] == after):
            return d.text  # already there
    # Far from where it was, the cut and the insert are two splices of this text; next to it
    # (the place's neighbours are the cut's), the insert is planned on the text without it.
    form = d.form(parent, prev, nxt, place.kind)
    indent, marker, _ = d.item_style(parent, prev, nxt)
    numbers = numbering(d, row_id, (parent, prev, nxt) if form == "item" else None, marker)
    cut_edit = d.cut(place.line, place.end)
    insert = d.insert_at(
        form,
        parent,
        prev,
        nxt,
        _moved_lines(d, place, form, d.heading_level(parent, prev, nxt), indent, numbers.marker),
    )
    far = insert.end < cut_edit.start - 2 or insert.start > cut_edit.end + 2
    if far and not numbers.shifted:
        return apply_edits(d.text, [cut_edit, insert, *numbers.edits])
    # Cut (the list it leaves renumbered), then place in the outline without it (rows after
    # the cut are ``size`` fewer): next to where it was, or when an item's lines shift.
    first = d.o.index(row_id)
    assert first is not None
    size = len(inside)
    cut = apply_edits(d.text, [cut_edit, *numbering(d, row_id).edits])
    rest = OutlineDoc(markdown_outline(cut))

    def mapped(i: str | None) -> str | None:
        if i is None:
            return None
        k = d.o.index(i)
        assert k is not None
        return rest.o.rows[k if k < first else k - size].id

    new_parent, new_after = mapped(parent), mapped(after)
    prev, nxt = rest.gap(new_parent, new_after)
    form = rest.form(new_parent, prev, nxt, place.kind)
    indent, marker, _ = rest.item_style(new_parent, prev, nxt)
    numbers = numbering(rest, None, (new_parent, prev, nxt) if form == "item" else None, marker)
    lines = _moved_lines(d, place, form, rest.heading_level(new_parent, prev, nxt), indent, numbers.marker)
    return apply_edits(cut, [rest.insert_at(form, new_parent, prev, nxt, lines), *numbers.edits])


def row_edit(outline: MarkdownOutline, edit: PartEdit) -> list[TextEdit]:
    """``edit`` as splices of the outline's markdown (ArgumentError / NOT_FOUND when it cannot be made)."""
    d = OutlineDoc(outline)
    if edit.op == "insert":
        parent = edit.fields.get("parent")
        if parent is not None:
            d.place(parent)
        prev, nxt = d.gap(parent, edit.after)
        form = d.form(parent, prev, nxt, None)
        indent, marker, boxed = d.item_style(parent, prev, nxt)
        numbers = numbering(d, None, (parent, prev, nxt), marker) if form == "item" else None
        if numbers is not None:
            marker = numbers.marker
        lines = render_row(form, edit.fields, d.heading_level(parent, prev, nxt), indent, marker, boxed)
        return [d.insert_at(form, parent, prev, nxt, lines), *(numbers.edits if numbers else [])]
    place = d.place(edit.part)
    if edit.op == "delete":
        return [d.cut(place.line, place.end), *numbering(d, edit.part).edits]
    if edit.op == "set":
        return _set(d, place, outline.row(edit.part).text, edit.fields)
    if edit.op == "move":
        after = _move(d, edit.part, place, edit.fields.get("parent"), edit.after)
        c = change_between(d.text, after)
        return [TextEdit(c.start, c.start + len(c.old), c.new)] if after != d.text else []
    raise ArgumentError(f"a markdown outline changes by insert, delete, move or set, not {edit.op}", "op")


def apply_row_edit(text: str, edit: PartEdit) -> str:
    """The markdown ``text`` with ``edit`` made."""
    return apply_edits(text, row_edit(markdown_outline(text), edit))
