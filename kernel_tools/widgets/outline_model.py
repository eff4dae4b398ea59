"""The outline tree widget's model, as pure functions: rows + pending suggestions → tree nodes.

Rows are an outline's as the server reads them (``GET outline?path=`` for OPML: ``{id, topic,
note, state, level, parent, children}`` in document order). A suggestion on a row names it in
``part``; a text change is in the row's topic (``original`` → ``new``), a structural one has
the REST API's ``change`` summary (``op`` insert / delete / move / set, ``after``: the sibling
it goes after, ``index``, ``fields``: ``topic``, ``parent`` (insert, move), ``note``, ``state``
and nested ``children`` (insert), ``note`` / ``state`` (set; ``topic`` is the row's, changed
when ``original`` and ``new`` differ); ``core/content/rows.py`` on the server). The tree shows each row
with its pending changes (added rows in place, in the suggested position), the review cards
say what happens to a row in words (:func:`describe`), and search is here too, so all of it
is tested without a browser.
"""

from __future__ import annotations

from typing import Any

from .review_model import compact, word_diff

Row = dict[str, Any]
# Field names an outline change may use for a row's parts (the OPML attributes and the tools').
TOPIC, NOTE, STATE = ("topic", "text"), ("note", "_note"), ("state", "status", "_status")
MOVED_HERE = "→"  # a moved row's ghost where it would go has its id after this
STATUS_OF_OP = {"insert": "added", "delete": "deleted", "move": "moved", "set": "changed", "text": "changed"}


def _get(fields: dict[str, Any], names: tuple[str, ...]) -> Any:
    return next((fields[n] for n in names if n in fields), None)


def _has(fields: dict[str, Any], names: tuple[str, ...]) -> bool:
    return any(n in fields for n in names)


def row_index(rows: list[Row]) -> dict[str, Row]:
    """Rows by id with their position in document order (what the review cards name and sort rows by)."""
    return {r["id"]: {**r, "order": i} for i, r in enumerate(rows)}


def _name(row_id: str | None, rows: dict[str, Row], topic: Any = None) -> str:
    row = rows.get(row_id or "")
    if row:
        return f"«{row['topic']}»"
    return f"«{topic}»" if topic else f"row {row_id}"


def _topic_changes(suggestion: dict[str, Any], fields: dict[str, Any], row: Row | None) -> bool:
    """A set changes the topic when its text differs (the REST shape carries the row's topic
    in ``fields`` either way, and ``original`` → ``new`` for the topic)."""
    if suggestion.get("original") or suggestion.get("new"):
        return suggestion.get("original") != suggestion.get("new")
    return _has(fields, TOPIC) and (row is None or _get(fields, TOPIC) != row.get("topic"))


def _count_rows(children: Any) -> int:
    """Rows in nested ``children`` (an insert's), all levels."""
    n, stack = 0, list(children or [])
    while stack:
        child = stack.pop()
        n += 1
        stack.extend(child.get("children") or [])
    return n


def _where(change: dict[str, Any], rows: dict[str, Row], top: str = "at the top") -> str:
    """Where a row goes: after a sibling, first under a parent, or first of all."""
    fields = change.get("fields") or {}
    if change.get("after"):
        return f"after {_name(change['after'], rows)}"
    parent = fields.get("parent")
    return f"first under {_name(parent, rows)}" if parent else top


def changes(suggestion: dict[str, Any], rows: dict[str, Row]) -> list[str]:
    """What one suggestion does to its row, in words."""
    change = suggestion.get("change")
    row = rows.get(str(suggestion.get("part")))
    if change is None:
        return [f"topic → «{suggestion.get('new', '')}»"]
    op, fields = change.get("op"), dict(change.get("fields") or {})
    if op == "insert":
        below = _count_rows(fields.get("children"))
        return [f"row added {_where(change, rows)}"] + ([f"with {_rows(below)} below"] if below else [])
    if op == "delete":
        below = len(row.get("children") or []) if row else 0
        return ["row removed" + (f" with its {_rows(below, 'child row')}" if below else "")]
    if op == "move":
        return [f"moved {_where(change, rows, 'to the top')}"]
    out = []
    if _topic_changes(suggestion, fields, row):
        out.append(f"topic → «{suggestion.get('new') or _get(fields, TOPIC)}»")
    if _has(fields, NOTE):
        note = _get(fields, NOTE)
        had = bool(row and row.get("note"))
        out.append("note removed" if not note else ("note changed" if had else "note added"))
    if _has(fields, STATE):
        state = _get(fields, STATE) or "none"
        out.append("checkbox removed" if state == "none" else state)
    return out or ["row changed"]


