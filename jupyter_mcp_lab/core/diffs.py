"""Unified diffs of a change, computed around the change only.

difflib over a whole 10K-line document costs ~15 ms; an agent's change is usually a few
lines. The common prefix and suffix are cut first (C-speed slice compares), the diff runs
on the changed lines with their context, and the hunk headers are shifted back to the
document's line numbers.
"""

from __future__ import annotations

import difflib
import re

from .history import change_between

_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", re.M)


def unified(before: str, after: str, name: str, context: int = 2, limit: int = 20_000) -> str:
    """``diff -u`` of ``before`` → ``after`` (``a/name``, ``b/name``), cut at ``limit`` characters."""
    if before == after:
        return ""
    c = change_between(before, after)
    start = before.rfind("\n", 0, c.start) + 1  # the changed line's start, the same in both
    for _ in range(context):
        if start == 0:
            break
        start = before.rfind("\n", 0, start - 1) + 1
    tail = len(before) - (c.start + len(c.old))  # the common suffix, the same in both
    end_a, end_b = _after_lines(before, len(before) - tail, context), _after_lines(after, len(after) - tail, context)
    first = len(before[:start].splitlines())
    lines = difflib.unified_diff(
        before[start:end_a].splitlines(keepends=True),
        after[start:end_b].splitlines(keepends=True),
        f"a/{name}",
        f"b/{name}",
        n=context,
    )
    # A last line without a break gets diff's marker, or difflib would glue it to the next one.
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    text = _HUNK.sub(lambda m: _shift(m, first), text)
    return text if len(text) <= limit else text[:limit] + "\n… (diff truncated)\n"


def _after_lines(text: str, pos: int, count: int) -> int:
    """The end of the line holding ``pos``, then ``count`` more lines."""
    for _ in range(count + 1):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos


def _shift(m: re.Match[str], lines: int) -> str:
    a, b = int(m.group(1)) + lines, int(m.group(3)) + lines
    return f"@@ -{a}{m.group(2) or ''} +{b}{m.group(4) or ''} @@"
