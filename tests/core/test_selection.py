"""Selections: how they follow edits, the tab's lazy mapping, the person's hook, cursor context."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.documents import OpenDocument
from jupyter_mcp_lab.core.selection import CONTEXT_CAP, CursorContext, Selection, cursor_context, map_position
from jupyter_mcp_lab.core.workspace import Tab, report_person_selection

# --------------------------------------------------------------------------- mapping


def moved(text: str, sel: Selection, start: int, end: int, new: str) -> tuple[str, Selection]:
    after = text[:start] + new + text[end:]
    return after, sel.mapped(text, after)


@pytest.mark.parametrize(
    ("pos", "right", "expected"),
    [
        (3, True, 3),  # before the region: stays
        (5, True, 5),  # at its start (text is removed there): stays
        (6, True, 9),  # inside: the end of the new text
        (8, False, 9),  # at its end: shifts like anything after it
        (12, True, 13),  # after: shifts by the length difference (+1)
    ],
)
def test_map_position_through_a_replacement(pos: int, right: bool, expected: int) -> None:
    # before[5:8] (3 characters) became 4 characters at after[5:9].
    assert map_position(pos, [(5, 8, 5, 9)], right=right) == expected


def test_map_position_at_an_insertion_point_follows_the_side() -> None:
    assert map_position(4, [(4, 4, 4, 7)], right=True) == 7
    assert map_position(4, [(4, 4, 4, 7)], right=False) == 4
    # Through two regions, the shifts add up; inside the second collapses to its end.
    two = [(2, 3, 2, 2), (6, 6, 5, 9)]  # delete 1 char at 2, then insert 4 at (old) 6
    assert [map_position(p, two, right=True) for p in (1, 4, 6, 8)] == [1, 3, 9, 11]


def test_a_cursor_stays_before_shifts_after_and_collapses_inside() -> None:
    text = "0123456789"
    assert moved(text, Selection.cursor(2), 5, 7, "abcd")[1] == Selection.cursor(2)
    assert moved(text, Selection.cursor(8), 5, 7, "abcd")[1] == Selection.cursor(10)
    assert moved(text, Selection.cursor(6), 5, 7, "XY_Z")[1] == Selection.cursor(9)  # end of the new text
    assert moved(text, Selection.cursor(5), 5, 5, "ab")[1] == Selection.cursor(7)  # typing pushes it along


def test_a_range_keeps_its_text_next_to_inserts_and_grows_over_inside_ones() -> None:
    text = "aa [sel] bb"
    sel = Selection(3, 8)
    for at in (3, 8):  # right against either edge
        after, m = moved(text, sel, at, at, "XYZ")
        assert after[m.from_ : m.to] == "[sel]"
    after, m = moved(text, sel, 5, 5, "++")
    assert after[m.from_ : m.to] == "[s++el]"
    # Edited inside (the text is not kept) and typed right after it: the end still does not grow.
    m = sel.mapped(text, "aa [sEl]XYZ bb")
    assert (m.from_, m.to) == (3, 8)
    after, m = moved(text, sel, 0, 10, "Q")  # an edit over an edge: that edge collapses to its end
    assert (m.from_, m.to, after) == (1, 1, "Qb")


def test_direction_is_kept_and_everything_is_clamped() -> None:
    back = Selection(8, 3)  # dragged right to left
    after, m = moved("aa [sel] bb", back, 0, 0, "__")
    assert (m.anchor, m.head, after[m.from_ : m.to]) == (10, 5, "[sel]")
    assert Selection(2, 40).mapped("abc", "") == Selection(0, 0)
    assert Selection(-3, 99).clamped(5) == Selection(0, 5)


def test_two_edits_on_both_sides_keep_the_text_between() -> None:
    text = "alpha beta gamma delta"
    sel = Selection(6, 16)  # "beta gamma"
    after = "ALPHA! beta gamma delta, epsilon"
    m = sel.mapped(text, after)
    assert after[m.from_ : m.to] == "beta gamma"


texts = st.text(alphabet="ab \n", max_size=30)


@st.composite
def change_and_outside_selection(draw: st.DrawFn) -> tuple[str, int, int, str, int, int]:
    text = draw(texts)
    a = draw(st.integers(0, len(text)))
    b = draw(st.integers(a, len(text)))
    new = draw(st.text(alphabet="ab \nX", max_size=8))
    # A selection that the change does not reach into: wholly before it or wholly after it.
    if draw(st.booleans()):
        f = draw(st.integers(0, a))
        t = draw(st.integers(f, a))
    else:
        f = draw(st.integers(b, len(text)))
        t = draw(st.integers(f, len(text)))
    return text, a, b, new, f, t


@given(change_and_outside_selection(), st.booleans())
def test_a_selection_outside_the_change_keeps_its_text(case: tuple[str, int, int, str, int, int], back: bool) -> None:
    text, a, b, new, f, t = case
    sel = Selection(t, f) if back else Selection(f, t)
    after, m = moved(text, sel, a, b, new)
    assert after[m.from_ : m.to] == text[f:t]
    assert (m.anchor > m.head) == (back and f != t)


@given(texts, texts, st.integers(0, 40), st.integers(0, 40))
def test_any_mapped_selection_is_a_valid_range(before: str, after: str, x: int, y: int) -> None:
    m = Selection(x, y).mapped(before, after)
    assert 0 <= m.from_ <= m.to <= len(after)
    assert (m.anchor <= m.head) == (min(x, len(before)) <= min(y, len(before))) or m.empty


# --------------------------------------------------------------------------- the tab


def tab_on(text: str) -> Tab:
    return Tab("tab-1", OpenDocument("doc.md", "doc.md", "markdown", text, text), "main")


def test_the_tab_maps_its_selection_lazily_when_the_text_changed() -> None:
    tab = tab_on("one two three")
    assert (tab.current_selection(), tab.selection_source) == (Selection(0, 0), "agent")
    tab.set_selection(Selection(4, 7))
    tab.doc.text = "zero one two three"
    sel = tab.current_selection()
    assert tab.doc.text[sel.from_ : sel.to] == "two"
    tab.doc.text = "two"  # shorter than the old offsets
    assert tab.current_selection().to <= 3


def test_the_persons_selection_replaces_the_agents_until_an_agent_sets_one() -> None:
    tab = tab_on("one two three")
    tab.set_selection(Selection(0, 3))
    sel = report_person_selection(tab, 8, 13)
    assert (sel, tab.selection_source) == (Selection(8, 13), "person")
    # Offsets the browser reported against a text the server has not seen yet are mapped
    # from that text; beyond the end they are clamped, never refused.
    report_person_selection(tab, 4, 7, text="one two")
    assert (tab.current_selection(), tab.selection_source) == (Selection(4, 7), "person")
    assert report_person_selection(tab, 2, 999) == Selection(2, 13)
    tab.set_selection(Selection.cursor(1))
    assert (tab.current_selection(), tab.selection_source) == (Selection(1, 1), "agent")


# --------------------------------------------------------------------------- cursor context

MD = """\
---
a: 1
---

