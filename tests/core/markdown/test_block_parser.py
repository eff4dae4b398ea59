"""The guarded block parser gives markdown-it-py's tokens, only faster.

``block_parser()`` skips rule calls a line's first character already rules out, reorders
nothing, and makes lighter token objects. Each check here compares the whole token stream
(every token, nested ones too, with type, level, map, markup, info, content, meta, hidden)
against the same parser built without any of that, except what it leaves out on purpose:
the rows and cells of a table and the text of a paragraph.
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
    "| a |\n|---|\n| 1 |\n# ends the table\n",  # a terminator ends the rows
    "| a |\n|---|\n| 1 |\n    | indented as code |\n| 2 |\n",
    "- | a |\n  |---|\n  | 1 |\nlazy\n",  # a table in a list item, then a line below its indent
    "> | a |\n> |---|\n> | 1 |\n",
    "| a | b |\n|---|---|\n" + "|\n" * 30,  # rows with no cells (autocompleted)
    "-- -\n*-*\n- - foo\n_ _ _\n-\t-\t-\n* *\n",  # near-rules
    "a\n    b\n> c\nd\n",  # lazy continuations (indented, quoted)
    "> a\nb\n> - c\nd\n",
    "a\r\nb\r\n\r\n- c\rd\x00\n",  # \r\n, a lone \r and NUL are normalized first
    "",
    "\n\n",
]


def tokens(md: Any, text: str) -> list[tuple[Any, ...]]:
    out = []
    depth = 0  # inside a table
    paragraph = False
    for t in md.parse(text, {}):
        depth -= t.type == "table_close"
        if depth == 0:
            content = "" if paragraph else t.content
            out.append(
                (
                    t.type,
                    t.tag,
                    t.nesting,
                    t.level,
                    t.map,
                    t.markup,
                    t.info,
                    content,
                    t.meta or {},
                    t.hidden,
                    t.attrs or {},
                )
            )
        depth += t.type == "table_open"
        paragraph = t.type == "paragraph_open"
    return out


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
