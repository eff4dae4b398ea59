"""Addressing a markdown document by node: what a target names, which part of a node an
edit formats, and the ids blocks get once an insert has landed.

Node ids (h-0, p-3, table-0, …) are those of ``Structure``, valid for its revision.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .headings import ATX_OPEN
from .structure import Block, Structure, structure_of


@dataclass(frozen=True)
class Target:
    """Where a target (a node id, a section's id or title, or text) is; ``block`` is the block
    it is or is in (the section's heading for a section)."""

    target: str
    found: bool
    start: int | None = None
    end: int | None = None
    resolved_as: str | None = None  # "nodeId", "section" or "text"
    block: Block | None = None
    match_count: int | None = None  # for text: its occurrences (start/end: the first)


def resolve_target(s: Structure, target: str) -> Target:
    """A node id first, then a section (id or title), then the first occurrence of the text."""
    block = s.by_id.get(target)
    if block is not None:
        return Target(target, True, block.start, block.end, "nodeId", block)
    sec = s.section(target) if target.strip() else None
    if sec is not None and sec.heading is not None:
        return Target(target, True, sec.start, sec.end, "section", sec.heading)
    at = s.text.find(target) if target else -1
    if at >= 0:
        return Target(target, True, at, at + len(target), "text", s.block_at(at), s.text.count(target))
    return Target(target, False)


def node_range(s: Structure, block: Block, part: str | None, argument: str = "text") -> tuple[int, int]:
    """The range an edit of ``block`` formats: ``part`` (its first occurrence in the block),
    or, without one, a paragraph's whole text or a one-line heading's title."""
    if part:
        at = s.text.find(part, block.start, block.end)
        if at < 0:
            raise DomainError("NOT_FOUND", f"{part!r} is not in {block.id}", argument=argument)
        return at, at + len(part)
    if block.type == "paragraph":
        return block.start, block.end
    if block.type == "heading" and block.line_start == block.line_end:
        line = s.text[block.start : block.end]
        m = ATX_OPEN.match(line)
        body = re.sub(r"[ \t]+#+$", "", line[m.end() if m else 0 :].rstrip())
        start = block.start + (m.end() if m else 0)
        return start, start + len(body)
    raise ArgumentError(f"{block.id} is a {block.type}: give text (the part of it to format)", argument)


def inserted_ids(edits: Sequence[TextEdit], inserts: Sequence[int], after: str) -> list[str | None]:
    """The ids, in ``after`` (the text once ``edits`` applied), of the blocks that the edits
    at indexes ``inserts`` put in (None where no block starts there)."""
    ordered = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].end))  # as apply_edits
    shift, where = 0, {}
    for i in ordered:
        where[i] = edits[i].start + shift
        shift += len(edits[i].text) - (edits[i].end - edits[i].start)
    s = structure_of(after)
    ids: list[str | None] = []
    for i in inserts:
        text = edits[i].text
        block = s.block_at(where[i] + len(text) - len(text.lstrip("\r\n")))
        ids.append(block.id if block is not None else None)
    return ids
