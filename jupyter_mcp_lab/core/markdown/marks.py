"""Inline marks: toggle / link / clear edits (vmark format_* tools), on the scanner of ``inline``.

A range is first confined to one block (refused if it crosses a block boundary or lies in
code, math, HTML or front matter); in a list, quote, heading or table it must stay on one
line (one cell for a table), and the line's markers are excluded. Leading and trailing
whitespace is trimmed, and a range that cuts another span (a link, a code span, a differently
marked run) is widened to include all of it, so the markdown stays well-formed. Toggling
removes the mark when every character of the range already has it (markers just outside or
just inside the range), splitting a longer run when the range covers only part of it;
otherwise the range is wrapped and runs of the same mark inside it are merged.
"""

from __future__ import annotations

import re

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .inline import Inline, Span, scan_inline, segment
from .inline import nested_code_lines as nested_code_lines

MARKERS = {
    "bold": ("**", "**"),
    "italic": ("*", "*"),
    "strike": ("~~", "~~"),
    "underline": ("<u>", "</u>"),
    "highlight": ("==", "=="),
    "code": ("`", "`"),
}


def _prepare(text: str, start: int, end: int, keep: set[str]) -> tuple[int, int, Inline]:
    """Confine, trim and widen a range (see the module doc)."""
    g0, g1 = segment(text, start, end)
    s, e = min(max(start, g0), g1), max(min(end, g1), g0)
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    inline = scan_inline(text, g0, g1)
    changed = s < e
    while changed:
        changed = False
        for a, b, _ in inline.opaque:
            if a < s < b or a < e < b:
                s, e, changed = min(s, a), max(e, b), True
        for sp in inline.spans:
            cuts = sp.o0 < s < sp.c1 or sp.o0 < e < sp.c1
            inside = sp.o1 <= s and e <= sp.c0 and sp.kind != "code"
            if cuts and not inside and (sp.kind not in keep or sp.o0 < s < sp.o1 or sp.c0 < e < sp.c1):
                s, e, changed = min(s, sp.o0), max(e, sp.c1), True
    return s, e, inline


def _unmark(text: str, s: int, e: int, spans: list[Span], every: list[Span]) -> list[TextEdit]:
    """Remove the spans' marks from [s, e), splitting runs that extend beyond it (``every``: all spans)."""
    markers = {p for sp in every for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1)) for p in range(a, b)}

    def visible(a: int, b: int) -> bool:
        return any(not text[p].isspace() and p not in markers for p in range(a, b))

    closes: list[TextEdit] = []
    opens: list[TextEdit] = []
    for sp in spans:
        if s == e:
            if sp.o1 <= s <= sp.c0:
                closes += [TextEdit(sp.o0, sp.o1, ""), TextEdit(sp.c0, sp.c1, "")]
            continue
        if not ((sp.o1 < e and sp.c0 > s) or (s <= sp.o0 and sp.c1 <= e)):
            continue
        if sp.o0 < s and visible(sp.o1, s):
            at = s
            while text[at - 1].isspace():
                at -= 1
            closes.append(TextEdit(at, at, text[sp.c0 : sp.c1]))
        else:
            closes.append(TextEdit(sp.o0, sp.o1, ""))
        if sp.c1 > e and visible(e, sp.c0):
            at = e
            while text[at].isspace():
                at += 1
            opens.insert(0, TextEdit(at, at, text[sp.o0 : sp.o1]))
        else:
            closes.append(TextEdit(sp.c0, sp.c1, ""))
    return closes + opens


def _covered(text: str, s: int, e: int, spans: list[Span]) -> bool:
    if not spans:
        return False
    if s == e:
        return any(sp.o1 <= s <= sp.c0 for sp in spans)
    return all(text[p].isspace() or any(sp.o0 <= p < sp.c1 for sp in spans) for p in range(s, e))


