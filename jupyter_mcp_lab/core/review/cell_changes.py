"""A notebook checkpoint's change told by cell: which cells were added, removed, moved,
had their source edited or their type, tags or outputs set.

Computed once, when the checkpoint is made (it keeps a diff, not the texts), in the shape
of a cell suggestion on the REST API (``part``, ``change``, ``cell``, the changed lines
with their context), so the review panel describes a checkpoint's cells as it describes a
pending suggestion's. Kept small: at most ``MAX_CELLS`` cells (``more`` counts the rest),
each text cut at ``MAX_CHARS``.
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from ..trim import common_ends

MAX_CELLS = 20
MAX_CHARS = 4_000
CONTEXT = 2  # lines shown around a source edit
TYPES = ("code", "markdown", "raw")


def _cells(text: str) -> list[dict[str, Any]] | None:
    try:
        nb = json.loads(text) if text.strip() else {"cells": []}
    except ValueError:
        return None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) and c.get("cell_type") in TYPES for c in cells):
        return None
    # An older notebook's cells have no id until the first write: the id its reads used.
    return [{**c, "id": c.get("id") or f"cell-{i}"} for i, c in enumerate(cells)]


def _text(value: Any) -> str:
    return "".join(map(str, value)) if isinstance(value, list) else str(value or "")


def _cut(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    end = text.rfind("\n", 0, MAX_CHARS)
    return text[: end + 1 if end > 0 else MAX_CHARS]


def _tags(cell: dict[str, Any]) -> list[str]:
    tags = (cell.get("metadata") or {}).get("tags")
    return [str(t) for t in tags] if isinstance(tags, list) else []


def _outputs(cell: dict[str, Any]) -> int:
    outputs = cell.get("outputs")
    return len(outputs) if isinstance(outputs, list) else 0


def _cell(cell: dict[str, Any], index: int) -> dict[str, Any]:
    """The cell as the change found it (a suggestion's ``cell``)."""
    return {"index": index, "cellType": cell.get("cell_type"), "outputCount": _outputs(cell), "tags": _tags(cell)}


def _entry(part: str, change: dict[str, Any] | None, cell: dict[str, Any] | None, **text: Any) -> dict[str, Any]:
    base = {"original": "", "new": "", "lineStart": 1, "lineEnd": 1, "contextBefore": "", "contextAfter": ""}
    return {"part": part, "change": change, "cell": cell, **base, **text}


def _source_edit(old: str, new: str) -> dict[str, Any]:
    """The changed lines of a cell's source, with ``CONTEXT`` lines around them."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head, tail = common_ends(a, b)
    changed = a[head : len(a) - tail]
    return {
        "original": _cut("".join(changed)),
        "new": _cut("".join(b[head : len(b) - tail])),
        "lineStart": head + 1,
        "lineEnd": head + max(1, len(changed)),
        "contextBefore": "".join(a[max(0, head - CONTEXT) : head]),
        "contextAfter": "".join(a[len(a) - tail : len(a) - tail + CONTEXT]),
    }


def _in_order(positions: list[int]) -> set[int]:
    """The indexes of a longest increasing run of ``positions`` (the cells that kept their
    order; the others moved)."""
    tails: list[int] = []  # positions[tail_index[k]] is the smallest tail of a run of k + 1
    tail_index: list[int] = []
    previous = [-1] * len(positions)
    for i, p in enumerate(positions):
        k = bisect.bisect_left(tails, p)
        previous[i] = tail_index[k - 1] if k else -1
        if k == len(tails):
            tails.append(p)
            tail_index.append(i)
        else:
            tails[k], tail_index[k] = p, i
    kept, i = set(), tail_index[-1] if tail_index else -1
    while i >= 0:
        kept.add(i)
        i = previous[i]
    return kept


def _joined(value: Any) -> Any:
    """``value`` with every list of strings joined: a text as JSON stores it (lines) and as
    a parsed notebook holds it (one string) compare equal."""
    if isinstance(value, list):
        return "".join(value) if all(isinstance(v, str) for v in value) else [_joined(v) for v in value]
    if isinstance(value, dict):
        return {k: _joined(v) for k, v in value.items()}
    return value


def _same_outputs(old: Any, new: Any) -> bool:
    return bool(old == new or _joined(old) == _joined(new))


def _set_fields(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if old.get("cell_type") != new.get("cell_type"):
        fields["cell_type"] = new.get("cell_type")
    if (old.get("metadata") or {}) != (new.get("metadata") or {}):
        fields["metadata"] = {"tags": _tags(new)}  # what a reviewer reads of it
    ran = old.get("execution_count") != new.get("execution_count")
    if ran or not _same_outputs(old.get("outputs"), new.get("outputs")):
        fields["outputCount"] = _outputs(new)
        fields["execution_count"] = new.get("execution_count")
    return fields


def cell_changes(before: str, after: str, parsed: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """``{changes, more}``: the cells ``before`` → ``after`` changed, in notebook order;
    None when either is not a notebook's JSON. ``parsed``: ``before``'s cells when they
    were parsed already (parsing a notebook is most of the cost)."""
    old, new = parsed if parsed is not None else _cells(before), _cells(after)
    if old is None or new is None:
        return None
    old_at = {c["id"]: i for i, c in enumerate(old)}
    new_at = {c["id"]: i for i, c in enumerate(new)}
    kept = [c["id"] for c in old if c["id"] in new_at]
    in_order = {kept[i] for i in _in_order([new_at[k] for k in kept])}
    found: list[tuple[float, dict[str, Any]]] = []
    for i, c in enumerate(new):
        cid, after_id = c["id"], new[i - 1]["id"] if i else None
        if cid not in old_at:
            fields = {
                "cell_type": c.get("cell_type"),
                "source": _cut(_text(c.get("source"))),
                "outputCount": _outputs(c),
            }
            change = {"op": "insert", "after": after_id, "index": i, "fields": fields}
            found.append((i, _entry(cid, change, None, new=fields["source"])))
            continue
        was = old[old_at[cid]]
        cell = _cell(was, old_at[cid])
        if cid not in in_order:
            found.append((i, _entry(cid, {"op": "move", "after": after_id, "index": i, "fields": {}}, cell)))
        src_old, src_new = _text(was.get("source")), _text(c.get("source"))
        if src_old != src_new:
            found.append((i, _entry(cid, None, cell, **_source_edit(src_old, src_new))))
        fields = _set_fields(was, c)
        if fields:
            found.append((i, _entry(cid, {"op": "set", "after": None, "index": i, "fields": fields}, cell)))
    for j, c in enumerate(old):
        if c["id"] in new_at:
            continue
        following = next((new_at[o["id"]] for o in old[j + 1 :] if o["id"] in new_at), len(new))
        change = {"op": "delete", "after": None, "index": j, "fields": {}}
        found.append((following - 0.5, _entry(c["id"], change, _cell(c, j), original=_cut(_text(c.get("source"))))))
    found.sort(key=lambda f: f[0])  # stable: a cell's move, source and fields stay in that order
    changes = [f[1] for f in found]
    return {"changes": changes[:MAX_CELLS], "more": max(0, len(changes) - MAX_CELLS)}
