"""A markdown row's topic as text: read as rendered, written so that it renders as given.

A topic reads as the plain text a person sees in the rendered document: backslash escapes
and entities resolved (``a\\*b`` is ``a*b``, ``&amp;`` is ``&``), emphasis, strikethrough and
link markup left out (``**bold**`` is ``bold``, ``[site](https://x.org)`` is ``site``, an
image its alt text), a code span's text without its backticks, inline HTML tags left out,
inline math as written (``$x$``). It is the text OPML topics hold, and what search matches.

A topic is written as it is when it reads back unchanged there (``snake_case``, ``a*b``,
``Ideas & notes``); else with every character that could be markup backslash-escaped. A
line that would start a block (``1.``, ``#``, ``>``, ``- ``…) or an item's checkbox is escaped
where it starts, and a heading's closing ``#`` run. So a topic read and written back is the
same text, and ``update_row`` with the topic it read leaves the row as it is (markup too).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from .blocks_edit import _escape

_MD = MarkdownIt("commonmark").enable("strikethrough").use(dollarmath_plugin)
_LOCK = threading.Lock()  # markdown-it's parser objects are not safe to share between threads
_MARKUP = re.compile(r"[\\`*_\[\]<>&!~$]")  # a topic without these reads as it is written
_ESCAPE = re.compile(r"([\\`*_\[\]<>&!~$])")
_TASK_TEXT = re.compile(r"\[[ xX]\](?:[ \t]|$)")
_CLOSING = re.compile(r"([ \t])(#+)$")  # would close an ATX heading


def _text(tokens: list[Any]) -> str:
    out: list[str] = []
    for tok in tokens:
        if tok.type in ("text", "code_inline"):
            out.append(tok.content)
        elif tok.type == "math_inline":
            out.append(f"${tok.content}$")
        elif tok.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif tok.children:  # an image: its alt text
            out.append(_text(tok.children))
    return "".join(out)


def plain_topic(source: str) -> str:
    """The text a topic's markdown (one paragraph's lines joined) renders as."""
    if not _MARKUP.search(source):
        return source
    with _LOCK:
        tokens = _MD.parseInline(source)
    return " ".join(_text((tokens[0].children or []) if tokens else []).split())


def topic_source(value: str, form: str) -> str:
    """The markdown of a topic (one line, ``" ".join(value.split())``) in a row of ``form``."""
    text = value if plain_topic(value) == value else _ESCAPE.sub(r"\\\1", value)
    if form == "heading":
        return _CLOSING.sub(r"\1\\\2", text)
    text = _escape(text)
    return "\\" + text if _TASK_TEXT.match(text) else text
