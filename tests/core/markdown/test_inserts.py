"""Inserted math, diagrams and wiki links."""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError
from jupyter_mcp_lab.core.markdown.inserts import (
    insert_math_block,
    insert_math_inline,
    insert_mermaid,
    insert_wiki_link,
)
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import apply_edits


def run(fn: Any, text: str, *args: Any, **kwargs: Any) -> str:
    return apply_edits(text, fn(text, *args, **kwargs))


DOC = "# Notes\n\nEnergy is here.\n\n- item\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```py\nx = 1\n```\n"


def test_inline_math() -> None:
    at = DOC.index("here")
    assert run(insert_math_inline, DOC, at, " E = mc^2 ") == DOC.replace("here", "$E = mc^2$here")
    at = DOC.index("| 2")
    assert run(insert_math_inline, DOC, at + 2, "a|b") == DOC.replace("| 1 | 2 |", "| 1 | $a\\|b$2 |")
    assert run(insert_math_inline, "a\n\n\nb\n", 2, "x") == "a\n\n$x$\n\nb\n"  # between blocks: a paragraph


def test_inline_refusals() -> None:
    for bad in ("", "a$b", "a\n\nb"):
        with pytest.raises(ArgumentError) as err:
            insert_math_inline(DOC, 0, bad)
        assert err.value.argument == "latex"
    with pytest.raises(ArgumentError) as err:
        insert_math_inline(DOC, DOC.index("x = 1"), "y")
    assert err.value.argument == "offset"
    text = "see `co de` and [l](http://u)\n"
    for part in ("o d", "ttp"):
        with pytest.raises(ArgumentError):
            insert_wiki_link(text, text.index(part) + 1, "T")


def test_list_marker_offset_moves_to_the_text() -> None:
    assert run(insert_wiki_link, DOC, DOC.index("- item"), "Page") == DOC.replace("- item", "- [[Page]]item")


@pytest.mark.parametrize(
    ("kwargs", "link"),
    [
        ({}, "[[Target]]"),
        ({"alias": "shown"}, "[[Target|shown]]"),
        ({"heading": "Part 2"}, "[[Target#Part 2]]"),
        ({"heading": "H", "alias": "A"}, "[[Target#H|A]]"),
    ],
)
def test_wiki_link(kwargs: dict[str, str], link: str) -> None:
    at = DOC.index("here")
    assert run(insert_wiki_link, DOC, at, "Target", **kwargs) == DOC.replace("here", link + "here")


def test_wiki_link_refusals() -> None:
    for args, argument in (
        (("a|b",), "target"),
        (("a#b",), "target"),
        (("",), "target"),
        (("a", "x]]y"), "alias"),
        (("a", None, "h|x"), "heading"),
    ):
        with pytest.raises(ArgumentError) as err:
            insert_wiki_link(DOC, 0, *args)
        assert err.value.argument == argument


def test_math_block_lands_after_the_block() -> None:
    at = DOC.index("is here")
    out = run(insert_math_block, DOC, at, "\\int_0^1 x\\,dx")
    assert out == DOC.replace("Energy is here.\n", "Energy is here.\n\n$$\n\\int_0^1 x\\,dx\n$$\n")
    assert [b.type for b in structure_of(out).blocks].count("math") == 1
    with pytest.raises(ArgumentError):
        insert_math_block(DOC, 0, "a\n\nb")


def test_mermaid() -> None:
    code = "graph TD\n    A[Start] --> B[End]"
    out = run(insert_mermaid, DOC, len(DOC), code)
    assert out == DOC + "\n```mermaid\ngraph TD\n    A[Start] --> B[End]\n```\n"
    inner = run(insert_mermaid, "x\n", 0, "```\nnested\n```")
    assert inner == "````mermaid\n```\nnested\n```\n````\n\nx\n"
    crlf = run(insert_mermaid, "a\r\n", 1, "graph LR\r\n  A-->B")
    assert crlf == "a\r\n\r\n```mermaid\r\ngraph LR\r\n  A-->B\r\n```\r\n"
