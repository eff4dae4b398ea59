"""A checkpoint's change as a diff: the changed places with a few lines of context.

A checkpoint used to keep its change as one region from the first to the last changed
character plus the whole text after it (to find the change again once the document moved
on): two edits at both ends of a long file kept the file three times. It now keeps hunks,
each the old and new text of one place and up to ``CONTEXT_LINES`` lines around it (capped
at ``CONTEXT_CHARS``), stored compressed. That is all the panel's diff needs (line numbers
included), and what a revert needs to find the change where it is now, as ``patch`` does:
by the change with its context, nearest to where it was; then by the changed lines alone
or the new text alone while either is unique.

Places closer than ``MERGE_GAP`` characters, and every place of a change spanning at most
``ONE_HUNK_SPAN``, are one hunk, so most checkpoints are a single exact region (``start``,
``old``, ``new`` of the record, as before).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from ..diffs import unified
from ..history import change_between

CONTEXT_LINES = 3
CONTEXT_CHARS = 1_000
MERGE_GAP = 2 * CONTEXT_CHARS
ONE_HUNK_SPAN = 64_000
# Context this long on both sides places a change by proximity when it occurs more than once.
STRONG_CONTEXT = 20
# How a change in several places far apart shows as one ``old``/``new`` text.
ELLIPSIS = "\n…\n"


@dataclass(frozen=True)
class Hunk:
    """``old`` at ``start`` of the text before became ``new``; ``lead`` and ``trail`` are
    the text just around it (the same before and after); ``line`` is the 1-based line in
    the text before where ``lead`` starts (None: unknown, for records from before hunks)."""

    start: int
    old: str
    new: str
    lead: str = ""
    trail: str = ""
    line: int | None = None


def hunks_between(before: str, after: str) -> tuple[Hunk, ...]:
    """The change ``before`` → ``after`` as hunks, in document order."""
    if before == after:
        return ()
    c = change_between(before, after)
    places = [(c.start, c.start + len(c.old), c.start, c.start + len(c.new))]
    if len(c.old) + len(c.new) > ONE_HUNK_SPAN:
        places = _grouped(_changed_lines(before, after, c.start, len(before) - len(c.old) - c.start))
    return tuple(_hunk(before, after, *p) for p in places)


def _changed_lines(before: str, after: str, prefix: int, suffix: int) -> list[tuple[int, int, int, int]]:
    """The changed line blocks of the middle (common ends cut), as ``(a0, a1, b0, b1)``.
    Any exact split will do (this is storage, not mapping): difflib's junk heuristic keeps
    it fast on big texts full of repeated lines."""
    # Whole lines: the common ends cut back to line breaks (they are the same in both texts).
    prefix = before.rfind("\n", 0, prefix) + 1
    end = len(before) - suffix
    if end and before[end - 1] != "\n":
        nl = before.find("\n", end)
        end = len(before) if nl < 0 else nl + 1
    suffix = len(before) - end
    a = before[prefix : len(before) - suffix].splitlines(keepends=True)
    b = after[prefix : len(after) - suffix].splitlines(keepends=True)
    a_at, b_at = _offsets(a, prefix), _offsets(b, prefix)
    matcher = SequenceMatcher(None, a, b, autojunk=True)
    return [(a_at[i1], a_at[i2], b_at[j1], b_at[j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _offsets(lines: list[str], origin: int) -> list[int]:
    at = [origin]
    for line in lines:
        at.append(at[-1] + len(line))
    return at


def _grouped(found: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    out = [found[0]]
    for a0, a1, b0, b1 in found[1:]:
        p0, p1, q0, _ = out[-1]
        if a0 - p1 <= MERGE_GAP:
            out[-1] = (p0, a1, q0, b1)
        else:
            out.append((a0, a1, b0, b1))
    return out


def _hunk(before: str, after: str, a0: int, a1: int, b0: int, b1: int) -> Hunk:
    # The changed lines with up to CONTEXT_LINES whole lines above and below, as many as fit
    # in CONTEXT_CHARS a side (the changed lines' own ends are cut only when longer alone).
    line_start = before.rfind("\n", 0, a0) + 1
    lead_start = max(line_start, a0 - CONTEXT_CHARS)
    for _ in range(CONTEXT_LINES):
        up = before.rfind("\n", 0, lead_start - 1) + 1 if lead_start > 0 else 0
        if lead_start == 0 or lead_start != line_start or a0 - up > CONTEXT_CHARS:
            break
        lead_start = line_start = up
    nl = before.find("\n", a1)
    line_end = len(before) if nl < 0 else nl + 1
    trail_end = min(line_end, a1 + CONTEXT_CHARS)
    for _ in range(CONTEXT_LINES):
        nl = before.find("\n", trail_end)
        down = len(before) if nl < 0 else nl + 1
        if trail_end == len(before) or trail_end != line_end or down - a1 > CONTEXT_CHARS:
            break
        trail_end = line_end = down
    if lead_start == a0:  # no context above: the end of the line before, even if cut
        lead_start = max(0, a0 - CONTEXT_CHARS)
    if trail_end == a1:
        trail_end = min(len(before), a1 + CONTEXT_CHARS)
    line = before.count("\n", 0, lead_start) + 1
    return Hunk(a0, before[a0:a1], after[b0:b1], before[lead_start:a0], before[a1:trail_end], line)


def encode(hunks: Sequence[Hunk]) -> bytes:
    rows = [[h.start, h.old, h.new, h.lead, h.trail, h.line] for h in hunks]
    return zlib.compress(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def decode(blob: bytes) -> tuple[Hunk, ...]:
    return tuple(Hunk(*row) for row in json.loads(zlib.decompress(blob).decode("utf-8")))


def summary(hunks: Sequence[Hunk]) -> tuple[int, str, str]:
    """``start``, ``old``, ``new`` as one region: exact for one hunk; several places far
    apart show their texts joined by ``ELLIPSIS``."""
    if not hunks:
        return 0, "", ""
    return hunks[0].start, ELLIPSIS.join(h.old for h in hunks), ELLIPSIS.join(h.new for h in hunks)


def _after_lines(hunks: Sequence[Hunk]) -> list[int | None]:
    """Each hunk's ``line`` in the text after the change."""
    out: list[int | None] = []
    shift = 0
    for h in hunks:
        out.append(None if h.line is None else h.line + shift)
        shift += h.new.count("\n") - h.old.count("\n")
    return out


