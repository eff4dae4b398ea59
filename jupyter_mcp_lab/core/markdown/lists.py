"""Lists: a line model of one list block, and edits on it (vmark list_toggle / indent / list_modify).

Items are found with markdown-it (so fenced code inside an item is never mistaken for an
item); nesting follows indentation, as markdown reads it, and text of a parent item that
comes after its nested items stays with the parent (deleting or moving the last nested item
leaves it where it is). Items are addressed by their index
in document order (nested items included, 0-based). Each item keeps its original lines; only
items an operation touched are rendered again, with their own marker style and indentation,
and the block is written back through ``replace_lines`` (only changed lines move). Ordered
lists are renumbered only when their numbering was sequential; ``1.`` ``1.`` ``1.`` stays lazy.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .blocks_edit import block_lines, block_type_name, delete_block, replace_lines, resolve_block
from .structure import Block, structure_of

_ITEM = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])([ \t]*)(?:(\[[ xX]\])(?=[ \t]|$)([ \t]*))?(.*)")
_MD = MarkdownIt("commonmark")
_MD_LOCK = threading.Lock()
_LIST_KINDS = ("bullet", "ordered", "task")


def _width(s: str) -> int:
    col = 0
    for ch in s:
        col = col + 4 - col % 4 if ch == "\t" else col + 1
    return col


def _shift(line: str, delta: int) -> str:
    if not line.strip() or delta == 0:
        return line
    if delta > 0:
        return " " * delta + line
    k = 0
    while k < len(line) and line[k] in " \t" and _width(line[: k + 1]) <= -delta:
        k += 1
    return line[k:]


@dataclass(eq=False)
class _Item:
    indent: str
    marker: str = ""
    gap: str = ""
    box: str | None = None
    box_gap: str = ""
    rest: str = ""
    sub: list[str] = field(default_factory=list)  # following lines that belong to it, before the next item
    first: str | None = None  # the original first line while unchanged
    para: bool = False  # rendered as a paragraph (the item was lifted out of the list)
    line: int = 0
    raw: bool = False  # not an item: lines of an enclosing item that come after nested items (all in ``sub``)

    @property
    def cc(self) -> int:  # content column
        if self.raw:
            return _width(self.indent)
        return _width(self.indent) + len(self.marker) + (len(self.gap) if 0 < len(self.gap) <= 4 else 1)

    @property
    def number(self) -> int | None:
        return int(self.marker[:-1]) if self.marker[:1].isdigit() else None

    def render(self) -> list[str]:
        if self.raw:
            return list(self.sub)
        if self.para:
            return [self.rest, *self.sub]
        if self.first is not None:
            return [self.first, *self.sub]
        box = f"{self.box}{self.box_gap or (' ' if self.rest else '')}" if self.box else ""
        body = box + self.rest
        return [self.indent + self.marker + ((self.gap or " ") + body if body else ""), *self.sub]


def _like(ref: str, number: int) -> str:
    return f"{number}{ref[-1]}" if ref[0].isdigit() else ref


def _index(value: Any, high: int, argument: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise ArgumentError(f"{argument} must be an integer from 0 to {high}", argument)
    return value


@dataclass(frozen=True)
class ListItem:
    index: int
    line: int
    depth: int
    parent: int | None
    marker: str
    checked: bool | None
    text: str


class ListModel:
    """The items of one list block and the operations of ``list_modify`` (items by index, nested included)."""

    def __init__(self, text: str, block: Block) -> None:
        self.text, self.block = text, block
        lines = block_lines(text, block)
        with _MD_LOCK:
            tokens = _MD.parse("\n".join(lines))
        found = {t.map[0] for t in tokens if t.type == "list_item_open" and t.map}
        starts = sorted(a for a in found if _ITEM.match(lines[a]))
        self.items: list[_Item] = []
        for n, a in enumerate(starts):
            m = _ITEM.match(lines[a])
            assert m is not None  # filtered above
            ind, mk, gap, box, bgap, rest = m.groups()
            self.items.append(_Item(ind, mk, gap, box, bgap or "", rest, [], lines[a], line=block.line_start + a))
            self._split(lines[a + 1 : starts[n + 1] if n + 1 < len(starts) else len(lines)])
        self.tabs = any("\t" in it.indent for it in self.items)
        self.loose = any(it.sub and not it.sub[-1].strip() for it in self.items[:-1])
        self.starts: dict[tuple[int, int], int] = {}  # per group of siblings: first number, numbering style
        self.styles: dict[tuple[int, int], str] = {}
        for key, group in self.groups().items():
            nums = [num for k in group if (num := self.items[k].number) is not None]
            if nums:
                self.starts[key] = nums[0]
            if len(nums) > 1:
                same, seq = len(set(nums)) == 1, nums == list(range(nums[0], nums[0] + len(nums)))
                self.styles[key] = "lazy" if same else "seq" if seq else "keep"
        self.style = "lazy" if "lazy" in self.styles.values() else "seq"  # for groups that do not tell

    def groups(self) -> dict[tuple[int, int], list[int]]:
        """Sibling items that form one markdown list: same parent, no parent's paragraph between them."""
        parents = self.parents()
        out: dict[tuple[int, int], list[int]] = {}
        runs: dict[int, int] = {}
        for i, it in enumerate(self.items):
            if it.raw or it.para:  # a paragraph between siblings ends their list
                runs[parents[i]] = runs.get(parents[i], 0) + 1
                continue
            parent = id(self.items[parents[i]]) if parents[i] >= 0 else 0
            out.setdefault((parent, runs.get(parents[i], 0)), []).append(i)
        return out

    def _split(self, lines: list[str]) -> None:
        """Give the last item its lines; after a blank line, less indented text belongs to an enclosing item."""
        parents, item = self.parents(), self.items[-1]
        chain, k = [], parents[-1]
        while k >= 0:
            chain.append(self.items[k].cc)
            k = parents[k]
        target, limit, pending = item.sub, item.cc, []
        for ln in lines:
            if not ln.strip():
                pending.append(ln)
                continue
            lead = ln[: len(ln) - len(ln.lstrip())]
            if pending and _width(lead) < limit:
                limit = max((c for c in chain if c <= _width(lead)), default=0)
                self.items.append(_Item(lead, raw=True))
                target = self.items[-1].sub
            target += [*pending, ln]
            pending = []
        target += pending

    def parents(self) -> list[int]:
        out: list[int] = []
        stack: list[int] = []
        for i, it in enumerate(self.items):
            while stack and _width(it.indent) < self.items[stack[-1]].cc:
                stack.pop()
            out.append(stack[-1] if stack else -1)
            if not it.raw:
                stack.append(i)
        return out

    def real(self) -> list[int]:
        return [i for i, it in enumerate(self.items) if not it.raw]

    def _end(self, i: int, parents: list[int]) -> int:
        """End (exclusive) of item ``i``'s subtree."""
        j, inside = i + 1, {i}
        while j < len(self.items) and parents[j] in inside:
            inside.add(j)
            j += 1
        return j

    def _get(self, index: Any, argument: str) -> int:
        """Position in ``items`` of the item with this index."""
        real = self.real()
        if not isinstance(index, int) or isinstance(index, bool):
            raise ArgumentError(f"{argument} must be an integer", argument)
        if not 0 <= index < len(real):
            raise DomainError(
                "NOT_FOUND", f"{self.block.id} has no item {index} (0..{len(real) - 1})", argument=argument
            )
        return real[index]

    def _ref(self, index: int) -> tuple[int, _Item, int]:
        """Where an item inserted as item ``index`` goes, the item whose style it takes, and its number."""
        real, parents = self.real(), self.parents()
        if index < len(real):
            ref = self.items[real[index]]
            return real[index], ref, ref.number or 1
        ref = self.items[max(i for i in real if parents[i] == -1)]
        return len(self.items), ref, (ref.number or 0) + 1

    def _place(self, group: list[_Item], indent: str, marker: str) -> None:
        """Move a subtree's root to ``indent``/``marker``; its own lines and descendants follow its content column."""
        root = group[0]
        old = root.cc
        if indent != root.indent or marker != root.marker:
            root.indent, root.marker, root.first = indent, marker, None
        delta = root.cc - old
        root.sub = [_shift(s, delta) for s in root.sub]
        for it in group[1:]:
            if delta:
                it.indent, it.first = _shift(it.indent + "x", delta)[:-1], None if not it.raw else it.first
                it.sub = [_shift(s, delta) for s in it.sub]

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

    def kind_of(self, index: int) -> str:
        it = self.items[self._get(index, "index")]
        return "ordered" if it.marker[0].isdigit() else "task" if it.box else "bullet"

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

    def lift(self, index: int) -> None:
        """Take an item out of the list as a paragraph (its nested items follow it)."""
        parents, p = self.parents(), self._get(index, "index")
        it = self.items[p]
        for d in self.items[p + 1 : self._end(p, parents)]:
            d.indent, d.first = _shift(d.indent + "x", -it.cc)[:-1], None if not d.raw else d.first
            d.sub = [_shift(s, -it.cc) for s in d.sub]
        it.sub = [_shift(s, -it.cc) for s in it.sub]
        it.para = True

    def _renumber(self) -> None:
        """Sequential groups are renumbered, lazy ones stay lazy, irregular ones are left alone."""
        parents = self.parents()
        for key, found in self.groups().items():
            group = [k for k in found if self.items[k].number]
            style = self.styles.get(key, self.style)
            if not group or style == "keep":
                continue
            start = self.starts.get(key, 1)
            for n, k in enumerate(group):
                it = self.items[k]
                number = start if style == "lazy" else start + n
                if it.number != number:
                    self._place(self.items[k : self._end(k, parents)], it.indent, f"{number}{it.marker[-1]}")

    def lines(self) -> list[str]:
        self._renumber()
        out: list[str] = []
        blank_after = False
        for it in self.items:
            lines = it.render()
            if (it.para or blank_after) and out and out[-1].strip() and lines[0].strip():
                out.append("")
            out += lines
            blank_after = it.para
        while out and not out[-1].strip():
            out.pop()
        return out

    def edits(self) -> list[TextEdit]:
        if not self.real():
            return [delete_block(self.text, self.block)]
        return replace_lines(self.text, self.block.line_start, self.block.line_end, self.lines())

    def view(self) -> list[ListItem]:
        parents, real = self.parents(), self.real()
        number = {p: n for n, p in enumerate(real)}
        depth: dict[int, int] = {}
        out = []
        for p in real:
            depth[p] = 0 if parents[p] < 0 else depth[parents[p]] + 1
            it = self.items[p]
            checked = None if it.box is None else it.box != "[ ]"
            parent = number.get(parents[p])
            out.append(ListItem(number[p], it.line, depth[p], parent, it.marker, checked, it.rest))
        return out


