"""Cells of a notebook's shared document changed in place, as JupyterLab changes them.

A notebook open with jupyter-collaboration is a jupyter-ydoc ``YNotebook`` (pycrdt): each
cell a map whose source is a shared text and whose outputs are an array of maps (a stream's
text a shared text too). Changing a cell in place, rather than replacing it, keeps what the
person has in it: their cursor in its source, and JupyterLab's view of its outputs, which
grows as a stream grows instead of being drawn anew. Outputs of a running cell arrive here
one message at a time (``CellOutputs``), so the person sees them as the kernel sends them.
"""

from __future__ import annotations

import logging
from typing import Any

from jupyter_ydoc.utils import cast_all
from pycrdt import Array, Map, Text

log = logging.getLogger(__name__)

ORIGIN = "jupyter-mcp-lab"  # the transaction origin: who changed the shared document
_OWN = ("id", "cell_type", "source")  # what ``update_cell`` does not set as a plain field


def find(shared: Any, cell_id: str) -> Any | None:
    """The shared cell (a pycrdt Map) with ``cell_id``, or None."""
    for ycell in shared.ycells:
        if ycell.get("id") == cell_id:
            return ycell
    return None


def _youtput(out: dict[str, Any]) -> Map:
    value = dict(out)
    if value.get("output_type") == "stream":
        text = value.get("text", "")
        value["text"] = Text("".join(text) if isinstance(text, list) else str(text))
    return Map(value)


def _current(youtputs: Array) -> list[dict[str, Any]]:
    # Yjs stores numbers as floats: compare them as the file stores them.
    return cast_all(youtputs.to_py() or [], float, int)  # type: ignore[return-value]


def sync_outputs(ycell: Any, outputs: list[dict[str, Any]]) -> None:
    """Make the cell's shared outputs ``outputs``, changing as little as it can: outputs that
    are already there stay, and a stream that grew gets only its new text appended."""
    youtputs = ycell.get("outputs")
    if not isinstance(youtputs, Array):
        ycell["outputs"] = Array([_youtput(o) for o in outputs])
        return
    now = _current(youtputs)
    same = 0
    while same < min(len(now), len(outputs)) and now[same] == outputs[same]:
        same += 1
    if same == len(now) == len(outputs):
        return
    if same < len(now) and same < len(outputs):
        old, new = now[same], outputs[same]
        ytext = youtputs[same].get("text") if isinstance(youtputs[same], Map) else None
        grown = (
            old.get("output_type") == new.get("output_type") == "stream"
            and old.get("name") == new.get("name")
            and isinstance(ytext, Text)
            and str(new.get("text", "")).startswith(str(old.get("text", "")))
        )
        if grown and {**old, "text": ""} == {**new, "text": ""}:
            assert isinstance(ytext, Text)
            ytext += str(new["text"])[len(str(old.get("text", ""))) :]
            same += 1
    if same < len(youtputs):
        del youtputs[same:]
    if same < len(outputs):
        youtputs.extend([_youtput(o) for o in outputs[same:]])


def update_cell(shared: Any, index: int, now: dict[str, Any], cell: dict[str, Any]) -> None:
    """Turn the shared cell at ``index`` (``now`` as the file stores it) into ``cell``: its
    source as text changes, its other fields in place; a cell whose type changed is replaced
    (JupyterLab draws a cell of another type anew anyway)."""
    if now.get("cell_type") != cell.get("cell_type"):
        shared.set_cell(index, cell)
        return
    ycell = shared.ycells[index]
    if now.get("source") != cell.get("source"):
        shared.set_cell(index, source=cell["source"])
    for key in sorted((set(now) | set(cell)) - set(_OWN)):
        if key not in cell:
            del ycell[key]
        elif now.get(key) == cell[key]:
            continue
        elif key == "outputs":
            sync_outputs(ycell, cell["outputs"])
        elif key == "metadata" and isinstance(ycell.get("metadata"), Map):
            _sync_map(ycell["metadata"], now.get("metadata") or {}, cell["metadata"])
        else:
            ycell[key] = cell[key]


def _sync_map(ymap: Map, now: dict[str, Any], wanted: dict[str, Any]) -> None:
    # ``trusted`` is the room's own flag (never stored in the file): it stays.
    for key in [k for k in now if k not in wanted]:
        del ymap[key]
    for key, value in wanted.items():
        if now.get(key) != value:
            ymap[key] = value


class CellOutputs:
    """The outputs of one running cell, shown in its shared document as they arrive.

    Opened when the code starts (the cell's outputs cleared and its execution count unset,
    the cell shown as running, as JupyterLab does when the person runs it), ``show``n after
    every output, closed when the run ends. A cell deleted meanwhile is left alone.
    """

    def __init__(self, shared: Any, cell_id: str) -> None:
        self.shared = shared
        self.cell_id = cell_id

    def _change(self, change: Any) -> None:
        ycell = find(self.shared, self.cell_id)
        if ycell is None or ycell.get("cell_type") != "code":
            return
        try:
            with self.shared.ydoc.transaction(origin=ORIGIN):
                change(ycell)
        except Exception:  # the stored result at the end still counts: never fail the run here
            log.exception("could not show the outputs of cell %s in its shared document", self.cell_id)

    def open(self) -> None:
        def start(ycell: Any) -> None:
            sync_outputs(ycell, [])
            ycell["execution_count"] = None
            ycell["execution_state"] = "running"

        self._change(start)

    def show(self, outputs: list[dict[str, Any]]) -> None:
        self._change(lambda ycell: sync_outputs(ycell, outputs))

    def close(self) -> None:
        def idle(ycell: Any) -> None:
            ycell["execution_state"] = "idle"

        self._change(idle)
