"""Where a change made on one part is now: the part by id, then the range within it.

A suggestion on a notebook cell records the cell id and offsets into that cell's source.
Cells inserted, deleted or moved elsewhere do not touch it; edits inside the same cell are
mapped as a text's are (``suggestions.mapping.map_range``), so a person's edit over the
suggested range makes it a conflict. A deleted part is a conflict too.
"""

from __future__ import annotations

from ..errors import DomainError
from ..suggestions.mapping import map_range
from .base import DocumentContent


def locate(
    base: DocumentContent, current: DocumentContent, part_id: str, start: int, end: int, original: str
) -> tuple[int, int] | None:
    """Where ``base``'s ``part_id``[start:end] (== ``original``) is in ``current``'s same part;
    None when that part is gone or the range was changed (a conflict)."""
    try:
        then = base.part(part_id).text
        now = current.part(part_id).text
    except DomainError as exc:
        if exc.code == "NOT_FOUND":
            return None
        raise
    return map_range(then, now, start, end, original)
