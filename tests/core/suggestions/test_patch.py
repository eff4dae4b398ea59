"""A checkpoint's change as hunks with context: exact, small, shown as a diff, revertible."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mcp_lab.core.diffs import unified
from jupyter_mcp_lab.core.suggestions import patch
from jupyter_mcp_lab.core.suggestions.model import line_span

LINES = ["alpha", "beta", "gamma", "", "# Heading", "- item", "x" * 60]


def document(rng: random.Random, lines: int) -> str:
    return "".join(rng.choice(LINES) + "\n" for _ in range(lines))


def edited(rng: random.Random, text: str, edits: int) -> str:
    for _ in range(edits):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(0, 30))
        text = text[:i] + rng.choice(["", "NEW", "a new line\n", "ü😀"]) + text[j:]
    return text


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 10_000), st.sampled_from([3, 40, 4_000]), st.integers(1, 3))
def test_hunks_undo_exactly_show_the_same_diff_and_survive_storage(seed: int, lines: int, edits: int) -> None:
    rng = random.Random(seed)
    before = document(rng, lines)
    after = edited(rng, before, edits)
    hunks = patch.hunks_between(before, after)
    if before == after:
        assert hunks == ()
        return
    assert patch.decode(patch.encode(hunks)) == hunks
    assert patch.revert(hunks, after, exact=True) == before
    # Found again once text came before and after it, unless that made it ambiguous.
    assert patch.revert(hunks, "moved\n" + after + "tail", exact=False) in ("moved\n" + before + "tail", None)
    # Short lines: the stored context is all a whole-document diff shows.
    assert patch.unified_diff(hunks, "a.md") == unified(before, after, "a.md", context=3, limit=100_000)
    if len(hunks) == 1:
        start, old, new = patch.summary(hunks)
        assert before[start : start + len(old)] == old and after[start : start + len(new)] == new
        assert patch.touched_lines(hunks) == line_span(after, start, start + len(new))


def test_edits_far_apart_in_a_long_document_are_stored_as_small_hunks() -> None:
    before = "".join(f"line {n} of a long document\n" for n in range(30_000))  # ~800 KB
    middle = before.index("line 15000 ")
    after = "# Title\n" + before[:middle] + "a line in the middle\n" + before[middle:] + "end\n"
    hunks = patch.hunks_between(before, after)
    assert len(hunks) == 3 and len(patch.encode(hunks)) < 2_000
    start, old, new = patch.summary(hunks)
    assert (start, old) == (0, "\n…\n\n…\n")
    assert new == "# Title\n\n…\na line in the middle\n\n…\nend\n"
    assert patch.revert(hunks, after, exact=True) == before
    assert patch.revert(hunks, "moved\n" + after, exact=False) == "moved\n" + before
    diff = patch.unified_diff(hunks, "a.md")
    assert diff.count("\n@@ ") + diff.startswith("@@") == 3 and "+end\n" in diff
    assert patch.touched_lines(hunks) == (1, after.count("\n"))


def test_a_revert_refuses_a_change_edited_since_or_not_found_unambiguously() -> None:
    before = "one\ntwo\nthree\n"
    after = "one\nTWO\nthree\n"
    hunks = patch.hunks_between(before, after)
    assert patch.revert(hunks, "one\nTwo!\nthree\n", exact=False) is None
    # Its context changed too, but the new text is there once: that is where it is.
    assert patch.revert(hunks, "zero\nTWO\nfour\n", exact=False) == "zero\ntwo\nfour\n"
    assert patch.revert(hunks, "TWO\nTWO\n", exact=False) is None  # twice, no context: which one?
    # A change within a line whose line changed since: its letters elsewhere are not it.
    text = "# Notes\n\nA lazy dog sleeps.\n"
    within = patch.hunks_between(text, text.replace("lazy", "sleepy"))  # "laz" became "sleep"
    assert patch.revert(within, text.replace("lazy dog", "tired dog"), exact=False) is None  # not "sleeps"
    # Deleting everything leaves nothing to find it by.
    gone = patch.hunks_between("text\n", "")
    assert patch.revert(gone, "", exact=True) == "text\n" and patch.revert(gone, "x", exact=False) is None


def test_a_record_from_before_hunks_has_its_one_region_without_context() -> None:
    hunks = (patch.Hunk(4, "two", "TWO"),)
    assert patch.touched_lines(hunks) is None  # its line is unknown
    eof = "\\ No newline at end of file\n"
    assert patch.unified_diff(hunks, "a.md") == f"--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-two\n{eof}+TWO\n{eof}"
    assert patch.revert(hunks, "one\nTWO\nthree\n", exact=False) == "one\ntwo\nthree\n"
