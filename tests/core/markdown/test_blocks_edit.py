"""Block type changes, block inserts and deletes, the line-diff primitive."""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown.blocks import delete_block, insert_block, resolve_block
from jupyter_mcp_lab.core.markdown.blocks_edit import insert_horizontal_rule, set_block_type, toggle_block
from jupyter_mcp_lab.core.markdown.line_edits import replace_lines
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import TextEdit, apply_edits


def run(fn: Any, text: str, *args: Any, **kwargs: Any) -> str:
    return apply_edits(text, fn(text, *args, **kwargs))


DOC = "# Title\n\nSome text\nmore text\n\n> quoted\n> lines\n\n```py\nx = 1\n```\n"


@pytest.mark.parametrize(
    ("target", "kind", "kwargs", "expected"),
    [
        ("p-0", "heading", {"level": 2}, "# Title\n\n## Some text more text\n\n> quoted"),
        ("p-0", "blockquote", {}, "# Title\n\n> Some text\n> more text\n\n> quoted"),
        ("p-0", "codeBlock", {"language": "text"}, "# Title\n\n```text\nSome text\nmore text\n```\n\n> quoted"),
        ("p-0", "bullet", {}, "# Title\n\n- Some text\n  more text\n\n> quoted"),
        ("p-0", "ordered", {}, "# Title\n\n1. Some text\n   more text\n\n> quoted"),
        ("p-0", "task", {}, "# Title\n\n- [ ] Some text\n  more text\n\n> quoted"),
        ("h-0", "paragraph", {}, "Title\n\nSome text"),
        ("h-0", "heading", {"level": 3}, "### Title\n\nSome text"),
        ("h-0", "blockquote", {}, "> # Title\n\nSome text"),
        ("bq-0", "paragraph", {}, "more text\n\nquoted\nlines\n\n```py"),
        ("code-0", "paragraph", {}, "lines\n\nx = 1\n"),
        ("code-0", "codeBlock", {"language": "python"}, "lines\n\n```python\nx = 1\n```\n"),
        ("code-0", "heading", {"level": 1}, "lines\n\n# x = 1\n"),
    ],
)
def test_set_block_type(target: str, kind: str, kwargs: dict[str, Any], expected: str) -> None:
    out = run(set_block_type, DOC, target, kind, **kwargs)
    assert expected in out
    block = structure_of(DOC).by_id[target]
    assert out.startswith(DOC[: block.start]) and out.endswith(DOC[block.end :])  # nothing else moved
    assert len(structure_of(out).blocks) == len(structure_of(DOC).blocks)


def test_heading_level_change_is_one_character() -> None:
    assert set_block_type(DOC, "h-0", "heading", level=2) == [TextEdit(1, 1, "#")]
    assert set_block_type(DOC, "h-0", "heading", level=1) == []
    assert set_block_type(DOC, "p-0", "paragraph") == []
    assert set_block_type(DOC, "code-0", "codeBlock") == []


def test_setext_heading_and_offsets() -> None:
    text = "Title\n=====\n\nbody\n"
    assert run(set_block_type, text, 2, "heading", level=2) == "## Title\n\nbody\n"
    assert run(set_block_type, text, 0, "paragraph") == "Title\n\nbody\n"


def test_code_to_paragraph_escapes_block_syntax() -> None:
    text = "```\n# not a heading\n- not a list\n1. nor this\n```\n"
    assert run(set_block_type, text, "code-0", "paragraph") == "\\# not a heading\n\\- not a list\n1\\. nor this\n"


def test_code_fence_grows_around_fences() -> None:
    text = "use\n```\nfences\n"
    out = run(set_block_type, "use ``` here\n", "p-0", "codeBlock")
    assert out == "```\nuse ``` here\n```\n"
    para = "text\n````\n"  # a paragraph cannot hold a fence line; build one from a heading instead
    assert text and para
    heading = "# a\n"
    assert run(set_block_type, heading, "h-0", "codeBlock", language="md") == "```md\na\n```\n"


def test_list_sources() -> None:
    text = "- a\n- b\n  - b1\n- c\n"
    assert run(set_block_type, text, "list-0", "paragraph") == "a\n\nb\n\n- b1\n\nc\n"
    assert run(set_block_type, text, "list-0", "ordered") == "1. a\n2. b\n   - b1\n3. c\n"
    assert run(set_block_type, text, "list-0", "heading", level=2) == "## a b - b1 c\n"


