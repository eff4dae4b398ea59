"""The GFM table model: a table block's lines parsed into rows and cells, and rendered back.

``split_row`` finds a line's cells (escaped pipes kept), ``parse_table`` gives the read-only
``Table`` view, and ``_Model`` holds the rows with their original lines, the column alignments
and the table's padding style (``compact``, ``spaced`` or ``aligned``), pads new cells the way
the table does and rewrites only the lines that changed. Display widths count East Asian wide
characters as two columns. The operations that change a table are in ``tables``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .blocks import block_lines
from .line_edits import replace_lines
from .structure import Block, structure_of


def split_row(line: str) -> tuple[list[tuple[int, int]], bool, bool]:
    """Cell spans of a table line (relative to the line), whether it has a leading and a trailing pipe."""
    bars, k = [], 0
    while k < len(line):
        if line[k] == "\\":
            k += 2
            continue
        if line[k] == "|":
            bars.append(k)
        k += 1
    first = len(line) - len(line.lstrip())
    if not bars:
        return [(first, len(line))], False, False
    lead = bool(bars) and bars[0] == first
    trail = bool(bars) and not line[bars[-1] + 1 :].strip() and (len(bars) > 1 or not lead)
    inner = bars[int(lead) : len(bars) - int(trail)]
    edges = [bars[0] + 1 if lead else first, *(b for b in inner), bars[-1] if trail else len(line)]
    spans = [((edges[n] + 1) if n else edges[0], edges[n + 1]) for n in range(len(edges) - 1)]
    return spans, lead, trail


def _width(s: str) -> int:
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


@dataclass(eq=False)
class _Row:
    indent: str
    cells: list[str]  # raw cell text, padding included
    lead: bool
    trail: bool
    tail: str
    orig: str | None  # the original line while unchanged
    new: set[int] = field(default_factory=set)  # cells holding a bare value still to be padded

    @classmethod
    def parse(cls, line: str) -> _Row:
        spans, lead, trail = split_row(line)
        tail = line[line.rindex("|") + 1 :] if trail else ""
        return cls(line[: len(line) - len(line.lstrip())], [line[a:b] for a, b in spans], lead, trail, tail, line)

    def render(self) -> str:
        if self.orig is not None:
            return self.orig
        lead, trail = (True, True) if len(self.cells) == 1 else (self.lead, self.trail)
        return self.indent + "|" * lead + "|".join(self.cells) + ("|" + self.tail if trail else "")

    def put(self, col: int, value: str) -> None:
        while len(self.cells) <= col:
            self.cells.append("")
            self.new.add(len(self.cells) - 1)
        self.cells[col] = value
        self.new.add(col)
        self.orig = None


def _align(cell: str) -> str | None:
    c = cell.strip()
    return (
        "center"
        if c[:1] == c[-1:] == ":" and len(c) > 1
        else "right"
        if c.endswith(":")
        else "left"
        if c.startswith(":")
        else None
    )


def _value(value: Any, argument: str) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{argument} must be a string", argument)
    if "\n" in value or "\r" in value:
        raise ArgumentError(f"{argument} must not contain a line break", argument)
    out, k = [], 0
    while k < len(value):
        if value[k] == "\\":  # keep escapes; a lone final backslash would escape the cell's pipe
            out.append(value[k : k + 2] if k + 1 < len(value) else "\\\\")
            k += 2
            continue
        out.append("\\|" if value[k] == "|" else value[k])
        k += 1
    return "".join(out).strip()


@dataclass(frozen=True)
class Table:
    """A parsed table: values are the cells' markdown (escapes kept), spans are absolute offsets."""

    block: Block
    header: list[str]
    alignments: list[str | None]
    rows: list[list[str]]
    spans: list[list[tuple[int, int]]]  # per line: header, delimiter, body rows
    style: str


def parse_table(text: str, block: Block) -> Table:
    model = _Model(text, block)
    idx = structure_of(text).lines
    spans = []
    for k in range(block.line_start, block.line_end + 1):
        base = idx.start_of(k)
        spans.append([(base + a, base + b) for a, b in split_row(text[base : idx.end_of(k)])[0]])
    header, *body = ([c.strip() for c in r.cells] for r in model.rows)
    return Table(block, header, list(model.aligns), body, spans, model.style)


