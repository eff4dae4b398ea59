"""Finding text in a document (any kind): every occurrence with its line, column and the
line around it. Positions are code point offsets, lines and columns 1-based. Replacing is
an edit (``document.edit`` find_replace), never a second implementation."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.markdown.edits import find_spans
from ...core.text import LineIndex
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target

MAX_MATCHES = 300  # a listing stays well inside the response limit
CONTEXT = 30  # code points of the line either side of a match


class SearchParams(DocumentTarget):
    query: str = Field(min_length=1, description="Text to search for (literal unless regex).")
    caseSensitive: bool = Field(False, description="Case-sensitive search (default false).")
    regex: bool = Field(False, description="query is a regular expression (Python syntax).")


class SearchMatch(BaseModel):
    start: int = Field(description="Start (code point offset).")
    end: int = Field(description="End (exclusive).")
    line: int = Field(description="1-based line of the start.")
    column: int = Field(description="1-based column of the start, in code points.")
    text: str = Field(description="The matched text (its case as in the document).")
    context: str = Field(description="The line around the match.")


class SearchResult(BaseModel):
    matches: list[SearchMatch]
    count: int = Field(description=f"How many occurrences there are (matches lists the first {MAX_MATCHES}).")
    truncated: bool
    revision: str
    filePath: str | None


@operation("document.search", title="Search document", read_only=True)
async def search(ctx: OpContext, params: SearchParams) -> SearchResult:
    """Find every occurrence of a text (or a regular expression) in a document: {start, end,
    line, column, text, context} per match, in document order (case-insensitive unless
    caseSensitive)."""
    doc, _ = await resolve_target(ctx, params)
    text = doc.text
    spans = find_spans(text, params.query, case_sensitive=params.caseSensitive, regex=params.regex)
    lines = LineIndex(text)
    matches = []
    for start, end in spans[:MAX_MATCHES]:
        line, column = lines.position(start)
        first, last = lines.start_of(line), lines.end_of(lines.line_of(end))
        a, b = max(first, start - CONTEXT), min(max(last, end), end + CONTEXT)
        found = SearchMatch(start=start, end=end, line=line, column=column, text=text[start:end], context=text[a:b])
        matches.append(found)
    return SearchResult(
        matches=matches,
        count=len(spans),
        truncated=len(spans) > MAX_MATCHES,
        revision=doc.revision,
        filePath=doc.path,
    )
