"""The chunk splitter finds the same chunk starts whether it tests every line or jumps
from one possible start to the next with a regex search (what ``Structure`` does)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.markdown.chunks import chunk_starts
from jupyter_mcp_lab.core.text import LineIndex, split_lines
from tests.core.test_structure_props import PROPS, TRICKY_LINES, markdown_docs


def both(text: str) -> tuple[list[int], list[int]]:
    lines = split_lines(text)
    return chunk_starts(lines), chunk_starts(lines, text, LineIndex(text).starts)


def test_back_to_back_starts() -> None:
    # Each line may start something: a jump that skipped the line after a start would miss one.
    text = "# a\n```\n# in code\n```\n# b\n$$\n# in math\n$$\n# c\n<!--\n# in html\n-->\n# d\n"
    by_line, jumping = both(text)
    assert by_line == jumping == [0, 4, 8, 12]


def test_front_matter_and_no_break_at_the_end() -> None:
    text = "---\ntitle: x\n---\n# a\ntext\n# b"
    assert both(text) == ([0, 3, 5], [0, 3, 5])


@PROPS
@given(markdown_docs())
def test_generated_documents(text: str) -> None:
    by_line, jumping = both(text)
    assert by_line == jumping


@PROPS
@given(st.lists(TRICKY_LINES, max_size=30))
def test_line_soups(lines: list[str]) -> None:
    by_line, jumping = both("\n".join(lines))
    assert by_line == jumping
