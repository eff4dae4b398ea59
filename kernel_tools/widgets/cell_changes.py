"""A notebook cell's suggestion in words, for the review cards (pure functions, no I/O).

A suggestion on a notebook names its cell (``part``) and, for a structural change, carries
the REST API's summary (``change``: ``op`` insert / delete / move / set, ``after``, ``index``,
``fields`` with outputs counted). The card says what happens to the cell ("code cell added
after cell 2", "cell removed", "moved from 2 to 5", "type → markdown", "metadata changed",
"clears 3 outputs"); the text diff within the cell is the card's usual word diff. What the
notebook holds now (``cells``: :func:`cell_index` of its JSON) adds where a cell is, its
first line and how many outputs it has; without it the card says what it can.
"""

from __future__ import annotations

import json
from typing import Any

FIRST_LINE_CHARS = 60


def _source(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def first_line(text: str) -> str:
    line = next((x.strip() for x in text.splitlines() if x.strip()), "")
    return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 1] + "…"


def cell_index(notebook: str | dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A notebook (its JSON text or dict) as ``{cell id: {index, type, outputs, first}}``."""
    data = json.loads(notebook) if isinstance(notebook, str) else notebook
    out: dict[str, dict[str, Any]] = {}
    for i, cell in enumerate(data.get("cells") or []):
        if isinstance(cell, dict) and cell.get("id"):
            out[str(cell["id"])] = {
                "index": i,
                "type": cell.get("cell_type", "code"),
                "outputs": len(cell.get("outputs") or []),
                "first": first_line(_source(cell.get("source"))),
            }
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _name(cell_id: str | None, cells: dict[str, dict[str, Any]]) -> str:
    """How a card names a cell: ``cell 3 «import math»`` when it is in the notebook now."""
    if cell_id is None:
        return "the top"
    info = cells.get(cell_id)
    if info is None:
        return f"cell {cell_id}"
    return f"cell {info['index']} «{info['first']}»" if info["first"] else f"cell {info['index']}"


def changes(change: dict[str, Any] | None, cell_id: str, cells: dict[str, dict[str, Any]]) -> list[str]:
    """The cell-level changes of one suggestion, in words (a text change: ``source changed``)."""
    if change is None:
        return ["source changed"]
    op, fields, info = change.get("op"), dict(change.get("fields") or {}), cells.get(cell_id)
    if op == "insert":
        kind = fields.get("cell_type") or "code"
        where = "at the top" if change.get("after") is None else f"after {_name(change.get('after'), cells)}"
        out = [f"{kind} cell added {where}"]
        if fields.get("outputCount"):
            out.append(f"with {_plural(int(fields['outputCount']), 'output')}")
        return out
    if op == "delete":
        out = ["cell removed"]
        if info and info["outputs"]:
            out.append(f"with {_plural(info['outputs'], 'output')}")
        return out
    if op == "move":
        to = int(change.get("index") or 0)
        start = f"moved from {info['index']} to {to}" if info else f"moved to {to}"
        where = "to the top" if change.get("after") is None else f"after {_name(change.get('after'), cells)}"
        return [f"{start} ({where})"]
    out = []
    if "cell_type" in fields:
        before = f"{info['type']} " if info else ""
        out.append(f"type {before}→ {fields['cell_type']}")
    if "metadata" in fields:
        tags = (fields.get("metadata") or {}).get("tags")
        out.append("metadata changed" + (f" (tags: {', '.join(map(str, tags))})" if tags else ""))
    if "outputCount" in fields and not fields["outputCount"]:
        n = info["outputs"] if info else None
        out.append(f"clears {_plural(n, 'output')}" if n is not None else "clears the outputs")
    elif "execution_count" in fields and "outputCount" not in fields:
        out.append("execution count reset")
    return out or ["fields changed"]


def describe(suggestion: dict[str, Any], cells: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The card's ``part``: ``{id, kind: "cell", op, label, changes}`` (label names the cell),
    with ``order`` (the cell's position) when known."""
    cells = cells or {}
    cell_id = str(suggestion["part"])
    change = suggestion.get("change")
    op = change.get("op", "set") if change else "text"
    label = f"new cell {cell_id}" if op == "insert" else _name(cell_id, cells)
    # Where the card sorts among the notebook's: the cell's position (a new one's, where it goes).
    order = int((change or {}).get("index") or 0) if op == "insert" else cells.get(cell_id, {}).get("index")
    out = {"id": cell_id, "kind": "cell", "op": op, "label": label, "changes": changes(change, cell_id, cells)}
    return out if order is None else {**out, "order": order}


def shows_text(suggestion: dict[str, Any]) -> bool:
    """Whether the card's word diff says anything: a move or a field change leaves the text."""
    change = suggestion.get("change")
    return change is None or change.get("op") in ("insert", "delete")
