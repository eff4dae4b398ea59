"""What a document that reads as an outline offers: rows, and row edits as part edits.

An OPML file (``OutlineContent``) is one such source; the outline view of a markdown file
(headings and list items as rows) can be another. ``OutlineTree`` reads any ``RowSource``;
the outline operations change one with ``PartEdit``s on rows, applied by
``apply_edit(edit, base)`` like a notebook cell's (None: a conflict), so staging,
suggestions, mapping through later edits and accepting are the ones every part uses.

Row edits (``part`` is the row's id):
- insert: ``part`` is the new row's id; ``after`` the sibling it follows (None: first under
  its parent), ``index`` its place among its siblings when that one is gone; ``fields``
  ``{"parent": id | None, "topic", "note"?, "state"?, "children": [row, …]}``, each child
  ``{"id", "topic", "note"?, "state"?, "children"?}`` (ids chosen by the operation);
- delete (with its subtree); ``fields`` ``{"topic"}`` says which row it was (not used);
- move (with its subtree) under ``fields["parent"]`` after ``after`` (else at ``index``);
  into its own subtree is a conflict; ``fields["topic"]`` as for delete;
- set: ``fields`` any of ``topic``, ``note`` ("" or None: none), ``state``
  (checked | unchecked | mixed | none);
- text: a range of the row's topic (``start``/``end``/``original``/``new``).
A change conflicts when its row is gone or a person changed what it changes since: a field
it sets; a deleted row's topic, note or checkbox; a moved row's parent (a text change is
mapped through changes to its topic instead).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..kinds import DocumentKind
from .base import DocumentContent
from .outline import Row
from .part_edits import PartEdit

# A row's state as OPML stores it (OmniOutliner's _status); none: no checkbox (no attribute).
STATUS_VALUES: dict[str, str | None] = {
    "checked": "checked",
    "unchecked": "unchecked",
    "mixed": "indeterminate",
    "none": None,
}


class RowSource(Protocol):
    """A document as a tree of rows in document order (pre-order), editable by row id."""

    @property
    def kind(self) -> DocumentKind: ...

    @property
    def rows(self) -> tuple[Row, ...]: ...

    def serialize(self) -> str: ...

    def apply_edit(self, edit: PartEdit, base: DocumentContent) -> RowSource | None: ...


def new_row_ids(row_id: str, fields: dict[str, Any]) -> list[str]:
    """The ids an insert creates: its row's and every nested child's."""
    out = [row_id]
    stack = list(fields.get("children") or [])
    while stack:
        child = stack.pop()
        out.append(str(child.get("id")))
        stack.extend(child.get("children") or [])
    return out