def toggle_mark(text: str, start: int, end: int, mark: str) -> list[TextEdit]:
    """Toggle bold / italic / code / strike / underline / highlight on a range (see the module doc)."""
    if mark not in MARKERS:
        raise ArgumentError(f"mark must be one of {', '.join(MARKERS)} (got {mark!r})", "mark")
    s, e, inline = _prepare(text, start, end, {mark})
    same = [sp for sp in inline.spans if sp.kind == mark]
    if _covered(text, s, e, same):
        return _unmark(text, s, e, same, inline.spans)
    if s == e:
        raise ArgumentError("the range holds no text to mark", "range")
    for sp in same:
        if sp.o0 < e and sp.c1 > s:
            s, e = min(s, sp.o0), max(e, sp.c1)
    edits = [
        TextEdit(a, b, "") for sp in same if s <= sp.o0 and sp.c1 <= e for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))
    ]
    opener, closer = MARKERS[mark]
    if mark == "code":
        body = text[s:e]
        opener = closer = "`" * (max((len(r) for r in re.findall(r"`+", body)), default=0) + 1)
        if body.startswith("`") or body.endswith("`"):
            opener, closer = opener + " ", " " + closer
    return [TextEdit(s, s, opener), *edits, TextEdit(e, e, closer)]


def _destination(url: str, title: str | None) -> str:
    if not isinstance(url, str) or not url.strip() or re.search(r"[\r\n]", url):
        raise ArgumentError("url must be a non-empty single-line string", "url")
    url = url.strip()
    if re.search(r"[\s<>]", url) or url.count("(") != url.count(")"):
        if re.search(r"[<>]", url):
            raise ArgumentError("url must not contain spaces together with < or >", "url")
        url = f"<{url}>"
    if title is None:
        return f"]({url})"
    if not isinstance(title, str) or re.search(r"[\r\n]", title):
        raise ArgumentError("title must be a single-line string", "title")
    escaped = title.replace("\\", "\\\\").replace('"', '\\"')
    return f']({url} "{escaped}")'


def set_link(text: str, start: int, end: int, url: str, title: str | None = None) -> list[TextEdit]:
    """Make the range a link; a range that is (the text of) a link gets the new destination."""
    close = _destination(url, title)
    s, e, inline = _prepare(text, start, end, {"link"})
    links = [sp for sp in inline.spans if sp.kind == "link"]
    for sp in links:
        if (sp.o1, sp.c0) == (s, e) or (sp.o0, sp.c1) == (s, e) or (s == e and sp.o0 <= s <= sp.c1):
            return [TextEdit(sp.c0, sp.c1, close)]
    if s == e:
        raise ArgumentError("the range holds no text to link", "range")
    for sp in links:
        if sp.o0 < e and sp.c1 > s:
            s, e = min(s, sp.o0), max(e, sp.c1)
    inner = [
        TextEdit(a, b, "") for sp in links if s <= sp.o0 and sp.c1 <= e for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))
    ]
    return [TextEdit(s, s, "["), *inner, TextEdit(e, e, close)]


def remove_link(text: str, offset_or_range: int | tuple[int, int] | list[int]) -> list[TextEdit]:
    """Unwrap the links (and autolinks) at an offset or overlapping a range, keeping their text."""
    if isinstance(offset_or_range, int) and not isinstance(offset_or_range, bool):
        start = end = offset_or_range
    elif isinstance(offset_or_range, (tuple, list)) and len(offset_or_range) == 2:
        start, end = offset_or_range
    else:
        raise ArgumentError("offset_or_range must be an offset or a [start, end] pair", "offset_or_range")
    g0, g1 = segment(text, start, end)
    inline = scan_inline(text, g0, g1)
    edits = [
        TextEdit(p, p + 1, "")
        for a, b, k in inline.opaque
        if k == "autolink" and a <= end and b >= start
        for p in (a, b - 1)
    ]
    links = [sp for sp in inline.spans if sp.kind == "link" and sp.o0 <= end and sp.c1 >= start]
    if start == end:
        edits += [TextEdit(a, b, "") for sp in links for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))]
    else:
        edits += _unmark(text, max(start, g0), min(end, g1), links, inline.spans)
    if not edits:
        raise DomainError(
            "NOT_FOUND", f"no link at {start}" + (f"..{end}" if end != start else ""), argument="offset_or_range"
        )
    return edits


def clear_marks(text: str, start: int, end: int) -> list[TextEdit]:
    """Remove every mark and link from the range (splitting runs that extend beyond it); keep the text."""
    s, e, inline = _prepare(text, start, end, set(MARKERS) - {"code"} | {"link"})
    if s == e:
        return []
    return _unmark(text, s, e, inline.spans, inline.spans)
