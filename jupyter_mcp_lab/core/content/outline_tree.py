"""Reading an outline as a tree: rows by id, derived checkbox states, walks, search, text.

Works on rows in document order, which is the tree's pre-order: an OPML file's
(``OutlineContent``) or a markdown document's (``core.markdown.outline_rows``). Every walk
is iterative: outlines can nest deeper than Python's stack.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

from ..errors import DomainError
from ..markdown.outline_topics import topic_source
from .outline import Row, State

SearchIn = Literal["all", "topics", "notes"]
CONTEXT = 40  # characters of a match's context on each side


@dataclass(frozen=True)
class Match:
    row: Row
    field: Literal["topic", "note"]
    context: str


class HasRows(Protocol):
    """An outline's rows in document order (OPML's ``OutlineContent``, markdown's ``MarkdownOutline``)."""

    @property
    def rows(self) -> tuple[Row, ...]: ...


class OutlineTree:
    def __init__(self, content: HasRows) -> None:
        self.content = content
        self.rows = content.rows
        self.by_id = {r.id: r for r in self.rows}
        self.top = tuple(r.id for r in self.rows if r.parent is None)
        self._order = {r.id: i for i, r in enumerate(self.rows)}
        self._states = self._derive_states()

    def _derive_states(self) -> dict[str, State]:
        states: dict[str, State] = {}
        for row in reversed(self.rows):  # children before their parents
            own = row.status
            below = [states[c] for c in row.children if states[c] != "none"]
            if own == "none" or not below:
                states[row.id] = own
            elif all(s == "checked" for s in below):
                states[row.id] = "checked"
            elif all(s == "unchecked" for s in below):
                states[row.id] = "unchecked"
            else:
                states[row.id] = "mixed"
        return states

    def state(self, row_id: str) -> State:
        return self._states[row_id]

    def row(self, row_id: str) -> Row:
        found = self.by_id.get(row_id)
        if found is None:
            raise DomainError("NOT_FOUND", f"this outline has no row {row_id!r}", row=row_id)
        return found

    def children(self, row_id: str | None) -> list[Row]:
        ids = self.row(row_id).children if row_id is not None else self.top
        return [self.by_id[i] for i in ids]

    def walk(self, row_id: str | None = None, max_depth: int | None = None) -> Iterator[Row]:
        """The rows below ``row_id`` (the row itself first) or the whole outline, in order,
        at most ``max_depth`` levels below the start (0: the start's level only)."""
        if row_id is None:
            start, base = 0, 0
            end = len(self.rows)
        else:
            root = self.row(row_id)
            start, base = self._order[row_id], root.level
            end = start + 1
            while end < len(self.rows) and self.rows[end].level > base:
                end += 1
        for r in self.rows[start:end]:
            if max_depth is None or r.level - base <= max_depth:
                yield r

    def descendants(self, row_id: str) -> int:
        return sum(1 for _ in self.walk(row_id)) - 1

    def search(self, query: str, where: SearchIn, case_sensitive: bool) -> list[Match]:
        needle = query if case_sensitive else query.casefold()
        found = []
        for r in self.rows:
            fields: list[tuple[Literal["topic", "note"], str]] = []
            if where in ("all", "topics"):
                fields.append(("topic", r.text))
            if where in ("all", "notes") and r.note:
                fields.append(("note", r.note))
            for name, value in fields:
                hay = value if case_sensitive else value.casefold()
                at = hay.find(needle)
                if at >= 0:
                    found.append(Match(r, name, _context(value, at, len(query))))
                    break
        return found


def _context(value: str, at: int, length: int) -> str:
    a, b = max(0, at - CONTEXT), min(len(value), at + length + CONTEXT)
    return ("…" if a else "") + value[a:b].replace("\n", " ") + ("…" if b < len(value) else "")


_BOX = {"checked": "[x] ", "unchecked": "[ ] ", "mixed": "[-] ", "none": ""}


def plain_lines(tree: OutlineTree, rows: list[Row], base: int) -> list[str]:
    """Rows as indented text (two spaces a level below ``base``), notes indented under them."""
    out = []
    for r in rows:
        pad = "  " * (r.level - base)
        out.append(pad + r.text)
        out += [f"{pad}  {line}" for line in (r.note or "").splitlines()]
    return out


def markdown_lines(tree: OutlineTree, rows: list[Row], base: int) -> list[str]:
    """Rows as a markdown list nested by level (task boxes for checkboxes), notes as quotes;
    a topic (plain text) escaped where it would read as markup."""
    out = []
    for r in rows:
        pad = "  " * (r.level - base)
        out.append(f"{pad}- {_BOX[tree.state(r.id)]}{topic_source(r.text, 'item')}")
        out += [f"{pad}  > {line}" for line in (r.note or "").splitlines()]
    return out
