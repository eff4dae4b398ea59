"""Mapping a suggestion's range from its base text to the current text.

Generated texts mix ASCII, CJK, an astral emoji and LF / CRLF breaks from a small alphabet
(repetition is where diffs are ambiguous). Person edits are made outside a range (it must
still be found, holding its original text) or inside it (a conflict). The inside edits
insert a character the alphabet lacks: a pure deletion inside a repeat is the same text as
one beside it ("aab" -> "ab"), which no diff can tell apart.
"""

from __future__ import annotations

import time
from itertools import pairwise
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jupyter_mcp_lab.core.errors import ArgumentError
from jupyter_mcp_lab.core.suggestions import apply_many, map_range, regions
from jupyter_mcp_lab.core.suggestions import diff as diff_module

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = ["a", "b", "ab", " ", "\n", "\r\n", "中", "文", "é", "😀", "line\n", "x = 1\n"]
MARK = "§"  # never in TOKENS: a text containing it was edited by the test's "person"
texts = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
any_texts = st.one_of(texts, st.text(max_size=60))


def edited(data: Any, text: str, max_edits: int = 3, new: Any = texts, delete: bool = True) -> tuple[str, int]:
    """``text`` after up to ``max_edits`` random replacements (insertions only without
    ``delete``), one after another, and their size (characters deleted plus inserted)."""
    size = 0
    for _ in range(data.draw(st.integers(0, max_edits))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, len(text))) if delete else i
        typed = data.draw(new)
        text = text[:i] + typed + text[j:]
        size += j - i + len(typed)
    return text, size


def diff_size(base: str, current: str) -> int:
    return sum(a1 - a0 + b1 - b0 for a0, a1, b0, b1 in regions(base, current))


def a_range(data: Any, text: str) -> tuple[int, int]:
    start = data.draw(st.integers(0, len(text)))
    return start, data.draw(st.integers(start, len(text)))


def replay(base: str, current: str, found: list[tuple[int, int, int, int]]) -> str:
    out, _ = apply_many(base, [(a0, a1, current[b0:b1]) for a0, a1, b0, b1 in found])
    return out


# --------------------------------------------------------------------------- regions


def check_regions(base: str, current: str) -> None:
    found = regions(base, current)
    assert replay(base, current, found) == current
    a_end = b_end = 0
    for a0, a1, b0, b1 in found:
        assert a_end <= a0 <= a1 <= len(base) and b_end <= b0 <= b1 <= len(current)
        assert (a0, a1) != (b0, b1) or base[a0:a1] != current[b0:b1] or a0 == a1 == b0 == b1
        assert a0 < a1 or b0 < b1, "an empty region"
        # Unchanged text between regions has the same length on both sides.
        assert a0 - a_end == b0 - b_end and base[a_end:a0] == current[b_end:b0]
        a_end, b_end = a1, b1
    assert base[a_end:] == current[b_end:]


@SETTINGS
@given(any_texts, any_texts)
def test_regions_of_unrelated_texts_rebuild_the_current_text(base: str, current: str) -> None:
    check_regions(base, current)


@SETTINGS
@given(st.data(), texts)
def test_regions_of_local_edits_rebuild_the_current_text(data: Any, base: str) -> None:
    check_regions(base, edited(data, base, max_edits=5)[0])


@SETTINGS
@given(st.data(), texts)
def test_regions_without_character_refinement_rebuild_the_current_text(data: Any, base: str) -> None:
    with patch.object(diff_module, "REFINE_LIMIT", 3):
        check_regions(base, edited(data, base, max_edits=5)[0])


def indel_distance(a: str, b: str) -> int:
    """Characters deleted plus inserted by a minimal diff: len(a) + len(b) - 2 * LCS."""
    row = [0] * (len(b) + 1)
    for ca in a:
        prev_diag, row[0] = 0, 0
        for j, cb in enumerate(b, 1):
            prev_diag, row[j] = row[j], prev_diag + 1 if ca == cb else max(row[j], row[j - 1])
    return len(a) + len(b) - 2 * row[len(b)]