def parse_list(text: str, target: str | int) -> list[ListItem]:
    """The items of a list block (id or offset), in document order."""
    return ListModel(text, resolve_block(text, target, "list_id", ("list",))).view()


def unwrap_items(text: str, block: Block) -> list[str]:
    """A list block's lines with every top-level item lifted out as a paragraph."""
    model = ListModel(text, block)
    parents = model.parents()
    for n, p in enumerate(model.real()):
        if parents[p] < 0:
            model.lift(n)
    return model.lines()


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


def wrap_lines(lines: list[str], kind: str, start: int = 1, bullet: str = "-", delim: str = ".") -> list[str]:
    """Paragraph lines as list items: one item per run of non-blank lines."""
    out: list[str] = []
    number, first = start, True
    for ln in lines:
        if not ln.strip():
            out.append("")
            first = True
            continue
        marker = f"{number}{delim}" if kind == "ordered" else f"{bullet} [ ]" if kind == "task" else bullet
        width = len(f"{number}.") + 1 if kind == "ordered" else 2
        out.append(f"{marker} {ln.strip()}" if first else " " * width + ln.strip())
        number += first
        first = False
    return out


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
    models = {b.id: ListModel(text, b) for b in blocks if b.type == "list"}
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
    model = ListModel(text, resolve_block(text, start, "start", ("list",)))
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
    model = ListModel(text, resolve_block(text, list_id, "list_id", ("list",)))
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
