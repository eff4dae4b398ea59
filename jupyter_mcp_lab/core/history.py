"""Undo and redo for one document, as compact change records (not whole copies)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import DomainError
from .trim import common_ends


@dataclass(frozen=True)
class Change:
    """``before[start:start+len(old)] == old`` became ``new`` at the same place."""

    start: int
    old: str
    new: str
    label: str = ""


def change_between(before: str, after: str, label: str = "") -> Change:
    """The one region that differs (common prefix and suffix trimmed)."""
    p, s = common_ends(before, after)
    return Change(p, before[p : len(before) - s], after[p : len(after) - s], label)


class History:
    def __init__(self, limit: int = 200) -> None:
        self.undo_stack: list[Change] = []
        self.redo_stack: list[Change] = []
        self.limit = limit

    def record(self, before: str, after: str, label: str = "") -> Change | None:
        if before == after:
            return None
        change = change_between(before, after, label)
        self.undo_stack.append(change)
        del self.undo_stack[: -self.limit]
        self.redo_stack.clear()
        return change

    def peek_undo(self, text: str) -> str:
        """What ``undo`` would make of ``text``, without moving anything between the stacks."""
        if not self.undo_stack:
            raise DomainError("NOT_FOUND", "nothing to undo")
        c = self.undo_stack[-1]
        if text[c.start : c.start + len(c.new)] != c.new:
            raise DomainError("CONFLICT", "the document changed outside the editor since that edit; cannot undo it")
        return text[: c.start] + c.old + text[c.start + len(c.new) :]

    def peek_redo(self, text: str) -> str:
        if not self.redo_stack:
            raise DomainError("NOT_FOUND", "nothing to redo")
        c = self.redo_stack[-1]
        if text[c.start : c.start + len(c.old)] != c.old:
            raise DomainError("CONFLICT", "the document changed since the undo; cannot redo")
        return text[: c.start] + c.new + text[c.start + len(c.old) :]

    def undo(self, text: str) -> str:
        after = self.peek_undo(text)
        self.redo_stack.append(self.undo_stack.pop())
        return after

    def redo(self, text: str) -> str:
        after = self.peek_redo(text)
        self.undo_stack.append(self.redo_stack.pop())
        return after