def test_toggle_block() -> None:
    assert run(toggle_block, DOC, "h-0", "heading") == DOC.replace("# Title", "Title")
    assert run(toggle_block, DOC, "h-0", "heading", level=2) == DOC.replace("# Title", "## Title")
    assert run(toggle_block, DOC, "p-0", "heading") == DOC.replace("Some text\nmore text", "# Some text more text")
    assert run(toggle_block, DOC, "bq-0", "blockquote") == DOC.replace("> quoted\n> lines", "quoted\nlines")
    assert run(toggle_block, DOC, "p-0", "blockquote") == DOC.replace(
        "Some text\nmore text", "> Some text\n> more text"
    )
    assert run(toggle_block, DOC, "code-0", "codeBlock") == DOC.replace("```py\nx = 1\n```", "x = 1")
    assert run(toggle_block, DOC, "p-0", "bullet") == DOC.replace("Some text\nmore text", "- Some text\n  more text")
    listed = "- a\n- b\n"
    assert run(toggle_block, listed, "list-0", "bullet") == "a\n\nb\n"


def test_errors() -> None:
    with pytest.raises(ArgumentError) as err:
        set_block_type(DOC, "p-0", "sidebar")
    assert err.value.argument == "type"
    with pytest.raises(ArgumentError) as err:
        set_block_type(DOC, "p-0", "heading", level=7)
    assert err.value.argument == "level"
    with pytest.raises(ArgumentError) as err:
        set_block_type(DOC, "p-0", "codeBlock", language="a`b")
    assert err.value.argument == "language"
    with pytest.raises(DomainError) as derr:
        set_block_type(DOC, "p-9", "heading")
    assert derr.value.code == "NOT_FOUND"
    with pytest.raises(DomainError) as derr:
        resolve_block(DOC, DOC.index("\n\n") + 1)  # a blank line holds no block
    assert derr.value.code == "NOT_FOUND"
    with pytest.raises(ArgumentError):
        set_block_type("| a |\n| - |\n", "table-0", "heading")


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        ("para one\npara two\n\nnext\n", 3, "para one\npara two\n\n---\n\nnext\n"),  # inside: after the block
        ("para\n\nnext\n", 6, "para\n\n---\n\nnext\n"),  # at a block's start: before it
        ("para\n\n\nnext\n", 6, "para\n\n---\n\nnext\n"),  # on a blank line between blocks
        ("para\n", 5, "para\n\n---\n"),  # at the very end
        ("para", 4, "para\n\n---"),  # no final line break: none added
        ("# H\npara\n", 1, "# H\n\n---\n\npara\n"),  # adds the blank line the neighbour lacks
        ("# H\n", 0, "***\n\n# H\n"),  # at the start --- could open front matter
        ("", 0, "***\n"),
        ("a\r\n\r\nb\r\n", 1, "a\r\n\r\n---\r\n\r\nb\r\n"),  # the document's line breaks
        ("- a\n- b\n", 4, "- a\n- b\n\n---\n"),  # never inside a list
        ("```\ncode\n```\n", 5, "```\ncode\n```\n\n---\n"),
    ],
)
def test_insert_horizontal_rule(text: str, offset: int, expected: str) -> None:
    assert run(insert_horizontal_rule, text, offset) == expected


def test_insert_block_refuses_bad_offsets() -> None:
    for bad in (-1, 99, "3", True):
        with pytest.raises(ArgumentError) as err:
            insert_block("abc\n", bad, "x")  # type: ignore[arg-type]
        assert err.value.argument == "offset"


def test_delete_block() -> None:
    text = "a\n\nb\n\nc\n"
    st = structure_of(text)
    assert apply_edits(text, [delete_block(text, st.by_id["p-1"])]) == "a\n\nc\n"
    assert apply_edits(text, [delete_block(text, st.by_id["p-0"])]) == "b\n\nc\n"
    assert apply_edits(text, [delete_block(text, st.by_id["p-2"])]) == "a\n\nb\n"
    assert apply_edits("only\n", [delete_block("only\n", structure_of("only\n").by_id["p-0"])]) == ""


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        (["one", "TWO", "three"], "x\r\none\r\nTWO\r\nthree\r\ny"),
        (["one", "three"], "x\r\none\r\nthree\r\ny"),
        (["one", "two", "three", "four"], "x\r\none\r\ntwo\r\nthree\r\nfour\r\ny"),
        (["zero", "one", "two", "three"], "x\r\nzero\r\none\r\ntwo\r\nthree\r\ny"),
        (["one", "two"], "x\r\none\r\ntwo\r\ny"),
        ([], "x\r\ny"),
    ],
)
def test_replace_lines_keeps_line_breaks(new: list[str], expected: str) -> None:
    text = "x\r\none\r\ntwo\r\nthree\r\ny"
    assert apply_edits(text, replace_lines(text, 2, 4, new)) == expected


def test_replace_lines_is_minimal() -> None:
    text = "| a | b |\n| c | d |\n"
    assert replace_lines(text, 1, 2, ["| a | b |", "| c | e |"]) == [TextEdit(16, 17, "e")]
