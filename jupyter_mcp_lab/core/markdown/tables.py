"""GFM tables: a model parsed from a table block's lines, and edits on it (vmark table tools, table_modify).

Rows are numbered with the header as row 0 and body rows from 1; columns from 0. Each
line keeps its own indentation, outer pipes and trailing spaces; a row whose cells did not
change is never rewritten. New cells follow the table's padding style: ``compact``
(``|a|b|``), ``spaced`` (``| a | b |``) or ``aligned`` (every pipe lines up; a cell that no
longer fits widens its column, which re-pads that column in every row). Cell values are
escaped (``|`` becomes ``\\|``); a line break in a value is refused.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .blocks_edit import block_lines, delete_block, insert_block, replace_lines, resolve_block
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

    def add_row(self, index: Any, cells: Any, argument: str = "index") -> None:
        at = self._index(index, 1, len(self.rows), argument)
        like = self.rows[at - 1]
        row = _Row(like.indent, [], like.lead, like.trail, like.tail, None)
        for col, v in enumerate(self._cells(cells, self.ncols, "cells")):
            row.put(col, v)
        self.rows.insert(at, row)

    def delete_row(self, row: Any, argument: str = "row") -> None:
        r = self._row(row, argument)
        if len(self.rows) == 1:
            raise ArgumentError("a table needs a header row; delete the table instead", argument)
        del self.rows[r]

    def add_column(self, index: Any, header: Any, cells: Any, argument: str = "index") -> None:
        at = self._index(index, 0, self.ncols, argument)
        values = [_value(header, "header"), "", *self._cells(cells, len(self.rows) - 1, "cells")]
        for row, v in zip([self.rows[0], self.delim, *self.rows[1:]], values, strict=True):
            while len(row.cells) < at:
                row.put(len(row.cells), "")
            row.cells.insert(at, v)
            row.new = {c + (c >= at) for c in row.new} | {at}
            row.orig = None
            self._outer(row, 1 if at == 0 else at - 1 if at == len(row.cells) - 1 else -1, True)
        self.aligns.insert(at, None)
        if self.style == "aligned":
            self.widths.insert(at, 0)
        self.ncols += 1

    def delete_column(self, col: Any, argument: str = "col") -> None:
        c = self._col(col, argument)
        if self.ncols == 1:
            raise ArgumentError("a table needs a column; delete the table instead", argument)
        for row in [*self.rows, self.delim]:
            if c < len(row.cells):
                del row.cells[c]
                row.new = {k - (k > c) for k in row.new if k != c}
                row.orig = None
                self._outer(row, 0 if c == 0 else c - 1 if c == len(row.cells) else -1, False)
        del self.aligns[c]
        if self.style == "aligned":
            del self.widths[c]
        self.ncols -= 1

    def set_cell(self, row: Any, col: Any, value: Any) -> None:
        r, c = self._row(row, "row"), self._col(col, "col")
        v = _value(value, "value")
        current = self.rows[r].cells[c].strip() if c < len(self.rows[r].cells) else None
        if v != current:
            self.rows[r].put(c, v)

    def set_alignment(self, col: Any, align: Any) -> None:
        c = self._col(col, "col")
        if align not in (None, "left", "right", "center", "none"):
            raise ArgumentError("align must be left, right, center or none", "align")
        self.aligns[c] = None if align == "none" else align

    def set_header_row(self, enabled: bool | None) -> None:
        empty = not any(c.strip() for c in self.rows[0].cells)
        if enabled is None:
            enabled = empty
        if enabled and empty and len(self.rows) > 1:
            self.delete_row(0)
        elif not enabled and not empty:
            head = self.rows[0]
            self.rows.insert(0, _Row(head.indent, [], True, True, head.tail, None))
            for col in range(self.ncols):
                self.rows[0].put(col, "")

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


def _table(text: str, table_id: str | int) -> _Model:
    return _Model(text, resolve_block(text, table_id, "table_id", ("table",)))


def _positive(value: Any, argument: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ArgumentError(f"{argument} must be an integer of at least 1", argument)
    return value


def insert_table(text: str, offset: int, rows: int, cols: int, header: list[str] | None = None) -> list[TextEdit]:
    """Insert a ``rows`` x ``cols`` table (``rows`` counts the header row) as its own block at ``offset``."""
    rows, cols = _positive(rows, "rows"), _positive(cols, "cols")
    if header is not None and (not isinstance(header, list) or len(header) != cols):
        raise ArgumentError(f"header must be a list of {cols} strings", "header")
    names = [_value(h, f"header[{n}]") for n, h in enumerate(header or [""] * cols)]
    widths = [max(3, _width(h)) for h in names]
    line = "| " + " | ".join(h + " " * (w - _width(h)) for h, w in zip(names, widths, strict=True)) + " |"
    empty = "| " + " | ".join(" " * w for w in widths) + " |"
    delim = "| " + " | ".join("-" * w for w in widths) + " |"
    return [insert_block(text, offset, "\n".join([line, delim, *[empty] * (rows - 1)]))]


def delete_table(text: str, table_id: str | int) -> list[TextEdit]:
    return [delete_block(text, _table(text, table_id).block)]


def add_row(text: str, table_id: str | int, index: int | None = None, cells: list[str] | None = None) -> list[TextEdit]:
    """Insert a body row so that it becomes row ``index`` (1..rows; default: append)."""
    return batch(text, table_id, [{"op": "add_row", "index": index, "cells": cells}])


def delete_row(text: str, table_id: str | int, row: int) -> list[TextEdit]:
    """Delete row ``row``; deleting row 0 makes the first body row the header."""
    return batch(text, table_id, [{"op": "delete_row", "row": row}])


def add_column(
    text: str, table_id: str | int, index: int | None = None, header: str = "", cells: list[str] | None = None
) -> list[TextEdit]:
    return batch(text, table_id, [{"op": "add_column", "index": index, "header": header, "cells": cells}])


def delete_column(text: str, table_id: str | int, col: int) -> list[TextEdit]:
    return batch(text, table_id, [{"op": "delete_column", "col": col}])


def set_cell(text: str, table_id: str | int, row: int, col: int, value: str) -> list[TextEdit]:
    return batch(text, table_id, [{"op": "set_cell", "row": row, "col": col, "value": value}])


def toggle_header_row(text: str, table_id: str | int) -> list[TextEdit]:
    """An empty header row goes (the first body row becomes the header); otherwise one is added above."""
    return batch(text, table_id, [{"op": "toggle_header_row"}])


_OPS = {
    "addrow": "add_row",
    "deleterow": "delete_row",
    "addcolumn": "add_column",
    "deletecolumn": "delete_column",
    "setcell": "set_cell",
    "setcellcontent": "set_cell",
    "setalignment": "set_alignment",
    "toggleheaderrow": "toggle_header_row",
    "setheaderrow": "set_header_row",
}


def batch(text: str, table_id: str | int, operations: list[dict[str, Any]]) -> list[TextEdit]:
    """vmark ``table_modify``: apply operations in order to the model, then rewrite only the changed lines."""
    model = _table(text, table_id)
    if not isinstance(operations, list):
        raise ArgumentError("operations must be a list", "operations")
    for n, op in enumerate(operations):
        where = f"operations[{n}]"
        name = (op.get("op") or op.get("type") or op.get("action")) if isinstance(op, dict) else None
        verb = _OPS.get(str(name).replace("_", "").lower())
        if verb is None or not isinstance(op, dict):
            raise ArgumentError(f"{where}.op must be one of {', '.join(sorted(set(_OPS.values())))}", f"{where}.op")
        col = op.get("col", op.get("column"))
        if verb == "add_row":
            model.add_row(op.get("index"), op.get("cells"), f"{where}.index")
        elif verb == "delete_row":
            model.delete_row(op.get("row", op.get("index")), f"{where}.row")
        elif verb == "add_column":
            model.add_column(op.get("index"), op.get("header", ""), op.get("cells"), f"{where}.index")
        elif verb == "delete_column":
            model.delete_column(op.get("index") if col is None else col, f"{where}.col")
        elif verb == "set_cell":
            model.set_cell(op.get("row"), col, op.get("value", op.get("content", op.get("text"))))
        elif verb == "set_alignment":
            model.set_alignment(col, op.get("align", op.get("alignment")))
        else:
            model.set_header_row(op.get("enabled") if verb == "set_header_row" else None)
    return model.edits()
