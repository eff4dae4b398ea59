"""Reading an outline's rows from a kernel, as the person (the REST API).

``GET outline?path=`` answers an OPML file's rows as the outline tools read them (the ids
suggestions name in ``part``, checkbox states with mixed derived from the children). A server
whose answer has no ``rows`` yet is read through Jupyter's contents API and parsed here with
the server's own outline model (the same package), so the ids are the same either way.
"""

from __future__ import annotations

from typing import Any


def read_rows(lab: Any, path: str) -> dict[str, Any]:
    """``{path, revision, rows: [{id, topic, note, state, level, parent, children}]}``."""
    answer = lab.review.outline(path)
    if isinstance(answer.get("rows"), list) and (answer["rows"] or answer.get("kind") != "outline"):
        if answer.get("kind") != "outline":
            raise ValueError(f"{path} is not an outline (it reads as {answer.get('kind')})")
        return {"path": answer.get("path", path), "revision": answer.get("revision", ""), "rows": answer["rows"]}
    if answer.get("kind") != "outline":
        raise ValueError(f"{path} is not an outline (it reads as {answer.get('kind')})")
    return {"path": path, "revision": answer.get("revision", ""), "rows": parse_rows(lab.review.text(path))}


def parse_rows(text: str) -> list[dict[str, Any]]:
    """An OPML text's rows, as ``GET outline`` gives them."""
    from jupyter_mcp_lab.core.content import OutlineContent
    from jupyter_mcp_lab.core.content.outline_tree import OutlineTree

    tree = OutlineTree(OutlineContent.parse("outline", text))
    return [
        {
            "id": r.id,
            "topic": r.text,
            "note": r.note,
            "state": tree.state(r.id),
            "level": r.level,
            "parent": r.parent,
            "children": list(r.children),
        }
        for r in tree.content.rows
    ]