@SETTINGS
@given(st.data(), texts)
def test_regions_are_a_minimal_diff(data: Any, base: str) -> None:
    current = edited(data, base, max_edits=4)[0]
    assert diff_size(base, current) == indel_distance(base, current)


@SETTINGS
@given(st.data(), texts)
def test_regions_past_the_edit_budget_rebuild_the_current_text(data: Any, base: str) -> None:
    with patch.object(diff_module, "MAX_EDITS", 2):
        check_regions(base, edited(data, base, max_edits=5)[0])


def test_regions_of_equal_texts_are_empty() -> None:
    assert regions("", "") == [] and regions("a\nb", "a\nb") == []


def test_regions_refine_to_characters_in_a_changed_line() -> None:
    base = "first line\nthe quick brown fox\nlast\n"
    current = "first line\nthe slow brown cat\nlast\n"
    found = regions(base, current)
    assert [(base[a0:a1], current[b0:b1]) for a0, a1, b0, b1 in found] == [("quick", "slow"), ("fox", "cat")]


def test_regions_are_fast_for_local_edits_in_a_big_text() -> None:
    base = "".join(f"line {i}: some text 中文 😀\n" for i in range(40_000))  # about 1 MB
    current = base.replace("line 5: ", "line five: ", 1).replace("line 39990:", "line 39990 (edited):", 1)
    began = time.perf_counter()
    found = regions(base, current)
    elapsed = time.perf_counter() - began
    assert len(found) == 2 and replay(base, current, found) == current
    at = base.index("line 20000:")
    assert map_range(base, current, at, at + 10, base[at : at + 10]) == (at + 3, at + 13)
    assert elapsed < 1.0, f"{elapsed:.2f} s"


# --------------------------------------------------------------------------- map_range


# What a person types in the anchored tests: nothing the base texts contain, so the
# only copies of base text in the current text are the ones the person left alone.
typed = st.lists(st.sampled_from(["¤", "ç"]), min_size=1, max_size=3).map("".join)


@SETTINGS
@given(st.data(), texts, texts, texts)
def test_a_range_between_unique_characters_is_found_after_edits_outside(
    data: Any, left: str, middle: str, right: str
) -> None:
    # "⟦" and "⟧" occur only in the range, and typing adds no copy of anything, so the
    # range's only counterpart is where it went.
    original = "⟦" + middle + "⟧"
    base = left + original + right
    new_left, _ = edited(data, left, new=typed)
    new_right, _ = edited(data, right, new=typed)
    current = new_left + original + new_right
    at = len(new_left)
    mapped = map_range(base, current, len(left), len(left) + len(original), original)
    assert mapped == (at, at + len(original)), (base, current)


@SETTINGS
@given(st.data(), texts, texts)
def test_an_insertion_point_between_unique_characters_is_found_after_edits_outside(
    data: Any, left: str, right: str
) -> None:
    base = left + "⟦⟧" + right
    new_left, _ = edited(data, left, new=typed)
    new_right, _ = edited(data, right, new=typed)
    at = len(new_left) + 1
    assert map_range(base, new_left + "⟦⟧" + new_right, len(left) + 1, len(left) + 1, "") == (at, at)


@SETTINGS
@given(st.data(), texts)
def test_a_range_untouched_by_edits_is_found_unless_the_edits_are_ambiguous(data: Any, base: str) -> None:
    start, end = a_range(data, base)
    original = base[start:end]
    new_left, left_size = edited(data, base[:start])
    new_right, right_size = edited(data, base[end:])
    current = new_left + original + new_right
    mapped = map_range(base, current, start, end, original)
    if mapped is None:
        event("an ambiguous conflict")
        # Repetitive text is ambiguous ("aaa" -> "a": which two "a"s went?). A conflict is
        # right only when the diff, which touches the range, explains the change at most
        # as economically as the edits the test made.
        assert diff_size(base, current) <= left_size + right_size, (base, current, start, end)
    else:
        assert current[mapped[0] : mapped[1]] == original


