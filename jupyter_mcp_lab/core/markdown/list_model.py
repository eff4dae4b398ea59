"""The list model: one list block's lines parsed into items, rendered back, and list wrapping.

Items are found with markdown-it (so fenced code inside an item is never mistaken for an
item); nesting follows indentation, as markdown reads it, and text of a parent item that
comes after its nested items stays with the parent (deleting or moving the last nested item
leaves it where it is). Items are addressed by their index
in document order (nested items included, 0-based). Each item keeps its original lines; only
items an operation touched are rendered again, with their own marker style and indentation,
and the block is written back through ``replace_lines`` (only changed lines move). Ordered
lists are renumbered only when their numbering was sequential; ``1.`` ``1.`` ``1.`` stays lazy.
The operations that change a list are in ``lists``.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .blocks import block_lines, delete_block, resolve_block
from .line_edits import replace_lines
from .structure import Block

_ITEM = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])([ \t]*)(?:(\[[ xX]\])(?=[ \t]|$)([ \t]*))?(.*)")
_MD = MarkdownIt("commonmark")
_MD_LOCK = threading.Lock()


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


def _like(ref: str, number: int) -> str:
    return f"{number}{ref[-1]}" if ref[0].isdigit() else ref


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

    def kind_of(self, index: int) -> str:
        it = self.items[self._get(index, "index")]
        return "ordered" if it.marker[0].isdigit() else "task" if it.box else "bullet"

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
