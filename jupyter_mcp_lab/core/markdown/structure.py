"""The structure of a markdown document: top-level blocks with node ids, and sections.

Built from markdown-it-py block tokens (inline parsing is off: structure needs lines, not
emphasis) with GFM tables, strikethrough, front matter, ``$$`` math and footnotes. Each
chunk (see ``chunks``) is parsed once per distinct text and cached, so after an edit only
the changed section is parsed again. Node ids are valid for the revision they were read at.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ..revision import revision_of
from ..text import LineIndex
from .chunks import split_lines

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
_TOKEN_TYPES = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "fence": "code",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "hr": "hr",
    "math_block": "math",
    "math_block_label": "math",
    "html_block": "html",
    "front_matter": "front_matter",
    "footnote_reference_open": "footnote",  # a definition [^label]: …, where it stands
}
_TASK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(dollarmath_plugin).use(footnote_plugin)
    # footnote_tail would move definitions to the end of the token stream, without their
    # line maps; structure wants each definition where it stands.
    md.disable(["inline", "text_join", "footnote_tail"], ignoreInvalid=True)
    math = md.block.ruler.__rules__[md.block.ruler.__find__("math_block")]
    scan = math.fn

    def math_block(state: Any, start: int, end: int, silent: bool) -> bool:
        # A $$ with no closing $$ before the end of a chunk may be closed in a later one.
        found = scan(state, start, end, silent)
        if not found and state.src.startswith("$$", state.bMarks[start] + state.tShift[start]):
            state.env["open_math"] = True
        return found

    md.block.ruler.at("math_block", math_block, {"alt": math.alt})
    return md


@dataclass(frozen=True)
class RawBlock:
    """A top-level block as found in one chunk, lines relative to the chunk (0-based, end exclusive)."""

    type: str
    line0: int
    line1: int
    level: int | None = None
    title: str | None = None
    info: str | None = None
    ordered: bool | None = None
    items: tuple[tuple[int, int], ...] = ()  # list items' (line0, line1)


def _raw_blocks(tokens: list[Any]) -> list[RawBlock]:
    out: list[RawBlock] = []
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.nesting == -1:
            continue
        kind = _TOKEN_TYPES.get(tok.type)
        if kind is None or tok.map is None:
            continue
        line0, line1 = tok.map
        if kind == "heading":
            inline = tokens[i + 1]
            out.append(RawBlock(kind, line0, line1, level=int(tok.tag[1]), title=inline.content.strip()))
        elif kind == "footnote":
            out.append(RawBlock(kind, line0, line1, title=str((tok.meta or {}).get("label", ""))))
        elif kind == "code":
            out.append(RawBlock(kind, line0, line1, info=tok.info.strip() or None))
        elif kind == "list":
            # Items of this list only: stop at the list's own closing token.
            items = _items_until_close(tokens, i)
            out.append(RawBlock(kind, line0, line1, ordered=tok.type == "ordered_list_open", items=items))
        else:
            out.append(RawBlock(kind, line0, line1))
    return out


def _items_until_close(tokens: list[Any], open_index: int) -> tuple[tuple[int, int], ...]:
    items = []
    for t in tokens[open_index + 1 :]:
        if t.level == 0 and t.nesting == -1:
            break
        if t.type == "list_item_open" and t.level == 1 and t.map is not None:
            items.append((t.map[0], t.map[1]))
    return tuple(items)


class ChunkCache:
    """Parsed chunks by their text; bounded, thread-safe (the parser is not)."""

    def __init__(self, max_chunks: int = 20_000) -> None:
        self._md = _parser()
        self._cache: OrderedDict[str, tuple[list[RawBlock], bool]] = OrderedDict()
        self._lock = threading.Lock()
        self.max_chunks = max_chunks

    def blocks(self, chunk: str, first: bool) -> tuple[list[RawBlock], bool]:
        """The chunk's blocks, and whether a ``$$`` in it was left open at its end."""
        key = ("F" if first else "R") + chunk  # front matter only counts at the very start
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            # A later chunk must not be read as front matter: parse it after a blank line.
            source = chunk if first else "\n" + chunk
            env: dict[str, Any] = {}
            raw = _raw_blocks(self._md.parse(source, env))
            if not first:
                raw = [
                    RawBlock(
                        b.type,
                        b.line0 - 1,
                        b.line1 - 1,
                        b.level,
                        b.title,
                        b.info,
                        b.ordered,
                        tuple((a - 1, z - 1) for a, z in b.items),
                    )
                    for b in raw
                ]
            self._cache[key] = (raw, bool(env.get("open_math")))
            while len(self._cache) > self.max_chunks:
                self._cache.popitem(last=False)
            return self._cache[key]


CHUNKS = ChunkCache()


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
        self.lines = LineIndex(text)
        self.blocks = self._blocks()

    @cached_property
    def revision(self) -> str:
        return revision_of(self.text)

    def _blocks(self) -> list[Block]:
        text = self.text
        idx = self.lines
        # Lines as markdown-it sees them (with their breaks) to cut chunks on.
        starts = idx.starts
        lines = [text[starts[k] : (starts[k + 1] if k + 1 < len(starts) else len(text))] for k in range(len(starts))]
        points = split_lines(lines)
        counters: dict[str, int] = {}
        out: list[Block] = []
        n = 0
        while n < len(points):
            p0, n = points[n], n + 1
            while True:
                p1 = points[n] if n < len(points) else len(lines)
                raws, open_math = CHUNKS.blocks("".join(lines[p0:p1]), first=p0 == 0)
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


_CACHE: OrderedDict[str, Structure] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def structure_of(text: str) -> Structure:
    """The structure of ``text``; the last few are kept (agents read, then edit, then read)."""
    key = revision_of(text)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit.text == text:
            _CACHE.move_to_end(key)
            return hit
    s = Structure(text)
    with _CACHE_LOCK:
        _CACHE[key] = s
        while len(_CACHE) > 32:
            _CACHE.popitem(last=False)
    return s
