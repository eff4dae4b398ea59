"""Where a suggestion's range is now: map it from its base text through later edits.

``diff.regions`` explains the change as a minimal set of changed regions; a range no region
touches moves by the size changes before it, a range a region overlaps is a conflict.
Minimal diffs still tie in repetitive text ("aa" -> "a" deleted either "a"), so a pure
insertion or deletion overlapping the range is slid along the repeat, out of the range,
when the text allows. A mapped range is always checked to hold the original text.
"""

from __future__ import annotations

from ..errors import ArgumentError
from .diff import Region, regions


def map_range(
    base: str, current: str, start: int, end: int, original: str, found: list[Region] | None = None
) -> tuple[int, int] | None:
    """Where ``base[start:end]`` (== ``original``) is in ``current``; None for a conflict.

    An insertion exactly at the range's start moves the range (text typed before it); one
    exactly at its end leaves it in place; a change that only touches the range is fine.
    ``found`` is ``regions(base, current)`` when the caller maps many ranges of one base.
    """
    if base[start:end] != original:
        return None
    if base == current:
        return start, end
    if found is None:
        found = regions(base, current)
    delta = 0
    for i, region in enumerate(found):
        # Overlap; for an insertion point (start == end) this is a region strictly around it.
        if region[0] < end and region[1] > start:
            slid = _slide_out(base, current, found, i, start, end)
            if slid is None:
                return None
            region = slid
        a0, a1, b0, b1 = region
        if a1 <= start:
            delta += (b1 - b0) - (a1 - a0)
        else:  # at or after the end: ascending order, so nothing later matters
            break
    ns, ne = start + delta, end + delta
    return (ns, ne) if current[ns:ne] == original else None


def _slide_out(base: str, current: str, found: list[Region], i: int, start: int, end: int) -> Region | None:
    """The same pure insertion or deletion moved out of ``[start, end)``, if the text allows.

    Deleting ``base[a0:a1]`` equals deleting ``base[a0-k:a1-k]`` when the k characters
    before each agree (the deleted text rotates through a repeat); insertions likewise on
    the current side. A slide stays within the unchanged text between its neighbours.
    """
    a0, a1, b0, b1 = found[i]
    if a0 != a1 and b0 != b1:
        return None  # a replacement has no equivalent elsewhere
    lo = found[i - 1][1] if i else 0
    hi = found[i + 1][0] if i + 1 < len(found) else len(base)
    text, t0, t1 = (base, a0, a1) if a0 != a1 else (current, b0, b1)
    k = a1 - start
    if k > 0 and a0 - k >= lo and text[t0 - k : t0] == text[t1 - k : t1]:
        return a0 - k, a1 - k, b0 - k, b1 - k
    k = end - a0
    if k > 0 and a1 + k <= hi and text[t0 : t0 + k] == text[t1 : t1 + k]:
        return a0 + k, a1 + k, b0 + k, b1 + k
    return None


def apply_many(text: str, items: list[tuple[int, int, str]]) -> tuple[str, list[int]]:
    """Apply replacements ``(start, end, new)`` given in offsets of ``text``, in one pass.

    Items apply in document order (at one point, insertions before a replacement, and
    otherwise in the given order); an item overlapping one already applied is skipped.
    Returns the new text and the indexes of the skipped items, ascending.
    """
    n = len(text)
    for start, end, _ in items:
        if not 0 <= start <= end <= n:
            raise ArgumentError(f"range {start}..{end} is outside the document (0..{n})", "range")
    order = sorted(range(len(items)), key=lambda i: (items[i][0], items[i][1] > items[i][0]))
    out: list[str] = []
    skipped: list[int] = []
    pos = 0
    for i in order:
        start, end, new = items[i]
        if start < pos:
            skipped.append(i)
            continue
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out), sorted(skipped)
