"""The structure of a markdown document: top-level blocks with node ids, and sections.

Built from markdown-it-py block tokens (inline parsing is off: structure needs lines, not
emphasis) with GFM tables, strikethrough, front matter, ``$$`` math and footnotes. Each
chunk (see ``chunks``) is parsed once per distinct text and cached, so after an edit only
the changed section is parsed again. Node ids are valid for the revision they were read at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..revision import revision_of
from ..text import LineIndex, split_lines
from .chunk_cache import CHUNKS
from .chunks import chunk_starts
from .outline_items import ListItemLines
from .raw_blocks import RawBlock
from .text_memo import TextMemo

ID_PREFIX = {
    "heading": "h",
    "paragraph": "p",
    "code": "code",
    "table": "table",
    "list": "list",
    "blockquote": "bq",
    "hr": "hr",
    "math": "math",
    "html": "html",
    "front_matter": "fm",
    "footnote": "fn",
}
_TASK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]")


@dataclass(frozen=True)
class Block:
    id: str
    type: str
    line_start: int  # 1-based, inclusive
    line_end: int  # 1-based, inclusive
    start: int  # code point offset of the first line
    end: int  # offset of the end of the last line, before its line break
    level: int | None = None
    title: str | None = None
    info: str | None = None
    ordered: bool | None = None
    task: bool | None = None
    items: tuple[tuple[int, int], ...] = field(default=(), repr=False)  # (line_start, line_end)
    # A list's items, nested ones too, lines relative to line_start (the outline view's rows).
    nested: tuple[ListItemLines, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class Section:
    id: str  # the heading's node id ("preamble" for text before the first heading)
    level: int
    title: str
    start: int  # offset of the heading line
    end: int  # offset where the next same-or-higher heading starts (or the end)
    line_start: int
    line_end: int
    heading: Block | None


class Structure:
    """Blocks and sections of one revision of a markdown source."""

    def __init__(self, text: str) -> None:
        self.text = text
        lines = split_lines(text)
        self.lines = LineIndex(text, lines)
        self.blocks = self._blocks(lines)

    @cached_property
    def revision(self) -> str:
        return revision_of(self.text)

    def _blocks(self, lines: list[str]) -> list[Block]:
        text = self.text
        idx = self.lines
        starts = idx.starts
        points = chunk_starts(lines, text, starts)
        counters: dict[str, int] = {}
        out: list[Block] = []
        n = 0
        while n < len(points):
            p0, n = points[n], n + 1
            while True:
                p1 = points[n] if n < len(points) else len(lines)
                chunk = text[starts[p0] : starts[p1] if p1 < len(starts) else len(text)]
                raws, open_math = CHUNKS.blocks(chunk, first=p0 == 0)
                raws = sorted(raws, key=lambda b: b.line0)
                if n == len(points) or not (open_math or _left_open(raws, p1 - p0)):
                    break
                n += 1  # the splitter was wrong: the next heading line belongs to this chunk
            for raw in raws:
                ls, le = raw.line0 + p0 + 1, raw.line1 + p0  # 1-based inclusive
                # markdown-it counts a trailing blank line into some blocks (lists); trim it.
                while le > ls and not lines[le - 1].strip():
                    le -= 1
                prefix = ID_PREFIX[raw.type]
                number = counters.get(prefix, 0)
                counters[prefix] = number + 1
                task = None
                if raw.type == "list":
                    task = any(_TASK.match(lines[a + p0]) for a, _ in raw.items) if raw.items else False
                out.append(
                    Block(
                        id=f"{prefix}-{number}",
                        type=raw.type,
                        line_start=ls,
                        line_end=le,
                        start=idx.start_of(ls),
                        end=idx.end_of(le),
                        level=raw.level,
                        title=raw.title,
                        info=raw.info,
                        ordered=raw.ordered,
                        task=task,
                        items=tuple((a + p0 + 1, _trim(lines, a + p0 + 1, z + p0)) for a, z in raw.items),
                        nested=raw.nested,
                    )
                )
        return out

    @cached_property
    def by_id(self) -> dict[str, Block]:
        return {b.id: b for b in self.blocks}

    @cached_property
    def headings(self) -> list[Block]:
        return [b for b in self.blocks if b.type == "heading"]

    @cached_property
    def sections(self) -> list[Section]:
        heads = self.headings
        end_all = len(self.text)
        out: list[Section] = []
        first = heads[0].start if heads else end_all
        if first > 0 and self.text[:first].strip():
            out.append(Section("preamble", 0, "", 0, first, 1, self.lines.line_of(first - 1), None))
        for i, h in enumerate(heads):
            end = end_all
            for nxt in heads[i + 1 :]:
                if (nxt.level or 0) <= (h.level or 0):
                    end = nxt.start
                    break
            line_end = self.lines.line_of(max(end - 1, h.start))
            out.append(Section(h.id, h.level or 0, h.title or "", h.start, end, h.line_start, line_end, h))
        return out

    def block_at(self, offset: int) -> Block | None:
        for b in self.blocks:
            if b.start <= offset <= b.end:
                return b
            if b.start > offset:
                break
        return None

    def section(self, id_or_title: str) -> Section | None:
        for s in self.sections:
            if s.id == id_or_title:
                return s
        wanted = id_or_title.strip().lstrip("#").strip().lower()
        for s in self.sections:
            if s.title.lower() == wanted:
                return s
        return None


def _left_open(raws: list[RawBlock], line_count: int) -> bool:
    """Whether a chunk ends in a fence or HTML block still open: in the whole text it would
    swallow the next heading line (the splitter does not see containers such as list items)."""
    return bool(raws) and raws[-1].line1 >= line_count and raws[-1].type in ("code", "html")


def _trim(lines: list[str], ls: int, le: int) -> int:
    while le > ls and not lines[le - 1].strip():
        le -= 1
    return le


_STRUCTURES = TextMemo(Structure, lambda s: s.text, 32)


def structure_of(text: str) -> Structure:
    """The structure of ``text``; the last few are kept (agents read, then edit, then read)."""
    return _STRUCTURES(text)
