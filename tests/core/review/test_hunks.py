"""Hunks: the parts of a change a reviewer decides one by one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.review import effective_mode, hunks, kind_of
from jupyter_mcp_lab.core.suggestions import apply_many

LINES = st.lists(st.sampled_from(["a\n", "b\n", "c c\n", "\n", "dé\n", "\U0001d518\n", "x"]), max_size=12).map("".join)


@given(LINES, LINES)
def test_applying_the_hunks_gives_the_new_text(before: str, after: str) -> None:
    for split in (True, False):
        parts = hunks(before, after, split=split)
        text, skipped = apply_many(before, parts)
        assert (text, skipped) == (after, [])
        assert all(before[a:z] != new for a, z, new in parts)  # each hunk changes something
        assert [a for a, _, _ in parts] == sorted(a for a, _, _ in parts)
    assert len(hunks(before, after, split=False)) == (before != after)


def test_edits_on_separate_lines_are_separate_hunks_trimmed_to_characters() -> None:
    before = "one two\nkeep\nthree four\n"
    after = "one 2\nkeep\nthree four five\n"
    assert hunks(before, after) == [(4, 7, "2"), (23, 23, " five")]
    assert hunks(before, after, split=False) == [(4, 23, "2\nkeep\nthree four five")]


def test_kinds() -> None:
    assert (kind_of("", "x"), kind_of("x", ""), kind_of("x", "y")) == ("insert", "delete", "replace")


def test_the_policy_wins_over_the_agent() -> None:
    assert effective_mode("apply", "suggest", granted=False) == "suggest"
    assert effective_mode("apply", "suggest", granted=True) == "apply"
    assert effective_mode("apply", "auto", granted=False) == "apply"
    assert effective_mode("suggest", "auto", granted=True) == "suggest"
    assert effective_mode("dryRun", "suggest", granted=False) == "dryRun"