def touched_lines(hunks: Sequence[Hunk]) -> tuple[int, int] | None:
    """1-based first and last line the change touched in the text after it."""
    lines = _after_lines(hunks)
    if not hunks or lines[0] is None or lines[-1] is None:
        return None
    first = lines[0] + hunks[0].lead.count("\n")
    last_hunk = hunks[-1]
    last_start = lines[-1] + last_hunk.lead.count("\n")
    last = last_start + last_hunk.new[:-1].count("\n") if last_hunk.new else last_start
    return first, last


def unified_diff(hunks: Sequence[Hunk], name: str, limit: int = 100_000) -> str:
    """``diff -u`` with the stored context and the document's line numbers."""
    out: list[str] = []
    for h, after_line in zip(hunks, _after_lines(hunks), strict=True):
        text = unified(h.lead + h.old + h.trail, h.lead + h.new + h.trail, name, CONTEXT_LINES, limit)
        head, _, body = text.partition("@@")
        if not out:
            out.append(head)
        body = "@@" + body
        if h.line is not None and after_line is not None:
            body = _shift(body, h.line - 1, after_line - 1)
        out.append(body)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit] + "\n… (diff truncated)\n"


_HEADER = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", re.M)


def _shift(body: str, a: int, b: int) -> str:
    def move(m: re.Match[str]) -> str:
        return f"@@ -{int(m.group(1)) + a}{m.group(2) or ''} +{int(m.group(3)) + b}{m.group(4) or ''} @@"

    return _HEADER.sub(move, body)


def revert(hunks: Sequence[Hunk], current: str, exact: bool) -> str | None:
    """``current`` with the change undone, or None when it cannot be found unchanged.

    ``exact``: ``current`` is the text right after the change (its revision), so every
    hunk is where it was put."""
    places: list[tuple[int, Hunk]] = []
    shift = 0
    for h in hunks:
        expected = h.start + shift
        shift += len(h.new) - len(h.old)
        at = expected if exact and current[expected : expected + len(h.new)] == h.new else _find(h, current, expected)
        if at is None or (places and at < places[-1][0] + len(places[-1][1].new)):
            return None
        places.append((at, h))
    out = current
    for at, h in reversed(places):
        out = out[:at] + h.old + out[at + len(h.new) :]
    return out


def _find(h: Hunk, text: str, expected: int) -> int | None:
    """Where ``h.new`` is in ``text``: with all its context, the match nearest ``expected``
    (when the context says enough on both sides, else only a unique match); with its own
    lines' context, only a unique match."""
    pattern = h.lead + h.new + h.trail
    if min(len(h.lead), len(h.trail)) >= STRONG_CONTEXT:
        target = max(0, expected - len(h.lead))  # where the pattern starts if nothing moved
        hits = [i for i in (text.find(pattern, target), text.rfind(pattern, 0, target + len(pattern))) if i >= 0]
        if hits:
            return min(hits, key=lambda i: abs(i - target)) + len(h.lead)
    elif pattern and (first := text.find(pattern)) >= 0:
        return first + len(h.lead) if text.find(pattern, first + 1) < 0 else None
    # With its own lines' context only: the text alone could be the same letters in another
    # word ("sleep" of "sleepy" found in "sleeps" once "sleepy" is gone), and reverting there
    # would corrupt the file.
    own_lead = h.lead[h.lead.rfind("\n") + 1 :]
    own_trail = h.trail[: h.trail.find("\n") + 1] if "\n" in h.trail else h.trail
    pattern = own_lead + h.new + own_trail
    if not pattern:
        return None
    first = text.find(pattern)
    if first >= 0 and text.find(pattern, first + 1) < 0:
        return first + len(own_lead)
    return None
