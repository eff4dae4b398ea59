"""Inserted content: inline math, math blocks, Mermaid diagrams, wiki links (vmark special tools).

Inline inserts (``$latex$``, ``[[target#heading|alias]]``) go exactly at the offset when it
is in text; an offset inside code, math, HTML or front matter, or inside a code span or a
link's destination, is refused. In a table cell a ``|`` in the inserted text is escaped.
Between blocks, an inline insert becomes a paragraph of its own.

Block inserts (math blocks, Mermaid) land on their own lines with the blank lines needed
around them and never split a block: an offset at a block's first character inserts before
the block, an offset further inside it inserts after the block (see ``insert_block``).
"""

from __future__ import annotations

import re

from ..errors import ArgumentError
from ..text import TextEdit
from .blocks import insert_block
from .inline import scan_inline, segment
from .structure import structure_of

_TEXT_BLOCKS = ("paragraph", "heading", "list", "blockquote", "table", "footnote")


def _text(value: object, argument: str, pattern: str | None = None, what: str = "") -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArgumentError(f"{argument} must be a non-empty string", argument)
    if pattern and re.search(pattern, value):
        raise ArgumentError(f"{argument} must not contain {what}", argument)
    return value


def _inline(text: str, offset: int, snippet: str) -> list[TextEdit]:
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= len(text):
        raise ArgumentError(f"offset must be an offset in the document (0..{len(text)})", "offset")
    block = structure_of(text).block_at(offset)
    if block is None:
        return [insert_block(text, offset, snippet)]
    if block.type not in _TEXT_BLOCKS:
        raise ArgumentError(
            f"offset {offset} is inside {block.id} ({block.type}), where inline text does not render", "offset"
        )
    g0, g1 = segment(text, offset, offset, "offset")
    offset = min(max(offset, g0), g1)  # a list marker, quote mark or heading mark: the text starts after it
    inline = scan_inline(text, g0, g1)
    cuts = [(a, b) for a, b, _ in inline.opaque] + [(sp.o0, sp.c1) for sp in inline.spans if sp.kind == "code"]
    cuts += [(sp.c0 + 1, sp.c1) for sp in inline.spans if sp.kind == "link"]
    if any(a < offset < b for a, b in cuts):
        raise ArgumentError(
            f"offset {offset} is inside a code span, link destination or other inline element", "offset"
        )
    if block.type == "table":
        snippet = snippet.replace("|", "\\|")
    return [TextEdit(offset, offset, snippet)]


def insert_math_inline(text: str, offset: int, latex: str) -> list[TextEdit]:
    """Insert ``$latex$`` at ``offset``."""
    latex = _text(latex, "latex", r"\$|\n\s*\n", "a dollar sign or a blank line").strip()
    return _inline(text, offset, f"${latex}$")


def insert_math_block(text: str, offset: int, latex: str) -> list[TextEdit]:
    """Insert a ``$$`` math block as its own block."""
    latex = _text(latex, "latex", r"\$\$", "$$").strip("\r\n")
    if re.search(r"\n\s*\n", latex):
        raise ArgumentError("latex must not contain a blank line", "latex")
    return [insert_block(text, offset, "$$\n" + latex.replace("\r\n", "\n") + "\n$$")]


def insert_mermaid(text: str, offset: int, code: str) -> list[TextEdit]:
    """Insert a fenced ``mermaid`` code block as its own block."""
    code = _text(code, "code").strip("\r\n").replace("\r\n", "\n")
    longest = max((len(m) for m in re.findall(r"^ {0,3}(`{3,})", code, re.M)), default=2)
    fence = "`" * max(3, longest + 1)
    return [insert_block(text, offset, f"{fence}mermaid\n{code}\n{fence}")]


def insert_wiki_link(
    text: str, offset: int, target: str, alias: str | None = None, heading: str | None = None
) -> list[TextEdit]:
    """Insert ``[[target#heading|alias]]`` at ``offset``."""
    target = _text(target, "target", r"[\[\]|#\r\n]", "[, ], |, # or a line break").strip()
    link = target
    if heading is not None:
        link += "#" + _text(heading, "heading", r"[\[\]|\r\n]", "[, ], | or a line break").strip()
    if alias is not None:
        link += "|" + _text(alias, "alias", r"\]\]|[\r\n]", "]] or a line break").strip()
    return _inline(text, offset, f"[[{link}]]")
