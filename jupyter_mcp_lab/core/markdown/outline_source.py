"""A markdown document as a ``RowSource`` (``core.content.rows``): the outline operations
plan row edits on it as on an OPML file, and each edit is made as a splice of the markdown
(``outline_edits``), so what is staged is an ordinary markdown change.

Markdown rows have no stored ids (``outline_rows``: ids come from topics), so the ids an
operation gives the rows it inserts, and the ids of rows an edit renames (a row's topic
changed: its children's ids change too), are kept as ``aliases``: every later edit of the
same plan, and the caller afterwards, find those rows by the ids the plan knows them by.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..content.outline import Row
from ..content.outline_tree import OutlineTree
from ..content.part_edits import PartEdit
from ..errors import ArgumentError
from ..kinds import DocumentKind
from ..text import apply_edits
from .outline_edits import row_edit
from .outline_rows import MarkdownOutline, markdown_outline


def _planned_ids(edit: PartEdit) -> list[str]:
    """An insert's row ids in document order (the row, then its children depth first)."""
    out = [edit.part]
    stack = list(reversed(edit.fields.get("children") or []))
    while stack:
        child = stack.pop()
        out.append(str(child.get("id")))
        stack.extend(reversed(child.get("children") or []))
    return out


@dataclass(frozen=True)
class MarkdownRows:
    outline: MarkdownOutline
    aliases: Mapping[str, str] = field(default_factory=dict)
    kind: DocumentKind = "markdown"

    @classmethod
    def parse(cls, text: str) -> MarkdownRows:
        return cls(markdown_outline(text))

    @property
    def rows(self) -> tuple[Row, ...]:
        return self.outline.rows

    def serialize(self) -> str:
        return self.outline.source

    def resolve(self, row_id: str | None) -> str | None:
        """The id row ``row_id`` (an id the plan knows) has now."""
        return None if row_id is None else self.aliases.get(row_id, row_id)

    def apply_edit(self, edit: PartEdit, base: Any = None) -> MarkdownRows:
        """This document with ``edit`` made (ArgumentError / NOT_FOUND when it cannot be)."""
        e = replace(edit, part=self.resolve(edit.part) or edit.part, after=self.resolve(edit.after))
        if "parent" in e.fields:
            e = replace(e, fields={**e.fields, "parent": self.resolve(e.fields["parent"])})
        if e.op == "text":
            row = OutlineTree(self.outline).row(e.part)
            if row.text[e.start : e.end] != e.original:
                raise ArgumentError("the topic changed since the edit was made", "topic")
            e = PartEdit(e.part, "set", fields={"topic": row.text[: e.start] + e.new + row.text[e.end :]})
        new = markdown_outline(apply_edits(self.outline.source, row_edit(self.outline, e)))
        return MarkdownRows(new, self._follow(new, e, edit))

    def _follow(self, new: MarkdownOutline, e: PartEdit, planned: PartEdit) -> dict[str, str]:
        """The aliases once ``e`` made ``new``: every id the plan knows, to the row's id now."""
        old, now = self.outline.rows, new.rows
        p, s = 0, 0
        while p < min(len(old), len(now)) and (old[p].text, old[p].level) == (now[p].text, now[p].level):
            p += 1
        while s < min(len(old), len(now)) - p and (old[-1 - s].text, old[-1 - s].level) == (
            now[-1 - s].text,
            now[-1 - s].level,
        ):
            s += 1
        where = {i: i for i in range(p)} | {len(old) - 1 - k: len(now) - 1 - k for k in range(s)}
        made: dict[str, str] = {}
        middle_old, middle_new = list(range(p, len(old) - s)), list(range(p, len(now) - s))
        if e.op == "set" and len(old) == len(now):
            where = {i: i for i in range(len(old))}
        elif e.op == "insert":
            made = dict(zip(_planned_ids(planned), (now[k].id for k in middle_new), strict=False))
        elif e.op == "move" and len(middle_old) == len(middle_new):
            first = self.outline.index(e.part)
            assert first is not None
            size = sum(1 for _ in OutlineTree(self.outline).walk(e.part))
            texts = [r.text for r in old[first : first + size]]
            at = next((j for j in middle_new if [r.text for r in now[j : j + size]] == texts), None)
            if at is not None:
                where |= {first + n: at + n for n in range(size)}
                rest_old = [i for i in middle_old if not first <= i < first + size]
                rest_new = [j for j in middle_new if not at <= j < at + size]
                where |= dict(zip(rest_old, rest_new, strict=False))
        aliases: dict[str, str] = {}
        for known, current in self.aliases.items():
            k = self.outline.index(current)
            if k is not None and k in where:
                aliases[known] = now[where[k]].id
        for i, r in enumerate(old):
            if i in where and now[where[i]].id != r.id:
                aliases[r.id] = now[where[i]].id
        return aliases | made
