"""The windowed unified diff is a correct diff of the whole text, with the document's line numbers."""

from __future__ import annotations

import difflib
import re

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.diffs import unified

# Whole lines only: difflib (whole-text or windowed) glues a last line without a line break
# to the next diff line, so such diffs are for reading, not for patching.
LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "é\n"]), max_size=30).map("".join)
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$")


def patch(before: str, diff: str) -> str:
    """Apply a unified diff, checking every context and removed line against ``before``."""
    old = before.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    lines = diff.splitlines(keepends=True)[2:]
    i = 0
    while i < len(lines):
        m = HUNK.match(lines[i].rstrip("\n"))
        assert m, lines[i]
        start, count = int(m.group(1)), int(m.group(2) or 1)
        first = start - 1 if count else start  # an empty range names the line before it
        out += old[at:first]
        at = first
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            tag, body = lines[i][0], lines[i][1:]
            if tag in " -":
                assert old[at] == body, (old[at], body)
                at += 1
            if tag in " +":
                out.append(body)
            i += 1
    return "".join(out + old[at:])


def whole(before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/f", "b/f", n=2))


@given(LINES, LINES)
def test_the_diff_turns_before_into_after(before: str, after: str) -> None:
    d = unified(before, after, "f")
    assert (d == "") == (before == after)
    if d:
        assert d.startswith("--- a/f\n+++ b/f\n")
        assert patch(before, d) == after


def test_a_change_deep_in_a_long_document_has_its_own_line_numbers() -> None:
    before = "".join(f"line {i}\n" for i in range(10_000))
    after = before.replace("line 5000\n", "line five thousand\n")
    d = unified(before, after, "f")
    assert d == whole(before, after)
    assert "@@ -4999,5 +4999,5 @@" in d
    assert patch(before, d) == after
