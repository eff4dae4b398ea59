"""List edits (vmark list_toggle / indent / list_modify) on the model of ``list_model``.

Toggling makes the paragraphs and items in a range a list of one kind (bullet, ordered,
task), or lifts them out when they already are one; indenting nests items under their
previous sibling. ``batch`` applies ``list_modify`` operations (items by index, nested
included) to the model and writes back only the lines that changed.
"""

from __future__ import annotations

from typing import Any

from ..errors import ArgumentError
from ..text import TextEdit
from .blocks import block_lines, resolve_block
from .line_edits import replace_lines
from .list_model import _ITEM, ListModel, _Item, _like, wrap_lines
from .list_model import ListItem as ListItem
from .list_model import parse_list as parse_list
from .list_model import unwrap_items as unwrap_items
from .structure import Block, structure_of
from .type_names import block_type_name

_LIST_KINDS = ("bullet", "ordered", "task")


def _index(value: Any, high: int, argument: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise ArgumentError(f"{argument} must be an integer from 0 to {high}", argument)
    return value


class _ListEdit(ListModel):
    """The model with the operations of ``list_modify`` and of the list tools."""

    def _ref(self, index: int) -> tuple[int, _Item, int]:
        """Where an item inserted as item ``index`` goes, the item whose style it takes, and its number."""
        real, parents = self.real(), self.parents()
        if index < len(real):
            ref = self.items[real[index]]
            return real[index], ref, ref.number or 1
        ref = self.items[max(i for i in real if parents[i] == -1)]
        return len(self.items), ref, (ref.number or 0) + 1

    def _text(self, value: Any) -> list[str]:
        if not isinstance(value, str):
            raise ArgumentError("text must be a string", "text")
        return value.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def add_item(self, index: Any, value: Any, argument: str = "index") -> None:
        pos, ref, number = self._ref(_index(len(self.real()) if index is None else index, len(self.real()), argument))
        first, *more = self._text(value)
        item = _Item(ref.indent, _like(ref.marker, number), ref.gap or " ", "[ ]" if ref.box else None, " ", first)
        item.sub = [" " * item.cc + ln if ln.strip() else "" for ln in more]
        if self.loose and pos < len(self.items):
            item.sub.append("")
        elif self.loose and self.items[-1].sub[-1:] != [""]:
            self.items[-1].sub.append("")
        self.items.insert(pos, item)

    def delete_item(self, index: Any, argument: str = "index") -> None:
        i = self._get(index, argument)
        del self.items[i : self._end(i, self.parents())]

    def set_text(self, index: Any, value: Any, argument: str = "index") -> None:
        it = self.items[self._get(index, argument)]
        first, *more = self._text(value)
        k = 0
        while k < len(it.sub) and it.sub[k].strip() and not it.sub[k].lstrip().startswith(("```", "~~~")):
            k += 1
        it.rest, it.first = first, None
        it.sub[:k] = [" " * it.cc + ln if ln.strip() else "" for ln in more]

    def set_checked(self, index: Any, checked: Any, argument: str = "index") -> None:
        it = self.items[self._get(index, argument)]
        if not isinstance(checked, bool):
            raise ArgumentError("checked must be true or false", "checked")
        if it.box is None or (it.box == "[ ]") == checked:
            it.box, it.first = "[x]" if checked else "[ ]", None
            it.box_gap = it.box_gap or " "

    def move_item(self, frm: Any, to: Any) -> None:
        i = self._get(frm, "from")
        j = self._end(i, self.parents())
        group, keep = self.items[i:j], self.items
        self.items = keep[:i] + keep[j:]
        if not self.real():
            self.items = keep
            _index(to, 0, "to")
            return
        pos, ref, number = self._ref(_index(to, len(self.real()), "to"))
        self._place(group, ref.indent, _like(ref.marker, number))
        if self.loose:
            while group[-1].sub and not group[-1].sub[-1].strip():
                group[-1].sub.pop()
            if pos < len(self.items):
                group[-1].sub.append("")
            elif self.items[-1].sub[-1:] != [""]:
                self.items[-1].sub.append("")
        self.items[pos:pos] = group

    def indent(self, index: Any, argument: str = "index") -> None:
        i = self._get(index, argument)
        parents = self.parents()
        j = i - 1
        while j >= 0 and j != parents[i] and parents[j] != parents[i]:
            j -= 1
        if j < 0 or j == parents[i] or self.items[j].raw:  # first of its list (a parent's paragraph is before it)
            raise ArgumentError(f"item {index} has no previous sibling to nest under", argument)
        kids = [k for k in range(j + 1, i) if parents[k] == j and not self.items[k].raw]
        if kids:
            ref = self.items[kids[0]]
            indent, marker = ref.indent, _like(ref.marker, self.items[i].number or 1)
        else:  # a new sublist starts at 1 (or it would not interrupt a paragraph)
            indent = self.items[j].indent + "\t" if self.tabs else " " * self.items[j].cc
            marker = _like(self.items[i].marker, 1)
        self._place(self.items[i : self._end(i, parents)], indent, marker)

    def outdent(self, index: Any, argument: str = "index") -> None:
        i = self._get(index, argument)
        parents = self.parents()
        if parents[i] < 0:
            raise ArgumentError(f"item {index} is not nested", argument)
        q = self.items[parents[i]]
        self._place(self.items[i : self._end(i, parents)], q.indent, _like(q.marker, (q.number or 0) + 1))

    def convert(self, index: int, kind: str, bullet: str = "-", delim: str = ".") -> None:
        """Give item ``index``'s sibling group the list kind (bullet / ordered / task)."""
        parents, p = self.parents(), self._get(index, "index")
        group = [k for k in self.real() if parents[k] == parents[p]]
        for n, k in enumerate(group):
            it = self.items[k]
            ordered = it.marker[0].isdigit()
            if ("ordered" if ordered else "task" if it.box else "bullet") == kind:
                continue
            marker = f"{n + 1}{it.marker[-1] if ordered else delim}" if kind == "ordered" else it.marker
            marker = bullet if ordered and kind != "ordered" else marker
            self._place(self.items[k : self._end(k, parents)], it.indent, marker)
            box = (it.box or "[ ]") if kind == "task" else None
            if box != it.box:
                it.box, it.first = box, None


def check_wrappable(text: str, block: Block) -> None:
    """Refuse to make a block a list when an indented code block follows: the list would swallow it."""
    blocks = structure_of(text).blocks
    k = blocks.index(block)
    nxt = blocks[k + 1] if k + 1 < len(blocks) else None
    if nxt is not None and nxt.type == "code" and text[nxt.start : nxt.start + 1] in (" ", "\t"):
        raise ArgumentError(
            f"{block.id} is followed by the indented code block {nxt.id}, which a list would absorb; "
            "make that a fenced code block first",
            "target",
        )


def _touched(model: ListModel, start: int, end: int) -> list[int]:
    """Indexes of the top-most items whose first line (and own lines) meet the range."""
    idx = structure_of(model.text).lines
    a, z = idx.line_of(max(start, model.block.start)), idx.line_of(min(end, model.block.end))
    parents = model.parents()
    hit: list[int] = []
    for p in model.real():
        it = model.items[p]
        if it.line <= z and it.line + len(it.sub) >= a and not _has_ancestor(parents, p, set(hit)):
            hit.append(p)
    return [model.real().index(p) for p in hit]


def _has_ancestor(parents: list[int], i: int, among: set[int]) -> bool:
    while parents[i] >= 0:
        i = parents[i]
        if i in among:
            return True
    return False


def markers_beside(text: str, first: Block, last: Block | None = None) -> tuple[str, str]:
    """A bullet and an ordered delimiter that do not merge blocks ``first..last`` with a list next to them."""
    blocks = structure_of(text).blocks
    k, z = blocks.index(first), blocks.index(last or first)
    used = set()
    for nb in blocks[max(k - 1, 0) : k] + blocks[z + 1 : z + 2]:
        if nb.type == "list" and (m := _ITEM.match(block_lines(text, nb)[0])):
            used.add(m.group(2)[-1])
    return next(c for c in "-*+" if c not in used), "." if "." not in used else ")"


def _range(text: str, start: int, end: int) -> None:
    for name, v in (("start", start), ("end", end)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= len(text):
            raise ArgumentError(f"{name} must be an offset in the document (0..{len(text)})", name)
    if start > end:
        raise ArgumentError("start must not be after end", "start")


def _apply_kind(text: str, start: int, end: int, kind: str, toggle: bool) -> list[TextEdit]:
    kind = block_type_name(kind, "kind")
    if kind not in _LIST_KINDS:
        raise ArgumentError("kind must be bullet, ordered or task", "kind")
    _range(text, start, end)
    blocks = [
        b for b in structure_of(text).blocks if b.start <= end and b.end >= start and b.type in ("list", "paragraph")
    ]
    if not blocks:
        raise ArgumentError("no paragraph or list in the range", "start")
    models = {b.id: _ListEdit(text, b) for b in blocks if b.type == "list"}
    hits = {bid: _touched(m, start, end) for bid, m in models.items()}
    off = (
        toggle
        and len(models) == len(blocks)
        and all(m.kind_of(i) == kind for bid, m in models.items() for i in hits[bid])
    )
    edits: list[TextEdit] = []
    number = 1
    bullet, delim = markers_beside(text, blocks[0], blocks[-1])
    for b in blocks:
        if b.type == "paragraph":
            check_wrappable(text, b)
            new = wrap_lines(block_lines(text, b), kind, number, bullet, delim)
            number += sum(1 for ln in new if ln[:1] not in ("", " "))
            edits += replace_lines(text, b.line_start, b.line_end, new)
            continue
        m = models[b.id]
        for i in hits[b.id]:
            if not off:
                m.convert(i, kind, bullet, delim)
            elif m.parents()[m.real()[i]] < 0:
                m.lift(i)
            else:
                m.outdent(i)
        edits += m.edits()
    return edits


def toggle_list(text: str, start: int, end: int, kind: str) -> list[TextEdit]:
    """vmark ``list_toggle``: make the paragraphs/items in range a ``kind`` list, or lift them out if they are one."""
    return _apply_kind(text, start, end, kind, toggle=True)


def set_list_kind(text: str, start: int, end: int, kind: str) -> list[TextEdit]:
    """Like ``toggle_list`` but never lifts: items already of ``kind`` stay as they are."""
    return _apply_kind(text, start, end, kind, toggle=False)


def _indent_range(text: str, start: int, end: int, outdent: bool) -> list[TextEdit]:
    _range(text, start, end)
    model = _ListEdit(text, resolve_block(text, start, "start", ("list",)))
    for i in _touched(model, start, end):
        (model.outdent if outdent else model.indent)(i, "start")
    return model.edits()


def indent_items(text: str, start: int, end: int) -> list[TextEdit]:
    """Nest the items in the range under their previous sibling (vmark ``list_indent``)."""
    return _indent_range(text, start, end, outdent=False)


def outdent_items(text: str, start: int, end: int) -> list[TextEdit]:
    """Move the nested items in the range one level up (vmark ``list_outdent``)."""
    return _indent_range(text, start, end, outdent=True)


def set_task(text: str, list_id: str | int, item_index: int, checked: bool) -> list[TextEdit]:
    """Check or uncheck a task item (an item without a checkbox gets one)."""
    return batch(text, list_id, [{"op": "set_checked", "index": item_index, "checked": checked}])


_OPS = {
    "additem": "add_item",
    "deleteitem": "delete_item",
    "removeitem": "delete_item",
    "settext": "set_text",
    "setitemcontent": "set_text",
    "check": "check",
    "uncheck": "uncheck",
    "setchecked": "set_checked",
    "moveitem": "move_item",
    "move": "move_item",
    "indent": "indent",
    "outdent": "outdent",
}


def batch(text: str, list_id: str | int, operations: list[dict[str, Any]]) -> list[TextEdit]:
    """vmark ``list_modify``: apply operations in order to the list model, then emit one minimal edit."""
    model = _ListEdit(text, resolve_block(text, list_id, "list_id", ("list",)))
    if not isinstance(operations, list):
        raise ArgumentError("operations must be a list", "operations")
    for n, op in enumerate(operations):
        where = f"operations[{n}]"
        name = op.get("op") or op.get("type") or op.get("action") if isinstance(op, dict) else None
        verb = _OPS.get(str(name).replace("_", "").lower())
        if verb is None or not isinstance(op, dict):
            raise ArgumentError(f"{where}.op must be one of {', '.join(sorted(set(_OPS.values())))}", f"{where}.op")
        index = op.get("index", op.get("item"))
        value = op.get("text", op.get("content", ""))
        if verb == "add_item":
            model.add_item(index, value, f"{where}.index")
        elif verb == "delete_item":
            model.delete_item(index, f"{where}.index")
        elif verb == "set_text":
            model.set_text(index, value, f"{where}.index")
        elif verb in ("check", "uncheck", "set_checked"):
            model.set_checked(index, op.get("checked", verb == "check"), f"{where}.index")
        elif verb == "move_item":
            model.move_item(op.get("from", index), op.get("to"))
        else:
            getattr(model, verb)(index, f"{where}.index")
    return model.edits()
