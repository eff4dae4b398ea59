"""Notebooks: one part per cell (its source, addressed by nbformat cell id), plus outputs
and metadata.

Parsed from the notebook's JSON as nbformat 4 dicts and written back the way Jupyter
writes them (``nbformat.writes``: sorted keys, one-space indent, sources as line lists), so
a notebook Jupyter saved is byte-identical wherever an edit does not reach. Cells of a
notebook older than nbformat 4.5 have no ids: each gets ``cell-<index>`` until the first
write stores it (4.5 ids are required from then on), so the ids an agent read stay valid.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

import nbformat
from nbformat.v4.rwbase import rejoin_lines

from ..errors import DomainError
from ..kinds import DocumentKind
from .base import Part, find_part, no_part

CELL_TYPES = ("code", "markdown", "raw")


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


@dataclass(frozen=True)
class CellInfo:
    """What a listing shows of a cell, without its outputs."""

    index: int
    id: str
    type: str
    first_line: str
    execution_count: int | None
    outputs: int


@dataclass(frozen=True)
class NotebookContent:
    """A notebook as nbformat 4 dicts. Treat as immutable: every change returns a copy."""

    nb: dict[str, Any]
    kind: DocumentKind = "notebook"

    @classmethod
    def parse(cls, kind: DocumentKind, text: str) -> NotebookContent:
        if not text.strip():
            return cls(nbformat.v4.new_notebook())
        try:
            nb = json.loads(text)
        except ValueError as exc:
            raise DomainError("INVALID_PATH", f"this notebook is not valid JSON: {exc}") from None
        if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
            raise DomainError("INVALID_PATH", "not an nbformat 4 notebook (no cells list)")
        for i, cell in enumerate(nb["cells"]):
            if not isinstance(cell, dict) or cell.get("cell_type") not in CELL_TYPES:
                raise DomainError("INVALID_PATH", f"cell {i} is not a code, markdown or raw cell")
            cell.setdefault("id", f"cell-{i}")
        # Sources and output texts as one string each (JSON stores them as line lists).
        return cls(rejoin_lines(nbformat.from_dict(nb)))

    # ------------------------------------------------------------------ reading

    @property
    def cells(self) -> list[dict[str, Any]]:
        return self.nb["cells"]

    def parts(self) -> list[Part]:
        return [Part(c["id"], _source(c), c["cell_type"]) for c in self.cells]

    def part(self, part_id: str) -> Part:
        return find_part(self.parts(), "notebook", part_id)

    def index_of(self, cell_id: str) -> int:
        for i, cell in enumerate(self.cells):
            if cell["id"] == cell_id:
                return i
        raise no_part("notebook", cell_id)

    def listing(self) -> list[CellInfo]:
        out = []
        for i, c in enumerate(self.cells):
            src = _source(c)
            out.append(
                CellInfo(
                    index=i,
                    id=c["id"],
                    type=c["cell_type"],
                    first_line=src.split("\n", 1)[0],
                    execution_count=c.get("execution_count"),
                    outputs=len(c.get("outputs", [])),
                )
            )
        return out

    def serialize(self) -> str:
        nb = copy.deepcopy(self.nb)
        if nb.get("nbformat_minor", 0) < 5:
            nb["nbformat_minor"] = 5  # cell ids are stored from now on
        return str(nbformat.writes(nbformat.from_dict(nb), version=nbformat.NO_CONVERT))

    # ------------------------------------------------------------------ changes

    def _changed(self, cells: list[dict[str, Any]]) -> NotebookContent:
        nb = dict(self.nb)
        nb["cells"] = cells
        return NotebookContent(nb)

    def with_part(self, part_id: str, text: str) -> NotebookContent:
        i = self.index_of(part_id)
        cells = list(self.cells)
        cells[i] = {**cells[i], "source": text}
        return self._changed(cells)

    def insert_cell(self, index: int, cell_type: str, source: str = "", cell_id: str | None = None) -> NotebookContent:
        if cell_type not in CELL_TYPES:
            raise DomainError("INVALID_ARGUMENT", f"cell type {cell_type!r}: one of {', '.join(CELL_TYPES)}")
        make = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell}
        cell = dict(make.get(cell_type, nbformat.v4.new_raw_cell)(source))
        if cell_id is not None:
            cell["id"] = cell_id
        cells = list(self.cells)
        cells.insert(max(0, min(index, len(cells))), cell)
        return self._changed(cells)

    def delete_cell(self, cell_id: str) -> NotebookContent:
        i = self.index_of(cell_id)
        return self._changed(self.cells[:i] + self.cells[i + 1 :])

    def move_cell(self, cell_id: str, index: int) -> NotebookContent:
        i = self.index_of(cell_id)
        cells = list(self.cells)
        cell = cells.pop(i)
        cells.insert(max(0, min(index, len(cells))), cell)
        return self._changed(cells)

    def set_outputs(self, cell_id: str, outputs: list[dict[str, Any]], execution_count: int | None) -> NotebookContent:
        i = self.index_of(cell_id)
        if self.cells[i]["cell_type"] != "code":
            raise DomainError("INVALID_ARGUMENT", f"cell {cell_id!r} is not a code cell: it has no outputs")
        cells = list(self.cells)
        cells[i] = {**cells[i], "outputs": outputs, "execution_count": execution_count}
        return self._changed(cells)