def _rows(n: int, word: str = "row") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe(suggestion: dict[str, Any], rows: dict[str, Row] | None = None) -> dict[str, Any]:
    """A review card's ``part`` for a row: ``{id, kind: "row", op, label, changes}``."""
    rows = rows or {}
    row_id = str(suggestion["part"])
    change = suggestion.get("change")
    op = change.get("op", "set") if change else "text"
    topic = _get((change or {}).get("fields") or {}, TOPIC) if op == "insert" else None
    fields = (change or {}).get("fields") or {}
    label = (
        f"new row «{topic or suggestion.get('new', '')}»"
        if op == "insert"
        else _name(row_id, rows, fields.get("topic"))
    )
    out = {"id": row_id, "kind": "row", "op": op, "label": label, "changes": changes(suggestion, rows)}
    # Where the card sorts: the row's position (a new row's: just after the row it follows).
    at = rows.get(str((change or {}).get("after")) if op == "insert" else row_id)
    return out if at is None else {**out, "order": at["order"]}


def shows_text(suggestion: dict[str, Any]) -> bool:
    """Only a topic's change has a word diff worth showing on a row's card."""
    change = suggestion.get("change")
    if change is None:
        return True
    return (
        change.get("op") == "set"
        and bool(suggestion.get("original") or suggestion.get("new"))
        and (suggestion.get("original") != suggestion.get("new"))
    )


def mark(suggestion: dict[str, Any], rows: dict[str, Row]) -> dict[str, Any]:
    """One pending suggestion as the tree shows it on its row."""
    change = suggestion.get("change")
    op = change.get("op", "set") if change else "text"
    out = {
        "id": suggestion["id"],
        "op": op,
        "status": STATUS_OF_OP.get(op, "changed"),
        "author": suggestion.get("author") or "an agent",
        "rationale": suggestion.get("rationale") or "",
        "changes": changes(suggestion, rows),
    }
    if shows_text(suggestion):
        out["diff"] = compact(word_diff(suggestion.get("original") or "", suggestion.get("new") or ""))
    return out


def _node(row: Row, level: int) -> dict[str, Any]:
    return {
        "id": row["id"],
        "topic": row.get("topic", ""),
        "note": row.get("note") or "",
        "state": row.get("state") or "none",
        "level": level,
        "parent": row.get("parent"),
        "children": list(row.get("children") or []),
        "marks": [],
        "status": None,
    }