class _Model:
    def __init__(self, text: str, block: Block) -> None:
        self.text, self.block = text, block
        lines = block_lines(text, block)
        header, self.delim, *body = (_Row.parse(ln) for ln in lines)
        self.rows: list[_Row] = [header, *body]
        self.ncols = len(header.cells)
        self.aligns: list[str | None] = [_align(c) for c in self.delim.cells[: self.ncols]]
        self.aligns += [None] * (self.ncols - len(self.aligns))
        cells = [c for r in self.rows for c in r.cells if c.strip()]
        all_rows = [*self.rows, self.delim]
        even = all(len(r.cells) == self.ncols for r in all_rows)
        widths = [{_width(r.cells[c]) for r in all_rows} for c in range(self.ncols)] if even else []
        if cells and not any(c[0].isspace() or c[-1].isspace() for c in cells):
            self.style = "compact"
        elif even and all(len(w) == 1 for w in widths):
            self.style = "aligned"
        else:
            self.style = "spaced"
        self.pad = (self.style != "compact" and any(c[:1] == " " for c in cells)) or not cells
        self.widths = [w.pop() for w in widths] if self.style == "aligned" else []
        self.delim_sp = self.style != "compact" and any(c[:1] == " " for c in self.delim.cells)

    def _row(self, row: Any, argument: str) -> int:
        if not isinstance(row, int) or isinstance(row, bool):
            raise ArgumentError(f"{argument} must be an integer", argument)
        if not 0 <= row < len(self.rows):
            raise DomainError(
                "NOT_FOUND", f"{self.block.id} has no row {row} (0..{len(self.rows) - 1})", argument=argument
            )
        return row

    def _col(self, col: Any, argument: str) -> int:
        if not isinstance(col, int) or isinstance(col, bool):
            raise ArgumentError(f"{argument} must be an integer", argument)
        if not 0 <= col < self.ncols:
            raise DomainError(
                "NOT_FOUND", f"{self.block.id} has no column {col} (0..{self.ncols - 1})", argument=argument
            )
        return col

    def _index(self, index: Any, low: int, high: int, argument: str) -> int:
        if index is None:
            return high
        if not isinstance(index, int) or isinstance(index, bool) or not low <= index <= high:
            raise ArgumentError(f"{argument} must be an integer from {low} to {high}", argument)
        return index

    def _cells(self, cells: Any, count: int, argument: str) -> list[str]:
        if cells is None:
            return [""] * count
        if not isinstance(cells, list) or len(cells) > count:
            raise ArgumentError(f"{argument} must be a list of at most {count} strings", argument)
        return [_value(v, f"{argument}[{n}]") for n, v in enumerate(cells)] + [""] * (count - len(cells))

    def _pad(self, row: _Row, col: int, width: int) -> str:
        """A new cell's raw text, padded as the table pads (an outer cell without a pipe has no outer space)."""
        value, align = row.cells[col].strip(), self.aligns[col] if col < self.ncols else None
        lpad = self.pad and (col > 0 or row.lead)
        rpad = self.pad and (col < len(row.cells) - 1 or row.trail)
        gap = max(0, width - lpad - rpad - _width(value))
        left = gap if align == "right" else gap // 2 if align == "center" else 0
        return " " * lpad + " " * left + value + " " * (gap - left) + " " * rpad

    def _outer(self, row: _Row, col: int, inner: bool) -> None:
        """A kept cell moved between the edge of a row without outer pipes and its inside: fix its outer space."""
        if not self.pad or not 0 <= col < len(row.cells) or col in row.new:
            return
        raw = row.cells[col]
        if col == 0 and not row.lead:
            row.cells[col] = (" " + raw if raw[:1] != " " else raw) if inner else raw.removeprefix(" ")
        if col == len(row.cells) - 1 and not row.trail:
            raw = row.cells[col]
            row.cells[col] = (raw + " " if raw[-1:] != " " else raw) if inner else raw.removesuffix(" ")
        if inner and col == 1 and not row.lead:
            row.cells[col] = raw if raw[:1] == " " else " " + raw
        if inner and col == len(row.cells) - 2 and not row.trail:
            raw = row.cells[col]
            row.cells[col] = raw if raw[-1:] == " " else raw + " "

    def _delim_cell(self, col: int, width: int) -> str:
        a, d = self.aligns[col], self.delim
        lpad = self.delim_sp and (col > 0 or d.lead)
        rpad = self.delim_sp and (col < self.ncols - 1 or d.trail)
        n = max(width - lpad - rpad, {"left": 2, "right": 2, "center": 3}.get(a or "", 3 if width == 0 else 1))
        mid = {"left": ":" + "-" * (n - 1), "right": "-" * (n - 1) + ":", "center": ":" + "-" * (n - 2) + ":"}
        return " " * lpad + mid.get(a or "", "-" * n) + " " * rpad

    def lines(self) -> list[str]:
        aligned = self.style == "aligned"
        need = (
            [
                max(
                    [self.widths[c] or 3 + 2 * self.pad]
                    + [_width(r.cells[c].strip()) + 2 * self.pad for r in self.rows if c in r.new]
                )
                for c in range(self.ncols)
            ]
            if aligned
            else [0] * self.ncols
        )
        for row in self.rows:
            if row.orig is None and row.cells and not row.lead and (len(row.cells) == 1 or not row.cells[0].strip()):
                row.lead = True  # an empty first cell, or a single column, needs its pipes
                row.new.add(0)
            if row.orig is None and row.cells and not row.trail and (len(row.cells) == 1 or not row.cells[-1].strip()):
                row.trail = True
                row.new.add(len(row.cells) - 1)
        if self.ncols == 1 and not (self.delim.lead and self.delim.trail):
            self.delim.lead = self.delim.trail = True
            self.delim.new.add(0)
        for row in self.rows:
            for c in range(len(row.cells)):
                if c in row.new or (aligned and c < self.ncols and need[c] != self.widths[c]):
                    row.cells[c], row.orig = self._pad(row, c, need[c] if c < self.ncols else 0), None
        d = self.delim
        for c in range(self.ncols):
            if c >= len(d.cells):
                d.cells.append("")
                d.new.add(c)
            if c in d.new or _align(d.cells[c]) != self.aligns[c] or (aligned and need[c] != self.widths[c]):
                d.cells[c], d.orig = self._delim_cell(c, need[c]), None
        return [self.rows[0].render(), d.render(), *(r.render() for r in self.rows[1:])]

    def edits(self) -> list[TextEdit]:
        return replace_lines(self.text, self.block.line_start, self.block.line_end, self.lines())
