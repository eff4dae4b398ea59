"""The common ends of two sequences: the prefix goes first, the suffix never overlaps it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.trim import common_ends


def test_the_middle_is_what_changed() -> None:
    assert common_ends("the cat sat", "the dog sat") == (4, 4)
    assert common_ends("abc", "abc") == (3, 0)
    assert common_ends("abc", "xyz") == (0, 0)


def test_the_suffix_does_not_overlap_the_prefix() -> None:
    # Both "aa" ends fit "aaa", but the prefix takes them first: one "a" was deleted at the end.
    assert common_ends("aaa", "aa") == (2, 0)
    assert common_ends("aa", "aaa") == (2, 0)
    assert common_ends("abab", "ab") == (2, 0)
    assert common_ends("xaay", "xay") == (2, 1)


def test_empty_inputs() -> None:
    assert common_ends("", "") == (0, 0)
    assert common_ends("", "abc") == (0, 0)
    assert common_ends("abc", "") == (0, 0)
    assert common_ends([], ["x\n"]) == (0, 0)


def test_lists_of_lines_compare_whole_lines() -> None:
    a = ["one\n", "two\n", "three\n"]
    assert common_ends(a, ["one\n", "2\n", "three\n"]) == (1, 1)
    assert common_ends(a, ["one\n", "two\n", "three"]) == (2, 0)  # a line break is part of its line
    assert common_ends(["x\n", "x\n"], ["x\n"]) == (1, 0)


def test_code_points_not_utf16_units() -> None:
    # "😀" is one code point (two UTF-16 units); the ends are counted in code points.
    assert common_ends("a😀b", "a😀c") == (2, 0)
    assert common_ends("😀x😀", "😀y😀") == (1, 1)


def _naive(a: str, b: str) -> tuple[int, int]:
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s


TEXT = st.text(alphabet="ab😀\n", max_size=40)


@given(TEXT, TEXT)
def test_matches_a_character_by_character_scan(a: str, b: str) -> None:
    p, s = common_ends(a, b)
    assert (p, s) == _naive(a, b)
    assert p + s <= min(len(a), len(b))
    assert a[:p] == b[:p] and a[len(a) - s :] == b[len(b) - s :]
    # The same ends when the texts are taken as lists of characters.
    assert common_ends(list(a), list(b)) == (p, s)
