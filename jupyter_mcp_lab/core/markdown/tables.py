"""GFM table edits (vmark table tools, table_modify) on the model of ``table_model``.

Rows are numbered with the header as row 0 and body rows from 1; columns from 0. Each
line keeps its own indentation, outer pipes and trailing spaces; a row whose cells did not
change is never rewritten. New cells follow the table's padding style: ``compact``
(``|a|b|``), ``spaced`` (``| a | b |``) or ``aligned`` (every pipe lines up; a cell that no
longer fits widens its column, which re-pads that column in every row). Cell values are
escaped (``|`` becomes ``\\|``); a line break in a value is refused.
"""

from __future__ import annotations

from typing import Any

from ..errors import ArgumentError
from ..text import TextEdit
from .blocks import delete_block, insert_block, resolve_block
from .table_model import Table as Table
from .table_model import _Model, _Row, _value, _width
from .table_model import parse_table as parse_table
from .table_model import split_row as split_row


class _TableEdit(_Model):
    """The model with the operations of ``table_modify``."""

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


def _table(text: str, table_id: str | int) -> _TableEdit:
    return _TableEdit(text, resolve_block(text, table_id, "table_id", ("table",)))


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
