"""Changed regions between two texts, in code point offsets.

Mapping a range is only as good as the diff: a diff that matches a repeated word to the
wrong copy moves a suggestion onto text a person did not mean. So the changed middle (after
trimming the common ends) is diffed character by character with Myers' algorithm, which
finds a minimal edit script (the most economical explanation of the change); only big or
very different middles fall back to difflib's heuristics, by lines and then characters.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from ..trim import common_ends

Region = tuple[int, int, int, int]

# Character diffs are quadratic at worst: only middles (and changed line blocks) up to this
# many characters a side are diffed by character; bigger blocks stay one region.
REFINE_LIMIT = 2_000
# Myers' cost grows with the edit distance; past this many inserted plus deleted
# characters, difflib's longest-match heuristic takes over.
MAX_EDITS = 200


def regions(base: str, current: str) -> list[Region]:
    """Changed regions ``(a0, a1, b0, b1)``: ``current[b0:b1]`` replaced ``base[a0:a1]``.

    Ascending and non-overlapping; applying them all to ``base`` gives ``current``.
    """
    if base == current:
        return []
    # Edits are usually local: trimming the common ends first keeps the diff small even
    # for big documents (each comparison is a C-level slice compare).
    p, s = common_ends(base, current)
    a_mid, b_mid = base[p : len(base) - s], current[p : len(current) - s]
    if not a_mid or not b_mid:
        return [(p, p + len(a_mid), p, p + len(b_mid))]
    if len(a_mid) <= REFINE_LIMIT and len(b_mid) <= REFINE_LIMIT:
        return _chars(a_mid, b_mid, p, p)
    a_lines = a_mid.splitlines(keepends=True)
    b_lines = b_mid.splitlines(keepends=True)
    a_at = _offsets(a_lines, p)
    b_at = _offsets(b_lines, p)
    out: list[Region] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        a0, a1, b0, b1 = a_at[i1], a_at[i2], b_at[j1], b_at[j2]
        if tag == "replace" and a1 - a0 <= REFINE_LIMIT and b1 - b0 <= REFINE_LIMIT:
            out.extend(_chars(base[a0:a1], current[b0:b1], a0, b0))
        else:
            out.append((a0, a1, b0, b1))
    return out


def _offsets(lines: list[str], origin: int) -> list[int]:
    at = [origin]
    for line in lines:
        at.append(at[-1] + len(line))
    return at


def _chars(a: str, b: str, a_origin: int, b_origin: int) -> list[Region]:
    blocks = _myers(a, b, MAX_EDITS)
    if blocks is None:
        blocks = [(i, j, n) for i, j, n in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()]
    out: list[Region] = []
    i = j = 0
    for bi, bj, n in blocks:
        if n and (bi > i or bj > j):
            out.append((a_origin + i, a_origin + bi, b_origin + j, b_origin + bj))
        if n:
            i, j = bi + n, bj + n
    if i < len(a) or j < len(b):
        out.append((a_origin + i, a_origin + len(a), b_origin + j, b_origin + len(b)))
    return out


def _myers(a: str, b: str, max_edits: int) -> list[tuple[int, int, int]] | None:
    """Matching blocks ``(i, j, n)`` of a minimal diff, or None past ``max_edits`` edits.

    The classic greedy algorithm (Myers 1986): ``v[k]`` is the furthest x reached on
    diagonal k = x - y with d edits; a snapshot per d lets the path be walked back.
    """
    n, m = len(a), len(b)
    size = 2 * max_edits + 3  # diagonals -d-1 .. d+1; negative k wrap to the end
    v = [0] * size
    trace: list[list[int]] = []
    for d in range(min(max_edits, n + m) + 1):
        trace.append(v[:])
        for k in range(-d, d + 1, 2):
            x = v[k + 1] if k == -d or (k != d and v[k - 1] < v[k + 1]) else v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return _walk_back(trace, n, m)
    return None


def _walk_back(trace: list[list[int]], x: int, y: int) -> list[tuple[int, int, int]]:
    blocks: list[tuple[int, int, int]] = []
    for d in range(len(trace) - 1, -1, -1):
        v = trace[d]
        k = x - y
        prev_k = k + 1 if k == -d or (k != d and v[k - 1] < v[k + 1]) else k - 1
        prev_x = v[prev_k]
        prev_y = prev_x - prev_k
        # The snake: the diagonal run after this step's one insertion or deletion.
        start_x = prev_x + (prev_k < k) if d else 0
        if x > start_x:
            blocks.append((start_x, start_x - k, x - start_x))
        x, y = prev_x, prev_y
    blocks.reverse()
    return blocks
