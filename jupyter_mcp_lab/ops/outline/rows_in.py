"""New rows an agent sends: nested row objects, or text (indented lines, a markdown list).

Text is read as data, line by line: a line's indentation (or a heading's level) places it
under the nearest line above it that is less indented; list markers (``-``, ``*``, ``+``,
``1.``) are dropped, a task box (``[ ]``, ``[x]``) becomes the row's checkbox and a quoted
line (``> …``) the note of the row above it.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from ...core.errors import ArgumentError

MAX_ROWS = 5_000
MAX_DEPTH = 64
_HEADING = re.compile(r"(#{1,6})\s+(.*)")
_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s+(.*)")
_BOX = re.compile(r"\[([ xX])\]\s+(.*)")


class NewRow(BaseModel):
    topic: str
    note: str | None = None
    state: Literal["checked", "unchecked", "none"] | None = None
    children: list[NewRow] = Field(default_factory=list)


def from_text(text: str) -> list[dict[str, Any]]:
    """Rows (``{"topic", "note"?, "state"?, "children"}``) of indented lines or a markdown list."""
    roots: list[dict[str, Any]] = []
    stack: list[tuple[int, dict[str, Any]]] = []  # (how indented, row) of the open rows
    last: dict[str, Any] | None = None
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.expandtabs(4)
        body = line.strip()
        if not body:
            continue
        if body.startswith(">") and last is not None:  # a note of the row above
            quoted = body[1:].removeprefix(" ")
            last["note"] = f"{last['note']}\n{quoted}" if last.get("note") else quoted
            continue
        depth = len(line) - len(line.lstrip())
        row: dict[str, Any] = {"children": []}
        if (h := _HEADING.fullmatch(body)) is not None:
            depth = len(h.group(1)) - 7  # any heading is above every list item
            body = h.group(2)
        elif (item := _ITEM.fullmatch(body)) is not None:
            body = item.group(1)
        if (box := _BOX.fullmatch(body)) is not None:
            row["state"] = "unchecked" if box.group(1) == " " else "checked"
            body = box.group(2)
        row["topic"] = body
        while stack and stack[-1][0] >= depth:
            stack.pop()
        (stack[-1][1]["children"] if stack else roots).append(row)
        stack.append((depth, row))
        last = row
    return roots


def as_dicts(content: str | list[NewRow]) -> list[dict[str, Any]]:
    """The rows ``content`` describes, checked for size; a string of one line is one row."""
    rows = from_text(content) if isinstance(content, str) else [r.model_dump(exclude_none=True) for r in content]
    if not rows:
        raise ArgumentError("content has no rows to insert", "content")
    count, stack = 0, [(r, 1) for r in rows]
    while stack:
        row, depth = stack.pop()
        count += 1
        if count > MAX_ROWS or depth > MAX_DEPTH:
            raise ArgumentError(f"content is too big: at most {MAX_ROWS} rows, {MAX_DEPTH} levels deep", "content")
        stack.extend((c, depth + 1) for c in row.get("children") or [])
    return rows
