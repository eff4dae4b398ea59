"""Reading an outline's rows from a kernel.

``GET outline?path=`` (the REST API, as the person) answers an OPML file's rows as the outline
tools read them: the ids suggestions name in ``part``, checkbox states with mixed derived from
the children, in document order. A markdown document's outline view (headings and list items
as rows) comes from the lab profile's ``outline`` tool instead, a section page at a time; an
agent's changes to it are text suggestions (markdown splices), which the review cards show.
"""

from __future__ import annotations

from typing import Any

PAGE_ROWS = 5000  # the outline tool's largest section page


def read_rows(lab: Any, path: str) -> dict[str, Any]:
    """``{path, revision, rows: [{id, topic, note, state, level, parent, children}]}``; a
    file that is not an outline is a ``ValueError`` saying what it reads as."""
    answer = lab.review.outline(path)
    kind = answer.get("kind")
    if kind == "markdown":
        return _markdown_rows(lab, answer.get("path", path))
    if kind != "outline":
        raise ValueError(f"{path} is not an outline (it reads as {kind})")
    return {"path": answer.get("path", path), "revision": answer.get("revision", ""), "rows": answer.get("rows") or []}


def _markdown_rows(lab: Any, path: str) -> dict[str, Any]:
    """A markdown document's rows through the ``outline`` tool, page by page."""
    rows: list[dict[str, Any]] = []
    start: int | None = 0
    revision = ""
    while start is not None:
        page = lab.call(
            "outline", action="read", path=path, view="section", start=start, limit=PAGE_ROWS, progress=False
        )
        revision = page.get("revision", revision)
        rows += [
            {
                "id": r["id"],
                "topic": r.get("topic", ""),
                "note": r.get("note"),
                "state": r.get("state", "none"),
                "level": r.get("level", 0),
                "parent": r.get("parentId"),
                "children": list(r.get("childIds") or []),
            }
            for r in page.get("rows") or []
        ]
        start = page.get("nextStart")
    return {"path": path, "revision": revision, "rows": rows}
