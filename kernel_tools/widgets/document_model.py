"""The document view's model, as pure functions: a document's text and its located pending
suggestions → HTML with every suggestion marked where it applies.

Blocks no suggestion touches are rendered as markdown, exactly as in context. A run of
blocks some suggestions touch is rendered from its source with both texts in it, the
original wrapped in private-use sentinels as a deletion and the new text beside it as an
insertion; the sentinels survive markdown rendering as text, and become ``<del>`` and
``<ins>`` around each text node afterwards, so the HTML stays well formed whatever the
marks span. Where rendering would lose a sentinel (inside a link target, a fence's info
string), that run is shown as marked source instead: every mark is always visible.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt

from .review_model import CONFLICT_REASON, card, line_range

OPEN_DEL, OPEN_INS, CLOSE = "\ue000", "\ue001", "\ue002"
_SENTINEL = re.compile(f"[{OPEN_DEL}{OPEN_INS}{CLOSE}]")
# Sentinels at a line's start would hide block syntax (a heading's #, a list's -, a fence):
# they move past it.
_LEADING = re.compile(
    rf"^([{OPEN_DEL}{OPEN_INS}{CLOSE}]+)"
    r"((?:[ \t]{0,3}(?:#{1,6}(?=[ \t]|$)|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])|>|`{3,}|~{3,}|\|)[ \t]*)+)",
    re.MULTILINE,
)
_CLOSE_BACK = re.compile(rf"(\s*[\r\n]\s*)({CLOSE}+)")
_OPEN_FORWARD = re.compile(rf"([{OPEN_DEL}{OPEN_INS}]+)(\s*[\r\n]\s*)")
_EMPTY_P = re.compile(r"<p>\s*</p>\n?")
_BREAK = re.compile(r"\r\n|\r|\n")

_md = MarkdownIt("commonmark", {"html": False}).enable("table")

OVERLAP_REASON = "It overlaps another pending suggestion shown here; accept or reject that one first."


def place(suggestions: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(placed, unplaced): the located suggestions that do not overlap, in document order;
    the others (no ``currentStart``: accepting them would conflict; or overlapping)."""
    located = [s for s in suggestions if s.get("currentStart") is not None and s.get("currentEnd") is not None]
    ids = {s["id"] for s in located}
    unplaced = [{**s, "why": CONFLICT_REASON} for s in suggestions if s["id"] not in ids]
    placed: list[dict[str, Any]] = []
    end = -1
    for s in sorted(located, key=lambda s: (s["currentStart"], s["currentEnd"], s.get("created") or 0)):
        if s["currentStart"] < end:
            unplaced.append({**s, "why": OVERLAP_REASON})
            continue
        placed.append(s)
        end = max(end, s["currentEnd"])
    return placed, unplaced


def line_starts(text: str) -> list[int]:
    """The offset of each line's start (as markdown-it counts lines: CRLF, CR and LF break)."""
    return [0, *(m.end() for m in _BREAK.finditer(text))]


def _line_of(starts: list[int], offset: int) -> int:
    """The 0-based line holding ``offset`` (the first line for an offset before the text)."""
    return max(0, bisect_right(starts, offset) - 1)


def marked_source(text: str, placed: list[dict[str, Any]], base: int = 0) -> tuple[str, list[tuple[str, str]]]:
    """``text`` (which starts at offset ``base`` of the document) with each placed suggestion's
    original wrapped as a deletion and its new text inserted after it; the marks in order
    as ``(del|ins, id)``."""
    out: list[str] = []
    marks: list[tuple[str, str]] = []
    at = 0
    for s in placed:
        start, end = s["currentStart"] - base, s["currentEnd"] - base
        out.append(text[at:start])
        if end > start:
            out.append(OPEN_DEL + text[start:end] + CLOSE)
            marks.append(("del", s["id"]))
        if s.get("new"):
            out.append(OPEN_INS + s["new"] + CLOSE)
            marks.append(("ins", s["id"]))
        at = end
    out.append(text[at:])
    source = "".join(out)
    # Line breaks at a mark's ends stay outside it, so a sentinel never sits alone on a line
    # (an empty paragraph) or before a fence that ends an insertion.
    source = _CLOSE_BACK.sub(r"\2\1", source)
    source = _OPEN_FORWARD.sub(r"\2\1", source)
    for _ in range(3):  # "> - # x" needs a few passes
        source = _LEADING.sub(lambda m: m.group(2) + m.group(1), source)
    return source, marks


