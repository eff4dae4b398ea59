"""Changes to one part of a structured document, as a suggestion holds them.

A notebook is cells and an outline rows: an agent's change names a part by id and is either
a text change inside that part (``start``/``end``/``original``/``new`` in its text) or a
structural one (insert, delete, move, set fields), kept as JSON beside the suggestion. A
content model that has parts applies both (``apply_edit``), given the content the change
was made against, and answers None when the part changed since in a way the change cannot
follow (a conflict): a text change is mapped through later edits of its part; a structural
change refuses a part whose source, type or metadata a person changed meanwhile.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..errors import DomainError
from .base import DocumentContent

EditOp = Literal["text", "insert", "delete", "move", "set"]
EDIT_OPS: tuple[str, ...] = ("text", "insert", "delete", "move", "set")


@dataclass(frozen=True)
class PartEdit:
    """One change to part ``part``.

    text: its ``[start, end)`` (== ``original``) becomes ``new``;
    insert: ``fields`` is the new part as stored (a cell dict), placed after part ``after``
    (None: first), else at ``index`` when that part is gone;
    delete; move: placed after ``after`` (else at ``index``);
    set: ``fields`` are set on the part (a cell's ``cell_type``, ``metadata``, ``outputs``).
    """

    part: str
    op: EditOp = "text"
    start: int = 0
    end: int = 0
    original: str = ""
    new: str = ""
    after: str | None = None
    index: int = 0
    fields: dict[str, Any] = field(default_factory=dict)

    def change_json(self) -> str | None:
        """What a suggestion stores in its ``change`` column (None for a text change)."""
        if self.op == "text":
            return None
        return json.dumps(
            {"op": self.op, "after": self.after, "index": self.index, "fields": self.fields},
            ensure_ascii=False,
            sort_keys=True,
        )

    @classmethod
    def from_record(
        cls, part: str, change: str | None, start: int = 0, end: int = 0, original: str = "", new: str = ""
    ) -> PartEdit:
        """The edit a suggestion's ``part``, ``change`` and range columns describe."""
        if change is None:
            return cls(part, "text", start, end, original, new)
        data = json.loads(change)
        if data.get("op") not in EDIT_OPS:
            raise DomainError("INTERNAL", f"unknown part change {data.get('op')!r}")
        return cls(
            part,
            data["op"],
            start,
            end,
            original,
            new,
            after=data.get("after"),
            index=int(data.get("index", 0)),
            fields=dict(data.get("fields") or {}),
        )


class PartEditable(Protocol):
    """A content model whose parts can be inserted, deleted, moved and edited."""

    def apply_edit(self, edit: PartEdit, base: DocumentContent) -> DocumentContent | None:
        """This content with ``edit`` (made against ``base``) applied; None: a conflict."""
        ...


def apply_edits(
    base: dict[str, DocumentContent], current: DocumentContent, edits: list[tuple[str, PartEdit]]
) -> tuple[DocumentContent, list[int], list[int]]:
    """Apply ``edits`` (each with the revision it was made against, a key of ``base``) to
    ``current`` in order; returns the result, the indexes applied and those in conflict."""
    applied: list[int] = []
    conflicts: list[int] = []
    content = current
    for i, (revision, edit) in enumerate(edits):
        then = base.get(revision)
        apply = getattr(content, "apply_edit", None)
        out = None if then is None or apply is None else apply(edit, then)
        if out is None:
            conflicts.append(i)
        else:
            content = out
            applied.append(i)
    return content, applied, conflicts
