"""Rewrite a run of lines with the fewest changes.

``replace_lines`` is the primitive the block-type, table and list editors share: it diffs a
block's old lines against new ones and touches only the lines (and, within a line, only the
characters) that differ, so the document's line breaks and every untouched line stay
byte-for-byte as they were.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from ..text import LineIndex, TextEdit, newline_of
from ..trim import common_ends


def _trimmed(start: int, old: str, new: str) -> list[TextEdit]:
    if old == new:
        return []
    p, q = common_ends(old, new)
    return [TextEdit(start + p, start + len(old) - q, new[p : len(new) - q])]


def replace_lines(text: str, line_start: int, line_end: int, new_lines: list[str]) -> list[TextEdit]:
    """Minimal edits turning lines ``line_start..line_end`` (1-based, inclusive) into ``new_lines``."""
    idx = LineIndex(text)
    nl = newline_of(text)
    old = [text[idx.start_of(k) : idx.end_of(k)] for k in range(line_start, line_end + 1)]
    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=old, b=new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        first, last = line_start + i1, line_start + i2 - 1
        if i1 < i2 and j1 < j2:
            a, b = idx.start_of(first), idx.end_of(last)
            if i2 - i1 == j2 - j1:
                for k in range(i2 - i1):
                    edits += _trimmed(idx.start_of(first + k), old[i1 + k], new_lines[j1 + k])
            else:
                edits += _trimmed(a, text[a:b], nl.join(new_lines[j1:j2]))
        elif i1 < i2:  # delete whole lines with one of their breaks
            if last < idx.line_count:
                edits.append(TextEdit(idx.start_of(first), idx.start_of(last + 1), ""))
            else:
                edits.append(TextEdit(idx.end_of(first - 1) if first > 1 else 0, idx.end_of(last), ""))
        elif i1 < len(old):
            pos = idx.start_of(first)
            edits.append(TextEdit(pos, pos, nl.join(new_lines[j1:j2]) + nl))
        else:
            pos = idx.end_of(line_end)
            edits.append(TextEdit(pos, pos, nl + nl.join(new_lines[j1:j2])))
    return edits
