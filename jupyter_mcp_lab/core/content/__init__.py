"""The document layer's content model per kind: a document as addressed text parts.

``content_of(kind, text)`` parses a document's stored text into the model of its kind;
``locate`` finds where a change made on one part of an earlier content is in a later one.
"""

from __future__ import annotations

from collections.abc import Callable

from ..kinds import DocumentKind
from .base import WHOLE, DocumentContent, Part
from .locate import locate
from .notebook import NotebookContent
from .outline import OutlineContent
from .text import TextContent

Parser = Callable[[DocumentKind, str], DocumentContent]
PARSERS: dict[str, Parser] = {"notebook": NotebookContent.parse, "outline": OutlineContent.parse}


def content_of(kind: DocumentKind, text: str) -> DocumentContent:
    """The model of a document of ``kind`` stored as ``text`` (markdown, YAML and plain text
    are one part; a notebook a part per cell; an OPML outline a part per row)."""
    parse = PARSERS.get(kind, TextContent.parse)
    return parse(kind, text)


__all__ = [
    "WHOLE",
    "DocumentContent",
    "NotebookContent",
    "OutlineContent",
    "Part",
    "TextContent",
    "content_of",
    "locate",
]
