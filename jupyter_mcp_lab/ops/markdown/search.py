"""Find text in a tab's document, and replace it (VMark's document_search / document_replace).

Matching is literal (no patterns) on the document's source. Positions are code point
offsets, lines 1-based. A replacement goes through ``mutate`` like any change; under the
review policy each occurrence is staged as its own suggestion where whole unchanged lines
separate it from the next (occurrences on one line or adjacent lines share one).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import ArgumentError
from ...core.text import LineIndex, TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import DONE, Mode, mutate_as_asked
from .editor import EditorEditParams, EditorParams, tab_for

MAX_MATCHES = 300  # a listing stays well inside the response limit
CONTEXT = 30  # code points of the line either side of a match


def find(text: str, query: str, *, case_sensitive: bool) -> list[tuple[int, int]]:
    """Spans of the non-overlapping occurrences of ``query`` in ``text``, in order."""
    pattern = re.compile(re.escape(query), 0 if case_sensitive else re.IGNORECASE)
    return [m.span() for m in pattern.finditer(text)]


class SearchParams(EditorParams):
    query: str = Field(min_length=1, description="Text to search for (literal).")
    caseSensitive: bool = Field(False, description="Case-sensitive search (default false).")


class Match(BaseModel):
    model_config = ConfigDict(validate_by_name=True)
    from_: int = Field(alias="from", description="Start (code point offset).")
    to: int = Field(description="End (exclusive).")
    line: int = Field(description="1-based line of the start.")
    column: int = Field(description="1-based column of the start, in code points.")
    text: str = Field(description="The matched text (its case as in the document).")
    context: str = Field(description="The line around the match.")


class SearchResult(BaseModel):
    matches: list[Match]
    count: int = Field(description="How many occurrences there are (matches lists the first 300).")
    truncated: bool
    revision: str


@operation("document.search", title="Search document", read_only=True)
async def search(ctx: OpContext, params: SearchParams) -> SearchResult:
    """Find every occurrence of a text in the document: {from, to, line, column, text, context}
    per match, in document order (case-insensitive unless caseSensitive)."""
    tab = await tab_for(ctx, params)
    text = tab.doc.text
    spans = find(text, params.query, case_sensitive=params.caseSensitive)
    lines = LineIndex(text)
    matches = []
    for start, end in spans[:MAX_MATCHES]:
        line, column = lines.position(start)
        first, last = lines.start_of(line), lines.end_of(lines.line_of(end))
        a, b = max(first, start - CONTEXT), min(max(last, end), end + CONTEXT)
        matches.append(Match(from_=start, to=end, line=line, column=column, text=text[start:end], context=text[a:b]))
    return SearchResult(
        matches=matches, count=len(spans), truncated=len(spans) > MAX_MATCHES, revision=tab.doc.revision
    )


class ReplaceParams(EditorEditParams):
    search: str = Field(min_length=1, description="Text to find (literal, case-sensitive).")
    replace: str = Field(description="Replacement text (markdown source, inserted verbatim).")
    all: bool = Field(False, description="Replace every occurrence (default: only the first).")


class ReplaceResult(BaseModel):
    count: int = Field(description="Occurrences replaced (or staged, or shown by a dry run).")
    message: str
    applied: bool = Field(description="True when the document changed; false when staged or a dry run.")
    suggestionIds: list[str] | None = Field(None, description="The staged suggestions (a person decides).")
    mode: Mode = Field(description="The mode the change really ran in (the server's policy decides).")
    revision: str
    checkpointId: str | None = None
    diff: str | None = None


@operation("document.replace", title="Replace text")
async def replace(ctx: OpContext, params: ReplaceParams) -> ReplaceResult:
    """Replace the first occurrence of a text (or all of them) in the document. Staged as
    suggestions under the server's review policy; count 0 when the text does not occur."""
    tab = await tab_for(ctx, params)
    found: list[tuple[int, int]] = []

    def change(before: str) -> str:
        spans = find(before, params.search, case_sensitive=True)
        found[:] = spans if params.all else spans[:1]
        return apply_edits(before, [TextEdit(a, b, params.replace) for a, b in found])

    if params.search == params.replace:
        raise ArgumentError("search and replace are the same text: nothing would change", "replace")
    r = await mutate_as_asked(ctx, tab.doc, params, change, save=params.save, label="replace", split=True)
    n = len(found)
    what = f"{n} occurrence{'s' if n != 1 else ''} of {params.search!r}"
    return ReplaceResult(
        count=n,
        message=f"{DONE[r.mode]}: replaced {what}" if n else f"No occurrences of {params.search!r}: nothing changed",
        applied=r.applied,
        suggestionIds=r.suggestionIds if r.suggestionIds else None,
        mode=r.mode,
        revision=r.revision,
        checkpointId=r.checkpointId,
        diff=r.diff,
    )
