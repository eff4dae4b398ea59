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
from dataclasses import dataclass, field
from typing import Any

import nbformat
from nbformat.v4.rwbase import rejoin_lines

from ..errors import DomainError
from ..kinds import DocumentKind
from ..suggestions.mapping import map_range
from . import notebook_json
from .base import DocumentContent, Part, find_part, no_part
from .cells import new_cell
from .part_edits import PartEdit

CELL_TYPES = ("code", "markdown", "raw")
# What a person's change to a cell consists of: a structural change made before it conflicts.
_OWN_FIELDS = ("source", "cell_type", "metadata")


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _placed(ids: list[str], edit: PartEdit) -> int:
    """Where an inserted or moved cell goes among ``ids``: after the cell it followed (first
    when it followed none), or at its index once that cell is gone."""
    if edit.after is None:
        return 0
    return ids.index(edit.after) + 1 if edit.after in ids else edit.index


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
    _text: str | None = field(default=None, init=False, repr=False, compare=False)  # serialize()'s

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
        """The notebook as Jupyter writes it, made once (the content does not change): what
        ``nbformat.writes`` writes, without its schema validation, which only logs."""
        if self._text is None:
            nb = dict(self.nb)  # the writer copies the notebook deeply itself
            if nb.get("nbformat_minor", 0) < 5:
                nb["nbformat_minor"] = 5  # cell ids are stored from now on
            object.__setattr__(self, "_text", notebook_json.writes(nb))
        assert self._text is not None
        return self._text

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

    def cell(self, cell_id: str) -> dict[str, Any]:
        return self.cells[self.index_of(cell_id)]

    def cell_id(self, ref: str | int, argument: str = "cell") -> str:
        """The id of the cell ``ref`` names: its id, or its 0-based index (negative from the end)."""
        if isinstance(ref, int):
            n = len(self.cells)
            if not -n <= ref < n:
                raise DomainError(
                    "NOT_FOUND", f"no cell at index {ref}: this notebook has {n} cells", argument=argument
                )
            return str(self.cells[ref]["id"])
        self.index_of(ref)
        return ref

    def set_fields(self, cell_id: str, fields: dict[str, Any]) -> NotebookContent:
        """The cell with ``fields`` replaced (a code cell turned markdown loses its outputs)."""
        i = self.index_of(cell_id)
        cell = {**self.cells[i], **fields}
        if cell["cell_type"] not in CELL_TYPES:
            raise DomainError("INVALID_ARGUMENT", f"cell type {cell['cell_type']!r}: one of {', '.join(CELL_TYPES)}")
        if cell["cell_type"] == "code":
            cell.setdefault("outputs", [])
            cell.setdefault("execution_count", None)
        else:
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
        cells = list(self.cells)
        cells[i] = cell
        return self._changed(cells)

    def insert_cell(self, index: int, cell_type: str, source: str = "", cell_id: str | None = None) -> NotebookContent:
        if cell_type not in CELL_TYPES:
            raise DomainError("INVALID_ARGUMENT", f"cell type {cell_type!r}: one of {', '.join(CELL_TYPES)}")
        cell = new_cell(cell_type, source)
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

    # ------------------------------------------------------------------ suggestions

    def apply_edit(self, edit: PartEdit, base: DocumentContent) -> NotebookContent | None:
        """``edit`` (made against ``base``) applied here; None when it conflicts: its cell is
        gone (or, for an insert, already there), its text range was changed, or a person
        changed the source, type or metadata of a cell it deletes, moves or sets."""
        ids = {c["id"] for c in self.cells}
        if edit.op == "insert":
            if edit.part in ids:
                return None
            cell = copy.deepcopy(edit.fields)
            at = _placed([c["id"] for c in self.cells], edit)
            cells = list(self.cells)
            cells.insert(max(0, min(at, len(cells))), cell)
            return self._changed(cells)
        if (
            edit.part not in ids
            or not isinstance(base, NotebookContent)
            or edit.part not in {c["id"] for c in base.cells}
        ):
            return None
        now, then = self.cell(edit.part), base.cell(edit.part)
        if edit.op == "text":
            where = map_range(_source(then), _source(now), edit.start, edit.end, edit.original)
            if where is None:
                return None
            text = _source(now)
            return self.with_part(edit.part, text[: where[0]] + edit.new + text[where[1] :])
        if any(now.get(k) != then.get(k) for k in _OWN_FIELDS):
            return None
        if edit.op == "delete":
            return self.delete_cell(edit.part)
        if edit.op == "move":
            return self.move_cell(edit.part, _placed([c["id"] for c in self.cells if c["id"] != edit.part], edit))
        return self.set_fields(edit.part, copy.deepcopy(edit.fields))