def inside(data: Any, original: str) -> tuple[int, int]:
    """A replacement in ``original``, or an insertion strictly inside it (one at either end
    of a range is outside it)."""
    if len(original) > 1 and data.draw(st.booleans()):
        i = data.draw(st.integers(1, len(original) - 1))
        return i, i
    i = data.draw(st.integers(0, len(original) - 1))
    return i, data.draw(st.integers(i + 1, len(original)))


@SETTINGS
@given(st.data(), texts.filter(bool))
def test_an_edit_inside_a_range_is_a_conflict(data: Any, base: str) -> None:
    start = data.draw(st.integers(0, len(base) - 1))
    end = data.draw(st.integers(start + 1, len(base)))
    original = base[start:end]
    i, j = inside(data, original)
    new_left, left_size = edited(data, base[:start])
    new_right, right_size = edited(data, base[end:])
    current = new_left + original[:i] + MARK + original[j:] + new_right
    if map_range(base, current, start, end, original) is not None:
        event("an ambiguous match")
        # Ambiguous, as above: "aa" -> "§a" replaced either "a". Finding the range is right
        # only when the diff, which leaves it alone, is at most as economical as the edits.
        assert diff_size(base, current) <= left_size + (j - i) + len(MARK) + right_size, (base, current, start, end)


@SETTINGS
@given(st.data(), texts, texts, texts)
def test_an_edit_inside_a_range_between_unique_characters_is_a_conflict(
    data: Any, left: str, middle: str, right: str
) -> None:
    original = "⟦" + middle + "⟧"
    i, j = inside(data, original)
    new_left, _ = edited(data, left, new=typed)
    new_right, _ = edited(data, right, new=typed)
    current = new_left + original[:i] + MARK + original[j:] + new_right
    assert map_range(left + original + right, current, len(left), len(left) + len(original), original) is None


@SETTINGS
@given(st.data(), any_texts, any_texts)
def test_a_mapped_range_always_holds_the_original(data: Any, base: str, current: str) -> None:
    start, end = a_range(data, base)
    mapped = map_range(base, current, start, end, base[start:end])
    if mapped is not None:
        assert current[mapped[0] : mapped[1]] == base[start:end]


@SETTINGS
@given(st.data(), any_texts)
def test_identity(data: Any, base: str) -> None:
    start, end = a_range(data, base)
    assert map_range(base, base, start, end, base[start:end]) == (start, end)
    if base[start:end] + "x" != base[start:end]:
        assert map_range(base, base, start, end, base[start:end] + "x") is None


@pytest.mark.parametrize(
    ("current", "expected"),
    [
        ("aa XX bcd 😀", (6, 9)),  # an insertion at the range's start moves it
        ("a bcdXX 😀", (2, 5)),  # one at its end leaves it
        ("Z bcd 😀", (2, 5)),  # a replacement touching its start
        ("a bcdZ😀", (2, 5)),  # one touching its end
        ("a bcd", (2, 5)),  # a deletion after it
        ("bcd 😀", (0, 3)),  # one before it
        ("a bXd 😀", None),  # inside it
        ("a b", None),  # across its end
        ("a  😀", None),  # the whole range deleted
    ],
)
def test_range_rules(current: str, expected: tuple[int, int] | None) -> None:
    base = "a bcd 😀"
    assert map_range(base, current, 2, 5, "bcd") == expected


def test_an_insertion_point_moves_with_text_typed_at_it_and_conflicts_inside_a_change() -> None:
    base = "one two"
    assert map_range(base, "one XX two", 4, 4, "") == (7, 7)
    assert map_range(base, "one tw", 7, 7, "") == (6, 6)
    assert map_range(base, "oXYZ two", 2, 2, "") is None  # "ne" replaced around the point
    assert map_range(base, "oe two", 1, 1, "") == (1, 1)  # a deletion starting at it


