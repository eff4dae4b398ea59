"""Reading an outline's rows from a kernel, as the person (the REST API).

``GET outline?path=`` answers an OPML file's rows as the outline tools read them: the ids
suggestions name in ``part``, checkbox states with mixed derived from the children, in
document order.
"""

from __future__ import annotations

from typing import Any


def read_rows(lab: Any, path: str) -> dict[str, Any]:
    """``{path, revision, rows: [{id, topic, note, state, level, parent, children}]}``; a
    file that is not an outline is a ``ValueError`` saying what it reads as."""
    answer = lab.review.outline(path)
    if answer.get("kind") != "outline":
        raise ValueError(f"{path} is not an outline (it reads as {answer.get('kind')})")
    return {"path": answer.get("path", path), "revision": answer.get("revision", ""), "rows": answer.get("rows") or []}
