"""The guarded block parser gives exactly markdown-it-py's tokens, only faster.

``block_parser()`` skips rule calls a line's first character already rules out, reorders
nothing, and makes lighter token objects. Each check here compares the whole token stream
(every token, nested ones too, with type, level, map, markup, info, content, meta, hidden)
against the same parser built without any of that.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from jupyter_mcp_lab.core.markdown.block_parser import block_parser
from tests.core.test_structure_props import PROPS, TRICKY_LINES, _real_world_files, markdown_docs

GUARDED = block_parser()
PLAIN = block_parser(guards=False)

# Lines where a guard's shortcut could differ from the rule it stands for.
EDGES = [
    "a\n---\n",  # setext heading after one line
    "a\nb\n  ===  \n",  # setext after two lines, indented underline with trailing blanks
    "a\n- -\n",  # not an underline: a list item that interrupts
    "a\n-\n",  # a lone dash under a paragraph is a setext underline
    "- a\n  ---\n",  # setext inside a list item
    "- a\nb\n  ---\n",  # lazy continuation, then an underline inside the item
    "> a\n---\n",  # the underline ends the quote instead
    "| a | b |\n|---|:-:|\n| 1 | 2 |\n",
    "a | b\n- | -\n",  # "- " on the delimiter row: a list, not a table
    "a | b\n-|-\n",
    "a | b\n--- | ---\nc\n",
    "a\n|---|\n",  # delimiter row without a pipe in the header line
    "    code\n\n    more\n",
    "- a\n\n      code in item\n",
    "$$\nx\n$$\n",
    "[^1]: note\n\n[ref]: /url\n",
    "<div>\nhtml\n</div>\n",
    "```\nfence\n```\n~~~\nx\n~~~\n",
    "1. one\n2) two\n\n* star\n+ plus\n",
    "***\n___\n- - -\n",
    "\t- tab indented\n",
    "---\ntitle: x\n---\n# h\n",
    "a\n" * 40 + "---\n",  # an underline beyond the guard's scan window
    "- a\n" * 40 + "\n",  # a long tight list
    "",
    "\n\n",
]


def tokens(md: Any, text: str) -> list[tuple[Any, ...]]:
    return [
        (t.type, t.tag, t.nesting, t.level, t.map, t.markup, t.info, t.content, t.meta or {}, t.hidden, t.attrs or {})
        for t in md.parse(text, {})
    ]


def test_edges() -> None:
    for text in EDGES:
        assert tokens(GUARDED, text) == tokens(PLAIN, text), text


@PROPS
@given(markdown_docs())
def test_generated_documents(text: str) -> None:
    assert tokens(GUARDED, text) == tokens(PLAIN, text)


@PROPS
@given(st.lists(TRICKY_LINES, max_size=30))
def test_line_soups(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert tokens(GUARDED, text) == tokens(PLAIN, text)


def test_real_world_files() -> None:
    checked = 0
    for path in _real_world_files()[:250]:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        assert tokens(GUARDED, text) == tokens(PLAIN, text), path
        checked += 1
    assert checked >= 1


def test_the_guards_are_installed() -> None:
    # A reference that is the guarded parser itself would make every check above vacuous.
    assert GUARDED.block.ruler.getRules("") is not PLAIN.block.ruler.getRules("")
    assert len(GUARDED.block.ruler.getRules("")) == 1
    assert len(PLAIN.block.ruler.getRules("")) > 5