def test_a_deletion_beside_a_repeat_slides_out_of_the_range() -> None:
    # "X\nX\n" -> "X\n": trimming the common prefix blames the second line, but deleting the
    # first is the same change, and then the range (the second line) is untouched.
    assert map_range("X\nX\n", "X\n", 2, 4, "X\n") == (0, 2)
    assert map_range("ab", "b", 1, 2, "b") == (0, 1)
    # An insertion inside a repeat, likewise: "aa" -> "aaa" may have typed the "a" before it.
    assert map_range("xaay", "xaaay", 2, 3, "a") in ((2, 3), (3, 4))


def test_an_edited_line_is_not_mistaken_for_its_unedited_twin() -> None:
    # A line diff matches the first "x = 1" line to the second (the earliest equal line),
    # which would move the range onto the line the person did not edit.
    base, current = "ax = 1\nx = 1\n", "a§ = 1\nx = 1\n¤"
    assert map_range(base, current, 1, 4, "x =") is None


def test_a_wrong_original_is_a_conflict() -> None:
    assert map_range("abc", "abc", 0, 1, "b") is None
    assert map_range("abc", "abcd", 0, 1, "b") is None


# --------------------------------------------------------------------------- apply_many


@SETTINGS
@given(st.data(), texts)
def test_apply_many_applies_a_non_overlapping_subset(data: Any, text: str) -> None:
    items = [(*a_range(data, text), data.draw(texts)) for _ in range(data.draw(st.integers(0, 6)))]
    result, skipped = apply_many(text, items)
    order = sorted(range(len(items)), key=lambda i: (items[i][0], items[i][1] > items[i][0]))
    applied = [i for i in order if i not in skipped]
    for i, k in pairwise(applied):
        assert items[i][1] <= items[k][0], "applied items overlap"
    for j in skipped:  # each skipped one overlaps one applied before it
        assert any(items[j][0] < items[k][1] for k in order[: order.index(j)] if k in applied)
    expected = text
    for i in reversed(applied):  # from the end, so earlier offsets stay valid
        start, end, new = items[i]
        expected = expected[:start] + new + expected[end:]
    assert result == expected


@SETTINGS
@given(st.data(), texts)
def test_apply_many_skips_nothing_when_nothing_overlaps(data: Any, text: str) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    items = [(cuts[i], cuts[i + 1], data.draw(texts)) for i in range(0, len(cuts) - 1, 2)]
    shuffled = data.draw(st.permutations(items))
    result, skipped = apply_many(text, shuffled)
    assert skipped == []
    expected, pos = [], 0
    # Insertions at one point keep their given order, before a replacement starting there.
    for start, end, new in sorted(shuffled, key=lambda item: (item[0], item[1] > item[0])):
        expected += [text[pos:start], new]
        pos = end
    assert result == "".join([*expected, text[pos:]])


def test_apply_many_rules() -> None:
    assert apply_many("abcdef", [(4, 5, "E"), (0, 1, "A")]) == ("AbcdEf", [])
    assert apply_many("abc", [(1, 1, "X"), (1, 1, "Y")]) == ("aXYbc", [])
    assert apply_many("abc", [(1, 2, "B"), (1, 1, "X")]) == ("aXBc", [])  # insertion first
    assert apply_many("abcdef", [(0, 3, "1"), (2, 4, "2"), (4, 4, "3")]) == ("1d3ef", [1])
    assert apply_many("abcdef", [(2, 4, "2"), (0, 3, "1")]) == ("1def", [0])  # document order
    assert apply_many("", []) == ("", [])
    with pytest.raises(ArgumentError):
        apply_many("abc", [(2, 4, "x")])
    with pytest.raises(ArgumentError):
        apply_many("abc", [(2, 1, "x")])