## Head

para one
para two

- item a
- item b
  cont

1. first
2. second

- [ ] task

> quote line
> - quoted item

```python
x = 1

y = 2
```

| a | b |
|---|---|
| 1 | 2 |

- item
  > inner quote
"""


def ctx_at(needle: str, text: str = MD, *, markdown: bool = True, before: int = 3, after: int = 3) -> CursorContext:
    return cursor_context(text, text.index(needle), markdown=markdown, lines_before=before, lines_after=after)


@pytest.mark.parametrize(
    ("needle", "kind", "extra"),
    [
        ("Head", "heading", {"level": 2}),
        ("para two", "paragraph", {}),
        ("cont", "paragraph", {"in_list": "bullet"}),
        ("second", "paragraph", {"in_list": "ordered"}),
        ("task", "paragraph", {"in_list": "task"}),
        ("quote line", "paragraph", {"in_blockquote": True}),
        ("quoted item", "paragraph", {"in_blockquote": True, "in_list": "bullet"}),
        ("y = 2", "codeBlock", {"language": "python"}),
        ("| 1", "tableCell", {"in_table": True}),
        ("inner quote", "paragraph", {"in_list": "bullet", "in_blockquote": True}),
        ("a: 1", "frontmatter", {}),
    ],
)
def test_the_block_around_the_cursor(needle: str, kind: str, extra: dict[str, object]) -> None:
    b = ctx_at(needle).block
    assert b.type == kind
    expected = {"level": None, "language": None, "in_list": None, "in_blockquote": False, "in_table": False, **extra}
    actual = {k: getattr(b, k) for k in expected}
    assert actual == expected


def test_lines_paragraph_and_block_start() -> None:
    c = ctx_at("para two")
    assert (c.current_line, c.current_paragraph) == ("para two", "para one\npara two")
    assert (c.before, c.after) == ("## Head\n\npara one\n", "\n- item a\n- item b\n")
    assert c.block.position == MD.index("para one")
    item = ctx_at("cont")  # within a list the paragraph is the item, which starts the block
    assert (item.current_paragraph, item.block.position) == ("- item b\n  cont", MD.index("- item b"))
    code = ctx_at("y = 2")  # blank lines cut a code block's paragraph
    assert (code.current_paragraph, code.block.position) == ("y = 2\n```", MD.index("```python"))
    assert ctx_at("y = 2", before=0, after=0).before == ctx_at("y = 2", before=0, after=0).after == ""


def test_between_blocks_and_outside_markdown() -> None:
    text = "one\n\ntwo\n"
    blank = cursor_context(text, 4, markdown=True, lines_before=3, lines_after=3)
    assert (blank.block.type, blank.block.position, blank.current_line, blank.current_paragraph) == ("blank", 4, "", "")
    plain = cursor_context("x: 1\ny: 2\n\nz: 3\n", 6, markdown=False, lines_before=1, lines_after=1)
    assert (plain.block.type, plain.current_paragraph, plain.before, plain.after) == (
        "text",
        "x: 1\ny: 2",
        "x: 1\n",
        "\n",
    )


def test_a_huge_line_is_capped() -> None:
    line = "x" * (CONTEXT_CAP * 3)
    c = cursor_context(line, len(line) // 2, markdown=False, lines_before=3, lines_after=3)
    assert len(c.current_line) == len(c.current_paragraph) == CONTEXT_CAP
