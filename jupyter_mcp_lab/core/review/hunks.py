"""The hunks of a change: what a reviewer sees as separate suggestions.

A change is cut where whole unchanged lines separate its parts (a line diff, as a
reviewer reads one), and each part is then trimmed to the characters that differ, so an
insertion inside a line stays an insertion and not a rewrite of the line.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from ..history import change_between

Hunk = tuple[int, int, str]  # replace before[start:end] with the text


def kind_of(original: str, new: str) -> str:
    if not original:
        return "insert"
    if not new:
        return "delete"
    return "replace"


def hunks(before: str, after: str, *, split: bool = True) -> list[Hunk]:
    """The hunks turning ``before`` into ``after``, in document order (offsets in ``before``).

    ``split=False`` gives one hunk spanning the whole change (moves and table rewrites must
    be accepted whole, or a half-applied move would drop text).
    """
    if before == after:
        return []
    c = change_between(before, after)
    if not split or not c.old or not c.new:
        return [(c.start, c.start + len(c.old), c.new)]
    a_lines = c.old.splitlines(keepends=True)
    b_lines = c.new.splitlines(keepends=True)
    if len(a_lines) <= 1 and len(b_lines) <= 1:
        return [(c.start, c.start + len(c.old), c.new)]
    a_at, b_at = _offsets(a_lines), _offsets(b_lines)
    out: list[Hunk] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old, new = c.old[a_at[i1] : a_at[i2]], c.new[b_at[j1] : b_at[j2]]
        inner = change_between(old, new)
        start = c.start + a_at[i1] + inner.start
        out.append((start, start + len(inner.old), inner.new))
    return out


def _offsets(lines: list[str]) -> list[int]:
    at = [0]
    for line in lines:
        at.append(at[-1] + len(line))
    return at
