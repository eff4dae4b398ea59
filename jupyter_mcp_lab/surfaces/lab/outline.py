"""The lab profile's ``outline`` tool: an outline's rows read and changed by row id."""

from __future__ import annotations

from ...ops.outline import edit, read
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

OUTLINE = CompositeTool(
    name="outline",
    title="Outline rows",
    description=(
        "Outlines (.opml; .md headings and list items) as rows {id, topic, note, state, level, parentId, "
        "childIds}; ids are stable. "
        "edit: each change a suggestion on its rows under 'suggest'; rows move and go with their subtree."
    ),
    actions={"read": read.read, "edit": edit.edit},
    hidden=BY_PATH_OR_TAB,
    describe={
        "view": "section: a subtree as rows or text, paged.",
        "row": "A row id.",
        "maxDepth": "tree: levels below (0: top only).",
        "notes": "",
        "children": "row: with its children.",
        "query": "",
        "searchIn": "",
        "maxResults": "",
        "format": "",
        "start": "section: nextStart.",
        "limit": "",
        "parent": "Default: top level.",
        "position": "",
        "sibling": "Next to this row instead.",
        "relative": "",
        "note": "'' removes it.",
        "state": "none: no box; rows below follow.",
        "content": "insert: rows {topic, note?, state?, children?}, or indented lines / a markdown list.",
    },
)