def tree(rows: list[Row], suggestions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nodes to draw, in document order: each row with the pending suggestions on it
    (``marks``; ``status`` added / changed / moved / deleted from the first), and each row a
    suggestion adds, where it would go (after its ``after`` row's subtree, else first under
    its parent, else first of all), its ``children`` listed in its parent's. A moved row also
    shows where it would go: a ``moved-here`` node (id ``→<row id>``, ``by`` the suggestion)."""
    index = row_index(rows)
    nodes = [_node(r, int(r.get("level") or 0)) for r in rows]
    by_id = {n["id"]: n for n in nodes}
    added: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for s in suggestions:
        if s.get("status", "pending") != "pending" or not s.get("part"):
            continue
        change = s.get("change") or {}
        if change.get("op") == "insert" or (change.get("op") == "move" and s["part"] in by_id):
            added.append((s, change))
        if change.get("op") != "insert" and s["part"] in by_id:
            by_id[s["part"]]["marks"].append(mark(s, index))
    for s, change in sorted(added, key=lambda x: float(x[0].get("created") or 0)):
        fields = change.get("fields") or {}
        after, parent = change.get("after"), fields.get("parent")
        if after in by_id:
            parent = by_id[after]["parent"]
        level = by_id[parent]["level"] + 1 if parent in by_id else 0
        if change.get("op") == "move":
            # Where a moved row would go: a ghost of it (decided on the row itself, ``by``).
            moved = by_id[s["part"]]
            row = {**moved, "id": f"{MOVED_HERE}{s['part']}", "parent": parent}
            node = {**_node(row, level), "children": [], "status": "moved-here", "by": s["id"]}
        else:
            row = {"id": s["part"], "topic": _get(fields, TOPIC) or s.get("new") or "", "parent": parent}
            row.update(note=_get(fields, NOTE), state=_get(fields, STATE))
            node = {**_node(row, level), "status": "added", "marks": [mark(s, index)]}
        at = _position(nodes, by_id, after, parent)
        below = _nested(fields.get("children"), node, s["id"]) if change.get("op") == "insert" else []
        nodes[at:at] = [node, *below]
        by_id.update((n["id"], n) for n in [node, *below])
        if parent in by_id:
            siblings = by_id[parent]["children"]
            siblings.insert(siblings.index(after) + 1 if after in siblings else 0, node["id"])
    for n in nodes:
        if n["marks"] and n["status"] is None:
            n["status"] = n["marks"][0]["status"]
    return nodes


def _nested(children: Any, parent: dict[str, Any], sid: str) -> list[dict[str, Any]]:
    """An insert's nested rows as added nodes in document order (decided with it: ``by``)."""
    out: list[dict[str, Any]] = []
    stack = [(c, parent) for c in reversed(list(children or []))]
    while stack:
        child, above = stack.pop()
        row = {
            "id": str(child.get("id") or f"{sid}-{len(out)}"),
            "topic": child.get("topic") or "",
            "parent": above["id"],
        }
        row.update(note=child.get("note"), state=child.get("state"))
        node = {**_node(row, above["level"] + 1), "status": "added", "by": sid}
        above["children"].append(node["id"])
        out.append(node)
        stack.extend((c, node) for c in reversed(list(child.get("children") or [])))
    return out


def _position(nodes: list[dict[str, Any]], by_id: dict[str, Any], after: str | None, parent: str | None) -> int:
    """Where a new row goes in the document-order list of nodes."""
    ids = [n["id"] for n in nodes]
    if after in by_id:
        at = ids.index(after)
        level = nodes[at]["level"]
        at += 1
        while at < len(nodes) and nodes[at]["level"] > level:
            at += 1  # past the subtree of the row it goes after
        return at
    return ids.index(parent) + 1 if parent in by_id else 0


def search(nodes: list[dict[str, Any]], query: str) -> dict[str, Any]:
    """Rows whose topic or note holds ``query`` (case-insensitive) and their ancestors (the
    rows to show so each match is reachable): ``{matches: [ids], shown: [ids]}``."""
    q = query.strip().casefold()
    if not q:
        return {"matches": [], "shown": []}
    by_id = {n["id"]: n for n in nodes}
    matches = [n["id"] for n in nodes if q in n["topic"].casefold() or q in n["note"].casefold()]
    shown: set[str] = set()
    for m in matches:
        at: str | None = m
        while at is not None and at not in shown:
            shown.add(at)
            at = by_id[at]["parent"] if at in by_id else None
    return {"matches": matches, "shown": [n["id"] for n in nodes if n["id"] in shown]}


def counts(nodes: list[dict[str, Any]]) -> dict[str, int]:
    """The header's numbers: rows, pending suggestions, rows per status."""
    out = {"rows": sum(1 for n in nodes if n["status"] not in ("added", "moved-here")), "pending": 0}
    for n in nodes:
        out["pending"] += len(n["marks"])
        if n["status"] and n["status"] != "moved-here":
            out[n["status"]] = out.get(n["status"], 0) + 1
    return out
