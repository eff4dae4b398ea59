"""Text positions and edits.

Positions are Unicode code point offsets into the source (Python ``str`` indexes); lines
are 1-based. Line breaks are ``\\r\\n``, ``\\r`` or ``\\n``, as markdown-it counts them.
Conversions to UTF-8 (pycrdt) and UTF-16 (the browser) happen at the boundaries.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from .errors import ArgumentError

_BREAK = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class TextEdit:
    """Replace ``source[start:end]`` with ``text`` (an insert has start == end)."""

    start: int
    end: int
    text: str


def apply_edits(source: str, edits: Iterable[TextEdit]) -> str:
    """Apply non-overlapping edits (given in any order) in one pass."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out: list[str] = []
    pos = 0
    n = len(source)
    for e in ordered:
        if not (0 <= e.start <= e.end <= n):
            raise ArgumentError(f"range {e.start}..{e.end} is outside the document (0..{n})", "range")
        if e.start < pos:
            raise ArgumentError(f"edits overlap at offset {e.start}", "edits")
        out.append(source[pos : e.start])
        out.append(e.text)
        pos = e.end
    out.append(source[pos:])
    return "".join(out)


def split_lines(text: str) -> list[str]:
    """The lines without their breaks; a text ending in a break ends with an empty line."""
    return text.split("\n") if "\r" not in text else _BREAK.split(text)


class LineIndex:
    """Offsets of line starts, for line/offset conversions in O(log n)."""

    def __init__(self, text: str, lines: list[str] | None = None) -> None:
        """``lines``: ``split_lines(text)``, when the caller has it already."""
        self.text = text
        if "\r" in text:
            self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        else:  # the common case, without a regex match object per line
            pieces = text.split("\n") if lines is None else lines
            self.starts = list(accumulate((len(line) + 1 for line in pieces[:-1]), initial=0))

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """1-based line holding ``offset``."""
        return bisect_right(self.starts, offset)

    def start_of(self, line: int) -> int:
        """Offset where 1-based ``line`` starts (the end of the text past the last line)."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        return self.starts[line - 1]

    def end_of(self, line: int) -> int:
        """Offset of the end of ``line``'s content, before its line break."""
        if line >= len(self.starts):
            return len(self.text)
        nxt = self.starts[line]
        brk = 2 if self.text[nxt - 2 : nxt] == "\r\n" else 1
        return nxt - brk

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset, both 1-based, column in code points."""
        line = self.line_of(offset)
        return line, offset - self.starts[line - 1] + 1


def line_at(text: str, offset: int) -> int:
    """1-based line of ``offset`` without building an index (counting runs in C)."""
    head = text[:offset]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1


def newline_of(text: str) -> str:
    """The document's line break (the first one found), for text we insert."""
    m = _BREAK.search(text)
    return m.group(0) if m else "\n"


def cp_to_utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2


def utf16_to_cp(text: str, offset16: int) -> int:
    units = 0
    for i, ch in enumerate(text):
        if units >= offset16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def cp_to_utf8(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-8", "surrogatepass"))


def utf8_to_cp(text: str, offset8: int) -> int:
    return len(text.encode("utf-8", "surrogatepass")[:offset8].decode("utf-8", "ignore"))


_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


@lru_cache(maxsize=8)
def word_count(text: str) -> int:
    """Runs of word characters; each CJK character reads as a word."""
    return len(_WORD.findall(text)) + len(_CJK.findall(text))