class _Marker(HTMLParser):
    """Re-emits rendered HTML with the sentinels turned into ``<del>``/``<ins>`` per text node."""

    def __init__(self, marks: list[tuple[str, str]]) -> None:
        super().__init__(convert_charrefs=True)
        self.marks = marks
        self.out: list[str] = []
        self.open: tuple[str, str] | None = None
        self.seen, self.lost, self.pre = 0, False, 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._tag(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        self._tag(self.get_starttag_text() or "")

    def _tag(self, text: str) -> None:
        self.pre += text.startswith("<pre")
        if _SENTINEL.search(text):
            self.lost = True  # a sentinel in an attribute: this rendering can't show it
        self.out.append(text)

    def handle_endtag(self, tag: str) -> None:
        self.pre -= tag == "pre"
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        for piece in re.split(f"([{OPEN_DEL}{OPEN_INS}{CLOSE}])", data):
            if piece in (OPEN_DEL, OPEN_INS):
                if self.seen >= len(self.marks) or self.open is not None:
                    self.lost = True
                    continue
                self.open = self.marks[self.seen]
                self.seen += 1
            elif piece == CLOSE:
                self.open = None
            elif piece:
                # Line breaks between blocks are layout, not text: no mark (in <pre>, they are text).
                between = not self.pre and piece.isspace() and "\n" in piece
                self.out.append(_wrap(None if between else self.open, html.escape(piece, quote=False)))


def _wrap(mark: tuple[str, str] | None, escaped: str) -> str:
    if mark is None:
        return escaped
    kind, sid = mark
    return f'<{kind} class="mcpw-{kind}" data-id="{html.escape(sid)}">{escaped}</{kind}>'


def source_html(source: str, marks: list[tuple[str, str]]) -> str:
    """Marked source as preformatted text (what always shows every mark)."""
    parser = _Marker(marks)
    parser.handle_data(source)
    return f'<pre class="mcpw-source">{"".join(parser.out)}</pre>'


def _render_marked(source: str, marks: list[tuple[str, str]], env: dict[str, Any]) -> str:
    parser = _Marker(marks)
    parser.feed(_md.render(source, dict(env)))
    parser.close()
    if parser.lost or parser.seen != len(marks) or parser.open is not None:
        return source_html(source, marks)
    # A line holding nothing but sentinels renders as an empty paragraph: not a paragraph.
    return f'<div class="mcpw-changed">{_EMPTY_P.sub("", "".join(parser.out))}</div>'


def _blocks(tokens: list[Any]) -> list[tuple[int, int, int, int]]:
    """Top-level blocks as (first line, end line, first token, end token)."""
    starts = [i for i, t in enumerate(tokens) if t.level == 0 and t.map is not None]
    out = []
    for k, i in enumerate(starts):
        j = starts[k + 1] if k + 1 < len(starts) else len(tokens)
        out.append((tokens[i].map[0], tokens[i].map[1], i, j))
    return out


def _chunks(
    placed: list[dict[str, Any]], blocks: list[tuple[int, int, int, int]], starts: list[int]
) -> list[list[int]]:
    """Line ranges [first, end) to render from marked source: the blocks each suggestion
    touches (or its own lines, between blocks), merged where they overlap."""
    ranges: list[list[int]] = []
    for s in placed:
        a = _line_of(starts, s["currentStart"])
        b = _line_of(starts, max(s["currentEnd"] - 1, s["currentStart"]))
        touched = [(b0, b1) for b0, b1, _, _ in blocks if b0 <= b and b1 > a]
        lo = min([a, *(t[0] for t in touched)])
        hi = max([b + 1, *(t[1] for t in touched)])
        ranges.append([lo, hi])
    ranges.sort()
    merged: list[list[int]] = []
    for r in ranges:
        if merged and r[0] < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], r[1])
        else:
            merged.append(r)
    return merged


def render(text: str, placed: list[dict[str, Any]], kind: str = "markdown") -> str:
    """The document as HTML with the placed suggestions marked (see the module docstring)."""
    if kind != "markdown":
        source, marks = marked_source(text, placed)
        return source_html(source, marks)
    env: dict[str, Any] = {}
    tokens = _md.parse(text, env)
    blocks = _blocks(tokens)
    starts = line_starts(text)

    def offset(line: int) -> int:
        return starts[line] if line < len(starts) else len(text)

    out: list[str] = []
    chunks = _chunks(placed, blocks, starts)
    k = 0  # the next chunk
    drawn: set[str] = set()
    for b0, b1, i, j in blocks:
        while k < len(chunks) and chunks[k][1] <= b0:
            out.append(_chunk_html(text, placed, chunks[k], offset, env, drawn))
            k += 1
        if k < len(chunks) and chunks[k][0] < b1:
            continue  # inside the chunk, drawn when it ends
        out.append(_md.renderer.render(tokens[i:j], _md.options, env))
    out.extend(_chunk_html(text, placed, c, offset, env, drawn) for c in chunks[k:])
    return "".join(out)


def _chunk_html(
    text: str, placed: list[dict[str, Any]], chunk: list[int], offset: Any, env: dict[str, Any], drawn: set[str]
) -> str:
    lo, hi = offset(chunk[0]), offset(chunk[1])
    # An insertion where one chunk ends and the next begins belongs to both ranges: the
    # first one draws it, once.
    inside = [s for s in placed if lo <= s["currentStart"] and s["currentEnd"] <= hi and s["id"] not in drawn]
    drawn.update(s["id"] for s in inside)
    if not inside and lo == hi:
        return ""
    source, marks = marked_source(text[lo:hi], inside, base=lo)
    return _render_marked(source, marks, env)


def mark_info(s: dict[str, Any]) -> dict[str, Any]:
    """What the front end shows for a mark (hover, the selection bar)."""
    return {
        "id": s["id"],
        "author": s.get("author") or "an agent",
        "rationale": s.get("rationale") or "",
        "lines": line_range(s),
        "created": float(s.get("created") or 0),
    }


def view(text: str, kind: str, suggestions: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the document view draws: ``html``, ``marks``, ``unplaced`` cards."""
    placed, unplaced = place(suggestions)
    return {
        "html": render(text, placed, kind),
        "marks": [mark_info(s) for s in placed],
        "unplaced": [{**card(s), "why": s["why"]} for s in unplaced],
    }
