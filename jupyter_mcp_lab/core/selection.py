"""A tab's selection (or cursor), how it follows edits, and the text around it.

Offsets are Unicode code points into the document's source, like every position here.
The selection is kept against the text it was set on and mapped lazily when read (see
``Tab.current_selection``), so edits from any path (agent, person, disk) move it without
every writer having to know about tabs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .markdown.structure import Block, structure_of
from .suggestions.diff import Region, regions
from .suggestions.mapping import map_range
from .text import LineIndex

SelectionSource = Literal["agent", "person"]
CONTEXT_CAP = 4000  # code points per context field: a minified one-line file must not flood the reply


@dataclass(frozen=True)
class Selection:
    """``anchor`` stays put while ``head`` (the caret) moves; equal means a plain cursor."""

    anchor: int = 0
    head: int = 0

    @classmethod
    def cursor(cls, at: int) -> Selection:
        return cls(at, at)

    @property
    def from_(self) -> int:
        return min(self.anchor, self.head)

    @property
    def to(self) -> int:
        return max(self.anchor, self.head)

    @property
    def empty(self) -> bool:
        return self.anchor == self.head

    def clamped(self, length: int) -> Selection:
        return Selection(min(max(self.anchor, 0), length), min(max(self.head, 0), length))

    def mapped(self, before: str, after: str) -> Selection:
        """This selection in ``after``, given that it was set on ``before``.

        The change is explained as its minimal changed regions (several edits between two
        reads stay several). A selection no region reaches into keeps its text, found the
        way a suggestion's range is (minimal diffs tie in repeated text: "aa" -> "a" deleted
        either "a"); otherwise each edge moves on its own (see ``map_position``).
        """
        sel = self.clamped(len(before))
        if before is after or before == after:
            return sel
        found = regions(before, after)
        kept = map_range(before, after, sel.from_, sel.to, before[sel.from_ : sel.to], found)
        if kept is not None:
            lo, hi = kept
        else:
            # Text inserted right at a cursor pushes it along, as typing does; the edges of a
            # range do not grow over text inserted right against them.
            lo = map_position(sel.from_, found, right=True)
            hi = map_position(sel.to, found, right=sel.empty)
        return (Selection(lo, hi) if sel.anchor <= sel.head else Selection(hi, lo)).clamped(len(after))


def map_position(pos: int, found: list[Region], *, right: bool) -> int:
    """Move ``pos`` through changed regions (ascending ``(a0, a1, b0, b1)``: ``after[b0:b1]``
    replaced ``before[a0:a1]``): before a region it stays, after one it shifts by the length
    difference, inside one it collapses to the end of the new text. ``right`` decides a
    position exactly where text was inserted (nothing removed): after the insertion, or before."""
    delta = 0
    for a0, a1, _, b1 in found:
        if pos < a0 or (pos == a0 and (a1 > a0 or not right)):
            break
        if pos < a1:
            return b1
        delta = b1 - a1  # b offsets are in the new text: this is the total shift so far
    return pos + delta


# --------------------------------------------------------------------------- cursor context

_LIST_MARK = re.compile(r"^\s*(?:([-*+])|\d+[.)])\s+(\[[ xX]\]\s)?")
_QUOTE = re.compile(r"^\s*>\s?")
# Our block types as VMark names them (the innermost textblock ProseMirror would report).
_TYPE = {
    "code": "codeBlock",
    "list": "paragraph",
    "blockquote": "paragraph",
    "table": "tableCell",
    "hr": "horizontalRule",
    "math": "mathBlock",
    "html": "htmlBlock",
    "front_matter": "frontmatter",
    "footnote": "footnoteDefinition",
}


@dataclass(frozen=True)
class BlockInfo:
    type: str  # paragraph, heading, codeBlock, tableCell, …; "blank" between blocks; "text" outside markdown
    position: int  # where the block (for a list: the item) starts
    in_blockquote: bool = False
    in_table: bool = False
    level: int | None = None
    language: str | None = None
    in_list: Literal["bullet", "ordered", "task"] | None = None


@dataclass(frozen=True)
class CursorContext:
    before: str
    after: str
    current_line: str
    current_paragraph: str
    block: BlockInfo


def cursor_context(text: str, offset: int, *, markdown: bool, lines_before: int, lines_after: int) -> CursorContext:
    """The lines around ``offset``, its paragraph (the non-blank lines around it, within its
    block or list item) and what kind of block it is in."""
    idx = LineIndex(text)
    line = idx.line_of(offset)
    block = structure_of(text).block_at(offset) if markdown else None
    lo, hi = (block.line_start, block.line_end) if block else (1, idx.line_count)
    if block is not None and block.type == "list":
        lo, hi = next(((a, z) for a, z in block.items if a <= line <= z), (lo, hi))
    current = text[idx.start_of(line) : idx.end_of(line)]
    blank = not current.strip()
    first = last = line
    while not blank and first > lo and text[idx.start_of(first - 1) : idx.end_of(first - 1)].strip():
        first -= 1
    while not blank and last < hi and text[idx.start_of(last + 1) : idx.end_of(last + 1)].strip():
        last += 1
    return CursorContext(
        before=text[idx.start_of(line - lines_before) : idx.start_of(line)][-CONTEXT_CAP:],
        after=text[idx.start_of(line + 1) : idx.start_of(line + 1 + lines_after)][:CONTEXT_CAP],
        current_line=current[:CONTEXT_CAP],
        current_paragraph="" if blank else text[idx.start_of(first) : idx.end_of(last)][:CONTEXT_CAP],
        block=_block_info(block, current, idx.start_of(lo if block else line), markdown),
    )


def _block_info(block: Block | None, line: str, start: int, markdown: bool) -> BlockInfo:
    if block is None:
        return BlockInfo("blank" if markdown else "text", start)
    # Only top-level blocks are parsed: a quote inside a list item shows in the line itself.
    quoted = block.type == "blockquote" or (block.type == "list" and bool(_QUOTE.match(_LIST_MARK.sub("", line))))
    in_list: Literal["bullet", "ordered", "task"] | None = None
    if block.type == "list":
        in_list = "task" if block.task else "ordered" if block.ordered else "bullet"
    elif block.type == "blockquote" and (m := _LIST_MARK.match(_QUOTE.sub("", line, count=1))):
        in_list = "task" if m.group(2) else "bullet" if m.group(1) else "ordered"
    info = (block.info or "").split()
    return BlockInfo(
        type=_TYPE.get(block.type, block.type),
        position=start,
        in_blockquote=quoted,
        in_table=block.type == "table",
        level=block.level if block.type == "heading" else None,
        language=info[0] if block.type == "code" and info else None,
        in_list=in_list,
    )
