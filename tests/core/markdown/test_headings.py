"""The ATX heading syntax, defined once (``core/markdown/headings``)."""

from __future__ import annotations

import pytest

from jupyter_mcp_lab.core.markdown.headings import ATX_HEADING, ATX_OPEN, is_heading_line


@pytest.mark.parametrize(
    ("line", "opens", "title"),
    [
        ("# Title", "# ", "Title"),
        ("###### Six", "###### ", "Six"),
        ("   ## Indented ##  ", "   ## ", "Indented"),
        ("#", "#", ""),
        ("## a # b ###", "## ", "a # b"),
        ("#\tTab", "#\t", "Tab"),
    ],
)
def test_headings(line: str, opens: str, title: str) -> None:
    m = ATX_OPEN.match(line)
    assert m is not None and m.group(0) == opens
    h = ATX_HEADING.match(line)
    assert h is not None and h.group(1) == title
    assert is_heading_line(line)


@pytest.mark.parametrize("line", ["#hashtag", "####### seven", "    # code", "text # not", "", "\\# escaped"])
def test_not_headings(line: str) -> None:
    assert ATX_OPEN.match(line) is None and ATX_HEADING.match(line) is None
    assert not is_heading_line(line)


def test_column0_is_what_starts_a_heading_after_any_container() -> None:
    assert is_heading_line("  # x") and not is_heading_line("  # x", column0=True)
    assert is_heading_line("# x", column0=True)
