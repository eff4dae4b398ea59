"""The common start and end of two sequences: what is left between them is what changed.

One helper for every "trim the equal ends, look at the middle" step (the undo record, the
suggestion diff, the markdown line rewrite, a checkpoint's cell edit), on texts (code
points, as Python indexes ``str``) and on lists of lines alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def common_ends(a: Sequence[Any], b: Sequence[Any]) -> tuple[int, int]:
    """``(prefix, suffix)``: how many leading and trailing items ``a`` and ``b`` share.

    The prefix is taken first, as long as it goes; the suffix only counts items past it
    (``prefix + suffix <= min(len(a), len(b))``), so "aaa" against "aa" is ``(2, 0)``
    and the middles ``a[prefix:len(a) - suffix]``, ``b[prefix:len(b) - suffix]`` never
    overlap the ends.
    """
    limit = min(len(a), len(b))
    prefix = _common_prefix(a, b, limit)
    return prefix, _common_suffix(a, b, limit - prefix)


# Binary search on slice equality: each comparison runs in C, so a 0.5 MB document costs
# microseconds instead of a Python loop over every character.
def _common_prefix(a: Sequence[Any], b: Sequence[Any], limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: Sequence[Any], b: Sequence[Any], limit: int) -> int:
    lo, hi = 0, limit
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo
